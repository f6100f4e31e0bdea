/* Game-tree search: iterative deepening PVS with aspiration windows, forced-capture quiescence.
 *
 * Values are centi-men for the player to move; a win in n plies (R18) is
 * S_WIN - n, a loss -(S_WIN - n), a draw inside the tree (R19a blocked, R19b
 * repetition on the search's own line, a table's draw) 0.  These are the values
 * of emergo.search.Score.from_value.  A win or a loss is proven (every reply
 * was searched to it); a 0 is not (the other moves were only evaluated, and a
 * repetition on the search's own line is not the third occurrence R19b asks
 * for), so a line says whether its value is exact: wins, losses, and the
 * values of the endgame tables at the root (tb.h).
 *
 * With tables (searcher_set_tables) a root position of the tables is not
 * searched: every move is valued by the tables and the lines follow their best
 * moves; inside the tree a position of the tables is a leaf of exact value.
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
#include "tb.h"
#include "tt.h"

#define S_WIN 1000000
#define S_WIN_MIN (S_WIN - 1000) /* values at or beyond +/- this are proven wins or losses */
#define S_INF (S_WIN + 1)
#define S_MAXDEPTH 100
#define S_MAXPV 64
#define S_EVASIONS 1 /* default of the "evasions" option */

enum { SL_SEARCH = 0, SL_TABLE = 1 }; /* where a line's value comes from */

typedef struct sline {
    int value, depth, seldepth, len;
    int exact;  /* the value is proven: a win or loss, or a table's value */
    int source; /* SL_SEARCH or SL_TABLE */
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
    uint64_t tbhits;    /* positions valued by the tables */
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
/* The tables of the next searches (either may be NULL; of the searched board's variant).  They
 * must stay open while a search runs. */
void searcher_set_tables(searcher_t *s, const tb_t *t2, const tb_t *t3);
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
