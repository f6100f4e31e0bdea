/* Binding of batched environments: the BatchEnv type (the typed API is emergo.kernel.BatchEnv).
 *
 * Outputs go into the caller's writable C-contiguous buffers (buffer protocol), so this
 * module needs no NumPy: emergo.kernel.BatchEnv owns NumPy arrays and passes them here.
 * Per game: obs 17*H*W float32 (or uint8 when compact), mask nact int8, reward float32,
 * terminated and truncated one byte each, to_play int8; actions int64.
 */
#include "bind.h"

#include "batchenv.h"

typedef struct {
    PyObject_HEAD
    benv_t env;
    int ready;
    int busy; /* a call runs without the GIL: no other call may touch env meanwhile */
} BatchEnvObject;

static void benv_dealloc(BatchEnvObject *self)
{
    if (self->ready)
        benv_free(&self->env);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* BatchEnv(n, packed_root, max_plies, seed, cells, size, compact): cells[i] is the cell of
 * the i-th square of the canonical order. */
static int benv_pyinit(BatchEnvObject *self, PyObject *args, PyObject *kwds)
{
    (void)kwds;
    PyObject *packed, *cells_obj;
    uint64_t n, max_plies, seed;
    int size, compact;
    pos_t root;
    if (!PyArg_ParseTuple(args, "O&OO&O&Oip", u64_arg, &n, &packed, u64_arg, &max_plies, u64_arg,
                          &seed, &cells_obj, &size, &compact) ||
        unpack(packed, &root) < 0)
        return -1;
    if (n > ((uint64_t)1 << 24) || max_plies < 1) {
        PyErr_SetString(PyExc_ValueError, "BatchEnv: 0..2**24 games, max_plies at least 1");
        return -1;
    }
    if (size < 1 || size > 9) {
        PyErr_SetString(PyExc_ValueError, "BatchEnv: the grid is 1..9 cells wide");
        return -1;
    }
    int cells[K_MAXSQ];
    Py_ssize_t ncells;
    if (int_items(cells_obj, "cells", 0, size * size - 1, cells, K_MAXSQ, &ncells) < 0)
        return -1;
    if (ncells != root.g->nsq) {
        PyErr_SetString(PyExc_ValueError, "BatchEnv: one cell per square");
        return -1;
    }
    int16_t bysq[K_MAXSQ];
    for (int sq = 0; sq < K_MAXSQ; sq++)
        bysq[sq] = -1;
    for (int i = 0; i < root.g->nsq; i++)
        bysq[root.g->squares[i]] = (int16_t)cells[i];
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "BatchEnv is in use by another thread");
        return -1;
    }
    if (self->ready) {
        benv_free(&self->env);
        self->ready = 0;
    }
    if (benv_init(&self->env, &root, (size_t)n, max_plies, bysq, size, compact, seed) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    self->ready = 1;
    return 0;
}

static int ready(BatchEnvObject *self)
{
    if (!self->ready)
        PyErr_SetString(PyExc_RuntimeError, "BatchEnv is not initialised");
    else if (self->busy)
        PyErr_SetString(PyExc_RuntimeError, "BatchEnv is in use by another thread");
    return self->ready && !self->busy;
}

/* A writable C-contiguous buffer of exactly `bytes` bytes (None: no buffer, *ptr NULL). */
static int get_buf(PyObject *obj, const char *what, size_t bytes, Py_buffer *view, void **ptr)
{
    *ptr = NULL;
    view->obj = NULL;
    if (obj == Py_None)
        return 0;
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if ((size_t)view->len != bytes) {
        PyErr_Format(PyExc_ValueError, "%s: a buffer of %zu bytes is needed, not %zd", what,
                     bytes, view->len);
        PyBuffer_Release(view);
        view->obj = NULL;
        return -1;
    }
    *ptr = view->buf;
    return 0;
}

enum { B_OBS, B_MASK, B_REWARD, B_TERM, B_TRUNC, B_TOPLAY, B_N };

typedef struct bufs {
    Py_buffer v[B_N];
    benv_out_t out;
} bufs_t;

static void release(bufs_t *b)
{
    for (int k = 0; k < B_N; k++)
        if (b->v[k].obj)
            PyBuffer_Release(&b->v[k]);
}

static int get_outs(const benv_t *e, PyObject *const objs[B_N], bufs_t *b)
{
    size_t n = e->n;
    size_t sizes[B_N] = {n * BENV_PLANES * e->cells * (e->obs_u8 ? 1 : sizeof(float)),
                         n * (size_t)e->nact, n * sizeof(float), n, n, n};
    static const char *names[B_N] = {"obs", "mask", "rewards", "terminated", "truncated",
                                     "to_play"};
    void *p[B_N];
    for (int k = 0; k < B_N; k++)
        b->v[k].obj = NULL;
    for (int k = 0; k < B_N; k++) {
        if (get_buf(objs[k], names[k], sizes[k], &b->v[k], &p[k]) < 0) {
            release(b);
            return -1;
        }
    }
    b->out = (benv_out_t){p[B_OBS], p[B_MASK], p[B_REWARD], p[B_TERM], p[B_TRUNC], p[B_TOPLAY]};
    return 0;
}

/* reset(seed|None, obs, mask, rewards, terminated, truncated, to_play) */
static PyObject *benv_py_reset(BatchEnvObject *self, PyObject *args)
{
    PyObject *seed_obj, *objs[B_N];
    if (!ready(self) || !PyArg_ParseTuple(args, "OOOOOOO", &seed_obj, &objs[0], &objs[1],
                                          &objs[2], &objs[3], &objs[4], &objs[5]))
        return NULL;
    uint64_t seed = 0;
    if (seed_obj != Py_None && !u64_arg(seed_obj, &seed))
        return NULL;
    bufs_t b;
    if (get_outs(&self->env, objs, &b) < 0)
        return NULL;
    int rc;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    rc = benv_reset(&self->env, seed_obj != Py_None, seed, &b.out);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    release(&b);
    if (rc < 0)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static int get_actions(const benv_t *e, PyObject *obj, Py_buffer *view)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if ((size_t)view->len != e->n * sizeof(int64_t)) {
        PyErr_Format(PyExc_ValueError, "actions: %zu int64 are needed (%zd bytes given)", e->n,
                     view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* step(actions, obs, mask, rewards, terminated, truncated, to_play) */
static PyObject *benv_py_step(BatchEnvObject *self, PyObject *args)
{
    PyObject *act_obj, *objs[B_N];
    if (!ready(self) || !PyArg_ParseTuple(args, "OOOOOOO", &act_obj, &objs[0], &objs[1], &objs[2],
                                          &objs[3], &objs[4], &objs[5]))
        return NULL;
    benv_t *e = &self->env;
    Py_buffer av;
    if (get_actions(e, act_obj, &av) < 0)
        return NULL;
    const int64_t *actions = av.buf;
    long bad = benv_check(e, actions);
    if (bad >= 0) {
        PyErr_Format(PyExc_ValueError, "game %ld: action %lld is not legal now", bad,
                     (long long)actions[bad]);
        PyBuffer_Release(&av);
        return NULL;
    }
    bufs_t b;
    if (get_outs(e, objs, &b) < 0) {
        PyBuffer_Release(&av);
        return NULL;
    }
    pyhalt_t ph;
    self->busy = 1;
    pyhalt_begin(&ph);
    int rc = benv_step(e, actions, &b.out, &ph.h);
    int stopped = pyhalt_end(&ph) < 0;
    self->busy = 0;
    release(&b);
    PyBuffer_Release(&av);
    if (stopped)
        return NULL; /* the batch was stepped whole; the outputs are written */
    if (rc < 0)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* rollout(steps, obs, mask, rewards, terminated, truncated, to_play) -> (steps, games):
 * `steps` batch steps with uniformly random legal actions (sample), the outputs written at
 * every step.  A long call: stops at Ctrl-C between two batch steps. */
static PyObject *benv_py_rollout(BatchEnvObject *self, PyObject *args)
{
    PyObject *objs[B_N];
    uint64_t steps;
    if (!ready(self) || !PyArg_ParseTuple(args, "O&OOOOOO", u64_arg, &steps, &objs[0], &objs[1],
                                          &objs[2], &objs[3], &objs[4], &objs[5]))
        return NULL;
    benv_t *e = &self->env;
    bufs_t b;
    if (get_outs(e, objs, &b) < 0)
        return NULL;
    uint64_t done = 0, games = 0;
    int rc = 0;
    pyhalt_t ph;
    self->busy = 1;
    pyhalt_begin(&ph);
    for (; done < steps && !rc && !halt_poll(&ph.h); done++) {
        rc = benv_step_random(e, &b.out, NULL);
        for (size_t i = 0; i < e->n; i++)
            games += e->games[i].done != BENV_RUNNING;
    }
    int stopped = pyhalt_end(&ph) < 0;
    self->busy = 0;
    release(&b);
    if (stopped)
        return NULL;
    if (rc < 0)
        return PyErr_NoMemory();
    return Py_BuildValue("KK", (unsigned long long)done, (unsigned long long)games);
}

/* observe(color, obs): the planes of every game for colour 1 (White) or 0 (Black). */
static PyObject *benv_py_observe(BatchEnvObject *self, PyObject *args)
{
    int color;
    PyObject *obj;
    if (!ready(self) || !PyArg_ParseTuple(args, "pO", &color, &obj))
        return NULL;
    benv_t *e = &self->env;
    Py_buffer v;
    void *p;
    if (get_buf(obj, "obs", e->n * BENV_PLANES * e->cells * (e->obs_u8 ? 1 : sizeof(float)), &v,
                &p) < 0)
        return NULL;
    benv_observe(e, color ? WHITE : BLACK, p);
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

/* sample(actions): a uniformly random legal action per game (0 for a finished game). */
static PyObject *benv_py_sample(BatchEnvObject *self, PyObject *args)
{
    PyObject *obj;
    if (!ready(self) || !PyArg_ParseTuple(args, "O", &obj))
        return NULL;
    Py_buffer v;
    void *p;
    if (get_buf(obj, "actions", self->env.n * sizeof(int64_t), &v, &p) < 0)
        return NULL;
    benv_sample(&self->env, p);
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

/* info() -> (n, actions, planes, size, compact) */
static PyObject *benv_py_info(BatchEnvObject *self, PyObject *args)
{
    (void)args;
    if (!ready(self))
        return NULL;
    benv_t *e = &self->env;
    return Py_BuildValue("niiii", (Py_ssize_t)e->n, e->nact, BENV_PLANES, e->size, e->obs_u8);
}

static PyMethodDef benv_methods[] = {
    {"reset", (PyCFunction)benv_py_reset, METH_VARARGS,
     "reset(seed|None, obs, mask, rewards, terminated, truncated, to_play)"},
    {"step", (PyCFunction)benv_py_step, METH_VARARGS,
     "step(actions, obs, mask, rewards, terminated, truncated, to_play)"},
    {"rollout", (PyCFunction)benv_py_rollout, METH_VARARGS,
     "rollout(steps, obs, mask, rewards, terminated, truncated, to_play) -> (steps, games)"},
    {"observe", (PyCFunction)benv_py_observe, METH_VARARGS, "observe(white, obs)"},
    {"sample", (PyCFunction)benv_py_sample, METH_VARARGS, "sample(actions)"},
    {"info", (PyCFunction)benv_py_info, METH_NOARGS, "info() -> (n, actions, planes, size, u8)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BatchEnvType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "emergo._kernel.BatchEnv",
    .tp_basicsize = sizeof(BatchEnvObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "BatchEnv(n, packed_root, max_plies, seed, cells, size, compact): see batchenv.h",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)benv_pyinit,
    .tp_dealloc = (destructor)benv_dealloc,
    .tp_methods = benv_methods,
};

int bind_batch_add(PyObject *m)
{
    if (PyType_Ready(&BatchEnvType) < 0)
        return -1;
    Py_INCREF(&BatchEnvType);
    if (PyModule_AddObject(m, "BatchEnv", (PyObject *)&BatchEnvType) < 0) {
        Py_DECREF(&BatchEnvType);
        return -1;
    }
    return 0;
}
