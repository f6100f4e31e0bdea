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
 * Speed (issue 13 asks for 1 M steps/s with 1,024 games on 2 cores):
 * - a game is one compact record (the position, its moveset, and the history
 *   only since the last irreversible move, R19b), so 1,024 games stay in the
 *   caches (game_t of playout.h holds an 8 KB repetition filter per game);
 * - the planes are written incrementally into the same output buffer: only
 *   the cells and constant planes whose value changed since that game's last
 *   observation in it (a buffer that is not the one last written, or a game
 *   never written there, gets every plane).  The caller must not change the
 *   buffer between calls (emergo.kernel.BatchEnv hands out read-only views);
 * - a batch runs on a pool of persistent threads (created once, sleeping on a
 *   condition variable between batches), each taking chunks of games from its
 *   own share first and then from the others' (so a thread that the machine
 *   does not schedule costs no wall time: the others finish its share; and a
 *   forked child, which has none of the threads, runs every batch alone).
 *
 * Nothing here knows Python; the buffers are the caller's.
 */
#ifndef EMERGO_BATCHENV_H
#define EMERGO_BATCHENV_H

#include "halt.h"
#include "playout.h"

#define BENV_PLANES 17
#ifndef BENV_THREADS
#define BENV_THREADS 2       /* the development machine has 2 cores (-DBENV_THREADS=n to change) */
#endif
#ifndef BENV_THREAD_MIN
#define BENV_THREAD_MIN 128  /* fewer games: the caller's thread alone (waking one costs more) */
#endif
#ifndef BENV_CHUNK
#define BENV_CHUNK 16        /* games per unit of work a thread takes */
#endif

enum { BENV_RUNNING = 0, BENV_TERMINATED = 1, BENV_TRUNCATED = 2 };

typedef struct benv_game {
    pos_t pos;                  /* the current position (at a whole move) */
    moveset_t ms;               /* legal moves of pos (ms.routes: routes below) */
    uint64_t ply;               /* whole moves since the root */
    /* R19b: the positions since the last irreversible move (pos_irreversible): keys[0] is
     * the first of them, keys[hn] the current one; undo holds the undo records of the hn
     * moves between them, compact (ulen bytes, see play in batchenv.c).  seen: a
     * pre-filter, bit (key >> 57) of keys[0 .. hn-1]. */
    uint64_t *keys;
    uint8_t *undo;
    uint32_t hn, hcap, ulen, ucap;
    bb_t seen;
    uint8_t route[K_MAXPATH];   /* capture in progress: start and landings so far */
    int8_t rlen;                /* squares in route (0: no capture in progress) */
    int8_t term, winner;        /* TERM_* and WHITE/BLACK/-1 of pos (valid when rlen == 0) */
    int8_t reps;                /* occurrences of pos since the root, counted up to 3 (R19b) */
    int8_t done;                /* BENV_RUNNING, BENV_TERMINATED, BENV_TRUNCATED */
    int16_t checked;            /* the action benv_check read and found legal: the step
                                 * plays this copy, never the caller's buffer read again */
    /* What the incremental output buffer holds for this game (valid when epoch is the
     * environment's): the squares shown in planes 1-3 and 4-6, the values of the constant
     * planes 7-14, the cells set in planes 15 and 16 (-1: none). */
    uint32_t epoch;
    int16_t at15, at16;
    uint8_t consts[8];
    bb_t shown[2];
    rng_t rng;                  /* for benv_sample */
    mlist_t routes;             /* capture routes of ms (on the heap, kept between games) */
} benv_game_t;

typedef struct benv_pool benv_pool_t; /* batchenv.c */

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
    const void *inc_obs;        /* the buffer the games' epochs refer to (NULL: none) */
    uint32_t epoch;
    benv_game_t *games;
    benv_pool_t *pool;          /* the worker threads, started at the first big batch */
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
void benv_free(benv_t *e); /* also stops the threads */
/* Every game to the root; the rngs reseeded when seeded (game i: seed + i). -1 out of memory. */
int benv_reset(benv_t *e, int seeded, uint64_t seed, const benv_out_t *out);
/* Index of the first game whose action is not legal now, or -1 when all are (done games take
 * any action). */
long benv_check(benv_t *e, const int64_t *actions);
/* One action per game.  Without illegal_ends: the actions benv_check just read and passed
 * (each game plays its copy, whatever the buffer holds now).  With illegal_ends: the buffer
 * read once, any action; an illegal one ends its game as its player's loss (reward -1,
 * terminated, the position as it was).  -1 out of memory; h may be NULL (it is polled from the caller's
 * thread only; a stop is honoured once the batch is whole). */
int benv_step(benv_t *e, const int64_t *actions, int illegal_ends, const benv_out_t *out,
              halt_t *h);
/* Every game not done takes a uniformly random legal action from its rng (benv_sample's
 * choice).  *ended (may be NULL): the games done after it.  -1 out of memory. */
int benv_step_random(benv_t *e, const benv_out_t *out, halt_t *h, size_t *ended);
/* Planes of every game for colour (WHITE, BLACK) into obs (every plane written). */
void benv_observe(benv_t *e, int color, void *obs);
/* A uniformly random legal action per game from its rng (0 for a done game). */
void benv_sample(benv_t *e, int64_t *actions);

#endif
