/* Batched environments (issue 13): B games stepped one action each per call.
 *
 * The action table, the legal action masks and the observation planes are
 * those of the Python reference emergo.envs (actions.py, observation.py,
 * emergo_v0.py), byte for byte:
 *
 *   action  enter on square i: i;  step from i along d: n + i*D + d;
 *           one hop of a capture from i along d: n + n*D + i*D + d
 *           (i the square's place in the canonical order, d in the geometry's order)
 *   planes  17 planes of H x W cells, for the side to move (see observation.py)
 *
 * A capture is one action per hop (R9-R12): only hops that continue a route of
 * the majority (R11) that begins with the route so far are legal; the board
 * changes when the route is complete.  A game that ends (R18, R19a, R19b) or
 * reaches max_plies whole moves is marked done: its terminal observation and
 * reward are returned, and the NEXT step resets it to the root (the action
 * given for it then is ignored) and returns the new game's first observation.
 *
 * Nothing here knows Python; the buffers are the caller's.  A batch step splits
 * the games over BENV_THREADS threads (pthreads) when there are enough games.
 */
#ifndef EMERGO_BATCHENV_H
#define EMERGO_BATCHENV_H

#include "halt.h"
#include "playout.h"

#define BENV_PLANES 17
#ifndef BENV_THREADS
#define BENV_THREADS 2       /* the development machine has 2 cores (-DBENV_THREADS=n to change) */
#endif
#define BENV_THREAD_MIN 128  /* fewer games: one thread (starting one costs more) */

enum { BENV_RUNNING = 0, BENV_TERMINATED = 1, BENV_TRUNCATED = 2 };

typedef struct benv_game {
    game_t gm;                  /* the game from the root; gm.ms: legal moves of gm.pos */
    uint8_t route[K_MAXPATH];   /* capture in progress: start and landings so far */
    int rlen;                   /* squares in route (0: no capture in progress) */
    int term, winner;           /* game_status of gm.pos (valid when rlen == 0) */
    int reps;                   /* occurrences of gm.pos since the root (R19b) */
    int done;                   /* BENV_RUNNING, BENV_TERMINATED, BENV_TRUNCATED */
    rng_t rng;                  /* for benv_sample */
} benv_game_t;

typedef struct benv {
    const geo_t *g;
    pos_t root;
    size_t n;                   /* games */
    uint64_t max_plies;
    int nsq, ndirs, nact, size; /* squares, directions, actions, H = W */
    int obs_u8;                 /* observations as uint8 (else float32) */
    size_t cells;               /* H * W */
    int16_t sqidx[K_MAXSQ];     /* square int -> canonical index (-1 off the board) */
    int16_t cell[K_MAXSQ];      /* square int -> cell u*W + v of a plane (-1 off the board) */
    uint8_t board[81];          /* plane 0 (BOARD): 1 on the board's cells */
    benv_game_t *games;
} benv_t;

/* The outputs of a step or a reset: per game, obs (cells * BENV_PLANES elements of
 * float32 or uint8), mask (nact int8), reward (float32, the acting player's), terminated,
 * truncated, to_play (0 White, 1 Black: the agent index of PettingZoo).  Any may be NULL. */
typedef struct benv_out {
    void *obs;
    int8_t *mask;
    float *reward;
    uint8_t *terminated, *truncated;
    int8_t *to_play;
} benv_out_t;

/* cells: for every square int (K_MAXSQ of them) its cell, -1 off the board. Returns 0, or
 * -1 out of memory. */
int benv_init(benv_t *e, const pos_t *root, size_t n, uint64_t max_plies, const int16_t *cells,
              int size, int obs_u8, uint64_t seed);
void benv_free(benv_t *e);
/* Every game to the root; the rngs reseeded when seeded (game i: seed + i). -1 out of memory. */
int benv_reset(benv_t *e, int seeded, uint64_t seed, const benv_out_t *out);
/* Index of the first game whose action is not legal now, or -1 when all are (done games take
 * any action). */
long benv_check(const benv_t *e, const int64_t *actions);
/* One action per game (checked by benv_check first).  -1 out of memory; h may be NULL. */
int benv_step(benv_t *e, const int64_t *actions, const benv_out_t *out, halt_t *h);
/* Every game not done takes a uniformly random legal action from its rng (benv_sample's
 * choice), all in the batch's threads.  -1 out of memory; h may be NULL. */
int benv_step_random(benv_t *e, const benv_out_t *out, halt_t *h);
/* Planes of every game for colour (WHITE, BLACK) into obs. */
void benv_observe(const benv_t *e, int color, void *obs);
/* A uniformly random legal action per game from its rng (0 for a done game). */
void benv_sample(benv_t *e, int64_t *actions);

#endif
