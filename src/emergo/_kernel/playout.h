/* Games in the kernel: history, the outcome (R18, R19a, R19b) and random playouts. */
#ifndef EMERGO_PLAYOUT_H
#define EMERGO_PLAYOUT_H

#include "halt.h"
#include "movegen.h"
#include "rng.h"

enum { TERM_ERROR = -1, TERM_NONE = 0, TERM_NO_PIECES = 1, TERM_BLOCKED = 2, TERM_REPETITION = 3 };

#define REP_FILTER 2048 /* slots of the repetition pre-filter */

/* A game from a root position: the current position, every position's key
 * and every move's undo record (R19b needs the history; the root counts). */
typedef struct game {
    pos_t pos;
    size_t ply;      /* moves played */
    size_t last_irr; /* first ply since the last irreversible move (pos_irreversible) */
    size_t cap;
    uint64_t *keys;  /* keys[i]: key of the position after i moves */
    undo_t *undo;    /* undo[i]: undo record of move i + 1 */
    moveset_t ms;    /* legal moves of pos, after game_status */
    /* Pre-filter of R19b: filter[key % REP_FILTER] == stamp when some
     * position in [last_irr, ply) may have that key; a new stamp empties it. */
    uint32_t stamp;
    uint32_t filter[REP_FILTER];
    mlist_t routes;
    move_t rbuf[K_INLINE_MOVES];
} game_t;

/* game_t holds a pointer into itself: initialise it in place, never copy it. */
int game_init(game_t *gm, const pos_t *root); /* -1: out of memory */
void game_reset(game_t *gm, const pos_t *root);
void game_free(game_t *gm);
/* How the game stands (the order of Board.outcome): R18 for the player to
 * move, then for the other; R19a; R19b.  Fills gm->ms unless R18 applies.
 * winner is WHITE, BLACK, or -1 (a draw or not over). */
int game_status(game_t *gm, int *winner);
int game_play(game_t *gm, const move_t *m); /* -1: out of memory */
/* Occurrences of the current position since the root, exactly (counting stops at limit). */
int game_repetitions(game_t *gm, int limit);

typedef struct pstats {
    uint64_t games, wins[2], draws, plies;
    uint64_t term[4]; /* by TERM_* */
} pstats_t;

/* Count a finished game (term, winner of game_status) in st. */
void pstats_add(pstats_t *st, const game_t *gm, int term, int winner);

/* Sees a position of random_games before its move is drawn, with the status
 * game_status gave (gm->ms is filled unless term is TERM_NO_PIECES) and the
 * game's seed; non-zero ends that game at once, not counted in the stats. */
typedef int (*ply_visit_t)(game_t *gm, int term, uint64_t game_seed, void *ctx);

/* The one random-game loop: n uniformly random games from root, each to its
 * end (R18, R19a, R19b), counted in st; game i uses rng_seed(seed + i).  A
 * halt (may be NULL) ticks per ply; visit (may be NULL) sees every position.
 * Returns 0, or -1 out of memory or stopped (h->stopped tells). */
int random_games(const pos_t *root, uint64_t n, uint64_t seed, pstats_t *st, halt_t *h,
                 ply_visit_t visit, void *ctx);

/* random_games without a visitor: the playouts of the bench and of MCTS. */
int playouts(const pos_t *root, uint64_t n, uint64_t seed, pstats_t *st, halt_t *h);

#endif
