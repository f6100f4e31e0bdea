/* Binding helpers shared by every bind_*.c: packed positions, paths, checked ints, Ctrl-C. */
#include "bind.h"

#include <limits.h>
#include <string.h>
#include <time.h>

const char *const TERM_NAMES[] = {NULL, "no-pieces", "blocked", "repetition"};

/* --- positions and moves -------------------------------------------------------------------- */

int unpack(PyObject *obj, pos_t *p)
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

pos_t *unpack_many(PyObject *seq_obj, Py_ssize_t *count)
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

PyObject *path_tuple(const move_t *m)
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

PyObject *texts_sorted(const geo_t *g, const move_t *v, size_t n)
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

PyObject *position_text(const pos_t *p)
{
    char buf[POS_TEXT_MAX];
    pos_format(p, buf);
    return PyUnicode_FromString(buf);
}

/* One path; -1 with an exception when it is not a sequence of ints. */
static int read_path(PyObject *obj, move_t *m)
{
    PyObject *seq = PySequence_Fast(obj, "a move is a sequence of square ints");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int rc = 0;
    memset(m, 0, sizeof *m);
    m->len = (uint8_t)(n > K_MAXPATH ? 0 : n);
    for (Py_ssize_t i = 0; i < n && i < K_MAXPATH; i++) {
        int overflow;
        long v = PyLong_AsLongAndOverflow(PySequence_Fast_GET_ITEM(seq, i), &overflow);
        if (v == -1 && PyErr_Occurred()) {
            rc = -1;
            break;
        }
        if (overflow || v < 0 || v >= K_MAXSQ) {
            m->path[i] = K_NOSQ;
            m->len = 0;
        } else {
            m->path[i] = (uint8_t)v;
        }
    }
    Py_DECREF(seq);
    return rc;
}

move_t *read_paths(PyObject *paths, Py_ssize_t *count)
{
    PyObject *seq = PySequence_Fast(paths, "moves must be a sequence of paths");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    move_t *v = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *v);
    if (!v) {
        Py_DECREF(seq);
        return (move_t *)PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (read_path(PySequence_Fast_GET_ITEM(seq, i), &v[i]) < 0) {
            PyMem_Free(v);
            Py_DECREF(seq);
            return NULL;
        }
    Py_DECREF(seq);
    *count = n;
    return v;
}

PyObject *stats_tuple(const pstats_t *st)
{
    return Py_BuildValue("KKKKKKKK", (unsigned long long)st->games,
                         (unsigned long long)st->wins[WHITE], (unsigned long long)st->wins[BLACK],
                         (unsigned long long)st->draws, (unsigned long long)st->plies,
                         (unsigned long long)st->term[TERM_NO_PIECES],
                         (unsigned long long)st->term[TERM_BLOCKED],
                         (unsigned long long)st->term[TERM_REPETITION]);
}

/* --- checked integers ----------------------------------------------------------------------- */

int int_in(PyObject *obj, const char *what, long low, long high, int *out)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    int overflow;
    long v = PyLong_AsLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "%s must be %ld..%ld, not %R", what, low, high, obj);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int int_items(PyObject *obj, const char *what, long low, long high, int *out, Py_ssize_t max,
              Py_ssize_t *n)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq)
        return -1;
    *n = PySequence_Fast_GET_SIZE(seq);
    int rc = 0;
    if (*n > max) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items, at most %zd", what, *n, max);
        rc = -1;
    }
    for (Py_ssize_t i = 0; !rc && i < *n; i++)
        rc = int_in(PySequence_Fast_GET_ITEM(seq, i), what, low, high, &out[i]);
    Py_DECREF(seq);
    return rc;
}

int u64_arg(PyObject *obj, void *out)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "an int is needed, not %.100s", Py_TYPE(obj)->tp_name);
        return 0;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(obj); /* OverflowError, never a wrap */
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return 0;
    *(uint64_t *)out = (uint64_t)v;
    return 1;
}

/* --- Ctrl-C in long calls ------------------------------------------------------------------- */

double monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int pyhalt_poll(halt_t *h)
{
    pyhalt_t *ph = (pyhalt_t *)h;
    double t = monotonic();
    if (t < ph->next)
        return 0;
    ph->next = t + SIGNAL_CHECK;
    PyEval_RestoreThread(ph->ts);
    int raised = PyErr_CheckSignals() < 0;
    ph->ts = PyEval_SaveThread();
    return raised;
}

void pyhalt_begin(pyhalt_t *ph)
{
    ph->h.stopped = 0;
    ph->h.ticks = 0;
    /* Only the main thread handles signals (elsewhere PyErr_CheckSignals does nothing). */
    ph->h.poll = _PyOS_IsMainThread() ? pyhalt_poll : NULL;
    ph->next = monotonic() + SIGNAL_CHECK;
    ph->ts = PyEval_SaveThread();
}

int pyhalt_end(pyhalt_t *ph)
{
    PyEval_RestoreThread(ph->ts);
    return ph->h.stopped && PyErr_Occurred() ? -1 : 0;
}
