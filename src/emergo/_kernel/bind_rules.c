/* Bindings of the rules: geometry, legal moves, Zobrist keys, perft, the generation benchmark. */
#include "bind.h"

#include "perft.h"

/* --- geometry ------------------------------------------------------------------------------- */

/* register_geometry(name, men, centre, directions, squares, names, jumps): every input is
 * checked (ValueError naming it); registering a variant again with the same tables does
 * nothing, with other tables is an error. */
static PyObject *k_register_geometry(PyObject *self, PyObject *args)
{
    (void)self;
    const char *name;
    PyObject *men_obj, *centre_obj, *dirs_obj, *squares_obj, *names_obj, *jumps_obj;
    if (!PyArg_ParseTuple(args, "sOOOOOO", &name, &men_obj, &centre_obj, &dirs_obj, &squares_obj,
                          &names_obj, &jumps_obj))
        return NULL;
    int men, centre, dirs[K_MAXDIR], squares[K_MAXSQ];
    Py_ssize_t ndirs, nsq;
    if (int_in(men_obj, "men", 1, K_MAXMEN, &men) < 0 ||
        int_in(centre_obj, "centre", 0, K_MAXSQ - 1, &centre) < 0 ||
        int_items(dirs_obj, "directions", -(K_MAXSQ - 1), K_MAXSQ - 1, dirs, K_MAXDIR, &ndirs) <
            0 ||
        int_items(squares_obj, "squares", 0, K_MAXSQ - 1, squares, K_MAXSQ, &nsq) < 0)
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
    int(*jumps)[4] = NULL;
    if (njumps > (Py_ssize_t)K_MAXSQ * K_MAXDIR) {
        PyErr_Format(PyExc_ValueError, "jumps: %zd rows, at most %d", njumps, K_MAXSQ * K_MAXDIR);
        goto done;
    }
    jumps = PyMem_Malloc((size_t)(njumps ? njumps : 1) * sizeof *jumps);
    if (!jumps) {
        PyErr_NoMemory();
        goto done;
    }
    if (PySequence_Fast_GET_SIZE(names_seq) != nsq) {
        PyErr_Format(PyExc_ValueError, "names: %zd for %zd squares; one name per square is needed",
                     PySequence_Fast_GET_SIZE(names_seq), nsq);
        goto done;
    }
    for (Py_ssize_t i = 0; i < nsq; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(names_seq, i);
        if (!PyUnicode_Check(item)) {
            PyErr_Format(PyExc_TypeError, "names: a square name is a str, not %.100s",
                         Py_TYPE(item)->tp_name);
            goto done;
        }
        Py_ssize_t len;
        names[i] = PyUnicode_AsUTF8AndSize(item, &len);
        if (!names[i])
            goto done;
        if ((size_t)len != strlen(names[i])) {
            PyErr_SetString(PyExc_ValueError, "names: a square name holds a NUL character");
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < njumps; i++) {
        Py_ssize_t four;
        if (int_items(PySequence_Fast_GET_ITEM(jumps_seq, i), "jump", 0, K_MAXSQ - 1, jumps[i], 4,
                      &four) < 0)
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
    pyhalt_t ph;
    pyhalt_begin(&ph);
    for (Py_ssize_t i = 0; i < n && !oom && !halt_tick(&ph.h); i++) {
        off[i] = all.n;
        oom = gen_moves(&ps[i], &all) < 0;
    }
    off[n] = all.n;
    PyObject *out = NULL;
    if (pyhalt_end(&ph) == 0)
        out = oom ? PyErr_NoMemory() : PyList_New(n);
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

static PyObject *k_perft(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *packed, *depth_obj;
    int depth;
    pos_t p;
    if (!PyArg_ParseTuple(args, "OO", &packed, &depth_obj) ||
        int_in(depth_obj, "depth", 0, MAX_PERFT_DEPTH, &depth) < 0 || unpack(packed, &p) < 0)
        return NULL;
    uint64_t nodes;
    int oom;
    pyhalt_t ph;
    pyhalt_begin(&ph);
    nodes = perft(&p, depth, &oom, &ph.h);
    if (pyhalt_end(&ph) < 0)
        return NULL;
    if (oom)
        return PyErr_NoMemory();
    return PyLong_FromUnsignedLongLong(nodes);
}

static PyObject *k_perft_divide(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *packed, *depth_obj;
    int depth;
    pos_t p;
    if (!PyArg_ParseTuple(args, "OO", &packed, &depth_obj) ||
        int_in(depth_obj, "depth", 1, MAX_PERFT_DEPTH, &depth) < 0 || unpack(packed, &p) < 0)
        return NULL;
    mlist_t l;
    ml_init(&l, NULL, 0);
    uint64_t *counts = NULL;
    int rc;
    pyhalt_t ph;
    pyhalt_begin(&ph);
    rc = perft_divide(&p, depth, &l, &counts, &ph.h);
    PyObject *rows = NULL;
    if (pyhalt_end(&ph) == 0)
        rows = rc < 0 ? PyErr_NoMemory() : PyList_New(counts ? (Py_ssize_t)l.n : 0);
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

/* --- benchmark ------------------------------------------------------------------------------ */

static PyObject *k_bench_generate(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *seq;
    uint64_t reps;
    if (!PyArg_ParseTuple(args, "OO&", &seq, u64_arg, &reps))
        return NULL;
    Py_ssize_t n;
    pos_t *ps = unpack_many(seq, &n);
    if (!ps)
        return NULL;
    unsigned long long total = 0;
    int oom = 0;
    move_t buf[K_INLINE_MOVES];
    mlist_t l;
    ml_init(&l, buf, K_INLINE_MOVES);
    pyhalt_t ph;
    pyhalt_begin(&ph);
    for (uint64_t r = 0; r < reps && !oom && !halt_tick(&ph.h); r++)
        for (Py_ssize_t i = 0; i < n; i++) {
            moveset_t ms;
            l.n = 0;
            oom |= gen_moveset(&ps[i], &ms, &l) < 0;
            total += ms.count;
        }
    ml_free(&l);
    int stopped = pyhalt_end(&ph) < 0;
    PyMem_Free(ps);
    if (stopped)
        return NULL;
    if (oom)
        return PyErr_NoMemory();
    return PyLong_FromUnsignedLongLong(total);
}

PyMethodDef bind_rules_methods[] = {
    {"register_geometry", k_register_geometry, METH_VARARGS,
     "register_geometry(name, men, centre, directions, squares, names, jumps): once per variant"},
    {"legal", k_legal, METH_O, "legal(packed) -> (kind, size, paths in generation order)"},
    {"legal_batch", k_legal_batch, METH_O, "legal_batch(packed_list) -> sorted texts per position"},
    {"key", k_key, METH_O, "key(packed) -> Zobrist key"},
    {"perft", k_perft, METH_VARARGS, "perft(packed, depth) -> leaf count"},
    {"perft_divide", k_perft_divide, METH_VARARGS,
     "perft_divide(packed, depth) -> (kind, [(path, n)])"},
    {"bench_generate", k_bench_generate, METH_VARARGS,
     "bench_generate(packed_list, reps) -> total moves"},
    {NULL, NULL, 0, NULL},
};
