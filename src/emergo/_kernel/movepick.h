/* Move ordering for the search: hash move, capture gains, killers, history.
 *
 * R8 allows one kind of move per position, so a node orders either capture
 * routes (all of the same length, R11: ordered by the men they liberate and
 * whether the capturing piece lands attacked) or quiet moves, entries or
 * steps (ordered by killers, then a from-to history of cutoffs).  The hash
 * move comes first in both.
 */
#ifndef EMERGO_MOVEPICK_H
#define EMERGO_MOVEPICK_H

#include "movegen.h"

#define S_MAXPLY 128

#define HASH_SCORE (1 << 30)
#define KILLER_SCORE (1 << 24) /* killers: KILLER_SCORE and KILLER_SCORE - 1 */
#define HISTORY_MAX (1 << 20)  /* |history| stays below this */

typedef struct ordering {
    int history[2][K_MAXSQ][K_MAXSQ]; /* colour, from (or entered square), to */
    move_t killers[S_MAXPLY][2];
} ordering_t;

void order_clear(ordering_t *o);

static inline int move_same(const move_t *a, const move_t *b)
{
    if (a->kind != b->kind || a->len != b->len)
        return 0;
    for (int i = 0; i < a->len; i++)
        if (a->path[i] != b->path[i])
            return 0;
    return 1;
}

/* Score moves[0..n) for ordering (higher first); p is restored. */
void order_score(const ordering_t *o, pos_t *p, const move_t *moves, size_t n, int *scores,
                 uint16_t hash_move, int ply);

/* A quiet move caused a cutoff: killers and history learn it; the quiet moves
 * tried before it are penalised. */
void order_cutoff(ordering_t *o, int color, const move_t *best, const move_t *tried, size_t ntried,
                  int depth, int ply);

/* Move the best-scored move of [from, n) to from (selection sort, one step). */
static inline void pick_best(move_t *moves, int *scores, size_t from, size_t n)
{
    size_t best = from;
    for (size_t i = from + 1; i < n; i++)
        if (scores[i] > scores[best])
            best = i;
    if (best != from) {
        move_t m = moves[from];
        moves[from] = moves[best];
        moves[best] = m;
        int s = scores[from];
        scores[from] = scores[best];
        scores[best] = s;
    }
}

/* Sort moves[0..n) by score, best first (insertion sort: short lists, stable). */
static inline void sort_moves(move_t *moves, int *scores, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        move_t m = moves[i];
        int s = scores[i];
        size_t j = i;
        while (j > 0 && scores[j - 1] < s) {
            moves[j] = moves[j - 1];
            scores[j] = scores[j - 1];
            j--;
        }
        moves[j] = m;
        scores[j] = s;
    }
}

/* The move to search i-th: the best first (one scan, enough at a cut node),
 * and when the first did not cut, the rest sorted once. */
static inline void pick_next(move_t *moves, int *scores, size_t i, size_t n)
{
    if (i == 0)
        pick_best(moves, scores, 0, n);
    else if (i == 1)
        sort_moves(moves + 1, scores + 1, n - 1);
}

#endif
