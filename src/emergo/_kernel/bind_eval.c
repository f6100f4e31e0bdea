/* Bindings of the evaluation: its terms, their counts for a position, the value. */
#include "bind.h"

#include "eval.h"

int read_weights(PyObject *obj, int *w)
{
    Py_ssize_t n;
    int buf[EV_NTERMS + 1];
    if (int_items(obj, "weights", -EV_MAXWEIGHT, EV_MAXWEIGHT, buf, EV_NTERMS + 1, &n) < 0)
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

PyMethodDef bind_eval_methods[] = {
    {"eval_terms_info", k_eval_terms_info, METH_NOARGS,
     "eval_terms_info() -> [(name, default, doc)]"},
    {"eval_terms", k_eval_terms, METH_O, "eval_terms(packed) -> term counts (mover's view)"},
    {"eval_terms_batch", k_eval_terms_batch, METH_O, "eval_terms_batch(packed_list) -> rows"},
    {"evaluate", k_evaluate, METH_VARARGS, "evaluate(packed, weights) -> centi-men (mover's view)"},
    {NULL, NULL, 0, NULL},
};
