/* Registration of the .Call entry points; no dynamic symbol lookup. */
#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>
#include <R_ext/Rdynload.h>

#include "cardreg_r.h"

static const R_CallMethodDef call_methods[] = {
    {"cr_version", (DL_FUNC) &cr_version, 0},
    {"cr_run", (DL_FUNC) &cr_run, 7},
    {"cr_predict", (DL_FUNC) &cr_predict, 6},
    {"cr_run_csc", (DL_FUNC) &cr_run_csc, 9},
    {"cr_predict_csc", (DL_FUNC) &cr_predict_csc, 8},
    {"cr_free", (DL_FUNC) &cr_free, 1},
    {"cr_handle_valid", (DL_FUNC) &cr_handle_valid, 1},
    {"cr_handle_id", (DL_FUNC) &cr_handle_id, 1},
    {"cr_id_held", (DL_FUNC) &cr_id_held, 1},
    {"cr_describe", (DL_FUNC) &cr_describe, 0},
    {"cr_response", (DL_FUNC) &cr_response, 3},
    {NULL, NULL, 0}
};

void R_init_cardreg(DllInfo *dll)
{
    R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
    R_forceSymbols(dll, TRUE);
}
