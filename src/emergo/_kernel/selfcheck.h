/* The kernel checking itself: random games with every invariant verified at every ply. */
#ifndef EMERGO_SELFCHECK_H
#define EMERGO_SELFCHECK_H

#include "playout.h"

#define CHECK_MAX_ERRORS 20
#define CHECK_ERROR_LEN 300

typedef struct checker {
    int nerr;
    char err[CHECK_MAX_ERRORS][CHECK_ERROR_LEN];
    pstats_t st; /* the games, as playouts() counts them */
} checker_t;

/* The games of playouts(root, n, seed), checked per ply: bitboards and stacks
 * agree (R6), men are conserved (R5), the incremental key is the recomputed
 * one, counting and listing generation agree, capture priority (R8) and route
 * lengths (R11) hold, no move is listed twice, make/unmake of every legal move
 * restores the position.  A game stops at its first failure (into ck->err).
 * A halt (may be NULL) ticks per ply.  Returns 0, or -1 out of memory or
 * stopped (h->stopped tells). */
int selfcheck(const pos_t *root, uint64_t n, uint64_t seed, checker_t *ck, halt_t *h);

#endif
