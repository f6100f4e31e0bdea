/* Binding of the searcher: emergo._kernel.Searcher, one search at a time per object.
 *
 * The busy flag is the one-search-at-a-time contract of search.h: it is tested
 * and set in one step under the GIL before anything that can run Python code
 * or release the GIL (reading the moves, the search itself, the info
 * callback, a signal handler), and cleared on every way out.  A second
 * search, or clear/resize/set_weights/set_option, while one runs raises
 * RuntimeError; stop() is the one call meant for a running search.
 */
#include "bind.h"

#include <limits.h>

#include "replay.h"
#include "search.h"

#define MAX_HASH_MB 65536

typedef struct {
    PyObject_HEAD
    searcher_t *s;
    int busy;
} SearcherObject;

/* Test and set the busy flag (the GIL makes this one step); -1 with RuntimeError if taken. */
static int claim(SearcherObject *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "this Searcher is already searching (one search at a time): stop it first "
                        "or use another Searcher");
        return -1;
    }
    self->busy = 1;
    return 0;
}

static void release(SearcherObject *self) { self->busy = 0; }

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
        PyObject *t = pv ? Py_BuildValue("iiiNii", l->value, l->depth, l->seldepth, pv, l->exact,
                                         l->source)
                         : NULL;
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
    PyObject *res = lines ? PyObject_CallFunction(ctx->callback, "NKdiK", lines,
                                                  (unsigned long long)r->nodes, r->time, r->depth,
                                                  (unsigned long long)r->tbhits)
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
    PyObject *mb_obj = NULL;
    int mb = 16;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O", kwlist, &mb_obj))
        return NULL;
    if (mb_obj && int_in(mb_obj, "hash_mb", 1, MAX_HASH_MB, &mb) < 0)
        return NULL;
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

static PyObject *Searcher_stop(SearcherObject *self, PyObject *unused)
{
    (void)unused;
    searcher_stop(self->s);
    Py_RETURN_NONE;
}

static PyObject *Searcher_clear(SearcherObject *self, PyObject *unused)
{
    (void)unused;
    if (claim(self) < 0)
        return NULL;
    searcher_clear(self->s);
    release(self);
    Py_RETURN_NONE;
}

static PyObject *Searcher_resize(SearcherObject *self, PyObject *arg)
{
    int mb;
    if (int_in(arg, "hash_mb", 1, MAX_HASH_MB, &mb) < 0 || claim(self) < 0)
        return NULL;
    int rc = searcher_resize(self->s, (size_t)mb);
    release(self);
    if (rc < 0)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *Searcher_set_weights(SearcherObject *self, PyObject *arg)
{
    int w[EV_NTERMS];
    if (read_weights(arg, w) < 0 || claim(self) < 0)
        return NULL;
    searcher_set_weights(self->s, w);
    release(self);
    Py_RETURN_NONE;
}

static PyObject *Searcher_set_option(SearcherObject *self, PyObject *args)
{
    const char *name;
    PyObject *value_obj;
    int value;
    if (!PyArg_ParseTuple(args, "sO", &name, &value_obj) ||
        int_in(value_obj, name, INT_MIN, INT_MAX, &value) < 0 || claim(self) < 0)
        return NULL;
    int rc = searcher_set_option(self->s, name, value);
    release(self);
    if (rc < 0)
        return PyErr_Format(PyExc_ValueError,
                            "bad search option %s = %d (the options: evasions 0..8)", name, value);
    Py_RETURN_NONE;
}

/* search(root, paths, depth, nodes, soft, hard, multipv, callback, t2=None, t3=None) ->
 *   (termination or None, lines, nodes, seconds, depth, tbhits); t2, t3: the tables of the
 *   root's variant (emergo._kernel.Table or None) */
static PyObject *Searcher_search(SearcherObject *self, PyObject *args)
{
    PyObject *packed, *paths_obj, *depth_obj, *multipv_obj, *callback;
    PyObject *t2_obj = Py_None, *t3_obj = Py_None;
    const tb_t *t2, *t3;
    int depth, multipv;
    uint64_t nodes;
    double soft, hard;
    if (!PyArg_ParseTuple(args, "OOOO&ddOO|OO", &packed, &paths_obj, &depth_obj, u64_arg, &nodes,
                          &soft, &hard, &multipv_obj, &callback, &t2_obj, &t3_obj) ||
        int_in(depth_obj, "depth", 1, S_MAXDEPTH, &depth) < 0 ||
        int_in(multipv_obj, "multipv", 1, S_MAXPV, &multipv) < 0 ||
        table_arg(t2_obj, "t2", &t2) < 0 || table_arg(t3_obj, "t3", &t3) < 0)
        return NULL;
    if ((t2 && t2->def.columns != 2) || (t3 && t3->def.columns != 3)) {
        PyErr_SetString(PyExc_ValueError, "t2 and t3 are the 2- and 3-column tables");
        return NULL;
    }
    if (callback != Py_None && !PyCallable_Check(callback)) {
        PyErr_SetString(PyExc_TypeError, "the info callback must be callable or None");
        return NULL;
    }
    if (claim(self) < 0)
        return NULL;
    /* Busy from here: everything below may run Python code or release the GIL. */
    table_use(t2_obj, 1);
    table_use(t3_obj, 1);
    pos_t root;
    move_t *paths = NULL;
    game_t *gm = NULL;
    sresult_t *out = NULL;
    PyObject *result = NULL;
    Py_ssize_t npaths = 0;
    if (unpack(packed, &root) < 0 || !(paths = read_paths(paths_obj, &npaths)))
        goto done;
    if ((t2 && t2->def.tg.g != root.g) || (t3 && t3->def.tg.g != root.g)) {
        PyErr_Format(PyExc_ValueError, "the tables are not of the %s board", root.g->name);
        goto done;
    }
    gm = PyMem_Malloc(sizeof *gm);
    out = PyMem_Malloc(sizeof *out);
    if (!gm || !out || game_init(gm, &root) < 0) {
        PyMem_Free(gm);
        gm = NULL;
        PyErr_NoMemory();
        goto done;
    }
    int term;
    size_t bad;
    int rc = game_replay(gm, paths, (size_t)npaths, &term, &bad);
    if (rc == REPLAY_NOMEM) {
        PyErr_NoMemory();
        goto done;
    }
    if (rc == REPLAY_OVER) {
        PyErr_Format(PyExc_ValueError, "move %zu: the game is already over (%s)", bad + 1,
                     TERM_NAMES[term]);
        goto done;
    }
    if (rc == REPLAY_ILLEGAL) {
        char text[MOVE_TEXT_MAX];
        path_text(gm, &paths[bad], text);
        PyErr_Format(PyExc_ValueError, "move %zu: %s is not legal", bad + 1, text);
        goto done;
    }
    if (term != TERM_NONE) { /* R18, R19a, R19b: nothing to search */
        result = Py_BuildValue("s[]KdiK", TERM_NAMES[term], 0ULL, 0.0, 0, 0ULL);
        goto done;
    }
    slimits_t lim = {depth, nodes, soft, hard, multipv};
    infoctx_t ctx = {callback, 0, NULL, NULL, NULL};
    searcher_rearm(self->s);
    searcher_set_tables(self->s, t2, t3);
    pyhalt_t ph;
    pyhalt_begin(&ph);
    rc = searcher_run(self->s, &gm->pos, gm->keys, gm->ply + 1, gm->last_irr, &lim,
                      callback == Py_None ? NULL : report, &ctx, &ph.h, out);
    int interrupted = pyhalt_end(&ph) < 0;
    searcher_set_tables(self->s, NULL, NULL);
    if (ctx.failed) { /* the callback's exception (a KeyboardInterrupt raised in it too) */
        PyErr_Restore(ctx.type, ctx.value, ctx.tb);
        goto done;
    }
    if (interrupted)
        goto done; /* KeyboardInterrupt, or what another signal handler raised */
    if (rc < 0) {
        PyErr_NoMemory();
        goto done;
    }
    result = Py_BuildValue("ONKdiK", Py_None, lines_list(out), (unsigned long long)out->nodes,
                           out->time, out->depth, (unsigned long long)out->tbhits);
done:
    if (gm)
        game_free(gm);
    PyMem_Free(gm);
    PyMem_Free(out);
    PyMem_Free(paths);
    table_use(t2_obj, -1);
    table_use(t3_obj, -1);
    release(self);
    return result;
}

static PyMethodDef searcher_methods[] = {
    {"set_option", (PyCFunction)Searcher_set_option, METH_VARARGS,
     "set_option(name, value): a tuning knob of the search (evasions: 0..8)"},
    {"search", (PyCFunction)Searcher_search, METH_VARARGS,
     "search(root, paths, depth, nodes, soft, hard, multipv, callback, t2=None, t3=None) -> "
     "(termination, lines, nodes, seconds, depth, tbhits); one search at a time (RuntimeError)"},
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

int bind_search_add(PyObject *m)
{
    if (PyType_Ready(&SearcherType) < 0 ||
        PyModule_AddObjectRef(m, "Searcher", (PyObject *)&SearcherType) < 0 ||
        PyModule_AddIntConstant(m, "WIN_VALUE", S_WIN) < 0 ||
        PyModule_AddIntConstant(m, "MAX_DEPTH", S_MAXDEPTH) < 0 ||
        PyModule_AddIntConstant(m, "MAX_MULTIPV", S_MAXPV) < 0 ||
        PyModule_AddIntConstant(m, "MAX_HASH_MB", MAX_HASH_MB) < 0)
        return -1;
    return 0;
}
