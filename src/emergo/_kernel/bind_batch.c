/* Binding of batched environments: the BatchEnv type (the typed API is emergo.kernel.BatchEnv).
 *
 * Outputs go into the caller's writable C-contiguous buffers (buffer protocol), so this
 * module needs no NumPy: emergo.kernel.BatchEnv owns NumPy arrays and binds them once
 * (bind), so that a step is a call without arguments.
 * Per game: obs 17*H*W float32 (or uint8 when compact), mask nact int8, reward float32,
 * terminated and truncated one byte each, to_play int8; actions int64.
 */
#include "bind.h"

#include "batchenv.h"

enum { B_OBS, B_MASK, B_REWARD, B_TERM, B_TRUNC, B_TOPLAY, B_ACTIONS, B_N };

typedef struct {
    PyObject_HEAD
    benv_t env;
    int ready;
    int busy;         /* a call runs without the GIL: no other call may touch env meanwhile */
    int bound;        /* bind() was called: views hold the buffers */
    Py_buffer v[B_N]; /* the bound buffers (obj NULL: not held) */
    benv_out_t out;
    int64_t *actions;
} BatchEnvObject;

static void unbind(BatchEnvObject *self)
{
    for (int k = 0; k < B_N; k++)
        if (self->v[k].obj) {
            PyBuffer_Release(&self->v[k]);
            self->v[k].obj = NULL;
        }
    self->bound = 0;
    self->out = (benv_out_t){0};
    self->actions = NULL;
}

static void benv_dealloc(BatchEnvObject *self)
{
    unbind(self);
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
    unbind(self);
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

/* bind(obs, mask, rewards, terminated, truncated, to_play, actions): the buffers every later
 * call reads and writes, held (and so kept alive) until the next bind or the end.  The planes
 * are written incrementally into obs: it must not be changed by anyone else in between
 * (emergo.kernel.BatchEnv hands out read-only views). */
static PyObject *benv_py_bind(BatchEnvObject *self, PyObject *args)
{
    PyObject *objs[B_N];
    if (!ready(self) || !PyArg_ParseTuple(args, "OOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3],
                                          &objs[4], &objs[5], &objs[6]))
        return NULL;
    const benv_t *e = &self->env;
    size_t n = e->n;
    size_t sizes[B_N] = {n * BENV_PLANES * e->cells * (e->obs_u8 ? 1 : sizeof(float)),
                         n * (size_t)e->nact,
                         n * sizeof(float),
                         n,
                         n,
                         n,
                         n * sizeof(int64_t)};
    static const char *names[B_N] = {"obs",       "mask",    "rewards", "terminated",
                                     "truncated", "to_play", "actions"};
    Py_buffer v[B_N];
    void *p[B_N];
    for (int k = 0; k < B_N; k++)
        v[k].obj = NULL;
    for (int k = 0; k < B_N; k++) {
        if (objs[k] == Py_None)
            PyErr_Format(PyExc_TypeError, "%s: a buffer is needed, not None", names[k]);
        if (PyErr_Occurred() || get_buf(objs[k], names[k], sizes[k], &v[k], &p[k]) < 0) {
            for (int i = 0; i < B_N; i++)
                if (v[i].obj)
                    PyBuffer_Release(&v[i]);
            return NULL;
        }
    }
    unbind(self);
    self->env.inc_obs = NULL; /* new buffers: the next write is every plane, never a delta */
    memcpy(self->v, v, sizeof v);
    self->out = (benv_out_t){p[B_OBS], p[B_MASK], p[B_REWARD], p[B_TERM], p[B_TRUNC], p[B_TOPLAY]};
    self->actions = p[B_ACTIONS];
    self->bound = 1;
    Py_RETURN_NONE;
}

static int bound(BatchEnvObject *self)
{
    if (!ready(self))
        return 0;
    if (!self->bound)
        PyErr_SetString(PyExc_RuntimeError, "BatchEnv: bind() the buffers first");
    return self->bound;
}

/* reset(seed|None) */
static PyObject *benv_py_reset(BatchEnvObject *self, PyObject *seed_obj)
{
    if (!bound(self))
        return NULL;
    uint64_t seed = 0;
    if (seed_obj != Py_None && !u64_arg(seed_obj, &seed))
        return NULL;
    int rc;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    rc = benv_reset(&self->env, seed_obj != Py_None, seed, &self->out);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (rc < 0)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* step(illegal_ends=False): the bound actions, one per game.  An illegal one is a ValueError
 * naming the first game that has one, and then no game is stepped; with illegal_ends it ends
 * its game instead (benv_step). */
static PyObject *benv_py_step(BatchEnvObject *self, PyObject *args)
{
    int illegal_ends = 0;
    if (!bound(self) || !PyArg_ParseTuple(args, "|p", &illegal_ends))
        return NULL;
    benv_t *e = &self->env;
    const int64_t *actions = self->actions;
    self->busy = 1;
    if (!illegal_ends) {
        long bad;
        Py_BEGIN_ALLOW_THREADS
        bad = benv_check(e, actions);
        Py_END_ALLOW_THREADS
        if (bad >= 0) {
            self->busy = 0;
            PyErr_Format(PyExc_ValueError, "game %ld: action %lld is not legal now", bad,
                         (long long)actions[bad]);
            return NULL;
        }
    }
    pyhalt_t ph;
    pyhalt_begin(&ph);
    int rc = benv_step(e, actions, illegal_ends, &self->out, &ph.h);
    int stopped = pyhalt_end(&ph) < 0;
    self->busy = 0;
    if (stopped)
        return NULL; /* the batch was stepped whole; the outputs are written */
    if (rc < 0)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* rollout(steps) -> (steps, games): `steps` batch steps with uniformly random legal actions
 * (sample), the outputs written at every step.  A long call: stops at Ctrl-C between two
 * batch steps. */
static PyObject *benv_py_rollout(BatchEnvObject *self, PyObject *arg)
{
    uint64_t steps;
    if (!bound(self) || !u64_arg(arg, &steps))
        return NULL;
    benv_t *e = &self->env;
    uint64_t done = 0, games = 0;
    int rc = 0;
    pyhalt_t ph;
    self->busy = 1;
    pyhalt_begin(&ph);
    for (; done < steps && !rc && !halt_poll(&ph.h); done++) {
        size_t ended = 0;
        rc = benv_step_random(e, &self->out, NULL, &ended);
        games += ended;
    }
    int stopped = pyhalt_end(&ph) < 0;
    self->busy = 0;
    if (stopped)
        return NULL;
    if (rc < 0)
        return PyErr_NoMemory();
    return Py_BuildValue("KK", (unsigned long long)done, (unsigned long long)games);
}

/* sample(): a uniformly random legal action per game into the bound actions (0 for a finished
 * game). */
static PyObject *benv_py_sample(BatchEnvObject *self, PyObject *args)
{
    (void)args;
    if (!bound(self))
        return NULL;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    benv_sample(&self->env, self->actions);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    Py_RETURN_NONE;
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
    if (obj == Py_None) {
        PyErr_SetString(PyExc_TypeError, "obs: a buffer is needed, not None");
        return NULL;
    }
    if (get_buf(obj, "obs", e->n * BENV_PLANES * e->cells * (e->obs_u8 ? 1 : sizeof(float)), &v,
                &p) < 0)
        return NULL;
    benv_observe(e, color ? WHITE : BLACK, p);
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
    {"bind", (PyCFunction)benv_py_bind, METH_VARARGS,
     "bind(obs, mask, rewards, terminated, truncated, to_play, actions)"},
    {"reset", (PyCFunction)benv_py_reset, METH_O, "reset(seed|None)"},
    {"step", (PyCFunction)benv_py_step, METH_VARARGS, "step(illegal_ends=False): bound actions"},
    {"rollout", (PyCFunction)benv_py_rollout, METH_O, "rollout(steps) -> (steps, games)"},
    {"observe", (PyCFunction)benv_py_observe, METH_VARARGS, "observe(white, obs)"},
    {"sample", (PyCFunction)benv_py_sample, METH_NOARGS, "sample(): into the bound actions"},
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
