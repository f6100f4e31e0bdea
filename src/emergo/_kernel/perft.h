/* Perft and divide over make/unmake (the node-count signature of the move generator). */
#ifndef EMERGO_PERFT_H
#define EMERGO_PERFT_H

#include <stdlib.h>

#include "movegen.h"

/* Leaf count at depth; *oom is set when memory for capture routes ran out. */
uint64_t perft(pos_t *p, int depth, int *oom);

/* The root moves into moves and, per move, perft(depth - 1) into a new
 * array *counts (free it).  Returns 0, or -1 out of memory. */
int perft_divide(pos_t *p, int depth, mlist_t *moves, uint64_t **counts);

#endif
