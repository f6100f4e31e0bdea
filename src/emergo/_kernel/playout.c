/* Games in the kernel: history, outcome (R18, R19a, R19b) and random playouts. */
#include "playout.h"

#include <stdlib.h>
#include <string.h>

static int game_grow(game_t *gm)
{
    size_t cap = gm->cap ? gm->cap * 2 : 256;
    uint64_t *keys = realloc(gm->keys, (cap + 1) * sizeof *keys);
    if (!keys)
        return -1;
    gm->keys = keys;
    undo_t *undo = realloc(gm->undo, cap * sizeof *undo);
    if (!undo)
        return -1;
    gm->undo = undo;
    gm->cap = cap;
    return 0;
}

static void new_stamp(game_t *gm)
{
    if (++gm->stamp == 0) { /* wrapped: forget every old stamp */
        memset(gm->filter, 0, sizeof gm->filter);
        gm->stamp = 1;
    }
}

void game_reset(game_t *gm, const pos_t *root)
{
    new_stamp(gm);
    gm->pos = *root;
    gm->ply = 0;
    gm->last_irr = 0;
    gm->keys[0] = root->key;
    gm->routes.n = 0;
}

int game_init(game_t *gm, const pos_t *root)
{
    gm->cap = 0;
    gm->keys = NULL;
    gm->undo = NULL;
    gm->stamp = 0;
    memset(gm->filter, 0, sizeof gm->filter);
    ml_init(&gm->routes, gm->rbuf, K_INLINE_MOVES);
    if (game_grow(gm) < 0) {
        game_free(gm);
        return -1;
    }
    game_reset(gm, root);
    return 0;
}

void game_free(game_t *gm)
{
    free(gm->keys);
    free(gm->undo);
    gm->keys = NULL;
    gm->undo = NULL;
    gm->cap = 0;
    ml_free(&gm->routes);
    ml_init(&gm->routes, gm->rbuf, K_INLINE_MOVES);
}

int game_play(game_t *gm, const move_t *m)
{
    if (gm->ply + 1 > gm->cap && game_grow(gm) < 0)
        return -1;
    undo_t *u = &gm->undo[gm->ply];
    gm->filter[gm->pos.key % REP_FILTER] = gm->stamp;
    pos_make(&gm->pos, m, u);
    gm->keys[++gm->ply] = gm->pos.key;
    if (pos_irreversible(&gm->pos, u)) {
        gm->last_irr = gm->ply; /* R19b: no earlier position can recur */
        new_stamp(gm);
    }
    return 0;
}

int game_repetitions(game_t *gm, int limit)
{
    size_t t = gm->ply;
    uint64_t key = gm->pos.key;
    if (gm->filter[key % REP_FILTER] != gm->stamp)
        return 1;
    size_t candidates = 0;
    /* Same side to move means the same parity of plies. */
    for (size_t j = t; j >= gm->last_irr + 2; j -= 2)
        if (gm->keys[j - 2] == key)
            candidates++;
    if (!candidates)
        return 1;
    /* A key match is confirmed on the exact position (R19b compares board,
     * hands and side to move), walking back over the undo records. */
    pos_t s = gm->pos;
    int count = 1;
    for (size_t j = t; j > gm->last_irr && candidates; j--) {
        pos_unmake(&s, &gm->undo[j - 1]);
        size_t k = j - 1;
        if ((t - k) % 2 == 0 && gm->keys[k] == key) {
            candidates--;
            if (pos_equal(&s, &gm->pos) && ++count >= limit)
                break;
        }
    }
    return count;
}

int game_status(game_t *gm, int *winner)
{
    pos_t *p = &gm->pos;
    *winner = -1;
    for (int i = 0; i < 2; i++) { /* R18, the player to move first */
        int c = i ? !p->turn : p->turn;
        if (pos_lost(p, c)) {
            *winner = !c;
            return TERM_NO_PIECES;
        }
    }
    gm->routes.n = 0;
    if (gen_moveset(p, &gm->ms, &gm->routes) < 0)
        return TERM_ERROR;
    if (gm->ms.kind == MK_NONE) /* R19a */
        return TERM_BLOCKED;
    if (game_repetitions(gm, 3) >= 3) /* R19b */
        return TERM_REPETITION;
    return TERM_NONE;
}

void pstats_add(pstats_t *st, const game_t *gm, int term, int winner)
{
    st->games++;
    st->plies += gm->ply;
    st->term[term]++;
    if (winner < 0)
        st->draws++;
    else
        st->wins[winner]++;
}

/* The body of random_games, inlined into playouts too, where the visitor test
 * folds away (the bench's and MCTS's inner loop pays nothing for selfcheck). */
static inline int games_loop(const pos_t *root, uint64_t n, uint64_t seed, pstats_t *st,
                             halt_t *h, ply_visit_t visit, void *ctx)
{
    memset(st, 0, sizeof *st);
    game_t *gm = malloc(sizeof *gm);
    if (!gm || game_init(gm, root) < 0) {
        free(gm);
        return -1;
    }
    int rc = 0;
    for (uint64_t i = 0; i < n && !rc; i++) {
        rng_t r;
        rng_seed(&r, seed + i);
        game_reset(gm, root);
        for (;;) {
            if (halt_tick(h)) {
                rc = -1;
                break;
            }
            int winner, t = game_status(gm, &winner);
            if (t == TERM_ERROR) {
                rc = -1;
                break;
            }
            if (visit && visit(gm, t, seed + i, ctx))
                break; /* the visitor ended this game: not counted */
            if (t != TERM_NONE) {
                pstats_add(st, gm, t, winner);
                break;
            }
            move_t m;
            ms_move(root->g, &gm->ms, rng_below(&r, gm->ms.count), &m);
            if (game_play(gm, &m) < 0) {
                rc = -1;
                break;
            }
        }
    }
    game_free(gm);
    free(gm);
    return rc;
}

int random_games(const pos_t *root, uint64_t n, uint64_t seed, pstats_t *st, halt_t *h,
                 ply_visit_t visit, void *ctx)
{
    return games_loop(root, n, seed, st, h, visit, ctx);
}

int playouts(const pos_t *root, uint64_t n, uint64_t seed, pstats_t *st, halt_t *h)
{
    return games_loop(root, n, seed, st, h, NULL, NULL);
}
