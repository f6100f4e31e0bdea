/* Iterative deepening PVS: aspiration windows, forced-capture quiescence, repetitions, limits. */
#include "search.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK_EVERY 1024 /* nodes between polls of the stop flag and the clock */
#define QS_MAXPLY 40     /* forced captures followed at most this far past the depth */
#define ASPIRATION 40    /* first half-width of the aspiration window, centi-men */

typedef struct rootmove {
    move_t m;
    int score, seldepth, pvlen;
    move_t pv[S_MAXPLY];
} rootmove_t;

struct searcher {
    tt_t tt;
    ordering_t ord;
    int w[EV_NTERMS];
    int stop; /* set from any thread (atomics) */
    int evasions; /* quiescence plies where an attacked player's quiet moves are searched */
    const tb_t *tb2, *tb3; /* the endgame tables of the searched variant (NULL: none) */
    int tb_unsure;         /* a position of the game recurred: table values are estimates */
    /* One search: */
    pos_t pos;
    int abort, oom;
    halt_t *halt; /* the caller's (Ctrl-C), polled with the stop flag; may be NULL */
    uint64_t nodes, max_nodes, tbhits;
    double t0, hard;
    int seldepth;
    uint64_t *keys; /* the game's keys, then the search path's: keys[root_idx + ply] */
    size_t keycap, root_idx;
    size_t irr[S_MAXPLY + 1]; /* per ply: first index of keys that may equal the current key */
    undo_t undo[S_MAXPLY];
    mlist_t lists[S_MAXPLY];
    move_t bufs[S_MAXPLY][K_INLINE_MOVES];
    int *scores[S_MAXPLY];
    size_t scap[S_MAXPLY];
    move_t pv[S_MAXPLY][S_MAXPLY];
    int pvlen[S_MAXPLY];
    rootmove_t *rm;
    size_t nrm, rmcap;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --- the searcher object --------------------------------------------------------------------- */

searcher_t *searcher_new(size_t hash_mb)
{
    searcher_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (tt_init(&s->tt, hash_mb) < 0) {
        free(s);
        return NULL;
    }
    for (int i = 0; i < S_MAXPLY; i++)
        ml_init(&s->lists[i], s->bufs[i], K_INLINE_MOVES);
    memcpy(s->w, eval_defaults, sizeof s->w);
    s->evasions = S_EVASIONS;
    return s;
}

void searcher_free(searcher_t *s)
{
    if (!s)
        return;
    tt_free(&s->tt);
    for (int i = 0; i < S_MAXPLY; i++) {
        ml_free(&s->lists[i]);
        free(s->scores[i]);
    }
    free(s->keys);
    free(s->rm);
    free(s);
}

int searcher_resize(searcher_t *s, size_t hash_mb)
{
    tt_t t;
    if (tt_init(&t, hash_mb) < 0)
        return -1;
    tt_free(&s->tt);
    s->tt = t;
    return 0;
}

void searcher_clear(searcher_t *s)
{
    tt_clear(&s->tt);
    order_clear(&s->ord);
}

int searcher_set_option(searcher_t *s, const char *name, int value)
{
    if (!strcmp(name, "evasions") && value >= 0 && value <= 8) {
        s->evasions = value;
        return 0;
    }
    return -1;
}

void searcher_set_weights(searcher_t *s, const int w[EV_NTERMS])
{
    memcpy(s->w, w, sizeof s->w);
}

void searcher_stop(searcher_t *s) { __atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED); }

void searcher_rearm(searcher_t *s) { __atomic_store_n(&s->stop, 0, __ATOMIC_RELAXED); }

void searcher_set_tables(searcher_t *s, const tb_t *t2, const tb_t *t3)
{
    s->tb2 = t2;
    s->tb3 = t3;
}

/* --- limits and bookkeeping ------------------------------------------------------------------ */

static void poll(searcher_t *s)
{
    if (__atomic_load_n(&s->stop, __ATOMIC_RELAXED) || (s->hard >= 0 && now() - s->t0 >= s->hard) ||
        halt_poll(s->halt))
        s->abort = 1;
}

/* Count a node about to be made; 0 when a limit is reached (the node is not made). */
static inline int count_node(searcher_t *s)
{
    if (s->abort)
        return 0;
    if (s->nodes >= s->max_nodes) {
        s->abort = 1;
        return 0;
    }
    if (!(++s->nodes & (CHECK_EVERY - 1)))
        poll(s);
    return 1;
}

static inline void make(searcher_t *s, int ply, const move_t *m)
{
    undo_t *u = &s->undo[ply];
    pos_make(&s->pos, m, u);
    size_t idx = s->root_idx + (size_t)ply + 1;
    s->keys[idx] = s->pos.key;
    s->irr[ply + 1] = pos_irreversible(&s->pos, u) ? idx : s->irr[ply]; /* R19b */
}

static inline void unmake(searcher_t *s, int ply) { pos_unmake(&s->pos, &s->undo[ply]); }

#define TB_UNSURE 10000 /* a table's win when it may not hold (history_repeats): 100 men */

/* The search value at ply of a table's value v (0 a draw, else the distance, odd a win). */
static inline int table_value(int v, int ply)
{
    if (!v)
        return 0;
    return v & 1 ? S_WIN - (ply + v) : -(S_WIN - (ply + v));
}

/* The same inside the tree: an estimate, not a proof, when the game's history may turn a
 * table's line into a repetition (R19b). */
static inline int table_leaf(const searcher_t *s, int v, int ply)
{
    if (!s->tb_unsure || !v)
        return table_value(v, ply);
    return v & 1 ? TB_UNSURE - (ply + v) : -(TB_UNSURE - (ply + v));
}

/* The tables' value of the current position, or -1 (no table holds it). */
static inline int probe(searcher_t *s)
{
    const pos_t *p = &s->pos;
    if ((!s->tb2 && !s->tb3) || p->hand[0] || p->hand[1])
        return -1;
    int v = tb_probe(s->tb2, s->tb3, p);
    if (v >= 0)
        s->tbhits++;
    return v;
}

/* R19b in the tree: a position repeating one on the search path (the root
 * included) is scored a draw, as the side that repeated can repeat again; a
 * position of the game before the root counts as the rules do, a draw at its
 * third occurrence. */
static int repeated(const searcher_t *s, int ply)
{
    size_t cur = s->root_idx + (size_t)ply, low = s->irr[ply];
    uint64_t key = s->keys[cur];
    int before_root = 0;
    for (size_t j = cur; j >= low + 2;) {
        j -= 2;
        if (s->keys[j] == key) {
            if (j >= s->root_idx || ++before_root >= 2)
                return 1;
        }
    }
    return 0;
}

static int *scores_for(searcher_t *s, int ply, size_t n)
{
    if (n > s->scap[ply]) {
        size_t cap = n < 64 ? 64 : n * 2;
        int *v = realloc(s->scores[ply], cap * sizeof *v);
        if (!v)
            return NULL;
        s->scores[ply] = v;
        s->scap[ply] = cap;
    }
    return s->scores[ply];
}

static inline int value_to_tt(int v, int ply)
{
    return v >= S_WIN_MIN ? v + ply : v <= -S_WIN_MIN ? v - ply : v;
}

static inline int value_from_tt(int v, int ply)
{
    return v >= S_WIN_MIN ? v - ply : v <= -S_WIN_MIN ? v + ply : v;
}

static inline void pv_update(searcher_t *s, int ply, const move_t *m)
{
    s->pv[ply][0] = *m;
    int n = s->pvlen[ply + 1];
    if (n > S_MAXPLY - ply - 1)
        n = S_MAXPLY - ply - 1;
    memcpy(&s->pv[ply][1], s->pv[ply + 1], (size_t)n * sizeof(move_t));
    s->pvlen[ply] = n + 1;
}

/* Has the player to move, who has no capture, an entry or a step (R13-R17)? */
static int has_quiet_move(const pos_t *p)
{
    if (p->hand[p->turn])
        return entry_mask(p) != 0;
    const geo_t *g = p->g;
    bb_t mine = p->owned[p->turn], empty = g->mask & ~(p->owned[0] | p->owned[1]);
    for (int k = 0; k < g->npairs; k++) {
        int o = g->pair_off[k];
        if (mine & ((empty >> o) | (empty << o)))
            return 1;
    }
    return 0;
}

/* --- quiescence: forced captures --------------------------------------------------------------- */

/* A position where the player to move must capture (R8) is never scored
 * statically: every route is searched, without standing pat, since he may not
 * decline.  Quiet positions are evaluated. */
static int qsearch(searcher_t *s, int alpha, int beta, int ply, int qply)
{
    pos_t *p = &s->pos;
    s->pvlen[ply] = 0;
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (pos_lost(p, p->turn)) /* R18 */
        return -(S_WIN - ply);
    if (qply && repeated(s, ply)) /* R19b */
        return 0;
    int tv = probe(s);
    if (tv >= 0)
        return table_leaf(s, tv, ply);
    if (ply >= S_MAXPLY - 1)
        return evaluate(p, s->w);
    int evade = 0;
    if (!pos_attackers(p, p->turn)) {
        /* Quiet.  Attacked at the horizon, he may not pass (R7): his replies
         * are searched; otherwise the evaluation (with its threat terms) stands. */
        evade = qply < s->evasions && pos_attackers(p, !p->turn);
        if (!evade)
            return has_quiet_move(p) ? evaluate(p, s->w) : 0; /* R19a blocked: a draw */
    }
    if (qply >= QS_MAXPLY)
        return evaluate(p, s->w);
    mlist_t *l = &s->lists[ply];
    l->n = 0;
    if (gen_moves(p, l) < 0) {
        s->oom = s->abort = 1;
        return 0;
    }
    size_t n = l->n;
    if (!n) /* R19a blocked: a draw */
        return 0;
    int *sc = scores_for(s, ply, n);
    if (!sc) {
        s->oom = s->abort = 1;
        return 0;
    }
    order_score(&s->ord, p, l->v, n, sc, 0, ply);
    int best = -S_INF;
    for (size_t i = 0; i < n; i++) {
        pick_next(l->v, sc, i, n);
        if (!count_node(s))
            return 0;
        make(s, ply, &l->v[i]);
        int v = -qsearch(s, -beta, -alpha, ply + 1, qply + 1);
        unmake(s, ply);
        if (s->abort)
            return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                pv_update(s, ply, &l->v[i]);
                if (v >= beta)
                    break;
            }
        }
    }
    return best;
}

/* --- the main search ------------------------------------------------------------------------- */

static int pvs(searcher_t *s, int depth, int alpha, int beta, int ply, int pvnode)
{
    pos_t *p = &s->pos;
    s->pvlen[ply] = 0;
    if (pos_lost(p, p->turn)) /* R18 */
        return -(S_WIN - ply);
    if (repeated(s, ply)) /* R19b */
        return 0;
    if (depth <= 0)
        return qsearch(s, alpha, beta, ply, 0);
    int tv = s->tb_unsure ? -1 : probe(s); /* unsure: the tables only at the horizon */
    if (tv >= 0)
        return table_value(tv, ply);
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (ply >= S_MAXPLY - 1)
        return evaluate(p, s->w);
    /* Nothing better than a win next ply, nothing worse than a loss here.
     * (A loss is at least two plies off, but bounding alpha by that would
     * make the true value fail low and lose the line.) */
    if (alpha < -(S_WIN - ply))
        alpha = -(S_WIN - ply);
    if (beta > S_WIN - ply - 1)
        beta = S_WIN - ply - 1;
    if (alpha >= beta)
        return alpha;
    uint64_t key = p->key;
    tt_hit_t hit;
    uint16_t hash_move = 0;
    if (tt_probe(&s->tt, key, &hit)) {
        hash_move = hit.move;
        int v = value_from_tt(hit.value, ply);
        if (!pvnode && hit.depth >= depth &&
            (hit.bound == TT_EXACT || (hit.bound == TT_LOWER && v >= beta) ||
             (hit.bound == TT_UPPER && v <= alpha)))
            return v;
    }
    mlist_t *l = &s->lists[ply];
    l->n = 0;
    int kind = gen_moves(p, l);
    if (kind < 0) {
        s->oom = s->abort = 1;
        return 0;
    }
    size_t n = l->n;
    if (!n) /* R19a blocked: a draw */
        return 0;
    int *sc = scores_for(s, ply, n);
    if (!sc) {
        s->oom = s->abort = 1;
        return 0;
    }
    order_score(&s->ord, p, l->v, n, sc, hash_move, ply);
    int ext = n == 1; /* a forced move costs no depth */
    int alpha0 = alpha, best = -S_INF;
    size_t best_i = 0;
    for (size_t i = 0; i < n; i++) {
        pick_next(l->v, sc, i, n);
        const move_t *m = &l->v[i];
        if (!count_node(s))
            return 0;
        make(s, ply, m);
        int nd = depth - 1 + ext, v;
        if (nd > 0)
            tt_prefetch(&s->tt, s->pos.key);
        if (i == 0) {
            v = -pvs(s, nd, -beta, -alpha, ply + 1, pvnode);
        } else {
            /* Late quiet moves are searched shallower first (captures are forced, R8). */
            int r = 0;
            if (kind != MK_CAPTURE && depth >= 3 && i >= 3 && sc[i] < KILLER_SCORE - 1)
                r = 1 + (depth >= 6 && i >= 8);
            v = -pvs(s, nd - r, -alpha - 1, -alpha, ply + 1, 0);
            if (v > alpha && r)
                v = -pvs(s, nd, -alpha - 1, -alpha, ply + 1, 0);
            if (v > alpha && v < beta && pvnode)
                v = -pvs(s, nd, -beta, -alpha, ply + 1, 1);
        }
        unmake(s, ply);
        if (s->abort)
            return 0;
        if (v > best) {
            best = v;
            best_i = i;
            if (v > alpha) {
                alpha = v;
                pv_update(s, ply, m);
                if (v >= beta) {
                    order_cutoff(&s->ord, p->turn, m, l->v, i, depth, ply);
                    break;
                }
            }
        }
    }
    int bound = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
    tt_store(&s->tt, key, value_to_tt(best, ply), depth, bound,
             bound == TT_UPPER ? 0 : move_id(&l->v[best_i]));
    return best;
}

/* --- the root -------------------------------------------------------------------------------- */

static int root_search(searcher_t *s, int depth, int alpha, int beta, size_t pvi)
{
    int best = -S_INF;
    for (size_t i = pvi; i < s->nrm; i++)
        s->rm[i].score = -S_INF;
    for (size_t i = pvi; i < s->nrm; i++) {
        rootmove_t *r = &s->rm[i];
        if (!count_node(s))
            break;
        make(s, 0, &r->m);
        int v;
        if (i == pvi) {
            v = -pvs(s, depth - 1, -beta, -alpha, 1, 1);
        } else {
            v = -pvs(s, depth - 1, -alpha - 1, -alpha, 1, 0);
            if (v > alpha && v < beta)
                v = -pvs(s, depth - 1, -beta, -alpha, 1, 1);
        }
        unmake(s, 0);
        if (s->abort)
            break;
        if (i == pvi || v > alpha) {
            r->score = v;
            r->seldepth = s->seldepth;
            r->pv[0] = r->m;
            int n = s->pvlen[1] < S_MAXPLY - 1 ? s->pvlen[1] : S_MAXPLY - 1;
            memcpy(&r->pv[1], s->pv[1], (size_t)n * sizeof(move_t));
            r->pvlen = n + 1;
        }
        if (v > best)
            best = v;
        if (v > alpha) {
            alpha = v;
            if (v >= beta)
                break;
        }
    }
    return best;
}

/* Stable insertion sort of rm[from..) by score, best first. */
static void sort_root(searcher_t *s, size_t from)
{
    for (size_t i = from + 1; i < s->nrm; i++) {
        rootmove_t r = s->rm[i];
        size_t j = i;
        while (j > from && s->rm[j - 1].score < r.score) {
            s->rm[j] = s->rm[j - 1];
            j--;
        }
        s->rm[j] = r;
    }
}

/* A line cut short by a table hit goes on along the table's best moves (each
 * checked legal), at most to the iteration's depth and never round a cycle. */
static void extend_pv(searcher_t *s, rootmove_t *r, int depth)
{
    pos_t *p = &s->pos;
    int made = 0;
    uint64_t seen[S_MAXPLY];
    seen[0] = p->key;
    while (made < r->pvlen && made < S_MAXPLY - 2) {
        pos_make(p, &r->pv[made], &s->undo[made]);
        seen[++made] = p->key;
    }
    while (r->pvlen < depth && made < S_MAXPLY - 2 && !pos_lost(p, p->turn)) {
        tt_hit_t hit;
        if (!tt_probe(&s->tt, p->key, &hit) || !hit.move)
            break;
        mlist_t *l = &s->lists[made];
        l->n = 0;
        if (gen_moves(p, l) < 0)
            break;
        size_t i = 0;
        while (i < l->n && move_id(&l->v[i]) != hit.move)
            i++;
        if (i == l->n)
            break;
        pos_make(p, &l->v[i], &s->undo[made]);
        int cycle = 0;
        for (int j = made - 1; j >= 0 && !cycle; j -= 2)
            cycle = seen[j] == p->key;
        seen[++made] = p->key;
        r->pv[r->pvlen++] = l->v[i];
        if (cycle)
            break;
    }
    while (made > 0)
        pos_unmake(p, &s->undo[--made]);
}

static void set_line(sline_t *line, const rootmove_t *r, int value, int depth)
{
    line->value = value;
    line->exact = value >= S_WIN_MIN || value <= -S_WIN_MIN; /* a 0 of the search is not proven */
    line->source = SL_SEARCH;
    line->depth = depth;
    line->seldepth = r->seldepth > depth ? r->seldepth : depth;
    line->len = r->pvlen;
    memcpy(line->pv, r->pv, (size_t)r->pvlen * sizeof(move_t));
}

static int prepare(searcher_t *s, const pos_t *root, const uint64_t *keys, size_t nkeys,
                   size_t irr)
{
    size_t need = nkeys + S_MAXPLY + 2;
    if (need > s->keycap) {
        uint64_t *k = realloc(s->keys, need * sizeof *k);
        if (!k)
            return -1;
        s->keys = k;
        s->keycap = need;
    }
    memcpy(s->keys, keys, nkeys * sizeof *keys);
    s->root_idx = nkeys - 1;
    s->irr[0] = irr;
    s->pos = *root;
    s->abort = s->oom = 0;
    s->nodes = 0;
    s->tbhits = 0;
    s->seldepth = 0;
    mlist_t *l = &s->lists[0];
    l->n = 0;
    if (gen_moves(&s->pos, l) < 0)
        return -1;
    if (l->n > s->rmcap) {
        rootmove_t *rm = realloc(s->rm, l->n * sizeof *rm);
        if (!rm)
            return -1;
        s->rm = rm;
        s->rmcap = l->n;
    }
    s->nrm = l->n;
    int *sc = scores_for(s, 0, l->n);
    if (!sc)
        return -1;
    tt_hit_t hit;
    order_score(&s->ord, &s->pos, l->v, l->n, sc, tt_probe(&s->tt, root->key, &hit) ? hit.move : 0,
                0);
    for (size_t i = 0; i < l->n; i++) {
        pick_best(l->v, sc, i, l->n);
        rootmove_t *r = &s->rm[i];
        r->m = l->v[i];
        r->score = -S_INF;
        r->seldepth = 0;
        r->pvlen = 1;
        r->pv[0] = r->m;
    }
    return 0;
}

/* --- the root in the tables --------------------------------------------------------------------- */

#define TB_DRAW_LINE 16 /* plies of a drawn line shown */

/* R19b as the rules say it: the current position (at ply) occurs for the third time, counting
 * the game's positions and the line's. */
static int third_occurrence(const searcher_t *s, int ply)
{
    size_t cur = s->root_idx + (size_t)ply, low = s->irr[ply];
    uint64_t key = s->keys[cur];
    int seen = 0;
    for (size_t j = cur; j >= low + 2;) {
        j -= 2;
        if (s->keys[j] == key && ++seen >= 2)
            return 1;
    }
    return 0;
}

/* The value, for the player who made it, of the move just made (the position after it is
 * s->pos at ply): R18, then R19b (the third occurrence), then the tables; 0 and *value, or -1
 * when no table holds the position. */
static int table_move_value(searcher_t *s, int ply, int *value)
{
    pos_t *p = &s->pos;
    if (pos_lost(p, p->turn)) {
        *value = S_WIN - ply;
        return 0;
    }
    if (third_occurrence(s, ply)) {
        *value = 0;
        return 0;
    }
    int v = tb_probe(s->tb2, s->tb3, p);
    if (v < 0)
        return -1;
    s->tbhits++;
    *value = -table_value(v, ply);
    return 0;
}

/* The tables' best move of s->pos at ply (the winner's shortest, the loser's longest); 0, or
 * -1 when there is none or a move leaves the tables. */
static int table_best(searcher_t *s, int ply, move_t *best)
{
    mlist_t *l = &s->lists[ply];
    l->n = 0;
    if (gen_moves(&s->pos, l) < 0 || !l->n)
        return -1;
    int top = -S_INF;
    for (size_t i = 0; i < l->n; i++) {
        int v;
        make(s, ply, &l->v[i]);
        int rc = table_move_value(s, ply + 1, &v);
        unmake(s, ply);
        if (rc < 0)
            return -1;
        if (v > top) {
            top = v;
            *best = l->v[i];
        }
    }
    return 0;
}

/* A root of the tables: every root move valued by them, best first, each line along their
 * best moves (a win or loss to its end, a draw for TB_DRAW_LINE plies); no search.  1 when
 * done, 0 when some move leaves the tables (the search goes on as usual).  Only when no
 * position of the game has recurred (history_repeats): then the values hold under R19b. */
static int table_root(searcher_t *s, int mpv, sinfo_fn info, void *ctx, sresult_t *out)
{
    for (size_t i = 0; i < s->nrm; i++) {
        rootmove_t *r = &s->rm[i];
        make(s, 0, &r->m);
        int rc = table_move_value(s, 1, &r->score);
        unmake(s, 0);
        if (rc < 0)
            return 0;
    }
    sort_root(s, 0);
    for (int k = 0; k < mpv; k++) {
        rootmove_t *r = &s->rm[k];
        int len = r->score ? S_WIN - abs(r->score) : TB_DRAW_LINE;
        if (len > S_MAXPLY - 2)
            len = S_MAXPLY - 2;
        r->pvlen = 1;
        r->pv[0] = r->m;
        make(s, 0, &r->m);
        int ply = 1;
        while (ply < len && !pos_lost(&s->pos, s->pos.turn) && !third_occurrence(s, ply)) {
            move_t m;
            if (table_best(s, ply, &m) < 0)
                break;
            r->pv[r->pvlen++] = m;
            make(s, ply, &m);
            ply++;
        }
        while (ply > 0) {
            ply--;
            unmake(s, ply);
        }
        r->seldepth = r->pvlen;
        set_line(&out->lines[k], r, r->score, 1);
        out->lines[k].exact = 1;
        out->lines[k].source = SL_TABLE;
    }
    out->nlines = mpv;
    out->depth = 1;
    out->nodes = s->nodes;
    out->tbhits = s->tbhits;
    out->time = now() - s->t0;
    if (info)
        info(ctx, out);
    return 1;
}

/* Has a position recurred since the last irreversible move (the root included)?  A table's
 * value is for a position met for the first time: its best line never repeats a position (the
 * distance falls with every move of the winner), so it is exact under R19b when no position of
 * the game may recur a third time, i.e. when none has occurred twice. */
static int history_repeats(const uint64_t *keys, size_t nkeys, size_t irr)
{
    for (size_t i = irr; i < nkeys; i++)
        for (size_t j = i + 2; j < nkeys; j += 2)
            if (keys[i] == keys[j])
                return 1;
    return 0;
}

int searcher_run(searcher_t *s, const pos_t *root, const uint64_t *keys, size_t nkeys, size_t irr,
                 const slimits_t *lim, sinfo_fn info, void *ctx, halt_t *h, sresult_t *out)
{
    s->t0 = now();
    s->halt = h;
    s->hard = lim->hard;
    s->max_nodes = lim->nodes ? lim->nodes : UINT64_MAX;
    out->nlines = 0;
    out->nodes = 0;
    out->tbhits = 0;
    out->depth = 0;
    out->time = 0;
    if (prepare(s, root, keys, nkeys, irr) < 0)
        return -1;
    if (!s->nrm)
        return 0;
    int mpv = lim->multipv < 1 ? 1 : lim->multipv > S_MAXPV ? S_MAXPV : lim->multipv;
    if ((size_t)mpv > s->nrm)
        mpv = (int)s->nrm;
    int unsure = (s->tb2 || s->tb3) && history_repeats(keys, nkeys, irr);
    if (unsure && !s->tb_unsure)
        tt_clear(&s->tt); /* no exact value of the tables from an earlier search may come back */
    s->tb_unsure = unsure;
    if ((s->tb2 || s->tb3) && !root->hand[0] && !root->hand[1] && !s->tb_unsure &&
        tb_probe(s->tb2, s->tb3, root) >= 0) {
        if (table_root(s, mpv, info, ctx, out))
            return s->oom ? -1 : 0;
        s->tbhits = 0;
    }
    tt_new_search(&s->tt);
    int max_depth = lim->depth < 1 ? 1 : lim->depth > S_MAXDEPTH ? S_MAXDEPTH : lim->depth;
    poll(s); /* stopped before it started: still one move */
    for (int depth = 1; depth <= max_depth && !s->abort; depth++) {
        s->seldepth = 0;
        for (int pvi = 0; pvi < mpv && !s->abort; pvi++) {
            int prev = out->nlines > pvi ? out->lines[pvi].value : 0;
            int delta = ASPIRATION, alpha = -S_INF, beta = S_INF;
            if (depth >= 4 && out->nlines > pvi && prev > -S_WIN_MIN && prev < S_WIN_MIN) {
                alpha = prev - delta;
                beta = prev + delta;
            }
            for (;;) {
                int v = root_search(s, depth, alpha, beta, (size_t)pvi);
                sort_root(s, (size_t)pvi);
                if (s->abort)
                    break;
                if (v <= alpha && alpha > -S_INF) {
                    beta = (alpha + beta) / 2;
                    alpha = delta > 1000 ? -S_INF : v - delta;
                } else if (v >= beta && beta < S_INF) {
                    beta = delta > 1000 ? S_INF : v + delta;
                } else {
                    break;
                }
                delta *= 2;
                if (alpha < -S_INF)
                    alpha = -S_INF;
                if (beta > S_INF)
                    beta = S_INF;
            }
        }
        if (s->abort)
            break;
        out->nlines = mpv;
        for (int k = 0; k < mpv; k++)
            extend_pv(s, &s->rm[k], depth);
        for (int k = 0; k < mpv; k++)
            set_line(&out->lines[k], &s->rm[k], s->rm[k].score, depth);
        out->depth = depth;
        out->nodes = s->nodes;
        out->tbhits = s->tbhits;
        out->time = now() - s->t0;
        if (info && info(ctx, out))
            break;
        int best = out->lines[0].value;
        if ((best >= S_WIN_MIN || best <= -S_WIN_MIN) && S_WIN - abs(best) <= depth)
            break; /* a proven result no deeper search changes */
        if (lim->soft >= 0 && (out->time >= lim->soft * 0.6 || s->nrm == 1))
            break; /* the next iteration would not end in time, or the move is forced */
    }
    if (s->oom)
        return -1;
    /* Stopped inside an iteration: a first move that beat the last best there
     * was searched to a true bound, so it is kept; with nothing completed the
     * move ordering's first move is the answer. */
    const rootmove_t *r0 = &s->rm[0];
    if (!out->nlines) {
        out->nlines = 1;
        set_line(&out->lines[0], r0, r0->score > -S_INF ? r0->score : evaluate(root, s->w), 0);
    } else if (mpv == 1 && r0->score > -S_INF && !move_same(&r0->m, &out->lines[0].pv[0]) &&
               r0->score > out->lines[0].value) {
        set_line(&out->lines[0], r0, r0->score, out->depth);
    }
    out->nodes = s->nodes;
    out->tbhits = s->tbhits;
    out->time = now() - s->t0;
    return 0;
}
