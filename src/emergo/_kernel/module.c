/* emergo._kernel: CPython bindings of the C kernel (the typed API is emergo.kernel).
 *
 * Positions arrive packed by emergo.kernel as (variant, bytes): side to move,
 * White's hand, Black's hand, then (square, owner, caps, prisoners) per stack.
 * Long calls release the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "perft.h"
#include "playout.h"
#include "search.h"

static const char *const TERM_NAMES[] = {NULL, "no-pieces", "blocked", "repetition"};

/* --- conversions ---------------------------------------------------------------------------- */

static int unpack(PyObject *obj, pos_t *p)
{
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 2) {
        PyErr_SetString(PyExc_TypeError, "a packed position is a (variant, bytes) pair");
        return -1;
    }
    const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(obj, 0));
    if (!name)
        return -1;
    const geo_t *g = geo_find(name);
    if (!g) {
        PyErr_Format(PyExc_ValueError, "variant %s is not registered with the kernel", name);
        return -1;
    }
    PyObject *data = PyTuple_GET_ITEM(obj, 1);
    if (!PyBytes_Check(data)) {
        PyErr_SetString(PyExc_TypeError, "packed position data must be bytes");
        return -1;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(data);
    const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(data);
    if (n < 3 || (n - 3) % 4 || (n - 3) / 4 > K_MAXSQ) {
        PyErr_SetString(PyExc_ValueError, "packed position data has a bad length");
        return -1;
    }
    char err[256];
    if (pos_setup(p, g, b[0], b[1], b[2], (int)((n - 3) / 4), (const uint8_t(*)[4])(b + 3), err,
                  sizeof err) < 0) {
        PyErr_SetString(PyExc_ValueError, err);
        return -1;
    }
    return 0;
}

/* Unpack a sequence of packed positions into a new array (free it). */
static pos_t *unpack_many(PyObject *seq_obj, Py_ssize_t *count)
{
    PyObject *seq = PySequence_Fast(seq_obj, "positions must be a sequence");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    pos_t *ps = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(pos_t));
    if (!ps) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (unpack(PySequence_Fast_GET_ITEM(seq, i), &ps[i]) < 0) {
            PyMem_Free(ps);
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    *count = n;
    return ps;
}

static PyObject *path_tuple(const move_t *m)
{
    PyObject *t = PyTuple_New(m->len);
    if (!t)
        return NULL;
    for (int i = 0; i < m->len; i++) {
        PyObject *v = PyLong_FromLong(m->path[i]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

typedef char text_t[MOVE_TEXT_MAX];

static int text_cmp(const void *a, const void *b) { return strcmp(a, b); }

/* The R21 texts of moves as a list sorted by code point (as Python's sorted). */
static PyObject *texts_sorted(const geo_t *g, const move_t *v, size_t n)
{
    text_t *t = PyMem_Malloc((n ? n : 1) * sizeof(text_t));
    if (!t)
        return PyErr_NoMemory();
    for (size_t i = 0; i < n; i++)
        move_format(g, &v[i], t[i]);
    qsort(t, n, sizeof(text_t), text_cmp);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *s = PyUnicode_FromString(t[i]);
        if (!s) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, s);
    }
    PyMem_Free(t);
    return list;
}

static PyObject *position_text(const pos_t *p)
{
    char buf[POS_TEXT_MAX];
    pos_format(p, buf);
    return PyUnicode_FromString(buf);
}

/* --- geometry ------------------------------------------------------------------------------- */

static int int_items(PyObject *obj, const char *what, int *out, Py_ssize_t max, Py_ssize_t *n)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq)
        return -1;
    *n = PySequence_Fast_GET_SIZE(seq);
    if (*n > max) {
        PyErr_Format(PyExc_ValueError, "%s: too many items", what);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *k_register_geometry(PyObject *self, PyObject *args)
{
    (void)self;
    const char *name;
    int men, centre;
    PyObject *dirs_obj, *squares_obj, *names_obj, *jumps_obj;
    if (!PyArg_ParseTuple(args, "siiOOOO", &name, &men, &centre, &dirs_obj, &squares_obj,
                          &names_obj, &jumps_obj))
        return NULL;
    int dirs[K_MAXDIR], squares[K_MAXSQ];
    Py_ssize_t ndirs, nsq;
    if (int_items(dirs_obj, "directions", dirs, K_MAXDIR, &ndirs) < 0 ||
        int_items(squares_obj, "squares", squares, K_MAXSQ, &nsq) < 0)
        return NULL;
    PyObject *names_seq = PySequence_Fast(names_obj, "names must be a sequence");
    if (!names_seq)
        return NULL;
    PyObject *jumps_seq = PySequence_Fast(jumps_obj, "jumps must be a sequence");
    if (!jumps_seq) {
        Py_DECREF(names_seq);
        return NULL;
    }
    PyObject *result = NULL;
    const char *names[K_MAXSQ];
    Py_ssize_t njumps = PySequence_Fast_GET_SIZE(jumps_seq);
    int(*jumps)[4] = PyMem_Malloc((size_t)(njumps ? njumps : 1) * sizeof *jumps);
    if (!jumps) {
        PyErr_NoMemory();
        goto done;
    }
    if (PySequence_Fast_GET_SIZE(names_seq) != nsq) {
        PyErr_SetString(PyExc_ValueError, "one name per square is needed");
        goto done;
    }
    for (Py_ssize_t i = 0; i < nsq; i++) {
        names[i] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(names_seq, i));
        if (!names[i])
            goto done;
    }
    for (Py_ssize_t i = 0; i < njumps; i++) {
        Py_ssize_t four;
        if (int_items(PySequence_Fast_GET_ITEM(jumps_seq, i), "jump", jumps[i], 4, &four) < 0)
            goto done;
        if (four != 4) {
            PyErr_SetString(PyExc_ValueError, "a jump is (square, direction, over, land)");
            goto done;
        }
    }
    char err[256];
    if (!geo_register(name, men, centre, (int)ndirs, dirs, (int)nsq, squares, names, (int)njumps,
                      (const int(*)[4])jumps, err, sizeof err)) {
        PyErr_SetString(PyExc_ValueError, err);
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(jumps);
    Py_DECREF(names_seq);
    Py_DECREF(jumps_seq);
    return result;
}

/* --- legal moves ---------------------------------------------------------------------------- */

static PyObject *k_legal(PyObject *self, PyObject *packed)
{
    (void)self;
    pos_t p;
    if (unpack(packed, &p) < 0)
        return NULL;
    mlist_t l;
    ml_init(&l, NULL, 0);
    int kind = gen_moves(&p, &l);
    if (kind < 0) {
        ml_free(&l);
        return PyErr_NoMemory();
    }
    PyObject *paths = PyList_New((Py_ssize_t)l.n);
    for (size_t i = 0; paths && i < l.n; i++) {
        PyObject *t = path_tuple(&l.v[i]);
        if (!t)
            Py_CLEAR(paths);
        else
            PyList_SET_ITEM(paths, (Py_ssize_t)i, t);
    }
    int size = l.n ? l.v[0].men : 0;
    ml_free(&l);
    if (!paths)
        return NULL;
    return Py_BuildValue("iiN", kind, size, paths);
}

static PyObject *k_legal_batch(PyObject *self, PyObject *seq)
{
    (void)self;
    Py_ssize_t n;
    pos_t *ps = unpack_many(seq, &n);
    if (!ps)
        return NULL;
    size_t *off = PyMem_Malloc((size_t)(n + 1) * sizeof *off);
    if (!off) {
        PyMem_Free(ps);
        return PyErr_NoMemory();
    }
    mlist_t all;
    ml_init(&all, NULL, 0);
    int oom = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n && !oom; i++) {
        off[i] = all.n;
        oom = gen_moves(&ps[i], &all) < 0;
    }
    off[n] = all.n;
    Py_END_ALLOW_THREADS
    PyObject *out = oom ? PyErr_NoMemory() : PyList_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *texts = texts_sorted(ps[i].g, all.v + off[i], off[i + 1] - off[i]);
        if (!texts)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, texts);
    }
    ml_free(&all);
    PyMem_Free(off);
    PyMem_Free(ps);
    return out;
}

static PyObject *k_key(PyObject *self, PyObject *packed)
{
    (void)self;
    pos_t p;
    if (unpack(packed, &p) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(p.key);
}

/* --- perft ---------------------------------------------------------------------------------- */

#define MAX_DEPTH 64

static PyObject *k_perft(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *packed;
    int depth;
    if (!PyArg_ParseTuple(args, "Oi", &packed, &depth))
        return NULL;
    if (depth < 0 || depth > MAX_DEPTH)
        return PyErr_Format(PyExc_ValueError, "depth must be 0..%d, not %d", MAX_DEPTH, depth);
    pos_t p;
    if (unpack(packed, &p) < 0)
        return NULL;
    uint64_t nodes;
    int oom;
    Py_BEGIN_ALLOW_THREADS
    nodes = perft(&p, depth, &oom, NULL);
    Py_END_ALLOW_THREADS
    if (oom)
        return PyErr_NoMemory();
    return PyLong_FromUnsignedLongLong(nodes);
}

static PyObject *k_perft_divide(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *packed;
    int depth;
    if (!PyArg_ParseTuple(args, "Oi", &packed, &depth))
        return NULL;
    if (depth < 1 || depth > MAX_DEPTH)
        return PyErr_Format(PyExc_ValueError, "depth must be 1..%d, not %d", MAX_DEPTH, depth);
    pos_t p;
    if (unpack(packed, &p) < 0)
        return NULL;
    mlist_t l;
    ml_init(&l, NULL, 0);
    uint64_t *counts = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = perft_divide(&p, depth, &l, &counts, NULL);
    Py_END_ALLOW_THREADS
    PyObject *rows = rc < 0 ? PyErr_NoMemory() : PyList_New(counts ? (Py_ssize_t)l.n : 0);
    for (size_t i = 0; rows && counts && i < l.n; i++) {
        PyObject *item = Py_BuildValue("NK", path_tuple(&l.v[i]), (unsigned long long)counts[i]);
        if (!item)
            Py_CLEAR(rows);
        else
            PyList_SET_ITEM(rows, (Py_ssize_t)i, item);
    }
    int kind = counts && l.n ? l.v[0].kind : MK_NONE;
    free(counts);
    ml_free(&l);
    return rows ? Py_BuildValue("iN", kind, rows) : NULL;
}

/* --- playouts ------------------------------------------------------------------------------- */

static PyObject *stats_tuple(const pstats_t *st)
{
    return Py_BuildValue("KKKKKKKK", (unsigned long long)st->games,
                         (unsigned long long)st->wins[WHITE], (unsigned long long)st->wins[BLACK],
                         (unsigned long long)st->draws, (unsigned long long)st->plies,
                         (unsigned long long)st->term[TERM_NO_PIECES],
                         (unsigned long long)st->term[TERM_BLOCKED],
                         (unsigned long long)st->term[TERM_REPETITION]);
}

static PyObject *k_playouts(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *packed;
    unsigned long long n, seed;
    if (!PyArg_ParseTuple(args, "OKK", &packed, &n, &seed))
        return NULL;
    pos_t p;
    if (unpack(packed, &p) < 0)
        return NULL;
    pstats_t st;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = playouts(&p, n, seed, &st, NULL);
    Py_END_ALLOW_THREADS
    if (rc < 0)
        return PyErr_NoMemory();
    return stats_tuple(&st);
}

static PyObject *k_playouts_batch(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *seq;
    unsigned long long n, seed;
    if (!PyArg_ParseTuple(args, "OKK", &seq, &n, &seed))
        return NULL;
    Py_ssize_t count;
    pos_t *ps = unpack_many(seq, &count);
    if (!ps)
        return NULL;
    pstats_t *st = PyMem_Malloc((size_t)(count ? count : 1) * sizeof *st);
    if (!st) {
        PyMem_Free(ps);
        return PyErr_NoMemory();
    }
    int rc = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < count && !rc; i++)
        rc = playouts(&ps[i], n, seed, &st[i], NULL);
    Py_END_ALLOW_THREADS
    PyObject *out = rc < 0 ? PyErr_NoMemory() : PyList_New(count);
    for (Py_ssize_t i = 0; out && i < count; i++) {
        PyObject *t = stats_tuple(&st[i]);
        if (!t)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, t);
    }
    PyMem_Free(st);
    PyMem_Free(ps);
    return out;
}

/* --- whole games ---------------------------------------------------------------------------- */

/* Read a path given as a sequence of square ints; -1 with an exception if it is no path. */
static int read_path(PyObject *obj, move_t *m)
{
    PyObject *seq = PySequence_Fast(obj, "a move is a sequence of square ints");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int rc = 0;
    m->len = (uint8_t)(n > K_MAXPATH ? 0 : n);
    for (Py_ssize_t i = 0; i < n && i < K_MAXPATH; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            rc = -1;
            break;
        }
        m->path[i] = (uint8_t)(v < 0 || v >= K_MAXSQ ? K_NOSQ : v);
        if (v < 0 || v >= K_MAXSQ)
            m->len = 0;
    }
    Py_DECREF(seq);
    return rc;
}

static const char *game_result(int term, int winner)
{
    if (term == TERM_NONE)
        return "*";
    if (winner < 0)
        return "1/2-1/2";
    return winner == WHITE ? "1-0" : "0-1";
}

/* game(packed, seed, moves): a random game (moves None) or a replay of the
 * given paths; per ply the sorted legal texts and the move played, then the
 * result, the termination and the final position.  Random game `seed` is
 * game 0 of playouts(packed, n, seed). */
static PyObject *k_game(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *packed, *moves_obj;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OKO", &packed, &seed, &moves_obj))
        return NULL;
    pos_t root;
    if (unpack(packed, &root) < 0)
        return NULL;
    PyObject *moves = NULL;
    if (moves_obj != Py_None) {
        moves = PySequence_Fast(moves_obj, "moves must be a sequence of paths");
        if (!moves)
            return NULL;
    }
    game_t *gm = PyMem_Malloc(sizeof *gm);
    if (!gm || game_init(gm, &root) < 0) {
        PyMem_Free(gm);
        Py_XDECREF(moves);
        return PyErr_NoMemory();
    }
    mlist_t l;
    ml_init(&l, NULL, 0);
    PyObject *legal = PyList_New(0), *played = PyList_New(0), *out = NULL;
    rng_t r;
    rng_seed(&r, seed);
    int term = TERM_NONE, winner = -1;
    if (!legal || !played)
        goto done;
    for (Py_ssize_t ply = 0;; ply++) {
        term = game_status(gm, &winner);
        if (term == TERM_ERROR) {
            PyErr_NoMemory();
            goto done;
        }
        if (moves && ply == PySequence_Fast_GET_SIZE(moves))
            break;
        if (term != TERM_NONE) {
            if (moves) {
                PyErr_Format(PyExc_ValueError, "move %zd: the game is already over (%s)",
                             ply + 1, TERM_NAMES[term]);
                goto done;
            }
            break;
        }
        l.n = 0;
        for (size_t i = 0; i < gm->ms.count; i++) {
            move_t *m = ml_push(&l);
            if (!m) {
                PyErr_NoMemory();
                goto done;
            }
            ms_move(root.g, &gm->ms, i, m);
        }
        size_t choice = 0;
        if (moves) {
            move_t want;
            if (read_path(PySequence_Fast_GET_ITEM(moves, ply), &want) < 0)
                goto done;
            for (choice = 0; choice < l.n; choice++)
                if (l.v[choice].len == want.len && !memcmp(l.v[choice].path, want.path, want.len))
                    break;
            if (choice == l.n) {
                char text[MOVE_TEXT_MAX] = "(not a path on this board)";
                int on_board = want.len > 0;
                for (int i = 0; i < want.len; i++)
                    on_board &= want.path[i] < K_MAXSQ && ((root.g->mask >> want.path[i]) & 1);
                if (on_board) {
                    want.kind = want.len == 2 && gm->ms.kind != MK_CAPTURE ? MK_STEP : MK_CAPTURE;
                    move_format(root.g, &want, text);
                }
                PyErr_Format(PyExc_ValueError, "move %zd: %s is not legal", ply + 1, text);
                goto done;
            }
        } else {
            choice = rng_below(&r, gm->ms.count);
        }
        PyObject *texts = texts_sorted(root.g, l.v, l.n);
        char text[MOVE_TEXT_MAX];
        move_format(root.g, &l.v[choice], text);
        PyObject *t = PyUnicode_FromString(text);
        int bad = !texts || !t || PyList_Append(legal, texts) < 0 || PyList_Append(played, t) < 0;
        Py_XDECREF(texts);
        Py_XDECREF(t);
        if (bad)
            goto done;
        if (game_play(gm, &l.v[choice]) < 0) {
            PyErr_NoMemory();
            goto done;
        }
    }
    {
        PyObject *final = position_text(&gm->pos);
        if (final)
            out = Py_BuildValue("OOszN", legal, played, game_result(term, winner), TERM_NAMES[term],
                                final);
    }
done:
    Py_XDECREF(legal);
    Py_XDECREF(played);
    Py_XDECREF(moves);
    ml_free(&l);
    game_free(gm);
    PyMem_Free(gm);
    return out;
}

/* --- self-check ----------------------------------------------------------------------------- */

#define MAX_ERRORS 20
#define ERROR_LEN 300

typedef struct checker {
    int nerr;
    char err[MAX_ERRORS][ERROR_LEN];
    pstats_t st;
} checker_t;

static void men_count(const pos_t *p, int men[2])
{
    men[0] = p->hand[0];
    men[1] = p->hand[1];
    bb_t occ = p->owned[0] | p->owned[1];
    while (occ) {
        int sq = bb_lsb(occ);
        occ &= occ - 1;
        int o = pos_owner(p, sq);
        men[o] += p->caps[sq];
        men[!o] += p->pris[sq];
    }
}

/* Invariants of one position and its moves; returns a message or NULL. */
static const char *check_ply(game_t *gm, const pos_t *root, mlist_t *l, char *msg, size_t len)
{
    pos_t *p = &gm->pos;
    if (pos_check(p, msg, len) < 0)
        return msg;
    int m0[2], m1[2];
    men_count(root, m0);
    men_count(p, m1);
    if (m0[0] != m1[0] || m0[1] != m1[1])
        return "men are not conserved (R5)";
    const moveset_t *ms = &gm->ms;
    moveset_t counted;
    gen_moveset(p, &counted, NULL);
    if (counted.kind != ms->kind || counted.count != ms->count || counted.size != ms->size)
        return "counting generation differs from listing generation";
    if ((ms->kind == MK_CAPTURE) != (pos_attackers(p, p->turn) != 0))
        return "capture priority (R8) violated";
    l->n = 0;
    if (gen_moves(p, l) != ms->kind || l->n != ms->count)
        return "gen_moves differs from the moveset";
    qsort(l->v, l->n, sizeof(move_t), move_cmp);
    pos_t before = *p;
    for (size_t i = 0; i < l->n; i++) {
        const move_t *m = &l->v[i];
        if (i && !move_cmp(&l->v[i - 1], m))
            return "a move is generated twice";
        if (m->kind == MK_CAPTURE && (m->men != ms->size || m->len != ms->size + 1))
            return "a capture route has the wrong length (R11)";
        undo_t u;
        pos_make(p, m, &u);
        if (pos_check(p, msg, len) < 0) {
            pos_unmake(p, &u);
            return msg;
        }
        pos_unmake(p, &u);
        if (!pos_equal(p, &before) || p->key != before.key)
            return "unmake does not restore the position";
    }
    return NULL;
}

static int selfcheck(const pos_t *root, uint64_t n, uint64_t seed, checker_t *ck)
{
    memset(ck, 0, sizeof *ck);
    game_t *gm = malloc(sizeof *gm);
    if (!gm || game_init(gm, root) < 0) {
        free(gm);
        return -1;
    }
    mlist_t l;
    ml_init(&l, NULL, 0);
    int rc = 0;
    for (uint64_t i = 0; i < n && !rc; i++) {
        rng_t r;
        rng_seed(&r, seed + i);
        game_reset(gm, root);
        for (;;) {
            int winner, t = game_status(gm, &winner);
            if (t == TERM_ERROR) {
                rc = -1;
                break;
            }
            char msg[ERROR_LEN - 64];
            const char *bad = t == TERM_NO_PIECES ? NULL : check_ply(gm, root, &l, msg, sizeof msg);
            if (bad) {
                if (ck->nerr < MAX_ERRORS)
                    snprintf(ck->err[ck->nerr++], ERROR_LEN, "seed %llu ply %zu: %s",
                             (unsigned long long)(seed + i), gm->ply, bad);
                break;
            }
            if (t != TERM_NONE) {
                pstats_add(&ck->st, gm, t, winner);
                break;
            }
            move_t m;
            ms_move(root->g, &gm->ms, rng_below(&r, gm->ms.count), &m);
            if (game_play(gm, &m) < 0) {
                rc = -1;
                break;
            }
        }
    }
    ml_free(&l);
    game_free(gm);
    free(gm);
    return rc;
}

static PyObject *k_selfcheck(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *packed;
    unsigned long long n, seed;
    if (!PyArg_ParseTuple(args, "OKK", &packed, &n, &seed))
        return NULL;
    pos_t p;
    if (unpack(packed, &p) < 0)
        return NULL;
    checker_t *ck = PyMem_Malloc(sizeof *ck);
    if (!ck)
        return PyErr_NoMemory();
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = selfcheck(&p, n, seed, ck);
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (rc < 0) {
        PyErr_NoMemory();
    } else {
        PyObject *errors = PyList_New(ck->nerr);
        for (int i = 0; errors && i < ck->nerr; i++) {
            PyObject *s = PyUnicode_FromString(ck->err[i]);
            if (!s)
                Py_CLEAR(errors);
            else
                PyList_SET_ITEM(errors, i, s);
        }
        if (errors)
            out = Py_BuildValue("NN", stats_tuple(&ck->st), errors);
    }
    PyMem_Free(ck);
    return out;
}

/* --- benchmark ------------------------------------------------------------------------------ */

static PyObject *k_bench_generate(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *seq;
    unsigned long long reps;
    if (!PyArg_ParseTuple(args, "OK", &seq, &reps))
        return NULL;
    Py_ssize_t n;
    pos_t *ps = unpack_many(seq, &n);
    if (!ps)
        return NULL;
    unsigned long long total = 0;
    int oom = 0;
    Py_BEGIN_ALLOW_THREADS
    move_t buf[K_INLINE_MOVES];
    mlist_t l;
    ml_init(&l, buf, K_INLINE_MOVES);
    for (unsigned long long r = 0; r < reps && !oom; r++)
        for (Py_ssize_t i = 0; i < n; i++) {
            moveset_t ms;
            l.n = 0;
            oom |= gen_moveset(&ps[i], &ms, &l) < 0;
            total += ms.count;
        }
    ml_free(&l);
    Py_END_ALLOW_THREADS
    PyMem_Free(ps);
    if (oom)
        return PyErr_NoMemory();
    return PyLong_FromUnsignedLongLong(total);
}

/* --- evaluation ----------------------------------------------------------------------------- */

/* Weights from a sequence of EV_NTERMS ints; -1 with an exception. */
static int read_weights(PyObject *obj, int w[EV_NTERMS])
{
    Py_ssize_t n;
    int buf[EV_NTERMS + 1];
    if (int_items(obj, "weights", buf, EV_NTERMS + 1, &n) < 0)
        return -1;
    if (n != EV_NTERMS) {
        PyErr_Format(PyExc_ValueError, "%d weights are needed, not %zd", EV_NTERMS, n);
        return -1;
    }
    memcpy(w, buf, sizeof(int) * EV_NTERMS);
    return 0;
}

static PyObject *k_eval_terms_info(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyObject *list = PyList_New(EV_NTERMS);
    for (int i = 0; list && i < EV_NTERMS; i++) {
        PyObject *t = Py_BuildValue("sis", eval_names[i], eval_defaults[i], eval_docs[i]);
        if (!t)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *int_list(const int *v, int n)
{
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, x);
    }
    return list;
}

static PyObject *k_eval_terms(PyObject *self, PyObject *packed)
{
    (void)self;
    pos_t p;
    if (unpack(packed, &p) < 0)
        return NULL;
    int t[EV_NTERMS];
    eval_terms(&p, t);
    return int_list(t, EV_NTERMS);
}

static PyObject *k_eval_terms_batch(PyObject *self, PyObject *seq)
{
    (void)self;
    Py_ssize_t n;
    pos_t *ps = unpack_many(seq, &n);
    if (!ps)
        return NULL;
    PyObject *out = PyList_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        int t[EV_NTERMS];
        eval_terms(&ps[i], t);
        PyObject *row = int_list(t, EV_NTERMS);
        if (!row)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, row);
    }
    PyMem_Free(ps);
    return out;
}

static PyObject *k_evaluate(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *packed, *wobj;
    if (!PyArg_ParseTuple(args, "OO", &packed, &wobj))
        return NULL;
    int w[EV_NTERMS];
    pos_t p;
    if (read_weights(wobj, w) < 0 || unpack(packed, &p) < 0)
        return NULL;
    return PyLong_FromLong(evaluate(&p, w));
}

/* --- the searcher ---------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    searcher_t *s;
    int busy;
} SearcherObject;

static PyObject *move_tuple(const move_t *m)
{
    return Py_BuildValue("iiN", m->kind, m->men, path_tuple(m));
}

static PyObject *lines_list(const sresult_t *r)
{
    PyObject *lines = PyList_New(r->nlines);
    for (int k = 0; lines && k < r->nlines; k++) {
        const sline_t *l = &r->lines[k];
        PyObject *pv = PyList_New(l->len);
        for (int i = 0; pv && i < l->len; i++) {
            PyObject *m = move_tuple(&l->pv[i]);
            if (!m)
                Py_CLEAR(pv);
            else
                PyList_SET_ITEM(pv, i, m);
        }
        PyObject *t = pv ? Py_BuildValue("iiiN", l->value, l->depth, l->seldepth, pv) : NULL;
        if (!t)
            Py_CLEAR(lines);
        else
            PyList_SET_ITEM(lines, k, t);
    }
    return lines;
}

typedef struct {
    PyObject *callback;
    int failed; /* the callback raised: its exception is kept in type, value, tb */
    PyObject *type, *value, *tb;
} infoctx_t;

/* Called from the search (GIL released): report one completed iteration. */
static int report(void *vctx, const sresult_t *r)
{
    infoctx_t *ctx = vctx;
    PyGILState_STATE g = PyGILState_Ensure();
    int stop = 0;
    PyObject *lines = lines_list(r);
    PyObject *res = lines ? PyObject_CallFunction(ctx->callback, "NKdi", lines,
                                                  (unsigned long long)r->nodes, r->time, r->depth)
                          : NULL;
    if (!res) {
        ctx->failed = 1;
        PyErr_Fetch(&ctx->type, &ctx->value, &ctx->tb);
        stop = 1;
    }
    Py_XDECREF(res);
    PyGILState_Release(g);
    return stop;
}

static PyObject *Searcher_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"hash_mb", NULL};
    Py_ssize_t mb = 16;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|n", kwlist, &mb))
        return NULL;
    if (mb < 1 || mb > 65536)
        return PyErr_Format(PyExc_ValueError, "hash size must be 1..65536 MB, not %zd", mb);
    SearcherObject *self = (SearcherObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->s = searcher_new((size_t)mb);
    if (!self->s) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

static void Searcher_dealloc(SearcherObject *self)
{
    searcher_free(self->s);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int not_busy(SearcherObject *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is searching: stop it first");
        return 0;
    }
    return 1;
}

static PyObject *Searcher_stop(SearcherObject *self, PyObject *unused)
{
    (void)unused;
    searcher_stop(self->s);
    Py_RETURN_NONE;
}

static PyObject *Searcher_clear(SearcherObject *self, PyObject *unused)
{
    (void)unused;
    if (!not_busy(self))
        return NULL;
    searcher_clear(self->s);
    Py_RETURN_NONE;
}

static PyObject *Searcher_resize(SearcherObject *self, PyObject *arg)
{
    Py_ssize_t mb = PyLong_AsSsize_t(arg);
    if (mb == -1 && PyErr_Occurred())
        return NULL;
    if (mb < 1 || mb > 65536)
        return PyErr_Format(PyExc_ValueError, "hash size must be 1..65536 MB, not %zd", mb);
    if (!not_busy(self))
        return NULL;
    if (searcher_resize(self->s, (size_t)mb) < 0)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *Searcher_set_weights(SearcherObject *self, PyObject *arg)
{
    int w[EV_NTERMS];
    if (!not_busy(self) || read_weights(arg, w) < 0)
        return NULL;
    searcher_set_weights(self->s, w);
    Py_RETURN_NONE;
}

/* Replay paths from root in a game (R19b needs the history); the index of
 * the first position that may recur (same hands and number of stacks). */
static int replay_history(game_t *gm, const pos_t *root, PyObject *paths, size_t *irr, int *term)
{
    PyObject *seq = PySequence_Fast(paths, "moves must be a sequence of paths");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int rc = -1, winner;
    for (Py_ssize_t ply = 0;; ply++) {
        *term = game_status(gm, &winner);
        if (*term == TERM_ERROR) {
            PyErr_NoMemory();
            goto done;
        }
        if (ply == n)
            break;
        if (*term != TERM_NONE) {
            PyErr_Format(PyExc_ValueError, "move %zd: the game is already over (%s)", ply + 1,
                         TERM_NAMES[*term]);
            goto done;
        }
        move_t want, m;
        if (read_path(PySequence_Fast_GET_ITEM(seq, ply), &want) < 0)
            goto done;
        size_t i;
        for (i = 0; i < gm->ms.count; i++) {
            ms_move(root->g, &gm->ms, i, &m);
            if (m.len == want.len && !memcmp(m.path, want.path, want.len))
                break;
        }
        if (i == gm->ms.count) {
            PyErr_Format(PyExc_ValueError, "move %zd is not legal", ply + 1);
            goto done;
        }
        if (game_play(gm, &m) < 0) {
            PyErr_NoMemory();
            goto done;
        }
    }
    *irr = gm->last_irr;
    rc = 0;
done:
    Py_DECREF(seq);
    return rc;
}

/* search(root, paths, depth, nodes, soft, hard, multipv, callback) ->
 *   (termination or None, lines, nodes, seconds, depth) */
static PyObject *Searcher_search(SearcherObject *self, PyObject *args)
{
    PyObject *packed, *paths, *callback;
    int depth, multipv;
    unsigned long long nodes;
    double soft, hard;
    if (!PyArg_ParseTuple(args, "OOiKddiO", &packed, &paths, &depth, &nodes, &soft, &hard,
                          &multipv, &callback))
        return NULL;
    if (callback != Py_None && !PyCallable_Check(callback)) {
        PyErr_SetString(PyExc_TypeError, "the info callback must be callable or None");
        return NULL;
    }
    if (!not_busy(self))
        return NULL;
    pos_t root;
    if (unpack(packed, &root) < 0)
        return NULL;
    game_t *gm = PyMem_Malloc(sizeof *gm);
    sresult_t *out = PyMem_Malloc(sizeof *out);
    if (!gm || !out || game_init(gm, &root) < 0) {
        PyMem_Free(gm);
        PyMem_Free(out);
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    size_t irr;
    int term;
    if (replay_history(gm, &root, paths, &irr, &term) < 0)
        goto done;
    if (term != TERM_NONE) { /* R18, R19a, R19b: nothing to search */
        result = Py_BuildValue("s[]Kdi", TERM_NAMES[term], 0ULL, 0.0, 0);
        goto done;
    }
    slimits_t lim = {depth, nodes, soft, hard, multipv};
    infoctx_t ctx = {callback, 0, NULL, NULL, NULL};
    int rc;
    self->busy = 1;
    searcher_rearm(self->s);
    Py_INCREF(self);
    Py_BEGIN_ALLOW_THREADS
    rc = searcher_run(self->s, &gm->pos, gm->keys, gm->ply + 1, irr, &lim,
                      callback == Py_None ? NULL : report, &ctx, NULL, out);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    Py_DECREF(self);
    if (ctx.failed) {
        PyErr_Restore(ctx.type, ctx.value, ctx.tb);
        goto done;
    }
    if (rc < 0) {
        PyErr_NoMemory();
        goto done;
    }
    result = Py_BuildValue("ONKdi", Py_None, lines_list(out), (unsigned long long)out->nodes,
                           out->time, out->depth);
done:
    game_free(gm);
    PyMem_Free(gm);
    PyMem_Free(out);
    return result;
}

static PyObject *Searcher_set_option(SearcherObject *self, PyObject *args)
{
    const char *name;
    int value;
    if (!PyArg_ParseTuple(args, "si", &name, &value) || !not_busy(self))
        return NULL;
    if (searcher_set_option(self->s, name, value) < 0)
        return PyErr_Format(PyExc_ValueError, "bad search option %s = %d", name, value);
    Py_RETURN_NONE;
}

static PyMethodDef searcher_methods[] = {
    {"set_option", (PyCFunction)Searcher_set_option, METH_VARARGS,
     "set_option(name, value): a tuning knob of the search (evasions: 0..8)"},
    {"search", (PyCFunction)Searcher_search, METH_VARARGS,
     "search(root, paths, depth, nodes, soft, hard, multipv, callback) -> "
     "(termination, lines, nodes, seconds, depth)"},
    {"stop", (PyCFunction)Searcher_stop, METH_NOARGS, "stop the running search (any thread)"},
    {"clear", (PyCFunction)Searcher_clear, METH_NOARGS, "forget the hash table and history"},
    {"resize", (PyCFunction)Searcher_resize, METH_O, "resize(hash_mb): a new, empty table"},
    {"set_weights", (PyCFunction)Searcher_set_weights, METH_O, "set_weights(ints)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "emergo._kernel.Searcher",
    .tp_basicsize = sizeof(SearcherObject),
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Searcher(hash_mb=16): the C search (use emergo.kernel.Searcher)",
    .tp_methods = searcher_methods,
    .tp_new = Searcher_new,
};

/* --- module --------------------------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"register_geometry", k_register_geometry, METH_VARARGS,
     "register_geometry(name, men, centre, directions, squares, names, jumps)"},
    {"legal", k_legal, METH_O, "legal(packed) -> (kind, size, paths in generation order)"},
    {"legal_batch", k_legal_batch, METH_O, "legal_batch(packed_list) -> sorted texts per position"},
    {"key", k_key, METH_O, "key(packed) -> Zobrist key"},
    {"perft", k_perft, METH_VARARGS, "perft(packed, depth) -> leaf count"},
    {"perft_divide", k_perft_divide, METH_VARARGS, "perft_divide(packed, depth) -> (kind, [(path, n)])"},
    {"playouts", k_playouts, METH_VARARGS,
     "playouts(packed, n, seed) -> (games, white, black, draws, plies, no_pieces, blocked, "
     "repetition)"},
    {"playouts_batch", k_playouts_batch, METH_VARARGS, "playouts_batch(packed_list, n, seed)"},
    {"game", k_game, METH_VARARGS,
     "game(packed, seed, paths|None) -> (legal, played, result, termination, final)"},
    {"selfcheck", k_selfcheck, METH_VARARGS, "selfcheck(packed, n, seed) -> (stats, errors)"},
    {"bench_generate", k_bench_generate, METH_VARARGS,
     "bench_generate(packed_list, reps) -> total moves"},
    {"eval_terms_info", k_eval_terms_info, METH_NOARGS, "eval_terms_info() -> [(name, default, doc)]"},
    {"eval_terms", k_eval_terms, METH_O, "eval_terms(packed) -> term counts (mover's view)"},
    {"eval_terms_batch", k_eval_terms_batch, METH_O, "eval_terms_batch(packed_list) -> rows"},
    {"evaluate", k_evaluate, METH_VARARGS, "evaluate(packed, weights) -> centi-men (mover's view)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "emergo._kernel", "The C kernel of emergo (use emergo.kernel).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernel(void)
{
#if defined(__POPCNT__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "emergo._kernel was built for CPUs with POPCNT and this "
                                           "one has none: reinstall with EMERGO_PORTABLE=1");
        return NULL;
    }
#endif
    zobrist_init();
    PyObject *m = PyModule_Create(&module);
    if (m && (PyModule_AddIntConstant(m, "MAX_PATH", K_MAXPATH) < 0 ||
              PyModule_AddIntConstant(m, "MAX_MEN", K_MAXMEN) < 0 ||
              PyModule_AddIntConstant(m, "WIN_VALUE", S_WIN) < 0 ||
              PyModule_AddIntConstant(m, "MAX_DEPTH", S_MAXDEPTH) < 0 ||
              PyModule_AddIntConstant(m, "MAX_MULTIPV", S_MAXPV) < 0 ||
              PyType_Ready(&SearcherType) < 0 ||
              PyModule_AddObjectRef(m, "Searcher", (PyObject *)&SearcherType) < 0)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
