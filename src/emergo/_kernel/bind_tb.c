/* Binding of the endgame tables: emergo._kernel.Table (use emergo.tablebase).
 *
 *   tb_build(variant, columns, sub, progress) -> Table   build in memory (GIL released)
 *   tb_open(path, verify) -> Table                        map a table file
 *   tb_size(variant, columns) -> entries
 *   Table.write(path), probe(packed), index(packed), decode(i), value(i), info(),
 *   verify(sub, syms, progress), check_raw(sub, progress), close()
 *
 * Long calls release the GIL, stop at Ctrl-C (KeyboardInterrupt) like every long call of the
 * kernel, and call progress(phase, done, total) now and then (with the GIL; an exception it
 * raises stops the call and is raised).  A table in use by a search (Searcher.search holds a
 * use count) cannot be closed: close() raises RuntimeError then.
 */
#include "bind.h"

#include <string.h>

#include "tb.h"

typedef struct {
    PyObject_HEAD
    tb_t t;
    int open;
    int users; /* searches and calls holding the table (under the GIL) */
} TableObject;

static PyTypeObject TableType;

/* --- progress and Ctrl-C ----------------------------------------------------------------------- */

#define REPORT_EVERY 0.25 /* seconds between progress calls */

typedef struct tbhalt {
    pyhalt_t ph; /* first: the poll hook is given &ph.h */
    tbprog_t prog;
    PyObject *progress; /* or NULL */
    double next_signal, next_report;
} tbhalt_t;

static int tb_poll(halt_t *h)
{
    tbhalt_t *th = (tbhalt_t *)h;
    double t = monotonic();
    if (t < th->next_signal)
        return 0;
    th->next_signal = t + SIGNAL_CHECK;
    PyEval_RestoreThread(th->ph.ts);
    int stop = PyErr_CheckSignals() < 0; /* a no-op outside the main thread */
    if (!stop && th->progress && t >= th->next_report && th->prog.phase) {
        th->next_report = t + REPORT_EVERY;
        PyObject *r = PyObject_CallFunction(th->progress, "sKK", th->prog.phase,
                                            (unsigned long long)th->prog.done,
                                            (unsigned long long)th->prog.total);
        if (!r)
            stop = 1;
        Py_XDECREF(r);
    }
    th->ph.ts = PyEval_SaveThread();
    return stop;
}

static int tbhalt_begin(tbhalt_t *th, PyObject *progress)
{
    if (progress == Py_None)
        progress = NULL;
    if (progress && !PyCallable_Check(progress)) {
        PyErr_SetString(PyExc_TypeError, "progress must be callable or None");
        return -1;
    }
    memset(&th->prog, 0, sizeof th->prog);
    th->progress = progress;
    pyhalt_begin(&th->ph);
    th->ph.h.poll = tb_poll;
    th->next_signal = monotonic() + SIGNAL_CHECK;
    th->next_report = monotonic() + REPORT_EVERY;
    return 0;
}

/* --- helpers ----------------------------------------------------------------------------------- */

static const tb_t *open_table(PyObject *obj, const char *what)
{
    if (obj == Py_None)
        return NULL;
    if (!PyObject_TypeCheck(obj, &TableType)) {
        PyErr_Format(PyExc_TypeError, "%s must be a Table or None", what);
        return NULL;
    }
    TableObject *t = (TableObject *)obj;
    if (!t->open) {
        PyErr_Format(PyExc_ValueError, "%s is closed", what);
        return NULL;
    }
    return &t->t;
}

int table_arg(PyObject *obj, const char *what, const tb_t **out)
{
    *out = open_table(obj, what);
    return *out || obj == Py_None ? 0 : -1;
}

void table_use(PyObject *obj, int delta)
{
    if (obj && obj != Py_None && PyObject_TypeCheck(obj, &TableType))
        ((TableObject *)obj)->users += delta;
}

static TableObject *new_table(void)
{
    TableObject *self = PyObject_New(TableObject, &TableType);
    if (self) {
        memset(&self->t, 0, sizeof self->t);
        self->open = 0;
        self->users = 0;
    }
    return self;
}

static const geo_t *variant_arg(const char *name)
{
    const geo_t *g = geo_find(name);
    if (!g)
        PyErr_Format(PyExc_ValueError, "variant %s is not registered with the kernel", name);
    return g;
}

/* --- module functions -------------------------------------------------------------------------- */

static PyObject *tb_build_py(PyObject *self, PyObject *args)
{
    (void)self;
    const char *name;
    int columns;
    PyObject *sub_obj, *progress;
    if (!PyArg_ParseTuple(args, "siOO", &name, &columns, &sub_obj, &progress))
        return NULL;
    const geo_t *g = variant_arg(name);
    const tb_t *sub;
    if (!g || table_arg(sub_obj, "the 2-column table", &sub) < 0)
        return NULL;
    if (columns != 2 && columns != 3)
        return PyErr_Format(PyExc_ValueError, "columns must be 2 or 3, not %d", columns);
    TableObject *t = new_table();
    if (!t)
        return NULL;
    char err[512] = "";
    tbhalt_t th;
    if (tbhalt_begin(&th, progress) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    table_use(sub_obj, 1);
    int rc = tb_build(g, columns, sub, &t->t, &th.prog, &th.ph.h, err, sizeof err);
    int raised = pyhalt_end(&th.ph) < 0;
    table_use(sub_obj, -1);
    if (rc < 0 || raised) {
        if (rc == 0)
            tb_free(&t->t);
        Py_DECREF(t);
        if (!raised && !PyErr_Occurred())
            PyErr_SetString(strstr(err, "out of memory") ? PyExc_MemoryError : PyExc_ValueError,
                            err);
        return NULL;
    }
    t->open = 1;
    return (PyObject *)t;
}

static PyObject *tb_size_py(PyObject *self, PyObject *args)
{
    (void)self;
    const char *name;
    int columns;
    if (!PyArg_ParseTuple(args, "si", &name, &columns))
        return NULL;
    const geo_t *g = variant_arg(name);
    if (!g)
        return NULL;
    tbdef_t d;
    char err[256];
    if (tbdef_init(&d, g, columns, err, sizeof err) < 0) {
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    uint64_t n = d.size;
    tbdef_free(&d);
    return PyLong_FromUnsignedLongLong(n);
}

static PyObject *tb_open_py(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *path_obj;
    int verify = 0;
    if (!PyArg_ParseTuple(args, "O&|p", PyUnicode_FSConverter, &path_obj, &verify))
        return NULL;
    TableObject *t = new_table();
    if (!t) {
        Py_DECREF(path_obj);
        return NULL;
    }
    char err[1024] = "";
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = tb_open(&t->t, PyBytes_AS_STRING(path_obj), verify, err, sizeof err);
    Py_END_ALLOW_THREADS
    Py_DECREF(path_obj);
    if (rc < 0) {
        Py_DECREF(t);
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    t->open = 1;
    return (PyObject *)t;
}

/* --- the Table type ---------------------------------------------------------------------------- */

static void Table_dealloc(TableObject *self)
{
    if (self->open)
        tb_free(&self->t);
    PyObject_Free(self);
}

static const tb_t *table_of(TableObject *self)
{
    if (!self->open) {
        PyErr_SetString(PyExc_ValueError, "the table is closed");
        return NULL;
    }
    return &self->t;
}

static PyObject *Table_close(TableObject *self, PyObject *unused)
{
    (void)unused;
    if (self->users) {
        PyErr_SetString(PyExc_RuntimeError, "the table is in use by a search: stop it first");
        return NULL;
    }
    if (self->open)
        tb_free(&self->t);
    self->open = 0;
    Py_RETURN_NONE;
}

static PyObject *Table_write(TableObject *self, PyObject *arg)
{
    const tb_t *t = table_of(self);
    PyObject *path_obj;
    if (!t || !PyUnicode_FSConverter(arg, &path_obj))
        return NULL;
    char err[1024] = "";
    int rc;
    self->users++;
    Py_BEGIN_ALLOW_THREADS
    rc = tb_write(t, PyBytes_AS_STRING(path_obj), err, sizeof err);
    Py_END_ALLOW_THREADS
    self->users--;
    Py_DECREF(path_obj);
    if (rc < 0) {
        PyErr_SetString(PyExc_OSError, err);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The position of packed in this table's variant, or -1 with an exception. */
static int table_pos(const tb_t *t, PyObject *packed, pos_t *p)
{
    if (unpack(packed, p) < 0)
        return -1;
    if (p->g != t->def.tg.g) {
        PyErr_Format(PyExc_ValueError, "a %s position for a table of %s", p->g->name,
                     t->def.tg.g->name);
        return -1;
    }
    return 0;
}

static PyObject *Table_probe(TableObject *self, PyObject *packed)
{
    const tb_t *t = table_of(self);
    pos_t p;
    if (!t || table_pos(t, packed, &p) < 0)
        return NULL;
    int64_t i = tb_index(&t->def, &p);
    return PyLong_FromLong(i < 0 ? -1 : tb_entry(t, (uint64_t)i));
}

static PyObject *Table_index(TableObject *self, PyObject *packed)
{
    const tb_t *t = table_of(self);
    pos_t p;
    if (!t || table_pos(t, packed, &p) < 0)
        return NULL;
    return PyLong_FromLongLong(tb_index(&t->def, &p));
}

static int entry_arg(const tb_t *t, PyObject *obj, uint64_t *i)
{
    if (!u64_arg(obj, i))
        return -1;
    if (*i >= t->def.size) {
        PyErr_Format(PyExc_ValueError, "entry %llu: the table has %llu",
                     (unsigned long long)*i, (unsigned long long)t->def.size);
        return -1;
    }
    return 0;
}

static PyObject *Table_decode(TableObject *self, PyObject *arg)
{
    const tb_t *t = table_of(self);
    uint64_t i;
    if (!t || entry_arg(t, arg, &i) < 0)
        return NULL;
    pos_t p;
    tb_decode(&t->def, i, &p);
    return position_text(&p);
}

static PyObject *Table_value(TableObject *self, PyObject *arg)
{
    const tb_t *t = table_of(self);
    uint64_t i;
    if (!t || entry_arg(t, arg, &i) < 0)
        return NULL;
    return PyLong_FromLong(tb_entry(t, i));
}

static PyObject *Table_info(TableObject *self, PyObject *unused)
{
    (void)unused;
    const tb_t *t = table_of(self);
    if (!t)
        return NULL;
    const tbdef_t *d = &t->def;
    pos_t p;
    tb_decode(d, t->stats.longest < d->size ? t->stats.longest : 0, &p);
    return Py_BuildValue("{s:s,s:i,s:i,s:i,s:i,s:K,s:I,s:i,s:k,s:K,s:K,s:K,s:K,s:i,s:i,s:N}",
                         "variant", d->tg.g->name, "columns", d->columns, "men", d->men,
                         "squares", d->tg.n, "symmetries", d->tg.nsym, "entries",
                         (unsigned long long)d->size, "classes", d->nclass, "width", t->width,
                         "checksum", (unsigned long)t->checksum, "positions",
                         (unsigned long long)t->stats.positions, "wins",
                         (unsigned long long)t->stats.wins, "draws",
                         (unsigned long long)t->stats.draws, "losses",
                         (unsigned long long)t->stats.losses, "longest", t->stats.max_dtm,
                         "longest_win", t->stats.max_win, "longest_win_position",
                         position_text(&p));
}

typedef int (*check_fn)(const tb_t *, const tb_t *, uint64_t, uint64_t *, uint64_t *, tbprog_t *,
                        halt_t *, char *, size_t);

static int verify_adapter(const tb_t *t, const tb_t *sub, uint64_t syms, uint64_t *checked,
                          uint64_t *bad, tbprog_t *prog, halt_t *h, char *err, size_t errlen)
{
    return tb_verify(t, sub, syms != 0, checked, bad, prog, h, err, errlen);
}

static PyObject *run_check(TableObject *self, PyObject *sub_obj, uint64_t arg, PyObject *progress,
                           check_fn fn)
{
    const tb_t *t = table_of(self), *sub;
    if (!t || table_arg(sub_obj, "the 2-column table", &sub) < 0)
        return NULL;
    if (t->def.columns == 3 && (!sub || sub->def.columns != 2 || sub->def.tg.g != t->def.tg.g)) {
        PyErr_SetString(PyExc_ValueError, "a 3-column table is checked with its 2-column table");
        return NULL;
    }
    tbhalt_t th;
    if (tbhalt_begin(&th, progress) < 0)
        return NULL;
    self->users++;
    table_use(sub_obj, 1);
    char err[1024] = "";
    uint64_t checked = 0, bad = 0;
    int rc = fn(t, sub, arg, &checked, &bad, &th.prog, &th.ph.h, err, sizeof err);
    int raised = pyhalt_end(&th.ph) < 0;
    self->users--;
    table_use(sub_obj, -1);
    if (raised)
        return NULL;
    if (rc == -1)
        return PyErr_NoMemory();
    return Py_BuildValue("KKs", (unsigned long long)checked, (unsigned long long)bad, err);
}

static PyObject *Table_verify(TableObject *self, PyObject *args)
{
    PyObject *sub, *progress;
    int syms;
    if (!PyArg_ParseTuple(args, "OpO", &sub, &syms, &progress))
        return NULL;
    return run_check(self, sub, (uint64_t)syms, progress, verify_adapter);
}

static PyObject *Table_check_raw(TableObject *self, PyObject *args)
{
    PyObject *sub, *progress;
    uint64_t stride = 1;
    if (!PyArg_ParseTuple(args, "OO|O&", &sub, &progress, u64_arg, &stride))
        return NULL;
    if (stride < 1) {
        PyErr_SetString(PyExc_ValueError, "stride must be at least 1");
        return NULL;
    }
    return run_check(self, sub, stride, progress, tb_check_raw);
}

static PyMethodDef table_methods[] = {
    {"close", (PyCFunction)Table_close, METH_NOARGS, "free the table (RuntimeError in a search)"},
    {"write", (PyCFunction)Table_write, METH_O, "write(path): the table file"},
    {"probe", (PyCFunction)Table_probe, METH_O,
     "probe(packed) -> 0 draw, odd: the mover wins in so many plies, even: he loses; -1 outside"},
    {"index", (PyCFunction)Table_index, METH_O, "index(packed) -> entry, or -1 outside"},
    {"decode", (PyCFunction)Table_decode, METH_O, "decode(entry) -> the R22 text of its position"},
    {"value", (PyCFunction)Table_value, METH_O, "value(entry) -> its value (as probe)"},
    {"info", (PyCFunction)Table_info, METH_NOARGS, "info() -> dict of the table's figures"},
    {"verify", (PyCFunction)Table_verify, METH_VARARGS,
     "verify(sub, symmetries, progress) -> (checked, bad, first problem)"},
    {"check_raw", (PyCFunction)Table_check_raw, METH_VARARGS,
     "check_raw(sub, progress, stride=1) -> (checked, bad, first problem)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "emergo._kernel.Table",
    .tp_basicsize = sizeof(TableObject),
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An endgame table (use emergo.tablebase)",
    .tp_methods = table_methods,
};

static PyMethodDef tb_functions[] = {
    {"tb_build", tb_build_py, METH_VARARGS,
     "tb_build(variant, columns, sub, progress) -> Table, by retrograde analysis"},
    {"tb_open", tb_open_py, METH_VARARGS, "tb_open(path, verify=False) -> Table"},
    {"tb_size", tb_size_py, METH_VARARGS, "tb_size(variant, columns) -> entries of the table"},
    {NULL, NULL, 0, NULL},
};

int bind_tb_add(PyObject *m)
{
    if (PyType_Ready(&TableType) < 0 ||
        PyModule_AddObjectRef(m, "Table", (PyObject *)&TableType) < 0 ||
        PyModule_AddFunctions(m, tb_functions) < 0 ||
        PyModule_AddIntConstant(m, "TB_VERSION", TB_VERSION) < 0 ||
        PyModule_AddIntConstant(m, "TB_MAXDTM", TB_MAXDTM) < 0)
        return -1;
    return 0;
}
