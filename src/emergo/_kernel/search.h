/* Game-tree search: iterative deepening PVS with aspiration windows, forced-capture quiescence.
 *
 * Values are centi-men for the player to move; a win in n plies (R18) is
 * S_WIN - n, a loss -(S_WIN - n), a proven draw (R19a blocked, R19b
 * repetition) exactly 0 (the evaluation never returns 0).  These are the
 * values of emergo.search.Score.from_value.
 *
 * A searcher owns its transposition table, ordering tables and weights; one
 * search runs at a time on it, in the calling thread.  searcher_stop() may be
 * called from any thread while a search runs.  The info callback is called
 * from the searching thread after every completed iteration.
 */
#ifndef EMERGO_SEARCH_H
#define EMERGO_SEARCH_H

#include "eval.h"
#include "halt.h"
#include "movepick.h"
#include "tt.h"

#define S_WIN 1000000
#define S_WIN_MIN (S_WIN - 1000) /* values at or beyond +/- this are proven wins or losses */
#define S_INF (S_WIN + 1)
#define S_MAXDEPTH 100
#define S_MAXPV 64
#define S_EVASIONS 1 /* default of the "evasions" option */

typedef struct sline {
    int value, depth, seldepth, len;
    move_t pv[S_MAXPLY];
} sline_t;

typedef struct slimits {
    int depth;          /* 1..S_MAXDEPTH */
    uint64_t nodes;     /* 0: no limit */
    double soft, hard;  /* seconds; < 0: no limit.  After soft no new iteration starts */
    int multipv;        /* 1..S_MAXPV */
} slimits_t;

typedef struct sresult {
    int nlines;         /* 0: no legal move */
    sline_t lines[S_MAXPV];
    uint64_t nodes;
    double time;
    int depth;          /* last completed iteration */
} sresult_t;

/* Called after each completed iteration with the lines, best first; a
 * nonzero return stops the search. */
typedef int (*sinfo_fn)(void *ctx, const sresult_t *progress);

typedef struct searcher searcher_t;

searcher_t *searcher_new(size_t hash_mb); /* NULL: out of memory */
void searcher_free(searcher_t *s);
int searcher_resize(searcher_t *s, size_t hash_mb); /* -1: out of memory (old table kept) */
void searcher_clear(searcher_t *s);
void searcher_set_weights(searcher_t *s, const int w[EV_NTERMS]);
/* Tuning knobs: "evasions" (0..8), the quiescence plies where a quiet but
 * attacked player's moves are searched.  -1: unknown name or bad value. */
int searcher_set_option(searcher_t *s, const char *name, int value);
void searcher_stop(searcher_t *s);
/* Forget an earlier stop: call before starting a search, before any thread may stop it. */
void searcher_rearm(searcher_t *s);

/* Search the last position of a game: keys[0..nkeys) are the keys of every
 * position from the game's start to root (root->key last); positions before
 * keys[irr] cannot recur (pos_irreversible).  The game must not be over.  A
 * halt (may be NULL) is polled with the stop flag; once it stops, the search
 * ends as if stopped.  Returns 0, or -1 out of memory. */
int searcher_run(searcher_t *s, const pos_t *root, const uint64_t *keys, size_t nkeys, size_t irr,
                 const slimits_t *lim, sinfo_fn info, void *ctx, halt_t *h, sresult_t *out);

#endif
