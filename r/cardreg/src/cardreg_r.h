/* The package's .Call entry points (registered in init.c). */
#ifndef CARDREG_R_H
#define CARDREG_R_H

#include <Rinternals.h>

SEXP cr_version(void);
SEXP cr_run(SEXP mode, SEXP x, SEXP y, SEXP weights, SEXP offset,
            SEXP codes, SEXP options);
SEXP cr_predict(SEXP ptr, SEXP k, SEXP x, SEXP codes, SEXP offset, SEXP type);
SEXP cr_run_csc(SEXP mode, SEXP dims, SEXP colptr, SEXP rowind, SEXP values,
                SEXP y, SEXP weights, SEXP offset, SEXP options);
SEXP cr_predict_csc(SEXP ptr, SEXP k, SEXP dims, SEXP colptr, SEXP rowind,
                    SEXP values, SEXP offset, SEXP type);
SEXP cr_free(SEXP ptr);
SEXP cr_handle_valid(SEXP ptr);
SEXP cr_handle_id(SEXP ptr);
SEXP cr_id_held(SEXP id);
SEXP cr_describe(void);
SEXP cr_response(SEXP family, SEXP eta, SEXP type);

#endif
