/* Bindings of whole games: playouts, a random or replayed game ply by ply, the self-check. */
#include "bind.h"

#include "replay.h"
#include "selfcheck.h"

static PyObject *k_playouts(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *packed;
    uint64_t n, seed;
    pos_t p;
    if (!PyArg_ParseTuple(args, "OO&O&", &packed, u64_arg, &n, u64_arg, &seed) ||
        unpack(packed, &p) < 0)
        return NULL;
    pstats_t st;
    pyhalt_t ph;
    pyhalt_begin(&ph);
    int rc = playouts(&p, n, seed, &st, &ph.h);
    if (pyhalt_end(&ph) < 0)
        return NULL;
    if (rc < 0)
        return PyErr_NoMemory();
    return stats_tuple(&st);
}

static PyObject *k_playouts_batch(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *seq;
    uint64_t n, seed;
    if (!PyArg_ParseTuple(args, "OO&O&", &seq, u64_arg, &n, u64_arg, &seed))
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
    pyhalt_t ph;
    pyhalt_begin(&ph);
    for (Py_ssize_t i = 0; i < count && !rc; i++)
        rc = playouts(&ps[i], n, seed, &st[i], &ph.h);
    PyObject *out = NULL;
    if (pyhalt_end(&ph) == 0)
        out = rc < 0 ? PyErr_NoMemory() : PyList_New(count);
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

static const char *game_result(int term, int winner)
{
    if (term == TERM_NONE)
        return "*";
    if (winner < 0)
        return "1/2-1/2";
    return winner == WHITE ? "1-0" : "0-1";
}

/* game(packed, seed, paths|None): a random game (paths None) or a replay of the
 * given paths; per ply the sorted legal texts and the move played, then the
 * result, the termination and the final position.  Random game `seed` is
 * game 0 of playouts(packed, n, seed).  A game is short: the GIL is kept. */
static PyObject *k_game(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *packed, *paths_obj;
    uint64_t seed;
    pos_t root;
    if (!PyArg_ParseTuple(args, "OO&O", &packed, u64_arg, &seed, &paths_obj) ||
        unpack(packed, &root) < 0)
        return NULL;
    move_t *paths = NULL;
    Py_ssize_t npaths = 0;
    if (paths_obj != Py_None && !(paths = read_paths(paths_obj, &npaths)))
        return NULL;
    game_t *gm = PyMem_Malloc(sizeof *gm);
    if (!gm || game_init(gm, &root) < 0) {
        PyMem_Free(gm);
        PyMem_Free(paths);
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
        if (paths && ply == npaths)
            break;
        if (term != TERM_NONE) {
            if (paths) {
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
        move_t chosen;
        if (paths) {
            if (game_find(gm, &paths[ply], &chosen) < 0) {
                char text[MOVE_TEXT_MAX];
                path_text(gm, &paths[ply], text);
                PyErr_Format(PyExc_ValueError, "move %zd: %s is not legal", ply + 1, text);
                goto done;
            }
        } else {
            chosen = l.v[rng_below(&r, gm->ms.count)];
        }
        PyObject *texts = texts_sorted(root.g, l.v, l.n);
        char text[MOVE_TEXT_MAX];
        move_format(root.g, &chosen, text);
        PyObject *t = PyUnicode_FromString(text);
        int bad = !texts || !t || PyList_Append(legal, texts) < 0 || PyList_Append(played, t) < 0;
        Py_XDECREF(texts);
        Py_XDECREF(t);
        if (bad)
            goto done;
        if (game_play(gm, &chosen) < 0) {
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
    PyMem_Free(paths);
    ml_free(&l);
    game_free(gm);
    PyMem_Free(gm);
    return out;
}

static PyObject *k_selfcheck(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *packed;
    uint64_t n, seed;
    pos_t p;
    if (!PyArg_ParseTuple(args, "OO&O&", &packed, u64_arg, &n, u64_arg, &seed) ||
        unpack(packed, &p) < 0)
        return NULL;
    checker_t *ck = PyMem_Malloc(sizeof *ck);
    if (!ck)
        return PyErr_NoMemory();
    pyhalt_t ph;
    pyhalt_begin(&ph);
    int rc = selfcheck(&p, n, seed, ck, &ph.h);
    PyObject *out = NULL;
    if (pyhalt_end(&ph) < 0) {
        /* KeyboardInterrupt (or what a signal handler raised) is set */
    } else if (rc < 0) {
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

PyMethodDef bind_games_methods[] = {
    {"playouts", k_playouts, METH_VARARGS,
     "playouts(packed, n, seed) -> (games, white, black, draws, plies, no_pieces, blocked, "
     "repetition)"},
    {"playouts_batch", k_playouts_batch, METH_VARARGS, "playouts_batch(packed_list, n, seed)"},
    {"game", k_game, METH_VARARGS,
     "game(packed, seed, paths|None) -> (legal, played, result, termination, final)"},
    {"selfcheck", k_selfcheck, METH_VARARGS, "selfcheck(packed, n, seed) -> (stats, errors)"},
    {NULL, NULL, 0, NULL},
};
