/* emergo._kernel: the module assembled from the binding files (the typed API is emergo.kernel).
 *
 *   bind_common.c  packed positions, paths, checked ints, Ctrl-C in long calls (bind.h)
 *   bind_rules.c   register_geometry, legal, legal_batch, key, perft, perft_divide, bench_generate
 *   bind_games.c   playouts, playouts_batch, game (random or replayed), selfcheck
 *   bind_eval.c    eval_terms_info, eval_terms, eval_terms_batch, evaluate
 *   bind_search.c  the Searcher type
 *   bind_batch.c   the BatchEnv type (batched environments, batchenv.c)
 *   bind_tb.c      the Table type and tb_build, tb_open (endgame tables, tb.c, tbgen.c)
 */
#include "bind.h"
#include "perft.h"

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "emergo._kernel", "The C kernel of emergo (use emergo.kernel).", -1,
    NULL, NULL, NULL, NULL, NULL,
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
    if (m && (PyModule_AddFunctions(m, bind_rules_methods) < 0 ||
              PyModule_AddFunctions(m, bind_games_methods) < 0 ||
              PyModule_AddFunctions(m, bind_eval_methods) < 0 || bind_search_add(m) < 0 ||
              bind_batch_add(m) < 0 || bind_tb_add(m) < 0 ||
              PyModule_AddIntConstant(m, "MAX_PATH", K_MAXPATH) < 0 ||
              PyModule_AddIntConstant(m, "MAX_MEN", K_MAXMEN) < 0 ||
              PyModule_AddIntConstant(m, "MAX_PERFT_DEPTH", MAX_PERFT_DEPTH) < 0)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
