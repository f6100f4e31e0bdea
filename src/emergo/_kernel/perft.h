/* Perft and divide over make/unmake (the node-count signature of the move generator). */
#ifndef EMERGO_PERFT_H
#define EMERGO_PERFT_H

#include <stdlib.h>

#include "halt.h"
#include "movegen.h"

#define MAX_PERFT_DEPTH 64

/* Leaf count at depth; *oom is set when memory for capture routes ran out.
 * A halt (may be NULL) ticks per node; once stopped the count is partial. */
uint64_t perft(pos_t *p, int depth, int *oom, halt_t *h);

/* The root moves into moves and, per move, perft(depth - 1) into a new
 * array *counts (free it).  Returns 0, or -1 out of memory (or stopped:
 * h->stopped tells). */
int perft_divide(pos_t *p, int depth, mlist_t *moves, uint64_t **counts, halt_t *h);

#endif
