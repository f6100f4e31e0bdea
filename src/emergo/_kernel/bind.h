/* What the binding files (bind_*.c) share: conversions, checked integers, Ctrl-C in long calls.
 *
 * Positions arrive packed by emergo.kernel as (variant, bytes): side to move,
 * White's hand, Black's hand, then (square, owner, caps, prisoners) per
 * stack.  Integers from Python are converted with range checks: nothing is
 * ever wrapped or truncated silently (the typed wrapper emergo.kernel checks
 * ranges first and names the argument; these checks are the last line).
 */
#ifndef EMERGO_BIND_H
#define EMERGO_BIND_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "halt.h"
#include "playout.h"
#include "tb.h"

extern const char *const TERM_NAMES[]; /* by TERM_*: NULL, "no-pieces", "blocked", "repetition" */

/* --- positions and moves -------------------------------------------------------------------- */

int unpack(PyObject *obj, pos_t *p);
/* A sequence of packed positions as a new array (PyMem_Free it); NULL with an exception. */
pos_t *unpack_many(PyObject *seq, Py_ssize_t *count);
PyObject *path_tuple(const move_t *m);
/* The R21 texts of moves as a list sorted by code point (as Python's sorted). */
PyObject *texts_sorted(const geo_t *g, const move_t *v, size_t n);
PyObject *position_text(const pos_t *p);
/* Paths (sequences of square ints) as a new array of moves (PyMem_Free it; squares off the
 * grid become K_NOSQ, too long a path gets len 0: such a path matches no legal move). */
move_t *read_paths(PyObject *paths, Py_ssize_t *count);
PyObject *stats_tuple(const pstats_t *st);

/* --- checked integers ----------------------------------------------------------------------- */

/* An int in low..high, else ValueError naming what (TypeError if not an int). */
int int_in(PyObject *obj, const char *what, long low, long high, int *out);
/* Up to max ints in low..high from a sequence into out; *n is how many. */
int int_items(PyObject *obj, const char *what, long low, long high, int *out, Py_ssize_t max,
              Py_ssize_t *n);
/* PyArg_ParseTuple "O&" converter of an unsigned 64-bit int: OverflowError, never a wrap. */
int u64_arg(PyObject *obj, void *out);

/* --- Ctrl-C in long calls ------------------------------------------------------------------- */

/* A long call releases the GIL between pyhalt_begin and pyhalt_end.  On
 * Python's main thread its loops poll, every SIGNAL_CHECK seconds at most,
 * for pending signals: the GIL is taken back for a moment and
 * PyErr_CheckSignals runs the handlers; if one raises (KeyboardInterrupt for
 * Ctrl-C) the loops stop and the call returns NULL with that exception.
 * Signals only ever reach the main thread; a call in another thread runs
 * to its end (the search has its stop for that). */
#define SIGNAL_CHECK 0.02 /* seconds */

typedef struct pyhalt {
    halt_t h;           /* first: the poll hook is given &h */
    PyThreadState *ts;  /* the caller's thread state while the GIL is released */
    double next;        /* monotonic time of the next look at signals */
} pyhalt_t;

void pyhalt_begin(pyhalt_t *ph);
/* Take the GIL back; -1 when a signal handler raised (the exception is set). */
int pyhalt_end(pyhalt_t *ph);

double monotonic(void);

/* Evaluation weights from a sequence of EV_NTERMS ints (each within EV_MAXWEIGHT); -1 with an
 * exception.  w holds EV_NTERMS ints. */
int read_weights(PyObject *obj, int *w);

/* --- the module's parts --------------------------------------------------------------------- */

extern PyMethodDef bind_rules_methods[];
extern PyMethodDef bind_games_methods[];
extern PyMethodDef bind_eval_methods[];
/* Add the Searcher type to the module; -1 with an exception. */
int bind_search_add(PyObject *m);
/* Add the BatchEnv type to the module; -1 with an exception. */
int bind_batch_add(PyObject *m);
/* Add the Table type and the table functions to the module; -1 with an exception. */
int bind_tb_add(PyObject *m);
/* The table of a Table object (NULL for None); -1 with an exception when it is neither, or
 * closed.  table_use counts a user of a Table (it cannot be closed while used). */
int table_arg(PyObject *obj, const char *what, const tb_t **out);
void table_use(PyObject *obj, int delta);

#endif
