/* Batched environments (issue 13): see batchenv.h. */
#include "batchenv.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef EMERGO_SMALL_BUFFERS
#define HIST_START 2 /* the sanitizer build grows the history all the time */
#else
#define HIST_START 64
#endif

static inline int jump_base(const benv_t *e) { return e->nsq + e->nsq * e->ndirs; }

static inline int dir_index(const geo_t *g, int off)
{
    for (int d = 0; d < g->ndirs; d++)
        if (g->dir[d] == off)
            return d;
    return -1; /* not reached: a route's hops follow the lines */
}

/* The hops offered: are we choosing hops (a capture in progress, or a capture to start)? */
static inline int choosing_hops(const benv_game_t *b)
{
    return b->rlen || b->ms.kind == MK_CAPTURE;
}

/* --- a game: moves, history, status ------------------------------------------------------ */

/* Room for n more elements of size `size` in *buf (*cap elements, *len used).  -1 out of
 * memory. */
static int reserve(void **buf, uint32_t *cap, uint32_t len, uint32_t n, size_t size)
{
    if (len + n <= *cap)
        return 0;
    uint32_t c = *cap ? *cap : HIST_START;
    while (c < len + n)
        c *= 2;
    void *p = realloc(*buf, c * size);
    if (!p)
        return -1;
    *buf = p;
    *cap = c;
    return 0;
}

static inline bb_t seen_bit(uint64_t key) { return BB1(key >> 57); }

/* Make a move, keeping the history of R19b (what game_play of playout.c keeps, less every
 * position before the last irreversible move: none of them can recur).  The undo record of a
 * move is kept compact: its saved squares (4 bytes each), the hands, their count (so that
 * the records can be walked back from the end).  -1 out of memory. */
static int play(benv_game_t *b, const move_t *m)
{
    undo_t u;
    uint64_t before = b->pos.key;
    pos_make(&b->pos, m, &u);
    b->ply++;
    if (pos_irreversible(&b->pos, &u)) {
        b->hn = 0;
        b->ulen = 0;
        b->seen = 0;
        b->keys[0] = b->pos.key;
        return 0;
    }
    uint32_t bytes = 3 + 4 * (uint32_t)u.n;
    if (reserve((void **)&b->keys, &b->hcap, b->hn + 1, 1, sizeof *b->keys) < 0 ||
        reserve((void **)&b->undo, &b->ucap, b->ulen, bytes, 1) < 0)
        return -1;
    uint8_t *r = b->undo + b->ulen;
    memcpy(r, u.save, 4 * (size_t)u.n);
    r[4 * u.n] = u.hand[0];
    r[4 * u.n + 1] = u.hand[1];
    r[4 * u.n + 2] = u.n;
    b->ulen += bytes;
    b->seen |= seen_bit(before);
    b->keys[++b->hn] = b->pos.key;
    return 0;
}

/* Occurrences of the current position since the root, exactly, counting up to 3 (R19b):
 * game_repetitions of playout.c over the positions since the last irreversible move. */
static int repetitions(const benv_game_t *b)
{
    uint64_t key = b->pos.key;
    if (!(b->seen & seen_bit(key)))
        return 1;
    uint32_t t = b->hn, candidates = 0;
    for (uint32_t j = t; j >= 2; j -= 2) /* the same side to move: the same parity */
        if (b->keys[j - 2] == key)
            candidates++;
    if (!candidates)
        return 1;
    /* A key match is confirmed on the exact position, walking back over the undo records. */
    pos_t s = b->pos;
    int count = 1;
    uint32_t at = b->ulen;
    for (uint32_t j = t; j > 0 && candidates; j--) {
        undo_t u;
        u.n = b->undo[at - 1];
        at -= 3 + 4 * (uint32_t)u.n;
        memcpy(u.save, b->undo + at, 4 * (size_t)u.n);
        u.hand[0] = b->undo[at + 4 * u.n];
        u.hand[1] = b->undo[at + 4 * u.n + 1];
        u.key = b->keys[j - 1];
        pos_unmake(&s, &u);
        uint32_t k = j - 1;
        if ((t - k) % 2 == 0 && b->keys[k] == key) {
            candidates--;
            if (pos_equal(&s, &b->pos) && ++count >= 3)
                break;
        }
    }
    return count;
}

/* The status of a game at a whole move (game_status's order: R18 for the player to move,
 * then the other; R19a; R19b), keeping the repetition count for the planes.  -1 out of
 * memory. */
static int update_status(const benv_t *e, benv_game_t *b)
{
    pos_t *p = &b->pos;
    b->rlen = 0;
    b->winner = -1;
    b->term = TERM_NONE;
    b->reps = (int8_t)repetitions(b);
    for (int i = 0; i < 2 && b->term == TERM_NONE; i++) {
        int c = i ? !p->turn : p->turn;
        if (pos_lost(p, c)) {
            b->winner = (int8_t)!c;
            b->term = TERM_NO_PIECES;
        }
    }
    if (b->term == TERM_NONE) {
        b->routes.n = 0;
        if (gen_moveset(p, &b->ms, &b->routes) < 0)
            return -1;
        if (b->ms.kind == MK_NONE)
            b->term = TERM_BLOCKED;
        else if (b->reps >= 3)
            b->term = TERM_REPETITION;
    }
    if (b->term != TERM_NONE)
        b->done = BENV_TERMINATED;
    else if (b->ply >= e->max_plies)
        b->done = BENV_TRUNCATED;
    else
        b->done = BENV_RUNNING;
    return 0;
}

static int reset_game(const benv_t *e, benv_game_t *b)
{
    b->pos = e->root;
    b->ply = 0;
    b->hn = 0;
    b->ulen = 0;
    b->seen = 0;
    b->keys[0] = e->root.key;
    return update_status(e, b);
}

/* --- masks, legality, actions ------------------------------------------------------------- */

static void write_mask(const benv_t *e, const benv_game_t *b, int8_t *m)
{
    memset(m, 0, (size_t)e->nact);
    if (b->done)
        return;
    const geo_t *g = e->g;
    const moveset_t *ms = &b->ms;
    int D = e->ndirs;
    if (choosing_hops(b)) {
        const mlist_t *rl = ms->routes;
        size_t base = rl->n - ms->count;
        int k = b->rlen ? b->rlen : 1, jb = jump_base(e);
        for (size_t i = 0; i < ms->count; i++) {
            const move_t *r = &rl->v[base + i];
            if (r->len <= k || (b->rlen && memcmp(r->path, b->route, (size_t)b->rlen)))
                continue;
            int x = r->path[k - 1], y = r->path[k];
            m[jb + e->sqidx[x] * D + dir_index(g, (y - x) / 2)] = 1;
        }
    } else if (ms->kind == MK_ENTER) {
        for (bb_t x = ms->mask; x; x &= x - 1)
            m[e->sqidx[bb_lsb(x)]] = 1;
    } else if (ms->kind == MK_STEP) {
        for (int d = 0; d < D; d++)
            for (bb_t x = ms->steps[d]; x; x &= x - 1)
                m[e->nsq + e->sqidx[bb_lsb(x)] * D + d] = 1;
    }
}

static int is_legal(const benv_t *e, const benv_game_t *b, int64_t a)
{
    if (a < 0 || a >= e->nact)
        return 0;
    const geo_t *g = e->g;
    const moveset_t *ms = &b->ms;
    int D = e->ndirs, nsq = e->nsq, jb = jump_base(e);
    int ai = (int)a;
    if (choosing_hops(b)) {
        if (ai < jb)
            return 0;
        int x = g->squares[(ai - jb) / D], y = x + 2 * g->dir[(ai - jb) % D];
        const mlist_t *rl = ms->routes;
        size_t base = rl->n - ms->count;
        int k = b->rlen ? b->rlen : 1;
        for (size_t i = 0; i < ms->count; i++) {
            const move_t *r = &rl->v[base + i];
            if (r->len <= k || (b->rlen && memcmp(r->path, b->route, (size_t)b->rlen)))
                continue;
            if (r->path[k - 1] == x && r->path[k] == y)
                return 1;
        }
        return 0;
    }
    if (ms->kind == MK_ENTER)
        return ai < nsq && (int)((ms->mask >> g->squares[ai]) & 1);
    if (ms->kind == MK_STEP && ai >= nsq && ai < jb) {
        int i = (ai - nsq) / D, d = (ai - nsq) % D;
        return (int)((ms->steps[d] >> g->squares[i]) & 1);
    }
    return 0;
}

/* Take a legal action; *reward: the acting player's.  -1 out of memory. */
static int apply(const benv_t *e, benv_game_t *b, int a, float *reward)
{
    const geo_t *g = e->g;
    const moveset_t *ms = &b->ms;
    int D = e->ndirs, nsq = e->nsq, jb = jump_base(e);
    move_t m;
    *reward = 0.0f;
    if (choosing_hops(b)) {
        int x = g->squares[(a - jb) / D], y = x + 2 * g->dir[(a - jb) % D];
        if (!b->rlen)
            b->route[b->rlen++] = (uint8_t)x;
        b->route[b->rlen++] = (uint8_t)y;
        if (b->rlen - 1 < ms->size)
            return 0; /* the same player hops again (R11: every route takes ms->size men) */
        m.kind = MK_CAPTURE;
        m.len = (uint8_t)b->rlen;
        m.men = (uint8_t)ms->size;
        memcpy(m.path, b->route, (size_t)b->rlen);
    } else if (a < nsq) {
        m.kind = MK_ENTER;
        m.len = 1;
        m.men = (uint8_t)ms->size; /* R14: one man, or the whole hand */
        m.path[0] = g->squares[a];
    } else {
        int sq = g->squares[(a - nsq) / D];
        m.kind = MK_STEP;
        m.len = 2;
        m.men = 0;
        m.path[0] = (uint8_t)sq;
        m.path[1] = (uint8_t)(sq + g->dir[(a - nsq) % D]);
    }
    int actor = b->pos.turn;
    if (play(b, &m) < 0 || update_status(e, b) < 0)
        return -1;
    if (b->done == BENV_TERMINATED && b->winner >= 0)
        *reward = b->winner == actor ? 1.0f : -1.0f;
    return 0;
}

/* A uniformly random legal action of a game not done (0 when it has none).  Entries and
 * steps are one action per legal move; hops go through the mask (tied routes share hops). */
static int64_t random_action(const benv_t *e, benv_game_t *b)
{
    const moveset_t *ms = &b->ms;
    if (!choosing_hops(b)) {
        if (!ms->count)
            return 0;
        move_t m;
        ms_move(e->g, ms, rng_below(&b->rng, ms->count), &m);
        if (m.kind == MK_ENTER)
            return e->sqidx[m.path[0]];
        return e->nsq + e->sqidx[m.path[0]] * e->ndirs + dir_index(e->g, m.path[1] - m.path[0]);
    }
    int8_t mask[K_MAXSQ * (1 + 2 * K_MAXDIR)];
    write_mask(e, b, mask);
    int count = 0, jb = jump_base(e);
    for (int a = jb; a < e->nact; a++)
        count += mask[a];
    if (!count)
        return 0;
    size_t pick = rng_below(&b->rng, (size_t)count);
    for (int a = jb; a < e->nact; a++)
        if (mask[a] && pick-- == 0)
            return a;
    return 0;
}

/* --- observations ------------------------------------------------------------------------- */

/* The planes are float32 or uint8: one store, one fill. */
static inline void put1(void *o, int u8, size_t i, int v)
{
    if (u8)
        ((uint8_t *)o)[i] = (uint8_t)v;
    else
        ((float *)o)[i] = (float)v;
}

static inline void fill(void *o, int u8, size_t from, size_t count, int v)
{
    if (u8) {
        memset((uint8_t *)o + from, v, count);
    } else {
        float f = (float)v, *q = (float *)o + from;
        for (size_t i = 0; i < count; i++)
            q[i] = f;
    }
}

/* Planes 1-3 (first = 1) or 4-6 (first = 4) of the pieces in set. */
static inline void put_pieces(const benv_t *e, void *o, const pos_t *p, bb_t set, int first)
{
    size_t c = e->cells;
    int u8 = e->obs_u8;
    for (; set; set &= set - 1) {
        int sq = bb_lsb(set);
        size_t cell = (size_t)e->cell[sq];
        put1(o, u8, first * c + cell, 1);
        put1(o, u8, (first + 1) * c + cell, p->caps[sq]);
        put1(o, u8, (first + 2) * c + cell, p->pris[sq]);
    }
}

static inline void clear_pieces(const benv_t *e, void *o, bb_t set, int first)
{
    size_t c = e->cells;
    int u8 = e->obs_u8;
    for (; set; set &= set - 1) {
        size_t cell = (size_t)e->cell[bb_lsb(set)];
        put1(o, u8, first * c + cell, 0);
        put1(o, u8, (first + 1) * c + cell, 0);
        put1(o, u8, (first + 2) * c + cell, 0);
    }
}

/* What the planes of game b for colour me show: the position (after the hops so far, R9,
 * R10, built in *after when needed), the constant planes 7-14 and the cells of 15, 16. */
typedef struct seen_planes {
    const pos_t *p;
    uint8_t consts[8];
    int16_t at15, at16;
} seen_planes_t;

static void planes_of(const benv_t *e, const benv_game_t *b, int me, pos_t *after,
                      seen_planes_t *s)
{
    const pos_t *p = &b->pos;
    int turn = p->turn;
    if (b->rlen >= 2) { /* the board after the hops so far (R9, R10) */
        move_t m;
        undo_t u;
        *after = *p;
        m.kind = MK_CAPTURE;
        m.len = (uint8_t)b->rlen;
        m.men = 0;
        memcpy(m.path, b->route, (size_t)b->rlen);
        pos_make(after, &m, &u);
        p = after;
    }
    s->p = p;
    uint8_t *k = s->consts; /* planes 7 .. 14 */
    k[0] = p->hand[me];
    k[1] = p->hand[!me];
    k[2] = k[3] = k[4] = 0;
    if (b->rlen)
        k[2] = 1;
    else if (b->term == TERM_NONE) {
        int kind = b->ms.kind;
        k[2] = kind == MK_CAPTURE;
        k[3] = kind == MK_ENTER;
        k[4] = kind == MK_STEP;
    }
    k[5] = turn == me;
    k[6] = me == WHITE;
    k[7] = (uint8_t)b->reps;
    s->at15 = s->at16 = -1;
    if (b->rlen >= 2) {
        s->at15 = e->cell[b->route[b->rlen - 1]];
        s->at16 = e->cell[b->route[b->rlen - 2]];
    }
}

/* Every plane of game b for colour me into o (s->p may point to *after). */
static void write_obs_full(const benv_t *e, const benv_game_t *b, int me, void *o,
                           seen_planes_t *s, pos_t *after)
{
    size_t c = e->cells;
    int u8 = e->obs_u8;
    planes_of(e, b, me, after, s);
    const pos_t *p = s->p;
    if (u8) {
        memcpy(o, e->board, c); /* BOARD */
    } else {
        float *f = o;
        for (size_t i = 0; i < c; i++)
            f[i] = (float)e->board[i];
    }
    fill(o, u8, c, 6 * c, 0);
    put_pieces(e, o, p, p->owned[me], 1);
    put_pieces(e, o, p, p->owned[!me], 4);
    for (int k = 0; k < 8; k++)
        fill(o, u8, (size_t)(7 + k) * c, c, s->consts[k]);
    fill(o, u8, 15 * c, 2 * c, 0);
    if (s->at15 >= 0) {
        put1(o, u8, 15 * c + (size_t)s->at15, 1);
        put1(o, u8, 16 * c + (size_t)s->at16, 1);
    }
}

/* Game b's planes for its side to move into o, the environment's incremental buffer: only
 * what changed since the planes this game last wrote there, when it did (epoch). */
static void write_obs_tracked(const benv_t *e, benv_game_t *b, void *o)
{
    int me = b->pos.turn;
    seen_planes_t s;
    pos_t after;
    if (b->epoch != e->epoch) {
        write_obs_full(e, b, me, o, &s, &after);
    } else {
        size_t c = e->cells;
        int u8 = e->obs_u8;
        planes_of(e, b, me, &after, &s);
        const pos_t *p = s.p;
        bb_t mine = p->owned[me], theirs = p->owned[!me];
        clear_pieces(e, o, b->shown[0] & ~mine, 1);
        clear_pieces(e, o, b->shown[1] & ~theirs, 4);
        put_pieces(e, o, p, mine, 1);
        put_pieces(e, o, p, theirs, 4);
        for (int k = 0; k < 8; k++)
            if (s.consts[k] != b->consts[k])
                fill(o, u8, (size_t)(7 + k) * c, c, s.consts[k]);
        if (s.at15 != b->at15) {
            if (b->at15 >= 0)
                put1(o, u8, 15 * c + (size_t)b->at15, 0);
            if (s.at15 >= 0)
                put1(o, u8, 15 * c + (size_t)s.at15, 1);
        }
        if (s.at16 != b->at16) {
            if (b->at16 >= 0)
                put1(o, u8, 16 * c + (size_t)b->at16, 0);
            if (s.at16 >= 0)
                put1(o, u8, 16 * c + (size_t)s.at16, 1);
        }
    }
    b->epoch = e->epoch;
    b->shown[0] = s.p->owned[me];
    b->shown[1] = s.p->owned[!me];
    memcpy(b->consts, s.consts, sizeof b->consts);
    b->at15 = s.at15;
    b->at16 = s.at16;
}

static inline size_t obs_bytes(const benv_t *e)
{
    return BENV_PLANES * e->cells * (e->obs_u8 ? 1 : sizeof(float));
}

static void write_out(const benv_t *e, size_t i, float reward, const benv_out_t *out)
{
    benv_game_t *b = &e->games[i];
    if (out->obs)
        write_obs_tracked(e, b, (char *)out->obs + i * obs_bytes(e));
    if (out->mask)
        write_mask(e, b, out->mask + i * (size_t)e->nact);
    if (out->reward)
        out->reward[i] = reward;
    if (out->terminated)
        out->terminated[i] = b->done == BENV_TERMINATED;
    if (out->truncated)
        out->truncated[i] = b->done == BENV_TRUNCATED;
    if (out->to_play)
        out->to_play[i] = b->pos.turn == WHITE ? 0 : 1;
}

/* --- init ---------------------------------------------------------------------------------- */

static void pool_stop(benv_t *e);

int benv_init(benv_t *e, const pos_t *root, size_t n, uint64_t max_plies, const int16_t *cells,
              int size, int obs_u8, uint64_t seed)
{
    const geo_t *g = root->g;
    e->g = g;
    e->root = *root;
    e->n = n;
    e->max_plies = max_plies;
    e->nsq = g->nsq;
    e->ndirs = g->ndirs;
    e->nact = g->nsq + 2 * g->nsq * g->ndirs;
    e->size = size;
    e->cells = (size_t)size * (size_t)size;
    e->obs_u8 = obs_u8;
    e->inc_obs = NULL;
    e->epoch = 1; /* games start at 0: never written */
    e->pool = NULL;
    for (int sq = 0; sq < K_MAXSQ; sq++) {
        e->sqidx[sq] = -1;
        e->cell[sq] = cells[sq];
    }
    for (int i = 0; i < g->nsq; i++)
        e->sqidx[g->squares[i]] = (int16_t)i;
    memset(e->board, 0, sizeof e->board);
    for (int sq = 0; sq < K_MAXSQ; sq++)
        if (cells[sq] >= 0)
            e->board[cells[sq]] = 1;
    e->games = calloc(n ? n : 1, sizeof *e->games);
    if (!e->games)
        return -1;
    for (size_t i = 0; i < n; i++) {
        benv_game_t *b = &e->games[i];
        ml_init(&b->routes, NULL, 0); /* the first capture puts it on the heap */
        b->pos = *root;
        rng_seed(&b->rng, seed + i);
    }
    for (size_t i = 0; i < n; i++) {
        benv_game_t *b = &e->games[i];
        if (reserve((void **)&b->keys, &b->hcap, 0, 1, sizeof *b->keys) < 0) {
            benv_free(e);
            return -1;
        }
        e->games[i].keys[0] = root->key;
    }
    return 0;
}

void benv_free(benv_t *e)
{
    pool_stop(e);
    for (size_t i = 0; e->games && i < e->n; i++) {
        free(e->games[i].keys);
        free(e->games[i].undo);
        ml_free(&e->games[i].routes);
    }
    free(e->games);
    e->games = NULL;
    e->n = 0;
}

/* --- the batch, over a pool of threads ---------------------------------------------------- */

enum { J_RESET, J_STEP, J_RANDOM, J_CHECK, J_SAMPLE };

typedef struct job {
    int kind;
    int illegal_ends;       /* J_STEP: an illegal action ends its game (else: checked before) */
    const int64_t *actions; /* J_STEP, J_CHECK */
    int64_t *sample;        /* J_SAMPLE */
    benv_out_t out;
    atomic_int rc;          /* -1 once out of memory */
    atomic_size_t ended;    /* games done after the step */
    atomic_long bad;        /* J_CHECK: the first game with an illegal action (LONG_MAX: none) */
} job_t;

/* One game's share of a job. */
static void run_game(benv_t *e, job_t *j, size_t i, size_t *ended, long *bad)
{
    benv_game_t *b = &e->games[i];
    float reward = 0.0f;
    int rc = 0;
    switch (j->kind) {
    case J_CHECK: {
        int64_t a = j->actions[i]; /* read once: the caller's buffer may change under us */
        if (b->done)
            return;
        if (!is_legal(e, b, a)) {
            if ((long)i < *bad)
                *bad = (long)i;
        } else {
            b->checked = (int16_t)a;
        }
        return;
    }
    case J_SAMPLE:
        j->sample[i] = b->done ? 0 : random_action(e, b);
        return;
    case J_RESET:
        rc = reset_game(e, b);
        break;
    default: /* J_STEP, J_RANDOM */
        if (b->done) {
            rc = reset_game(e, b);
        } else if (j->kind == J_RANDOM) {
            rc = apply(e, b, (int)random_action(e, b), &reward);
        } else if (!j->illegal_ends) {
            rc = apply(e, b, b->checked, &reward); /* what benv_check read and passed */
        } else {
            int64_t a = j->actions[i]; /* read once: the caller's buffer may change under us */
            if (is_legal(e, b, a)) {
                rc = apply(e, b, (int)a, &reward);
            } else {
                b->done = BENV_TERMINATED; /* the player's loss; the position stays */
                reward = -1.0f;
            }
        }
        break;
    }
    if (rc < 0)
        atomic_store(&j->rc, -1);
    write_out(e, i, reward, &j->out);
    *ended += b->done != BENV_RUNNING;
}

static void run_range(benv_t *e, job_t *j, size_t lo, size_t hi, halt_t *h)
{
    size_t ended = 0;
    long bad = LONG_MAX;
    for (size_t i = lo; i < hi; i++) {
        run_game(e, j, i, &ended, &bad);
        (void)halt_tick(h); /* a stop is honoured once the batch is whole */
    }
    if (ended)
        atomic_fetch_add(&j->ended, ended);
    if (bad != LONG_MAX) {
        long cur = atomic_load(&j->bad);
        while (bad < cur && !atomic_compare_exchange_weak(&j->bad, &cur, bad)) {
        }
    }
}

/* The pool: thread 0 is the caller's; threads 1 .. nth-1 wait for work.  A job's games are
 * cut into chunks, the chunks into one share per thread.  A share is one word: the job's
 * generation (32 bits), its next chunk from the front and its end (16 bits each).  A thread
 * takes chunks from the front of its own share, then from the back of the others' (a
 * compare-and-swap that fails once the generation moved on: a thread that wakes late
 * never touches a later job with an earlier job's view). */
typedef struct worker_arg {
    benv_pool_t *pl;
    int k;
} worker_arg_t;

struct benv_pool {
    pthread_mutex_t mu;
    pthread_cond_t wake, finished;
    pthread_t th[BENV_THREADS];
    worker_arg_t args[BENV_THREADS];
    int nth; /* threads running, the caller's included */
    int quit;
    pid_t pid; /* the process that started the threads (a fork's child has none of them) */
    uint32_t gen; /* the latest job (written by the caller under mu) */
    atomic_uint published; /* the same, for the threads that wait awake */
    _Atomic uint64_t share[BENV_THREADS];
    atomic_size_t chunks_done;
    size_t nchunks, chunk; /* the latest job's */
    job_t job;
    benv_t *e;
};

static long take(_Atomic uint64_t *w, uint32_t gen, int front)
{
    uint64_t v = atomic_load_explicit(w, memory_order_acquire);
    for (;;) {
        if ((uint32_t)(v >> 32) != gen)
            return -1;
        uint64_t f = (v >> 16) & 0xffff, b = v & 0xffff;
        if (f >= b)
            return -1;
        uint64_t nv = front ? v + ((uint64_t)1 << 16) : v - 1;
        if (atomic_compare_exchange_weak_explicit(w, &v, nv, memory_order_acq_rel,
                                                  memory_order_acquire))
            return (long)(front ? f : b - 1);
    }
}

static void work(benv_pool_t *pl, uint32_t gen, int k, halt_t *h)
{
    for (int s = 0; s < pl->nth; s++) {
        int share = (k + s) % pl->nth;
        long c;
        while ((c = take(&pl->share[share], gen, s == 0)) >= 0) {
            /* The job's fields are stable until its last chunk is counted done. */
            size_t n = pl->e->n, chunk = pl->chunk, nchunks = pl->nchunks;
            size_t lo = (size_t)c * chunk, hi = lo + chunk < n ? lo + chunk : n;
            run_range(pl->e, &pl->job, lo, hi, h);
            if (atomic_fetch_add_explicit(&pl->chunks_done, 1, memory_order_acq_rel) + 1 ==
                nchunks) {
                pthread_mutex_lock(&pl->mu);
                pthread_cond_signal(&pl->finished);
                pthread_mutex_unlock(&pl->mu);
            }
        }
    }
}

#ifndef BENV_SPIN
#define BENV_SPIN 500 /* pauses (some tens of microseconds) a thread waits awake for work */
#endif

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void *worker(void *arg)
{
    const worker_arg_t *a = arg;
    int k = a->k;
    benv_pool_t *pl = a->pl;
    uint32_t seen = 0;
    for (;;) {
        /* The next job often follows at once (a step checks, then steps): wait awake a
         * little before sleeping on the condition variable. */
        uint32_t gen = atomic_load_explicit(&pl->published, memory_order_acquire);
        for (int s = 0; gen == seen && s < BENV_SPIN; s++) {
            cpu_relax();
            gen = atomic_load_explicit(&pl->published, memory_order_acquire);
        }
        if (gen == seen) {
            int quit;
            pthread_mutex_lock(&pl->mu);
            while ((gen = pl->gen) == seen && !pl->quit)
                pthread_cond_wait(&pl->wake, &pl->mu);
            quit = pl->quit;
            pthread_mutex_unlock(&pl->mu);
            if (quit)
                break;
        }
        seen = gen;
        work(pl, gen, k, NULL);
    }
    return NULL;
}

/* Start the workers (once); 0, or -1 when no thread could be had (the caller works alone). */
static int pool_start(benv_t *e)
{
    if (e->pool) /* in a forked child the batch runs on the caller's thread alone */
        return e->pool->nth > 1 && e->pool->pid == getpid() ? 0 : -1;
    benv_pool_t *pl = calloc(1, sizeof *pl);
    if (!pl)
        return -1;
    pl->pid = getpid();
    pl->e = e;
    pl->nth = 1;
    pthread_mutex_init(&pl->mu, NULL);
    pthread_cond_init(&pl->wake, NULL);
    pthread_cond_init(&pl->finished, NULL);
    for (int k = 0; k < BENV_THREADS; k++)
        atomic_init(&pl->share[k], 0);
    atomic_init(&pl->chunks_done, 0);
    atomic_init(&pl->published, 0);
    e->pool = pl;
    for (int k = 1; k < BENV_THREADS; k++) {
        worker_arg_t *a = &pl->args[pl->nth];
        a->pl = pl;
        a->k = pl->nth;
        if (pthread_create(&pl->th[pl->nth], NULL, worker, a) != 0)
            break;
        pl->nth++;
    }
    return pl->nth > 1 ? 0 : -1;
}

static void pool_stop(benv_t *e)
{
    benv_pool_t *pl = e->pool;
    if (!pl)
        return;
    e->pool = NULL;
    if (pl->pid != getpid()) { /* a forked child: the threads are the parent's */
        free(pl);
        return;
    }
    pthread_mutex_lock(&pl->mu);
    pl->quit = 1;
    pthread_cond_broadcast(&pl->wake);
    pthread_mutex_unlock(&pl->mu);
    for (int k = 1; k < pl->nth; k++)
        pthread_join(pl->th[k], NULL);
    pthread_cond_destroy(&pl->finished);
    pthread_cond_destroy(&pl->wake);
    pthread_mutex_destroy(&pl->mu);
    free(pl);
}

/* Run a job over every game.  Returns the job's rc; *ended and *bad as the job found them. */
static int batch(benv_t *e, int kind, int illegal_ends, const int64_t *actions, int64_t *sample,
                 const benv_out_t *out, halt_t *h, size_t *ended, long *bad)
{
    static const benv_out_t none = {0};
    if (kind == J_CHECK || kind == J_SAMPLE)
        out = &none; /* they write no output */
    else if (out->obs != e->inc_obs) { /* another buffer (or none): every plane written anew */
        e->inc_obs = out->obs;
        if (++e->epoch == 0) {
            for (size_t i = 0; i < e->n; i++)
                e->games[i].epoch = 0;
            e->epoch = 1;
        }
    }
    job_t local, *j = &local;
    benv_pool_t *pl = NULL;
    if (e->n >= BENV_THREAD_MIN && pool_start(e) == 0)
        pl = e->pool;
    if (pl)
        j = &pl->job;
    j->kind = kind;
    j->illegal_ends = illegal_ends;
    j->actions = actions;
    j->sample = sample;
    j->out = *out;
    atomic_init(&j->rc, 0);
    atomic_init(&j->ended, 0);
    atomic_init(&j->bad, LONG_MAX);
    if (!pl) {
        run_range(e, j, 0, e->n, h);
    } else {
        size_t chunk = BENV_CHUNK, n = e->n;
        if ((n + chunk - 1) / chunk > 0xffff)
            chunk = (n + 0xfffe) / 0xffff;
        size_t nchunks = (n + chunk - 1) / chunk;
        pl->chunk = chunk;
        pl->nchunks = nchunks;
        atomic_store(&pl->chunks_done, 0);
        uint32_t gen = pl->gen + 1;
        if (gen == 0)
            gen = 1; /* workers start having seen 0 */
        for (int k = 0; k < pl->nth; k++) {
            uint64_t lo = nchunks * (size_t)k / (size_t)pl->nth;
            uint64_t hi = nchunks * (size_t)(k + 1) / (size_t)pl->nth;
            atomic_store_explicit(&pl->share[k], (uint64_t)gen << 32 | lo << 16 | hi,
                                  memory_order_release);
        }
        atomic_store_explicit(&pl->published, gen, memory_order_release);
        pthread_mutex_lock(&pl->mu);
        pl->gen = gen;
        pthread_cond_broadcast(&pl->wake);
        pthread_mutex_unlock(&pl->mu);
        work(pl, gen, 0, h);
        for (int s = 0; atomic_load(&pl->chunks_done) != nchunks && s < BENV_SPIN; s++)
            cpu_relax(); /* the others' last chunks: usually a few microseconds */
        if (atomic_load(&pl->chunks_done) != nchunks) {
            pthread_mutex_lock(&pl->mu);
            while (atomic_load(&pl->chunks_done) != nchunks)
                pthread_cond_wait(&pl->finished, &pl->mu);
            pthread_mutex_unlock(&pl->mu);
        }
    }
    if (ended)
        *ended = atomic_load(&j->ended);
    if (bad) {
        long b = atomic_load(&j->bad);
        *bad = b == LONG_MAX ? -1 : b;
    }
    return atomic_load(&j->rc);
}

int benv_reset(benv_t *e, int seeded, uint64_t seed, const benv_out_t *out)
{
    if (seeded)
        for (size_t i = 0; i < e->n; i++)
            rng_seed(&e->games[i].rng, seed + i);
    return batch(e, J_RESET, 0, NULL, NULL, out, NULL, NULL, NULL);
}

long benv_check(benv_t *e, const int64_t *actions)
{
    long bad;
    (void)batch(e, J_CHECK, 0, actions, NULL, NULL, NULL, NULL, &bad);
    return bad;
}

int benv_step(benv_t *e, const int64_t *actions, int illegal_ends, const benv_out_t *out,
              halt_t *h)
{
    return batch(e, J_STEP, illegal_ends, actions, NULL, out, h, NULL, NULL);
}

int benv_step_random(benv_t *e, const benv_out_t *out, halt_t *h, size_t *ended)
{
    return batch(e, J_RANDOM, 0, NULL, NULL, out, h, ended, NULL);
}

void benv_sample(benv_t *e, int64_t *actions)
{
    (void)batch(e, J_SAMPLE, 0, NULL, actions, NULL, NULL, NULL, NULL);
}

void benv_observe(benv_t *e, int color, void *obs)
{
    if (obs == e->inc_obs)
        e->inc_obs = NULL; /* its planes change under the games' records */
    for (size_t i = 0; i < e->n; i++) {
        seen_planes_t s;
        pos_t after;
        write_obs_full(e, &e->games[i], color, (char *)obs + i * obs_bytes(e), &s, &after);
    }
}
