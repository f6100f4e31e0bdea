/* Endgame tables: the build by retrograde analysis, and the checks (tb.h).
 *
 * The build, on the kernel's own rules (gen_moves, pos_make):
 *
 *  1. every entry's moves are generated once; a move's result is a position
 *     of the table (an edge), a lost position (R18: the mover wins in 1), or
 *     a position of the smaller table (3 columns: a column taken leaves two).
 *     Entries with no move are blocked: draws (R19a).  Each entry counts its
 *     edges, and the predecessors of each entry are gathered (the moves are
 *     generated a second time to fill them: no move is ever un-made, so the
 *     predecessors are exactly the edges, captures and symmetric twins
 *     included, each as often as a move makes it);
 *  2. distances are resolved in rising order, one level at a time: an entry
 *     whose opponent loses in d after some move wins in d + 1 (the first such
 *     d is the least: the winner hurries); an entry all of whose moves lead to
 *     wins of the opponent loses in 1 + the longest of them (the loser delays;
 *     the counter of its unresolved edges reaches 0 at the level of the last
 *     one);
 *  3. what no level resolves is a draw.  That is exact under R19b: a win
 *     found here is won without any position repeating (each move of the
 *     winner's line lowers the distance), so no repetition can stop it; and
 *     from an unresolved entry the player to move has a move to an unresolved
 *     entry or none at all, and never one to a loss of the opponent, so either
 *     side keeps the game among unresolved entries, which never ends in a win
 *     for the other: it is blocked (R19a) or, having finitely many positions,
 *     repeats one a third time (R19b).  (The history before the position
 *     counts as nothing: a position of a game that occurred twice already may
 *     end it at once, see docs/tablebase.md.)
 */
#include "tb.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

typedef struct bucket {
    uint32_t *v;
    size_t n, cap;
} bucket_t;

static int bucket_push(bucket_t *b, uint32_t i)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        uint32_t *v = realloc(b->v, cap * sizeof *v);
        if (!v)
            return -1;
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n++] = i;
    return 0;
}

enum { CH_EDGE = 0, CH_VALUE = 1, CH_OUTSIDE = -1 };

/* What a move leads to: an entry of the table (CH_EDGE, *idx), or a known value for the player
 * to move there (CH_VALUE, *value: -1 a draw, else the distance, 0 when he has lost, R18). */
static int classify(const tbdef_t *d, const tb_t *self, const tb_t *sub, const pos_t *c,
                    int64_t *idx, int *value)
{
    if (pos_lost(c, c->turn)) {
        *value = 0;
        return CH_VALUE;
    }
    int64_t i = tb_index(d, c);
    if (i >= 0) {
        *idx = i;
        if (self) {
            int v = tb_entry(self, (uint64_t)i);
            *value = v ? v : -1;
            return CH_VALUE;
        }
        return CH_EDGE;
    }
    if (sub) {
        int64_t j = tb_index(&sub->def, c);
        if (j >= 0) {
            int v = tb_entry(sub, (uint64_t)j);
            *value = v ? v : -1;
            return CH_VALUE;
        }
    }
    return CH_OUTSIDE;
}

static void outside(const pos_t *p, const move_t *m, char *err, size_t errlen)
{
    char a[POS_TEXT_MAX], b[MOVE_TEXT_MAX];
    pos_format(p, a);
    move_format(p->g, m, b);
    snprintf(err, errlen, "%s after %s leaves the tables' positions", a, b);
}

static uint64_t tick_total(tbprog_t *prog, const char *phase, uint64_t total)
{
    if (prog) {
        prog->phase = phase;
        prog->done = 0;
        prog->total = total;
    }
    return 0;
}

/* Is entry i its position's own index (a symmetric tuple may hold a position twice)? */
static int canonical(const tbdef_t *d, uint64_t i)
{
    if (d->columns == 2)
        return 1;
    uint32_t c = (uint32_t)(i / d->per_class);
    const uint8_t *t = d->reps[c];
    size_t k = ((size_t)t[0] * d->tg.n + t[1]) * d->tg.n + t[2];
    if (d->mask[k] == 1)
        return 1;
    pos_t p;
    tb_decode(d, i, &p);
    return tb_index(d, &p) == (int64_t)i;
}

/* The CRC-32 and the statistics of a built table (its entries in t->own). */
static void finish(tb_t *t)
{
    const tbdef_t *d = &t->def;
    tbstats_t *s = &t->stats;
    memset(s, 0, sizeof *s);
    int max = 0;
    for (uint64_t i = 0; i < d->size; i++)
        if (t->own[i] > max)
            max = t->own[i];
    t->width = max <= 255 ? 1 : 2;
    uint32_t crc = 0;
    uint8_t buf[8192];
    size_t k = 0;
    for (uint64_t i = 0; i < d->size; i++) {
        int v = t->own[i];
        buf[k++] = (uint8_t)v;
        if (t->width == 2)
            buf[k++] = (uint8_t)(v >> 8);
        if (k + 2 > sizeof buf || i + 1 == d->size) {
            crc = tb_crc32(crc, buf, k);
            k = 0;
        }
        if (!canonical(d, i))
            continue;
        s->positions++;
        if (!v)
            s->draws++;
        else if (v & 1)
            s->wins++;
        else
            s->losses++;
        if (v > s->max_dtm)
            s->max_dtm = v;
        if ((v & 1) && v > s->max_win) {
            s->max_win = v;
            s->longest = i;
        }
    }
    t->checksum = crc;
}

int tb_build(const geo_t *g, int columns, const tb_t *sub, tb_t *out, tbprog_t *prog, halt_t *h,
             char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (columns == 3 && (!sub || sub->def.columns != 2 || sub->def.tg.g != g)) {
        snprintf(err, errlen, "a 3-column table needs the 2-column table of %s", g->name);
        return -1;
    }
    tbdef_t *d = &out->def;
    if (tbdef_init(d, g, columns, err, errlen) < 0)
        return -1;
    uint64_t N = d->size;
    if (N >= UINT32_MAX) {
        snprintf(err, errlen, "%s: %llu entries are too many", g->name, (unsigned long long)N);
        tbdef_free(d);
        return -1;
    }
    int rc = -1;
    uint16_t *val = calloc(N, sizeof *val);
    uint16_t *cnt = calloc(N, sizeof *cnt);
    uint16_t *exmax = calloc(N, sizeof *exmax);
    uint32_t *offs = calloc(N + 1, sizeof *offs);
    uint32_t *preds = NULL;
    bucket_t *buckets = calloc(TB_MAXDTM + 2, sizeof *buckets);
    move_t buf[K_INLINE_MOVES];
    mlist_t l;
    ml_init(&l, buf, K_INLINE_MOVES);
    pos_t p;
    undo_t u;
    if (!val || !cnt || !exmax || !offs || !buckets)
        goto oom;

    /* 1. moves: edges counted, values of the moves that leave the table */
    tick_total(prog, "moves", N);
    for (uint64_t i = 0; i < N; i++) {
        if (halt_tick(h))
            goto stopped;
        if (prog)
            prog->done = i;
        tb_decode(d, i, &p);
        l.n = 0;
        if (gen_moves(&p, &l) < 0)
            goto oom;
        int win = INT_MAX, longest = 0, drawn = 0;
        uint32_t edges = 0;
        for (size_t k = 0; k < l.n; k++) {
            int64_t j;
            int v;
            pos_make(&p, &l.v[k], &u);
            int kind = classify(d, NULL, sub, &p, &j, &v);
            pos_unmake(&p, &u);
            if (kind == CH_OUTSIDE) {
                outside(&p, &l.v[k], err, errlen);
                goto fail;
            }
            if (kind == CH_EDGE) {
                edges++;
                offs[j]++;
            } else if (v < 0) {
                drawn = 1;
            } else if (!(v & 1)) {
                win = v < win ? v : win;
            } else if (v > longest) {
                longest = v;
            }
        }
        if (edges + (uint32_t)drawn > UINT16_MAX) {
            snprintf(err, errlen, "an entry of %s has too many moves", g->name);
            goto fail;
        }
        cnt[i] = (uint16_t)(edges + (uint32_t)drawn); /* a drawn move: never all wins */
        exmax[i] = (uint16_t)longest;
        int level = win != INT_MAX ? win + 1 : l.n && !cnt[i] ? longest + 1 : 0;
        if (level > TB_MAXDTM) {
            snprintf(err, errlen, "a distance beyond %d plies", TB_MAXDTM);
            goto fail;
        }
        if (level && bucket_push(&buckets[level], (uint32_t)i) < 0)
            goto oom;
    }
    uint64_t total = 0;
    for (uint64_t j = 0; j < N; j++) {
        total += offs[j];
        if (total > UINT32_MAX) {
            snprintf(err, errlen, "%s: too many moves for the table's predecessor lists", g->name);
            goto fail;
        }
        offs[j] = (uint32_t)total;
    }
    offs[N] = (uint32_t)total;
    preds = malloc((total ? total : 1) * sizeof *preds);
    if (!preds)
        goto oom;

    /* 1b. the predecessors: the same moves again, each edge filed under its result */
    tick_total(prog, "predecessors", N);
    for (uint64_t i = 0; i < N; i++) {
        if (halt_tick(h))
            goto stopped;
        if (prog)
            prog->done = i;
        tb_decode(d, i, &p);
        l.n = 0;
        if (gen_moves(&p, &l) < 0)
            goto oom;
        for (size_t k = 0; k < l.n; k++) {
            int64_t j;
            int v;
            pos_make(&p, &l.v[k], &u);
            int kind = classify(d, NULL, sub, &p, &j, &v);
            pos_unmake(&p, &u);
            if (kind == CH_EDGE)
                preds[--offs[j]] = (uint32_t)i;
        }
    }

    /* 2. distances by levels */
    tick_total(prog, "levels", N);
    uint64_t resolved = 0;
    for (int level = 1; level <= TB_MAXDTM; level++) {
        bucket_t *b = &buckets[level];
        size_t kept = 0;
        for (size_t k = 0; k < b->n; k++) {
            uint32_t i = b->v[k];
            if (!val[i]) {
                val[i] = (uint16_t)level;
                b->v[kept++] = i;
            }
        }
        b->n = kept;
        for (size_t k = 0; k < b->n; k++) {
            if (halt_tick(h))
                goto stopped;
            uint32_t j = b->v[k];
            for (uint32_t e = offs[j]; e < offs[j + 1]; e++) {
                uint32_t i = preds[e];
                if (val[i])
                    continue;
                int next = 0;
                if (!(level & 1)) /* the opponent loses after this move */
                    next = level + 1;
                else if (!--cnt[i]) /* every move wins for the opponent */
                    next = 1 + (level > exmax[i] ? level : exmax[i]);
                if (next > TB_MAXDTM) {
                    snprintf(err, errlen, "a distance beyond %d plies", TB_MAXDTM);
                    goto fail;
                }
                if (next && bucket_push(&buckets[next], i) < 0)
                    goto oom;
            }
        }
        resolved += b->n;
        if (prog)
            prog->done = resolved;
        free(b->v);
        b->v = NULL;
        b->n = b->cap = 0;
    }
    out->own = val;
    val = NULL;
    tick_total(prog, "statistics", N);
    finish(out);
    rc = 0;
    goto done;
stopped:
    rc = -2;
    snprintf(err, errlen, "stopped");
    goto fail;
oom:
    snprintf(err, errlen, "out of memory building the %d-column table of %s", columns, g->name);
fail:
    tbdef_free(d);
done:
    ml_free(&l);
    if (buckets)
        for (int k = 0; k <= TB_MAXDTM + 1; k++)
            free(buckets[k].v);
    free(buckets);
    free(val);
    free(cnt);
    free(exmax);
    free(offs);
    free(preds);
    return rc;
}

/* --- checks ---------------------------------------------------------------------------------- */

typedef struct checker {
    const tb_t *t, *sub;
    uint64_t bad;
    char *err;
    size_t errlen;
    mlist_t l;
    move_t buf[K_INLINE_MOVES];
} checker_t;

static void problem(checker_t *c, const pos_t *p, const char *what)
{
    if (!c->bad++) {
        char a[POS_TEXT_MAX];
        pos_format(p, a);
        snprintf(c->err, c->errlen, "%s: %s", a, what);
    }
}

/* Is value v (0 draw, else a distance) the one the moves of p lead to?  0 yes, 1 no, -1 OOM. */
static int consistent(checker_t *c, pos_t *p, int v)
{
    c->l.n = 0;
    if (gen_moves(p, &c->l) < 0)
        return -1;
    int loss = INT_MAX, longest = -1, drawn = 0, all_wins = 1;
    undo_t u;
    for (size_t k = 0; k < c->l.n; k++) {
        int64_t j = 0;
        int w = 0;
        pos_make(p, &c->l.v[k], &u);
        int kind = classify(&c->t->def, c->t, c->sub, p, &j, &w);
        pos_unmake(p, &u);
        if (kind == CH_OUTSIDE) {
            problem(c, p, "a move leaves the tables' positions");
            return 1;
        }
        if (w < 0) {
            drawn = 1;
            all_wins = 0;
        } else if (!(w & 1)) {
            all_wins = 0;
            loss = w < loss ? w : loss;
        } else if (w > longest) {
            longest = w;
        }
    }
    const char *why = NULL;
    if (!c->l.n)
        why = v ? "blocked (R19a) but not a draw" : NULL;
    else if (!v)
        why = loss != INT_MAX ? "a draw with a move to a loss" : !drawn ? "a draw without a drawing move" : NULL;
    else if (v & 1)
        why = loss != v - 1 ? "a win without a move to a loss one ply shorter, or with a shorter one" : NULL;
    else
        why = !all_wins ? "a loss with a move that does not lose"
              : longest != v - 1 ? "a loss not one ply longer than its longest move" : NULL;
    if (why) {
        problem(c, p, why);
        return 1;
    }
    return 0;
}

int tb_verify(const tb_t *t, const tb_t *sub, int syms, uint64_t *checked, uint64_t *bad,
              tbprog_t *prog, halt_t *h, char *err, size_t errlen)
{
    const tbdef_t *d = &t->def;
    checker_t c = {t, sub, 0, err, errlen, {0}, {{0}}};
    ml_init(&c.l, c.buf, K_INLINE_MOVES);
    int rc = 0;
    tick_total(prog, "verify", d->size);
    char why[256];
    for (uint64_t i = 0; i < d->size; i++) {
        if (halt_tick(h)) {
            rc = -2;
            break;
        }
        if (prog)
            prog->done = i;
        pos_t p, q;
        tb_decode(d, i, &p);
        if (pos_check(&p, why, sizeof why) < 0) {
            problem(&c, &p, why);
            continue;
        }
        int64_t j = tb_index(d, &p);
        if (j != (int64_t)i && (j < 0 || tb_entry(t, (uint64_t)j) != tb_entry(t, i) ||
                                (uint64_t)j / d->per_class != i / d->per_class)) {
            problem(&c, &p, "its index is another entry's, of another value");
            continue;
        }
        for (int s = 0; syms && s < d->tg.nsym; s++)
            for (int swap = 0; swap < 2; swap++) {
                tb_transform(&d->tg, &p, s, swap, &q);
                if (tb_index(d, &q) != j)
                    problem(&c, &q, "a symmetric image has another index");
            }
        int r = consistent(&c, &p, tb_entry(t, i));
        if (r < 0) {
            rc = -1;
            break;
        }
    }
    ml_free(&c.l);
    *checked = d->size;
    *bad = c.bad;
    return rc;
}

/* Every position of the class before the reduction, compared with its entry. */
int tb_check_raw(const tb_t *t, const tb_t *sub, uint64_t stride, uint64_t *checked,
                 uint64_t *bad, tbprog_t *prog, halt_t *h, char *err, size_t errlen)
{
    uint64_t seen = 0;
    const tbdef_t *d = &t->def;
    const tbgeo_t *tg = &d->tg;
    int n = tg->n, M = d->men;
    checker_t c = {t, sub, 0, err, errlen, {0}, {{0}}};
    ml_init(&c.l, c.buf, K_INLINE_MOVES);
    uint64_t count = 0;
    int rc = 0;
    char why[256];
    tick_total(prog, "positions",
               d->columns == 2 ? (uint64_t)n * (n - 1) : (uint64_t)n * (n - 1) * (n - 2) / 2);
    for (int a = 0; a < n && !rc; a++)
        for (int b = 0; b < n && !rc; b++)
            for (int e = d->columns == 3 ? b + 1 : 0; e < (d->columns == 3 ? n : 1) && !rc; e++) {
                if (a == b || (d->columns == 3 && a == e))
                    continue;
                if (prog)
                    prog->done++;
                /* stacks: 2 columns (a: White, b: Black); 3 columns (a: the lone, b, e: the pair) */
                for (int pair = 0; pair < (d->columns == 3 ? 2 : 1) && !rc; pair++)
                    for (int turn = 0; turn < 2 && !rc; turn++)
                        for (int x1 = 1; x1 <= M && !rc; x1++)
                            for (int x2 = 1; x2 <= M && !rc; x2++)
                                for (int q1 = 0; q1 < (d->columns == 3 ? M : 1) && !rc; q1++)
                                    for (int q2 = 0; q2 < (d->columns == 3 ? M : 1) && !rc; q2++) {
                                        uint8_t st[3][4];
                                        int ns;
                                        if (d->columns == 2) {
                                            uint8_t s0[4] = {tg->sq[a], 1, (uint8_t)x1, (uint8_t)(M - x2)};
                                            uint8_t s1[4] = {tg->sq[b], 0, (uint8_t)x2, (uint8_t)(M - x1)};
                                            memcpy(st[0], s0, 4);
                                            memcpy(st[1], s1, 4);
                                            ns = 2;
                                        } else {
                                            if (x1 + x2 > M || q1 + q2 > M - 1)
                                                continue;
                                            uint8_t s0[4] = {tg->sq[b], (uint8_t)pair, (uint8_t)x1, (uint8_t)q1};
                                            uint8_t s1[4] = {tg->sq[e], (uint8_t)pair, (uint8_t)x2, (uint8_t)q2};
                                            uint8_t s2[4] = {tg->sq[a], (uint8_t)!pair, (uint8_t)(M - q1 - q2),
                                                             (uint8_t)(M - x1 - x2)};
                                            memcpy(st[0], s0, 4);
                                            memcpy(st[1], s1, 4);
                                            memcpy(st[2], s2, 4);
                                            ns = 3;
                                        }
                                        if (seen++ % stride)
                                            continue; /* every stride-th position */
                                        if (halt_tick(h)) {
                                            rc = -2;
                                            break;
                                        }
                                        count++;
                                        pos_t p, q;
                                        if (pos_setup(&p, tg->g, turn, 0, 0, ns, (const uint8_t(*)[4])st,
                                                      why, sizeof why) < 0 ||
                                            pos_check(&p, why, sizeof why) < 0) {
                                            if (!c.bad++)
                                                snprintf(err, errlen, "an invalid position: %s", why);
                                            continue;
                                        }
                                        int64_t i = tb_index(d, &p);
                                        if (i < 0) {
                                            problem(&c, &p, "not in the table");
                                            continue;
                                        }
                                        tb_decode(d, (uint64_t)i, &q);
                                        int image = 0;
                                        for (int s = 0; s < tg->nsym && !image; s++)
                                            for (int swap = 0; swap < 2 && !image; swap++) {
                                                pos_t r;
                                                tb_transform(tg, &p, s, swap, &r);
                                                image = pos_equal(&r, &q);
                                            }
                                        if (!image) {
                                            problem(&c, &p, "its entry holds another position");
                                            continue;
                                        }
                                        if (consistent(&c, &p, tb_entry(t, (uint64_t)i)) < 0)
                                            rc = -1;
                                    }
            }
    ml_free(&c.l);
    *checked = count;
    *bad = c.bad;
    return rc;
}
