/* Kernel state (R5, R6): bitboards, stacks, hands, side to move, Zobrist key; make/unmake.
 *
 * A position is a fixed-size value: copying it is a memcpy, make/unmake never
 * allocate, and the undo record of a move is a small value the caller keeps
 * (a search keeps one per ply).  The key covers stacks, hands and the side to
 * move, i.e. exactly what R19b compares.
 */
#ifndef EMERGO_POSITION_H
#define EMERGO_POSITION_H

#include "geometry.h"

enum { BLACK = 0, WHITE = 1 };
enum { MK_NONE = 0, MK_ENTER = 1, MK_STEP = 2, MK_CAPTURE = 3 }; /* R8: one kind per position */

typedef struct move {
    uint8_t kind;              /* MK_ENTER, MK_STEP or MK_CAPTURE */
    uint8_t len;               /* squares in path: 1, 2, or jumps + 1 */
    uint8_t men;               /* men entered (R13, R14) or taken (R11) */
    uint8_t path[K_MAXPATH];   /* entered square; step from, to; capture start and landings */
} move_t;

typedef struct pos {
    const geo_t *g;
    bb_t owned[2];             /* squares owned by BLACK, WHITE (the top man's colour, R5) */
    uint64_t key;              /* Zobrist key of stacks, hands and side to move (R19b) */
    uint8_t hand[2];           /* men in hand by colour */
    uint8_t turn;              /* colour to move */
    uint8_t caps[K_MAXSQ];     /* R6: caps of the owner's colour (0: vacant) */
    uint8_t pris[K_MAXSQ];     /* R6: prisoners of the other colour below them */
} pos_t;

typedef struct sqsave {
    uint8_t sq, owner, caps, pris;
} sqsave_t;

typedef struct undo {
    uint64_t key;
    uint8_t hand[2];
    uint8_t n;
    sqsave_t save[K_MAXPATH + 1]; /* start, every jumped square, landing */
} undo_t;

void zobrist_init(void);

/* Set up a position from stacks given as (square, owner, caps, prisoners);
 * returns 0, or -1 with a message in err when it is not a valid position. */
int pos_setup(pos_t *p, const geo_t *g, int turn, int hand_white, int hand_black, int nstacks,
              const uint8_t (*stacks)[4], char *err, size_t errlen);

uint64_t pos_compute_key(const pos_t *p);
void pos_make(pos_t *p, const move_t *m, undo_t *u);
void pos_unmake(pos_t *p, const undo_t *u);
int pos_equal(const pos_t *a, const pos_t *b);

/* R19b: can no position before this move recur after it?  u is the move's
 * undo record, p the position after it.  An entry lowers a hand, and hands
 * never grow; a capture that jumps a single man empties its square, and the
 * number of stacks never grows without an entry.  Steps and other captures
 * keep both.  (The undo record lists the start, every jumped square, then
 * the landing square.) */
static inline int pos_irreversible(const pos_t *p, const undo_t *u)
{
    if (u->hand[0] != p->hand[0] || u->hand[1] != p->hand[1])
        return 1;
    for (int i = 1; i + 1 < u->n; i++)
        if (u->save[i].caps == 1 && !u->save[i].pris)
            return 1;
    return 0;
}

/* R18: color has no men in hand and no piece. */
static inline int pos_lost(const pos_t *p, int color) { return !p->hand[color] && !p->owned[color]; }

static inline int pos_owner(const pos_t *p, int sq) { return (int)((p->owned[WHITE] >> sq) & 1); }

/* Canonical R22 text into buf (at least POS_TEXT_MAX bytes); returns its length. */
#define POS_TEXT_MAX 1024
int pos_format(const pos_t *p, char *buf);
/* Canonical R21 text of a move; buf needs MOVE_TEXT_MAX bytes; returns its length. */
#define MOVE_TEXT_MAX (K_MAXPATH * 4 + 1)
int move_format(const geo_t *g, const move_t *m, char *buf);

/* Structural invariants (R6, bitboards, key); returns 0, or -1 with a message. */
int pos_check(const pos_t *p, char *err, size_t errlen);

#endif
