/* Legal move generation (R8-R17): captures with the majority rule, entries, steps.
 *
 * Entries and steps are bounded (at most one per vacant square, at most
 * ndirs per piece), but the number of tying capture routes has no useful
 * fixed bound (each of up to 12 jumps may branch three ways), so routes go to
 * a growable list: the caller gives an inline buffer and the list moves to
 * the heap only if that fills.  Nothing else allocates.
 */
#ifndef EMERGO_MOVEGEN_H
#define EMERGO_MOVEGEN_H

#include "position.h"

/* Inline capacity of move lists.  The sanitizer build defines
 * EMERGO_SMALL_BUFFERS so that every list outgrows it and the heap path is
 * exercised by every test. */
#ifdef EMERGO_SMALL_BUFFERS
#define K_INLINE_MOVES 1
#else
#define K_INLINE_MOVES 64
#endif

typedef struct mlist {
    move_t *v;
    size_t n, cap;
    move_t *heap; /* v when grown, else NULL */
} mlist_t;

static inline void ml_init(mlist_t *l, move_t *buf, size_t cap)
{
    l->v = buf;
    l->n = 0;
    l->cap = cap;
    l->heap = NULL;
}
void ml_free(mlist_t *l);
move_t *ml_grow(mlist_t *l); /* slow path of ml_push */
/* A slot for one more move, or NULL when memory is exhausted. */
static inline move_t *ml_push(mlist_t *l) { return l->n < l->cap ? &l->v[l->n++] : ml_grow(l); }

/* All legal moves of a position in compact form (R8 allows one kind only). */
typedef struct moveset {
    int kind;                /* MK_NONE (no legal move), MK_ENTER, MK_STEP, MK_CAPTURE */
    int size;                /* men per entry (R14), or men taken by every route (R11) */
    size_t count;            /* number of legal moves */
    bb_t mask;               /* MK_ENTER: the squares that may be entered */
    bb_t steps[K_MAXDIR];    /* MK_STEP: the pieces that can step in direction d */
    const mlist_t *routes;   /* MK_CAPTURE: the routes (when a list was given) */
} moveset_t;

/* Pieces in `me` that can jump a piece in `opp` onto a vacant square (R9). */
static inline bb_t attackers(const geo_t *g, bb_t me, bb_t opp, bb_t empty)
{
    bb_t found = 0;
    for (int k = 0; k < g->npairs; k++) {
        int o = g->pair_off[k];
        found |= (opp >> o) & (empty >> 2 * o); /* jumping towards +o */
        found |= (opp << o) & (empty << 2 * o); /* jumping towards -o */
    }
    return me & found;
}

/* Pieces of color that could jump now, were it color's turn (R9). */
static inline bb_t pos_attackers(const pos_t *p, int color)
{
    const geo_t *g = p->g;
    bb_t me = p->owned[color], opp = p->owned[!color];
    return attackers(g, me, opp, g->mask & ~(me | opp));
}

/* The squares the player to move may enter, were it his turn to enter (he
 * has men in hand and no capture): R13 any vacant square, less R15's and
 * R16's.  The one statement of the entering restrictions. */
static inline bb_t entry_mask(const pos_t *p)
{
    const geo_t *g = p->g;
    int me = p->turn;
    bb_t mine = p->owned[me], theirs = p->owned[!me];
    bb_t empty = g->mask & ~(mine | theirs), ok = empty;
    if (!attackers(g, theirs, mine, empty)) {
        /* R15: not attacked, so no entry may give the opponent a capture:
         * forbid a vacant square between an opponent piece and a vacant one. */
        for (int k = 0; k < g->npairs; k++) {
            int o = g->pair_off[k];
            ok &= ~((theirs << o) & (empty >> o));
            ok &= ~((theirs >> o) & (empty << o));
        }
    }
    if (me == WHITE && !(mine | theirs) && p->hand[WHITE] == g->men && p->hand[BLACK] == g->men)
        ok &= ~BB1(g->centre); /* R16: not the centre on the very first move */
    return ok;
}

/* Generate; routes (may be NULL: count only) receives the capture routes.
 * A position where either player has lost (R18) has no moves.  The position
 * is used as scratch space and restored.  Returns 0, or -1 when memory for
 * routes ran out. */
int gen_moveset(pos_t *p, moveset_t *ms, mlist_t *routes);

/* The i-th move of a moveset in generation order. */
void ms_move(const geo_t *g, const moveset_t *ms, size_t i, move_t *out);

/* Every legal move into out (appended); returns the kind, or -1 out of memory. */
int gen_moves(pos_t *p, mlist_t *out);

/* Compare paths, for the canonical order of R21 texts on the square grids. */
int move_cmp(const void *a, const void *b);

#endif
