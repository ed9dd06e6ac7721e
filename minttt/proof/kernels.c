/* minttt.proof.kernels: the compiled checkers of minttt.proof.drat and minttt.proof.lrat, one
 * extension module on the stable CPython API (3.11 on). Its functions are those of
 * drat_kernel.c (drat_*, the DRAT checker's method, step for step the reference's) and of
 * lrat_kernel.c (lrat_*, the LRAT checker's RUP pass); this file only makes the module.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

extern PyMethodDef drat_methods[], lrat_methods[];

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "minttt.proof.kernels",
    "The checkers of minttt.proof.drat (drat_*: the same method, step for step) and of\n"
    "minttt.proof.lrat (lrat_*: RUP lemmas only, the rest deferred), compiled.", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_kernels(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && (PyModule_AddFunctions(m, drat_methods) < 0 ||
              PyModule_AddFunctions(m, lrat_methods) < 0)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
