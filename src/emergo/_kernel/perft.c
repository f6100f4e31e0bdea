/* Perft: the number of move sequences of a given length (leaf count, bulk at depth 1).
 *
 * As in tests/data/perft.txt: a multi-jump capture is one move, repetition
 * (R19b) is ignored, and a position where the game is over by R18 has no
 * moves (gen_moveset sees to that).
 */
#include "perft.h"

static uint64_t perft_rec(pos_t *p, int depth, int *oom, halt_t *h)
{
    moveset_t ms;
    if (depth == 1) {
        gen_moveset(p, &ms, NULL); /* counting only: never allocates */
        return ms.count;
    }
    if (halt_tick(h)) /* interior nodes only: once stopped, each returns at once */
        return 0;
    move_t buf[K_INLINE_MOVES];
    mlist_t l;
    ml_init(&l, buf, K_INLINE_MOVES);
    uint64_t total = 0;
    if (gen_moves(p, &l) < 0) {
        *oom = 1;
    } else {
        undo_t u;
        for (size_t i = 0; i < l.n && !*oom; i++) {
            pos_make(p, &l.v[i], &u);
            total += perft_rec(p, depth - 1, oom, h);
            pos_unmake(p, &u);
        }
    }
    ml_free(&l);
    return total;
}

uint64_t perft(pos_t *p, int depth, int *oom, halt_t *h)
{
    *oom = 0;
    if (depth <= 0)
        return 1;
    return perft_rec(p, depth, oom, h);
}

int perft_divide(pos_t *p, int depth, mlist_t *moves, uint64_t **counts, halt_t *h)
{
    int oom = 0;
    *counts = NULL;
    if (depth < 1)
        return 0;
    if (gen_moves(p, moves) < 0)
        return -1;
    *counts = malloc((moves->n ? moves->n : 1) * sizeof(uint64_t));
    if (!*counts)
        return -1;
    undo_t u;
    for (size_t i = 0; i < moves->n; i++) {
        pos_make(p, &moves->v[i], &u);
        (*counts)[i] = perft(p, depth - 1, &oom, h);
        pos_unmake(p, &u);
        if (oom || (h && h->stopped))
            return -1;
    }
    return 0;
}
