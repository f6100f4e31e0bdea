/* Batched environments (issue 13): see batchenv.h. */
#include "batchenv.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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
    return b->rlen || b->gm.ms.kind == MK_CAPTURE;
}

/* The status of a game at a whole move (game_status's order: R18 for the player to move,
 * then the other; R19a; R19b), keeping the repetition count for the planes.  -1 out of
 * memory. */
static int update_status(const benv_t *e, benv_game_t *b)
{
    game_t *gm = &b->gm;
    pos_t *p = &gm->pos;
    b->rlen = 0;
    b->winner = -1;
    b->term = TERM_NONE;
    b->reps = game_repetitions(gm, 3); /* 3 ends the game (R19b): counts never exceed it */
    for (int i = 0; i < 2 && b->term == TERM_NONE; i++) {
        int c = i ? !p->turn : p->turn;
        if (pos_lost(p, c)) {
            b->winner = !c;
            b->term = TERM_NO_PIECES;
        }
    }
    if (b->term == TERM_NONE) {
        gm->routes.n = 0;
        if (gen_moveset(p, &gm->ms, &gm->routes) < 0)
            return -1;
        if (gm->ms.kind == MK_NONE)
            b->term = TERM_BLOCKED;
        else if (b->reps >= 3)
            b->term = TERM_REPETITION;
    }
    if (b->term != TERM_NONE)
        b->done = BENV_TERMINATED;
    else if (gm->ply >= e->max_plies)
        b->done = BENV_TRUNCATED;
    else
        b->done = BENV_RUNNING;
    return 0;
}

static int reset_game(const benv_t *e, benv_game_t *b)
{
    game_reset(&b->gm, &e->root);
    return update_status(e, b);
}

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
        if (game_init(&e->games[i].gm, root) < 0) {
            e->n = i;
            benv_free(e);
            return -1;
        }
        rng_seed(&e->games[i].rng, seed + i);
    }
    return 0;
}

void benv_free(benv_t *e)
{
    for (size_t i = 0; e->games && i < e->n; i++)
        game_free(&e->games[i].gm);
    free(e->games);
    e->games = NULL;
    e->n = 0;
}

/* --- masks, legality, actions ------------------------------------------------------------- */

static void write_mask(const benv_t *e, const benv_game_t *b, int8_t *m)
{
    memset(m, 0, (size_t)e->nact);
    if (b->done)
        return;
    const geo_t *g = e->g;
    const moveset_t *ms = &b->gm.ms;
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
    const moveset_t *ms = &b->gm.ms;
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

long benv_check(const benv_t *e, const int64_t *actions)
{
    for (size_t i = 0; i < e->n; i++)
        if (!e->games[i].done && !is_legal(e, &e->games[i], actions[i]))
            return (long)i;
    return -1;
}

/* Take a legal action; *reward: the acting player's.  -1 out of memory. */
static int apply(const benv_t *e, benv_game_t *b, int a, float *reward)
{
    const geo_t *g = e->g;
    const moveset_t *ms = &b->gm.ms;
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
    int actor = b->gm.pos.turn;
    if (game_play(&b->gm, &m) < 0 || update_status(e, b) < 0)
        return -1;
    if (b->done == BENV_TERMINATED && b->winner >= 0)
        *reward = b->winner == actor ? 1.0f : -1.0f;
    return 0;
}

/* --- observations ------------------------------------------------------------------------- */

static void pieces(const benv_t *e, uint8_t *P, const pos_t *p, int color, int plane)
{
    size_t c = e->cells;
    for (bb_t x = p->owned[color]; x; x &= x - 1) {
        int sq = bb_lsb(x), cell = e->cell[sq];
        P[plane * c + (size_t)cell] = 1;
        P[(plane + 1) * c + (size_t)cell] = p->caps[sq];
        P[(plane + 2) * c + (size_t)cell] = p->pris[sq];
    }
}

static void write_obs(const benv_t *e, const benv_game_t *b, int me, void *out)
{
    uint8_t P[BENV_PLANES * 81]; /* H = W <= 9 */
    size_t c = e->cells;
    const pos_t *p = &b->gm.pos;
    int turn = p->turn;
    pos_t after;
    if (b->rlen >= 2) { /* the board after the hops so far (R9, R10) */
        move_t m;
        undo_t u;
        after = *p;
        m.kind = MK_CAPTURE;
        m.len = (uint8_t)b->rlen;
        m.men = 0;
        memcpy(m.path, b->route, (size_t)b->rlen);
        pos_make(&after, &m, &u);
        p = &after;
    }
    memcpy(P, e->board, c); /* BOARD */
    memset(P + c, 0, 6 * c);
    memset(P + 15 * c, 0, 2 * c);
    memset(P + 9 * c, 0, 3 * c);
    pieces(e, P, p, me, 1);
    pieces(e, P, p, !me, 4);
    memset(P + 7 * c, p->hand[me], c);
    memset(P + 8 * c, p->hand[!me], c);
    if (b->rlen)
        memset(P + 9 * c, 1, c);
    else if (b->term == TERM_NONE) {
        int kind = b->gm.ms.kind;
        if (kind == MK_CAPTURE)
            memset(P + 9 * c, 1, c);
        else if (kind == MK_ENTER)
            memset(P + 10 * c, 1, c);
        else if (kind == MK_STEP)
            memset(P + 11 * c, 1, c);
    }
    memset(P + 12 * c, turn == me, c);
    memset(P + 13 * c, me == WHITE, c);
    memset(P + 14 * c, b->reps, c);
    if (b->rlen >= 2) {
        P[15 * c + (size_t)e->cell[b->route[b->rlen - 1]]] = 1;
        P[16 * c + (size_t)e->cell[b->route[b->rlen - 2]]] = 1;
    }
    size_t total = BENV_PLANES * c;
    if (e->obs_u8) {
        memcpy(out, P, total);
    } else {
        /* Plain stores: non-temporal ones (no read of the line before the write) were
         * measured slower at 1,024 games, the 5.6 MB of planes staying in the L3 cache. */
        float *f = out;
        for (size_t i = 0; i < total; i++)
            f[i] = (float)P[i];
    }
}

static inline size_t obs_bytes(const benv_t *e)
{
    return BENV_PLANES * e->cells * (e->obs_u8 ? 1 : sizeof(float));
}

static void write_out(const benv_t *e, size_t i, float reward, const benv_out_t *out)
{
    const benv_game_t *b = &e->games[i];
    if (out->obs)
        write_obs(e, b, b->gm.pos.turn, (char *)out->obs + i * obs_bytes(e));
    if (out->mask)
        write_mask(e, b, out->mask + i * (size_t)e->nact);
    if (out->reward)
        out->reward[i] = reward;
    if (out->terminated)
        out->terminated[i] = b->done == BENV_TERMINATED;
    if (out->truncated)
        out->truncated[i] = b->done == BENV_TRUNCATED;
    if (out->to_play)
        out->to_play[i] = b->gm.pos.turn == WHITE ? 0 : 1;
}

void benv_observe(const benv_t *e, int color, void *obs)
{
    for (size_t i = 0; i < e->n; i++)
        write_obs(e, &e->games[i], color, (char *)obs + i * obs_bytes(e));
}

/* A uniformly random legal action of a game not done (0 when it has none).  Entries and
 * steps are one action per legal move; hops go through the mask (tied routes share hops). */
static int64_t random_action(const benv_t *e, benv_game_t *b)
{
    const moveset_t *ms = &b->gm.ms;
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

/* --- the batch, over threads -------------------------------------------------------------- */

typedef struct work {
    benv_t *e;
    const int64_t *actions; /* NULL: reset, or random actions when random_play */
    int random_play;
    const benv_out_t *out;
    size_t lo, hi;
    halt_t *h; /* only the caller's thread polls */
    int rc;
} work_t;

static void *run(void *arg)
{
    work_t *w = arg;
    benv_t *e = w->e;
    for (size_t i = w->lo; i < w->hi; i++) {
        benv_game_t *b = &e->games[i];
        float reward = 0.0f;
        int rc;
        if (b->done || (!w->actions && !w->random_play))
            rc = reset_game(e, b);
        else
            rc = apply(e, b, (int)(w->random_play ? random_action(e, b) : w->actions[i]), &reward);
        if (rc < 0)
            w->rc = -1;
        write_out(e, i, reward, w->out);
        (void)halt_tick(w->h); /* a stop is honoured once the batch is whole */
    }
    return NULL;
}

static int batch(benv_t *e, const int64_t *actions, int random_play, const benv_out_t *out,
                 halt_t *h)
{
    work_t w[BENV_THREADS];
    pthread_t t[BENV_THREADS];
    int nt = e->n >= BENV_THREAD_MIN ? BENV_THREADS : 1;
    for (int k = 0; k < nt; k++) {
        w[k] = (work_t){e, actions, random_play, out, e->n * (size_t)k / (size_t)nt,
                        e->n * (size_t)(k + 1) / (size_t)nt, NULL, 0};
    }
    w[0].h = h;
    int started[BENV_THREADS] = {0};
    for (int k = 1; k < nt; k++)
        started[k] = pthread_create(&t[k], NULL, run, &w[k]) == 0;
    for (int k = 1; k < nt; k++)
        if (!started[k])
            run(&w[k]); /* no thread to be had: this one does the work */
    run(&w[0]);
    int rc = w[0].rc;
    for (int k = 1; k < nt; k++) {
        if (started[k])
            pthread_join(t[k], NULL);
        rc |= w[k].rc;
    }
    return rc;
}

int benv_reset(benv_t *e, int seeded, uint64_t seed, const benv_out_t *out)
{
    if (seeded)
        for (size_t i = 0; i < e->n; i++)
            rng_seed(&e->games[i].rng, seed + i);
    return batch(e, NULL, 0, out, NULL);
}

int benv_step(benv_t *e, const int64_t *actions, const benv_out_t *out, halt_t *h)
{
    return batch(e, actions, 0, out, h);
}

int benv_step_random(benv_t *e, const benv_out_t *out, halt_t *h)
{
    return batch(e, NULL, 1, out, h);
}

void benv_sample(benv_t *e, int64_t *actions)
{
    for (size_t i = 0; i < e->n; i++) {
        benv_game_t *b = &e->games[i];
        actions[i] = b->done ? 0 : random_action(e, b);
    }
}
