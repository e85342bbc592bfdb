/*
 * The .Call glue between R and cardreg's C interface (cardreg.h, copied
 * from the Go module's clib/ by configure).
 *
 * Every argument's type and length is checked here again (the R code checks
 * them first, with friendlier messages), every cardreg_* status is checked,
 * and a failure becomes an R error carrying the library's message. A result
 * handle lives in an external pointer whose finalizer frees it; the handle
 * is owned by that pointer before the call that fills it, so an R error
 * later in the same function cannot leak it.
 */
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <math.h>

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>

#include "cardreg.h"
#include "cardreg_r.h"

/* ------------------------------------------------------------------ */
/* Errors                                                              */

static void NORET lib_error(const char *what, int status)
{
    const char *msg = cardreg_last_error();
    if (msg == NULL || msg[0] == '\0')
        Rf_error("cardreg: %s failed (status %d)", what, status);
    Rf_error("cardreg: %s", msg);
}

#define CHECK(call, what)                     \
    do {                                      \
        int st_ = (call);                     \
        if (st_ != 0) lib_error(what, st_);   \
    } while (0)

/* ------------------------------------------------------------------ */
/* Handles                                                             */

typedef struct {
    cardreg_handle h;
} handle_box;

static SEXP handle_tag(void)
{
    return Rf_install("cardreg_handle");
}

static void handle_finalize(SEXP ptr)
{
    handle_box *b = (handle_box *) R_ExternalPtrAddr(ptr);
    if (b == NULL) return;
    if (b->h != 0) cardreg_free(b->h); /* nothing to report to */
    free(b);
    R_ClearExternalPtr(ptr);
}

/* A new external pointer owning an empty handle (0); PROTECTed by the
 * caller. */
static SEXP new_handle(void)
{
    handle_box *b = (handle_box *) calloc(1, sizeof(handle_box));
    if (b == NULL) Rf_error("cardreg: out of memory");
    SEXP ptr = PROTECT(R_MakeExternalPtr(b, handle_tag(), R_NilValue));
    R_RegisterCFinalizerEx(ptr, handle_finalize, FALSE);
    UNPROTECT(1);
    return ptr;
}

static cardreg_handle get_handle(SEXP ptr)
{
    if (TYPEOF(ptr) != EXTPTRSXP || R_ExternalPtrTag(ptr) != handle_tag())
        Rf_error("cardreg: not a cardreg result handle");
    handle_box *b = (handle_box *) R_ExternalPtrAddr(ptr);
    if (b == NULL || b->h == 0)
        Rf_error("cardreg: the fit's native result is gone (freed, or the object was saved and loaded again); predictions are computed in R from its coefficients instead");
    return b->h;
}

SEXP cr_handle_valid(SEXP ptr)
{
    if (TYPEOF(ptr) != EXTPTRSXP || R_ExternalPtrTag(ptr) != handle_tag())
        return Rf_ScalarLogical(FALSE);
    handle_box *b = (handle_box *) R_ExternalPtrAddr(ptr);
    return Rf_ScalarLogical(b != NULL && b->h != 0);
}

/* The library's number of a result handle (0 once freed), and whether
 * the library still holds the result of a number: the tests' view of the
 * finalizer. */
SEXP cr_handle_id(SEXP ptr)
{
    return Rf_ScalarReal((double) get_handle(ptr));
}

SEXP cr_id_held(SEXP id)
{
    int64_t models = 0, columns = 0;
    cardreg_handle h = (cardreg_handle) Rf_asReal(id);
    return Rf_ScalarLogical(cardreg_dims(h, &models, &columns) == 0);
}

SEXP cr_free(SEXP ptr)
{
    if (TYPEOF(ptr) != EXTPTRSXP || R_ExternalPtrTag(ptr) != handle_tag())
        Rf_error("cardreg: not a cardreg result handle");
    handle_box *b = (handle_box *) R_ExternalPtrAddr(ptr);
    if (b != NULL && b->h != 0) {
        cardreg_handle h = b->h;
        b->h = 0;
        CHECK(cardreg_free(h), "cardreg_free");
    }
    return R_NilValue;
}

/* ------------------------------------------------------------------ */
/* Argument checks                                                     */

static const char *string_arg(SEXP s, const char *name)
{
    if (TYPEOF(s) != STRSXP || XLENGTH(s) != 1 || STRING_ELT(s, 0) == NA_STRING)
        Rf_error("cardreg: %s must be one string", name);
    return Rf_translateCharUTF8(STRING_ELT(s, 0));
}

static int int_arg(SEXP s, const char *name)
{
    if (TYPEOF(s) != INTSXP || XLENGTH(s) != 1 || INTEGER(s)[0] == NA_INTEGER)
        Rf_error("cardreg: %s must be one integer", name);
    return INTEGER(s)[0];
}

/* Dimensions of a double matrix. */
static void matrix_dims(SEXP x, const char *name, int64_t *n, int64_t *p)
{
    if (TYPEOF(x) != REALSXP)
        Rf_error("cardreg: %s must be a double matrix", name);
    SEXP dim = Rf_getAttrib(x, R_DimSymbol);
    if (TYPEOF(dim) != INTSXP || XLENGTH(dim) != 2)
        Rf_error("cardreg: %s must be a matrix", name);
    *n = INTEGER(dim)[0];
    *p = INTEGER(dim)[1];
}

/* A double vector of length n or NULL; returns the pointer or NULL. */
static const double *optional_vector(SEXP v, int64_t n, const char *name)
{
    if (Rf_isNull(v)) return NULL;
    if (TYPEOF(v) != REALSXP)
        Rf_error("cardreg: %s must be a double vector or NULL", name);
    if ((int64_t) XLENGTH(v) != n)
        Rf_error("cardreg: %s has length %lld, the data have %lld rows",
                 name, (long long) XLENGTH(v), (long long) n);
    const double *d = REAL(v);
    for (int64_t i = 0; i < n; i++)
        if (ISNAN(d[i]))
            Rf_error("cardreg: %s[%lld] is NA or NaN", name, (long long) (i + 1));
    return d;
}

/* Factor codes: NULL or an n x nf integer matrix of 0-based levels. */
static const int32_t *codes_arg(SEXP codes, int64_t n, int64_t *nf)
{
    *nf = 0;
    if (Rf_isNull(codes)) return NULL;
    if (TYPEOF(codes) != INTSXP)
        Rf_error("cardreg: factor codes must be an integer matrix");
    SEXP dim = Rf_getAttrib(codes, R_DimSymbol);
    if (TYPEOF(dim) != INTSXP || XLENGTH(dim) != 2)
        Rf_error("cardreg: factor codes must be a matrix");
    if (INTEGER(dim)[0] != n)
        Rf_error("cardreg: factor codes have %d rows, the data %lld",
                 INTEGER(dim)[0], (long long) n);
    *nf = INTEGER(dim)[1];
    if (*nf == 0) return NULL;
    const int *c = INTEGER(codes);
    for (int64_t i = 0; i < n * *nf; i++)
        if (c[i] == NA_INTEGER)
            Rf_error("cardreg: factor %lld has NA in row %lld",
                     (long long) (i / n + 1), (long long) (i % n + 1));
    return (const int32_t *) c;
}

/* A valid pointer for an empty matrix (never read). */
static double empty_double;

/* ------------------------------------------------------------------ */
/* Fitting                                                             */

typedef int (*fit_fn)(const double *, int64_t, int64_t, int32_t,
                      const double *, const double *, const double *,
                      const int32_t *, int64_t, const char *,
                      cardreg_handle *);

/* Copies every model of handle h into R: coefficients (columns x models),
 * intercepts, λ, gaps, converged; and the JSON document. */
static SEXP collect(SEXP ptr)
{
    cardreg_handle h = get_handle(ptr);
    int64_t models = 0, columns = 0;
    CHECK(cardreg_dims(h, &models, &columns), "cardreg_dims");
    if (models < 0 || columns < 0 || models > INT32_MAX || columns > INT32_MAX)
        Rf_error("cardreg: cardreg_dims returned %lld models of %lld columns",
                 (long long) models, (long long) columns);

    SEXP coef = PROTECT(Rf_allocMatrix(REALSXP, (int) columns, (int) models));
    SEXP a0 = PROTECT(Rf_allocVector(REALSXP, models));
    SEXP lam = PROTECT(Rf_allocVector(REALSXP, models));
    SEXP gap = PROTECT(Rf_allocVector(REALSXP, models));
    SEXP conv = PROTECT(Rf_allocVector(LGLSXP, models));
    for (int64_t k = 0; k < models; k++) {
        double icpt = 0, l = 0, g = 0;
        int32_t c = 0;
        CHECK(cardreg_coef(h, k, REAL(coef) + k * columns, &icpt), "cardreg_coef");
        CHECK(cardreg_status(h, k, &l, &g, &c), "cardreg_status");
        REAL(a0)[k] = icpt;
        REAL(lam)[k] = l;
        REAL(gap)[k] = g;
        LOGICAL(conv)[k] = c != 0;
    }

    char *js = NULL;
    CHECK(cardreg_json(h, &js), "cardreg_json");
    SEXP json = PROTECT(Rf_allocVector(STRSXP, 1));
    if (js == NULL) {
        SET_STRING_ELT(json, 0, Rf_mkChar("{}"));
    } else {
        /* mkCharCE may fail (an R error) on a huge string; the string is
         * then leaked, once. */
        SEXP ch = Rf_mkCharCE(js, CE_UTF8);
        cardreg_string_free(js);
        SET_STRING_ELT(json, 0, ch);
    }

    const char *names[] = {"handle", "coef", "intercept", "lambda", "gap",
                           "converged", "json", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, ptr);
    SET_VECTOR_ELT(out, 1, coef);
    SET_VECTOR_ELT(out, 2, a0);
    SET_VECTOR_ELT(out, 3, lam);
    SET_VECTOR_ELT(out, 4, gap);
    SET_VECTOR_ELT(out, 5, conv);
    SET_VECTOR_ELT(out, 6, json);
    UNPROTECT(7);
    return out;
}

SEXP cr_run(SEXP mode, SEXP x, SEXP y, SEXP weights, SEXP offset,
            SEXP codes, SEXP options)
{
    int m = int_arg(mode, "mode");
    fit_fn fn;
    const char *what;
    switch (m) {
    case 0: fn = cardreg_fit; what = "cardreg_fit"; break;
    case 1: fn = cardreg_path; what = "cardreg_path"; break;
    case 2: fn = cardreg_cv; what = "cardreg_cv"; break;
    default: Rf_error("cardreg: unknown mode %d", m);
    }
    int64_t n = 0, p = 0, nf = 0;
    matrix_dims(x, "x", &n, &p);
    if (TYPEOF(y) != REALSXP || (int64_t) XLENGTH(y) != n)
        Rf_error("cardreg: y must be a double vector with one value per row of x (%lld)",
                 (long long) n);
    const double *w = optional_vector(weights, n, "weights");
    const double *o = optional_vector(offset, n, "offset");
    const int32_t *cd = codes_arg(codes, n, &nf);
    const char *opt = string_arg(options, "options");
    const double *xp = (n * p == 0) ? &empty_double : REAL(x);

    SEXP ptr = PROTECT(new_handle());
    handle_box *b = (handle_box *) R_ExternalPtrAddr(ptr);
    CHECK(fn(xp, n, p, CARDREG_COL_MAJOR, REAL(y), w, o, cd, nf, opt, &b->h), what);
    SEXP out = collect(ptr);
    UNPROTECT(1);
    return out;
}

SEXP cr_predict(SEXP ptr, SEXP k, SEXP x, SEXP codes, SEXP offset, SEXP type)
{
    cardreg_handle h = get_handle(ptr);
    int kk = int_arg(k, "k");
    int64_t n = 0, p = 0, nf = 0;
    matrix_dims(x, "newx", &n, &p);
    const int32_t *cd = codes_arg(codes, n, &nf);
    const double *o = optional_vector(offset, n, "newoffset");
    const char *t = string_arg(type, "type");
    const double *xp = (n * p == 0) ? &empty_double : REAL(x);
    SEXP out = PROTECT(Rf_allocVector(REALSXP, n));
    CHECK(cardreg_predict(h, kk, xp, n, p, CARDREG_COL_MAJOR, cd, nf, o, t,
                          n == 0 ? &empty_double : REAL(out)),
          "cardreg_predict");
    UNPROTECT(1);
    return out;
}

/* ------------------------------------------------------------------ */
/* Sparse x: a dgCMatrix's slots                                       */

/* The CSC arrays of a dgCMatrix's slots: dims c(n, p), colptr @p (p+1
 * integers, widened here to the library's int64 column starts, in R's
 * memory, freed with the call), rowind @i and values @x (read in place:
 * R's integers are the library's int32 row indices). The library checks
 * their order and values. */
typedef struct {
    int64_t n, p;
    const int64_t *colstart;
    const int32_t *rowind;
    const double *values;
} csc_args;

static csc_args csc_arg(SEXP dims, SEXP colptr, SEXP rowind, SEXP values)
{
    csc_args a;
    if (TYPEOF(dims) != INTSXP || XLENGTH(dims) != 2)
        Rf_error("cardreg: dims must be two integers");
    a.n = INTEGER(dims)[0];
    a.p = INTEGER(dims)[1];
    if (TYPEOF(colptr) != INTSXP || (int64_t) XLENGTH(colptr) != a.p + 1)
        Rf_error("cardreg: the column pointers (@p) must be %lld integers",
                 (long long) (a.p + 1));
    if (TYPEOF(rowind) != INTSXP || TYPEOF(values) != REALSXP ||
        XLENGTH(rowind) != XLENGTH(values))
        Rf_error("cardreg: @i must be integers and @x doubles, as many");
    const int *cp = INTEGER(colptr);
    if (cp[a.p] != XLENGTH(rowind))
        Rf_error("cardreg: @p ends at %d for %lld values", cp[a.p],
                 (long long) XLENGTH(rowind));
    int64_t *cs = (int64_t *) R_alloc((size_t) a.p + 1, sizeof(int64_t));
    for (int64_t j = 0; j <= a.p; j++)
        cs[j] = cp[j];
    a.colstart = cs;
    a.rowind = XLENGTH(rowind) ? (const int32_t *) INTEGER(rowind) : NULL;
    a.values = XLENGTH(values) ? REAL(values) : NULL;
    /* An empty matrix's NULL values would mean "all one": none are read. */
    return a;
}

typedef int (*fit_csc_fn)(int64_t, int64_t, const int64_t *, const int32_t *,
                          const double *, const double *, const double *,
                          const double *, const int32_t *, int64_t,
                          const char *, cardreg_handle *);

SEXP cr_run_csc(SEXP mode, SEXP dims, SEXP colptr, SEXP rowind, SEXP values,
                SEXP y, SEXP weights, SEXP offset, SEXP options)
{
    int m = int_arg(mode, "mode");
    fit_csc_fn fn;
    const char *what;
    switch (m) {
    case 0: fn = cardreg_fit_csc; what = "cardreg_fit_csc"; break;
    case 1: fn = cardreg_path_csc; what = "cardreg_path_csc"; break;
    case 2: fn = cardreg_cv_csc; what = "cardreg_cv_csc"; break;
    default: Rf_error("cardreg: unknown mode %d", m);
    }
    csc_args a = csc_arg(dims, colptr, rowind, values);
    if (TYPEOF(y) != REALSXP || (int64_t) XLENGTH(y) != a.n)
        Rf_error("cardreg: y must be a double vector with one value per row of x (%lld)",
                 (long long) a.n);
    const double *w = optional_vector(weights, a.n, "weights");
    const double *o = optional_vector(offset, a.n, "offset");
    const char *opt = string_arg(options, "options");

    SEXP ptr = PROTECT(new_handle());
    handle_box *b = (handle_box *) R_ExternalPtrAddr(ptr);
    CHECK(fn(a.n, a.p, a.colstart, a.rowind, a.values, REAL(y), w, o, NULL, 0,
             opt, &b->h), what);
    SEXP out = collect(ptr);
    UNPROTECT(1);
    return out;
}

SEXP cr_predict_csc(SEXP ptr, SEXP k, SEXP dims, SEXP colptr, SEXP rowind,
                    SEXP values, SEXP offset, SEXP type)
{
    cardreg_handle h = get_handle(ptr);
    int kk = int_arg(k, "k");
    csc_args a = csc_arg(dims, colptr, rowind, values);
    const double *o = optional_vector(offset, a.n, "newoffset");
    const char *t = string_arg(type, "type");
    SEXP out = PROTECT(Rf_allocVector(REALSXP, a.n));
    CHECK(cardreg_predict_csc(h, kk, a.n, a.p, a.colstart, a.rowind, a.values,
                              NULL, 0, o, t, a.n == 0 ? &empty_double : REAL(out)),
          "cardreg_predict_csc");
    UNPROTECT(1);
    return out;
}

/* The library's description (cardreg_describe) as JSON text. */
SEXP cr_describe(void)
{
    char *js = NULL;
    CHECK(cardreg_describe(&js), "cardreg_describe");
    SEXP out = PROTECT(Rf_allocVector(STRSXP, 1));
    SEXP ch = Rf_mkCharCE(js == NULL ? "{}" : js, CE_UTF8);
    cardreg_string_free(js);
    SET_STRING_ELT(out, 0, ch);
    UNPROTECT(1);
    return out;
}

/* The predictions type of family at the linear predictors eta (a double
 * vector or matrix, whose dimensions the result keeps): the library's
 * inverse link (cardreg_response). */
SEXP cr_response(SEXP family, SEXP eta, SEXP type)
{
    const char *f = string_arg(family, "family");
    const char *t = string_arg(type, "type");
    if (TYPEOF(eta) != REALSXP)
        Rf_error("cardreg: eta must be a double vector");
    R_xlen_t n = XLENGTH(eta);
    SEXP out = PROTECT(Rf_allocVector(REALSXP, n));
    CHECK(cardreg_response(f, n == 0 ? &empty_double : REAL(eta), (int64_t) n, t,
                           n == 0 ? &empty_double : REAL(out)),
          "cardreg_response");
    Rf_copyMostAttrib(eta, out);
    Rf_setAttrib(out, R_DimSymbol, Rf_getAttrib(eta, R_DimSymbol));
    UNPROTECT(1);
    return out;
}

SEXP cr_version(void)
{
    const char *v = cardreg_version();
    return Rf_mkString(v == NULL ? "" : v);
}
