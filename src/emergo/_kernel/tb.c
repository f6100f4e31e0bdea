/* Endgame tables: symmetries, the index, probing and the file (tb.h; the build is tbgen.c). */
#include "tb.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- symmetries ------------------------------------------------------------------------------ */

static int on_board(const geo_t *g, long sq) { return sq >= 0 && sq < K_MAXSQ && ((g->mask >> sq) & 1); }

/* Extend the direction map sigma (opposite pairs to opposite pairs) and try every image of the
 * first square: a permutation that sends each step along direction d to a step along sigma(d)
 * preserves steps and jumps (R2, R9, R17), so the rules. */
static void try_maps(tbgeo_t *tg, int *sigma, int pair, int used)
{
    const geo_t *g = tg->g;
    int nd = g->ndirs;
    if (pair < nd / 2) {
        for (int q = 0; q < nd / 2; q++) {
            if (used & (1 << q))
                continue;
            for (int flip = 0; flip < 2; flip++) {
                sigma[2 * pair] = 2 * q + flip;
                sigma[2 * pair + 1] = 2 * q + !flip;
                try_maps(tg, sigma, pair + 1, used | 1 << q);
            }
        }
        return;
    }
    int s0 = g->squares[0];
    for (int ti = 0; ti < g->nsq && tg->nsym < TB_MAXSYM; ti++) {
        int img[K_MAXSQ], queue[K_MAXSQ], head = 0, tail = 0, ok = 1;
        for (int i = 0; i < K_MAXSQ; i++)
            img[i] = -1;
        img[s0] = g->squares[ti];
        queue[tail++] = s0;
        while (ok && head < tail) {
            int s = queue[head++];
            for (int d = 0; d < nd && ok; d++) {
                long ns = s + g->dir[d], nt = img[s] + g->dir[sigma[d]];
                int a = on_board(g, ns), b = on_board(g, nt);
                if (a != b)
                    ok = 0;
                else if (a && img[ns] < 0) {
                    img[ns] = (int)nt;
                    queue[tail++] = (int)ns;
                } else if (a && img[ns] != nt) {
                    ok = 0;
                }
            }
        }
        if (!ok || tail != g->nsq)
            continue;
        uint8_t perm[K_MAXSQ], seen[K_MAXSQ] = {0};
        for (int r = 0; r < g->nsq && ok; r++) {
            int t = tg->rank[img[tg->sq[r]]];
            perm[r] = (uint8_t)t;
            ok = !seen[t]++;
        }
        for (int k = 0; ok && k < tg->nsym; k++)
            ok = memcmp(tg->sym[k], perm, (size_t)g->nsq) != 0;
        if (ok)
            memcpy(tg->sym[tg->nsym++], perm, (size_t)g->nsq);
    }
}

int tbgeo_init(tbgeo_t *tg, const geo_t *g, char *err, size_t errlen)
{
    memset(tg, 0, sizeof *tg);
    tg->g = g;
    tg->n = g->nsq;
    memset(tg->rank, 0xff, sizeof tg->rank);
    for (int r = 0; r < g->nsq; r++) {
        tg->sq[r] = g->squares[r];
        tg->rank[g->squares[r]] = (uint8_t)r;
    }
    int sigma[K_MAXDIR];
    try_maps(tg, sigma, 0, 0);
    int id = -1;
    for (int k = 0; k < tg->nsym && id < 0; k++) {
        int same = 1;
        for (int r = 0; r < g->nsq && same; r++)
            same = tg->sym[k][r] == r;
        if (same)
            id = k;
    }
    if (id < 0 || tg->nsym >= TB_MAXSYM + 1) {
        snprintf(err, errlen, "%s: the symmetries of the board could not be found", g->name);
        return -1;
    }
    if (id) { /* the identity first */
        uint8_t tmp[K_MAXSQ];
        memcpy(tmp, tg->sym[0], sizeof tmp);
        memcpy(tg->sym[0], tg->sym[id], sizeof tmp);
        memcpy(tg->sym[id], tmp, sizeof tmp);
    }
    return 0;
}

/* --- the index ------------------------------------------------------------------------------- */

/* (x, y), x, y >= 0, x + y <= k, numbered in the order of x then y. */
static inline uint32_t tri(int x, int y, int k) { return (uint32_t)(x * (k + 1) - x * (x - 1) / 2 + y); }

static inline void untri(uint32_t i, int k, int *x, int *y)
{
    int a = 0;
    while (a < k && tri(a + 1, 0, k) <= i)
        a++;
    *x = a;
    *y = (int)(i - tri(a, 0, k));
}

static int lex_less(const uint8_t *a, const uint8_t *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i];
    return 0;
}

/* The image of a tuple under symmetry s (3 columns: the pair sorted). */
static void image(const tbgeo_t *tg, int columns, const uint8_t *t, int s, uint8_t *out)
{
    for (int i = 0; i < columns; i++)
        out[i] = tg->sym[s][t[i]];
    if (columns == 3 && out[1] > out[2]) {
        uint8_t x = out[1];
        out[1] = out[2];
        out[2] = x;
    }
}

static size_t slot(int n, int columns, const uint8_t *t)
{
    return columns == 2 ? (size_t)t[0] * n + t[1] : ((size_t)t[0] * n + t[1]) * n + t[2];
}

int tbdef_init(tbdef_t *d, const geo_t *g, int columns, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (columns != 2 && columns != 3) {
        snprintf(err, errlen, "tables have 2 or 3 columns, not %d", columns);
        return -1;
    }
    if (tbgeo_init(&d->tg, g, err, errlen) < 0)
        return -1;
    const tbgeo_t *tg = &d->tg;
    int n = tg->n, M = g->men;
    d->columns = columns;
    d->men = M;
    size_t slots = columns == 2 ? (size_t)n * n : (size_t)n * n * n;
    d->cls = malloc(slots * sizeof *d->cls);
    d->reps = malloc(slots * sizeof *d->reps);
    d->mask = columns == 3 ? calloc(slots, sizeof *d->mask) : NULL;
    if (!d->cls || !d->reps || (columns == 3 && !d->mask)) {
        tbdef_free(d);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < slots; i++)
        d->cls[i] = UINT32_MAX;
    /* Classes in the order of their tuples: a tuple is a class's own when no image is smaller. */
    uint8_t t[3], im[3];
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            for (int c = columns == 3 ? b + 1 : 0; c < (columns == 3 ? n : 1); c++) {
                if (a == b || (columns == 3 && (a == c)))
                    continue;
                t[0] = (uint8_t)a;
                t[1] = (uint8_t)b;
                t[2] = (uint8_t)c;
                int own = 1;
                for (int s = 1; s < tg->nsym && own; s++) {
                    image(tg, columns, t, s, im);
                    own = !lex_less(im, t, columns);
                }
                if (own) {
                    memcpy(d->reps[d->nclass], t, 3);
                    d->cls[slot(n, columns, t)] = d->nclass++;
                }
            }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            for (int c = columns == 3 ? b + 1 : 0; c < (columns == 3 ? n : 1); c++) {
                if (a == b || (columns == 3 && (a == c)))
                    continue;
                t[0] = (uint8_t)a;
                t[1] = (uint8_t)b;
                t[2] = (uint8_t)c;
                uint8_t best[3] = {0xff, 0xff, 0xff};
                uint16_t mask = 0;
                for (int s = 0; s < tg->nsym; s++) {
                    image(tg, columns, t, s, im);
                    if (lex_less(im, best, columns)) {
                        memcpy(best, im, 3);
                        mask = 0;
                    }
                    if (!memcmp(im, best, (size_t)columns))
                        mask |= (uint16_t)(1u << s);
                }
                size_t k = slot(n, columns, t);
                d->cls[k] = d->cls[slot(n, columns, best)];
                if (d->mask)
                    d->mask[k] = mask;
            }
    if (columns == 2) {
        d->per_class = (uint64_t)M * M;
    } else {
        d->na = (uint32_t)(M * (M - 1) / 2);     /* a1, a2 >= 1, a1 + a2 <= M */
        d->np = (uint32_t)(M * (M + 1) / 2);     /* p1 + p2 <= M - 1 */
        d->per_class = 2ULL * d->na * d->np;
    }
    d->size = d->nclass * d->per_class;
    return 0;
}

void tbdef_free(tbdef_t *d)
{
    free(d->cls);
    free(d->reps);
    free(d->mask);
    d->cls = NULL;
    d->reps = NULL;
    d->mask = NULL;
}

int64_t tb_index(const tbdef_t *d, const pos_t *p)
{
    if (p->hand[0] || p->hand[1] || p->g != d->tg.g)
        return -1;
    const tbgeo_t *tg = &d->tg;
    int M = d->men, n = tg->n;
    int nw = bb_count(p->owned[WHITE]), nb = bb_count(p->owned[BLACK]);
    if (d->columns == 2) {
        if (nw != 1 || nb != 1)
            return -1;
        int me = p->turn;
        int m = bb_lsb(p->owned[me]), o = bb_lsb(p->owned[!me]);
        int cm = p->caps[m], co = p->caps[o];
        if (p->pris[m] != M - co || p->pris[o] != M - cm) /* every man on the board (R5) */
            return -1;
        uint8_t t[2] = {tg->rank[m], tg->rank[o]};
        uint32_t k = d->cls[slot(n, 2, t)];
        return (int64_t)((k * (uint64_t)M + (uint64_t)(cm - 1)) * (uint64_t)M + (uint64_t)(co - 1));
    }
    int pair;
    if (nw == 2 && nb == 1)
        pair = WHITE;
    else if (nw == 1 && nb == 2)
        pair = BLACK;
    else
        return -1;
    int L = bb_lsb(p->owned[!pair]);
    bb_t two = p->owned[pair];
    int P1 = bb_lsb(two);
    two &= two - 1;
    int P2 = bb_lsb(two);
    if (p->caps[P1] + p->caps[P2] + p->pris[L] != M || p->pris[P1] + p->pris[P2] + p->caps[L] != M)
        return -1;
    uint8_t t[3] = {tg->rank[L], tg->rank[P1], tg->rank[P2]};
    if (t[1] > t[2]) {
        uint8_t x = t[1];
        t[1] = t[2];
        t[2] = x;
        int y = P1;
        P1 = P2;
        P2 = y;
    }
    size_t k = slot(n, 3, t);
    uint32_t c = d->cls[k];
    unsigned mask = d->mask[k];
    uint8_t low = d->reps[c][1];
    uint32_t best = UINT32_MAX;
    for (int s = 0; mask; s++, mask >>= 1) {
        if (!(mask & 1))
            continue;
        int x = P1, y = P2; /* x lands on the class's lower pair square */
        if (tg->sym[s][t[1]] != low) {
            x = P2;
            y = P1;
        }
        uint32_t v = tri(p->caps[x] - 1, p->caps[y] - 1, M - 2) * d->np +
                     tri(p->pris[x], p->pris[y], M - 1);
        if (v < best)
            best = v;
    }
    uint64_t side = p->turn == pair;
    return (int64_t)((c * 2ULL + side) * d->na * d->np + best);
}

void tb_decode(const tbdef_t *d, uint64_t i, pos_t *p)
{
    const tbgeo_t *tg = &d->tg;
    int M = d->men;
    uint8_t st[3][4];
    char err[8];
    uint32_t c = (uint32_t)(i / d->per_class);
    uint64_t r = i % d->per_class;
    const uint8_t *t = d->reps[c];
    if (d->columns == 2) {
        int cm = (int)(r / (uint64_t)M) + 1, co = (int)(r % (uint64_t)M) + 1;
        uint8_t a[2][4] = {{tg->sq[t[0]], 1, (uint8_t)cm, (uint8_t)(M - co)},
                           {tg->sq[t[1]], 0, (uint8_t)co, (uint8_t)(M - cm)}};
        pos_setup(p, tg->g, WHITE, 0, 0, 2, (const uint8_t(*)[4])a, err, sizeof err);
        return;
    }
    int side = (int)(r / ((uint64_t)d->na * d->np));
    uint32_t rest = (uint32_t)(r % ((uint64_t)d->na * d->np));
    int x, y, p1, p2;
    untri(rest / d->np, M - 2, &x, &y);
    untri(rest % d->np, M - 1, &p1, &p2);
    int a1 = x + 1, a2 = y + 1;
    uint8_t s0[4] = {tg->sq[t[1]], 1, (uint8_t)a1, (uint8_t)p1};
    uint8_t s1[4] = {tg->sq[t[2]], 1, (uint8_t)a2, (uint8_t)p2};
    uint8_t s2[4] = {tg->sq[t[0]], 0, (uint8_t)(M - p1 - p2), (uint8_t)(M - a1 - a2)};
    memcpy(st[0], s0, 4);
    memcpy(st[1], s1, 4);
    memcpy(st[2], s2, 4);
    pos_setup(p, tg->g, side ? WHITE : BLACK, 0, 0, 3, (const uint8_t(*)[4])st, err, sizeof err);
}

void tb_transform(const tbgeo_t *tg, const pos_t *src, int s, int swap, pos_t *dst)
{
    uint8_t st[K_MAXSQ][4];
    int k = 0;
    bb_t occ = src->owned[0] | src->owned[1];
    while (occ) {
        int sq = bb_lsb(occ);
        occ &= occ - 1;
        st[k][0] = tg->sq[tg->sym[s][tg->rank[sq]]];
        st[k][1] = (uint8_t)(pos_owner(src, sq) ^ swap);
        st[k][2] = src->caps[sq];
        st[k][3] = src->pris[sq];
        k++;
    }
    int turn = src->turn ^ swap;
    int hw = src->hand[swap ? BLACK : WHITE], hb = src->hand[swap ? WHITE : BLACK];
    char err[8];
    pos_setup(dst, tg->g, turn == WHITE, hw, hb, k, (const uint8_t(*)[4])st, err, sizeof err);
}

int tb_probe(const tb_t *t2, const tb_t *t3, const pos_t *p)
{
    if (p->hand[0] || p->hand[1])
        return -1;
    int stacks = bb_count(p->owned[0] | p->owned[1]);
    const tb_t *t = stacks == 2 ? t2 : stacks == 3 ? t3 : NULL;
    if (!t)
        return -1;
    int64_t i = tb_index(&t->def, p);
    return i < 0 ? -1 : tb_entry(t, (uint64_t)i);
}

/* --- the file -------------------------------------------------------------------------------- */

uint32_t tb_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
    static uint32_t table[256];
    static int ready;
    if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
        __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    }
    crc = ~crc;
    while (n--)
        crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

uint64_t tb_fingerprint(const geo_t *g)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a over the board's data */
#define MIX(x)                                                                                      \
    do {                                                                                           \
        h ^= (uint64_t)(uint32_t)(x);                                                              \
        h *= 0x100000001b3ULL;                                                                     \
    } while (0)
    MIX(g->men);
    MIX(g->nsq);
    MIX(g->ndirs);
    for (int d = 0; d < g->ndirs; d++)
        MIX(g->dir[d]);
    for (int i = 0; i < g->nsq; i++)
        MIX(g->squares[i]);
#undef MIX
    return h;
}

/* Header layout (little-endian):
 *   0  magic "EMERGOTB"        8  u32 version          12 char[8] variant
 *  20  u32 columns            24  u32 men              28 u32 squares
 *  32  u32 symmetries         36  u32 bytes per entry  40 u64 entries
 *  48  u32 classes            52  u32 CRC-32 of the entries
 *  56  u64 geometry fingerprint
 *  64  u64 positions  72 u64 wins  80 u64 draws  88 u64 losses
 *  96  u32 longest distance  100 u32 longest win  104 u64 the first entry of the longest win
 * 112  16 bytes of zeros */
static void put32(uint8_t *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> 8 * i);
}

static void put64(uint8_t *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> 8 * i);
}

static uint32_t get32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t get64(const uint8_t *b) { return get32(b) | (uint64_t)get32(b + 4) << 32; }

int tb_write(const tb_t *t, const char *path, char *err, size_t errlen)
{
    const tbdef_t *d = &t->def;
    uint8_t h[TB_HEADER] = {0};
    memcpy(h, TB_MAGIC, 8);
    put32(h + 8, TB_VERSION);
    size_t nl = strlen(d->tg.g->name);
    memcpy(h + 12, d->tg.g->name, nl < 7 ? nl : 7);
    put32(h + 20, (uint32_t)d->columns);
    put32(h + 24, (uint32_t)d->men);
    put32(h + 28, (uint32_t)d->tg.n);
    put32(h + 32, (uint32_t)d->tg.nsym);
    put32(h + 36, (uint32_t)t->width);
    put64(h + 40, d->size);
    put32(h + 48, d->nclass);
    put32(h + 52, t->checksum);
    put64(h + 56, tb_fingerprint(d->tg.g));
    put64(h + 64, t->stats.positions);
    put64(h + 72, t->stats.wins);
    put64(h + 80, t->stats.draws);
    put64(h + 88, t->stats.losses);
    put32(h + 96, (uint32_t)t->stats.max_dtm);
    put32(h + 100, (uint32_t)t->stats.max_win);
    put64(h + 104, t->stats.longest);
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    int ok = fwrite(h, 1, sizeof h, f) == sizeof h;
    uint8_t buf[65536];
    size_t k = 0;
    for (uint64_t i = 0; ok && i < d->size; i++) {
        int v = tb_entry(t, i);
        buf[k++] = (uint8_t)v;
        if (t->width == 2)
            buf[k++] = (uint8_t)(v >> 8);
        if (k + 2 > sizeof buf || i + 1 == d->size) {
            ok = fwrite(buf, 1, k, f) == k;
            k = 0;
        }
    }
    if (fclose(f) != 0)
        ok = 0;
    if (!ok) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
        return -1;
    }
    return 0;
}

int tb_open(tb_t *t, const char *path, int verify, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || (size_t)st.st_size < TB_HEADER) {
        close(fd);
        snprintf(err, errlen, "%s: not a table (too short)", path);
        return -1;
    }
    size_t len = (size_t)st.st_size;
    void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    const uint8_t *h = map;
    char variant[8] = {0};
    memcpy(variant, h + 12, 7);
    const geo_t *g = NULL;
    const char *why = NULL;
    if (memcmp(h, TB_MAGIC, 8))
        why = "not an emergo table (bad magic)";
    else if (get32(h + 8) != TB_VERSION)
        why = "a table of another format version (rebuild it: emergo tablebase build)";
    else if (!(g = geo_find(variant)))
        why = "a table of an unknown variant";
    else if (get64(h + 56) != tb_fingerprint(g) || (int)get32(h + 24) != g->men)
        why = "a table of another board geometry";
    if (!why && tbdef_init(&t->def, g, (int)get32(h + 20), err, errlen) < 0) {
        munmap(map, len);
        return -1;
    }
    int width = why ? 0 : (int)get32(h + 36);
    if (!why && (get64(h + 40) != t->def.size || get32(h + 48) != t->def.nclass ||
                 (int)get32(h + 32) != t->def.tg.nsym || (width != 1 && width != 2)))
        why = "its header does not match the table's index";
    else if (!why && len != TB_HEADER + t->def.size * (uint64_t)width)
        why = "its size does not match its header (a truncated file?)";
    t->map = map;
    t->maplen = len;
    t->width = width;
    t->data = h + TB_HEADER;
    t->checksum = get32(h + 52);
    if (!why && verify && tb_crc32(0, t->data, len - TB_HEADER) != t->checksum)
        why = "its checksum does not match: the file is damaged";
    if (why) {
        snprintf(err, errlen, "%s: %s", path, why);
        tb_free(t);
        return -1;
    }
    t->stats.positions = get64(h + 64);
    t->stats.wins = get64(h + 72);
    t->stats.draws = get64(h + 80);
    t->stats.losses = get64(h + 88);
    t->stats.max_dtm = (int)get32(h + 96);
    t->stats.max_win = (int)get32(h + 100);
    t->stats.longest = get64(h + 104);
    return 0;
}

void tb_free(tb_t *t)
{
    if (t->map)
        munmap(t->map, t->maplen);
    free(t->own);
    tbdef_free(&t->def);
    memset(t, 0, sizeof *t);
}
