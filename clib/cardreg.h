/*
 * cardreg.h: the C interface of cardreg, for Python, R and any language
 * that calls C. Built from the Go package ./clib:
 *
 *   go build -buildmode=c-shared -o libcardreg.so ./clib    (a shared library)
 *   go build -buildmode=c-archive -o libcardreg.a ./clib    (a static archive)
 *
 * Conventions
 *   - Every function but cardreg_version, cardreg_last_error and
 *     cardreg_string_free returns 0 on success and a non-zero status on
 *     failure; the failure's message is then cardreg_last_error(). Bad input
 *     the library can see (NaN, a null pointer, a negative size, names or
 *     fold ids of another length than the options say, an unknown option)
 *     is an error, never a crash: a panic inside is recovered and returned
 *     as an error. The library cannot see the length of a buffer: it reads
 *     n×p values of x, n of y, and writes as many values into out as each
 *     function says; a shorter buffer is the caller's memory error.
 *   - Results are handles (cardreg_handle, never 0), freed with cardreg_free.
 *     cardreg keeps no pointer given to it after a call returns, and gives
 *     none of its own memory but strings (freed with cardreg_string_free).
 *     Separate handles may be used from separate threads at once.
 *   - Matrices are float64, n rows by p columns, row-major (layout 0:
 *     NumPy's C order; read in place, not copied, when there are no
 *     factors) or column-major (layout 1: R's and Fortran's order;
 *     transposed once).
 *   - Sparse matrices (the *_csc functions) are compressed sparse columns,
 *     as scipy's csc_matrix and R's dgCMatrix hold them: colstart holds
 *     p+1 int64 offsets (colstart[0] = 0, not decreasing, colstart[p] =
 *     nnz: int64 so that a matrix may hold 2³¹ non-zeros or more), rowind
 *     nnz int32 row indices from 0 (increasing within a column, each row
 *     once: n < 2³¹), values nnz doubles (NULL: all 1, a pattern matrix).
 *     Explicit zeros are allowed. The arrays are read in place, never
 *     densified and not copied (but colstart on a 32-bit platform): the fit
 *     runs on them during the call and keeps no pointer to them after.
 *     Unsorted or repeated row indices, an index outside 0..n-1 and a NaN
 *     or infinite value are errors naming the column (and the row).
 *   - weights and offset may be NULL (all 1, all 0); y may not.
 *   - Factor predictors: codes is an n x nfactors column-major int32 matrix,
 *     column f holding each row's level of factor f as an index into that
 *     factor's "levels" in the options (0-based); NULL when nfactors is 0.
 *     The design is the p numeric columns followed by each factor's dummy
 *     columns (one per level but the reference, named NAME=LEVEL).
 *   - options is one JSON object: the data's description ("names": the p
 *     numeric columns' names; "factors": [{"name", "levels", "ordinal"}])
 *     and the options, with the names of the command line's flags
 *     ("family", "penalty", "nu", "alpha", "lambda", "rule", "folds", "seed",
 *     "foldid", "type-measure", "nlambda", "min-ratio", "tol", "max-iter",
 *     "no-intercept", "standardize", "relax", "penalty-factor", "exclude",
 *     "groups", "G", "memory", "ref", "pair-weights", "min-count",
 *     "max-levels"; cardreg_describe lists those each call accepts).
 *     An unknown name is an error, and so is an option that would have no
 *     effect (folds without cross-validation, say), as the command line
 *     refuses such a flag. NULL or "" is {}. See clib/README.md.
 *   - λ is on cardreg's scale (no 1/(2n)): glmnet's and scikit-learn's is
 *     λ/(2n), as everywhere in cardreg.
 */
#ifndef CARDREG_H
#define CARDREG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int64_t cardreg_handle;

#define CARDREG_ROW_MAJOR 0
#define CARDREG_COL_MAJOR 1

/* The library's version, as `cardreg --version` prints it ("cardreg " and the
 * module version or VCS revision); static storage. */
const char *cardreg_version(void);

/* The message of the last failed call on this thread ("" if none); valid
 * until the next cardreg call on this thread. */
const char *cardreg_last_error(void);

/* cardreg_fit fits one model: at "lambda" (a number), or at the λ that
 * "lambda": "cv" (the default; "rule" min or 1se), "aic" or "bic" chooses.
 * cardreg_path fits a decreasing grid ("lambda": an array, else "nlambda"
 * values from λ_max down by "min-ratio"); cardreg_cv cross-validates along
 * that grid as cv.glmnet does (its models are the full-data path). */
int cardreg_fit(const double *x, int64_t n, int64_t p, int32_t layout,
                const double *y, const double *weights, const double *offset,
                const int32_t *codes, int64_t nfactors,
                const char *options, cardreg_handle *out);
int cardreg_path(const double *x, int64_t n, int64_t p, int32_t layout,
                 const double *y, const double *weights, const double *offset,
                 const int32_t *codes, int64_t nfactors,
                 const char *options, cardreg_handle *out);
int cardreg_cv(const double *x, int64_t n, int64_t p, int32_t layout,
               const double *y, const double *weights, const double *offset,
               const int32_t *codes, int64_t nfactors,
               const char *options, cardreg_handle *out);

/* cardreg_fit, cardreg_path and cardreg_cv on a sparse x of n rows and p
 * numeric columns given in CSC arrays (see Conventions); factors, weights,
 * offset and options as for the dense functions (the factors' dummies are
 * held as indicator columns, not densified either). */
int cardreg_fit_csc(int64_t n, int64_t p, const int64_t *colstart,
                    const int32_t *rowind, const double *values,
                    const double *y, const double *weights,
                    const double *offset, const int32_t *codes,
                    int64_t nfactors, const char *options, cardreg_handle *out);
int cardreg_path_csc(int64_t n, int64_t p, const int64_t *colstart,
                     const int32_t *rowind, const double *values,
                     const double *y, const double *weights,
                     const double *offset, const int32_t *codes,
                     int64_t nfactors, const char *options, cardreg_handle *out);
int cardreg_cv_csc(int64_t n, int64_t p, const int64_t *colstart,
                   const int32_t *rowind, const double *values,
                   const double *y, const double *weights,
                   const double *offset, const int32_t *codes,
                   int64_t nfactors, const char *options, cardreg_handle *out);

/* The number of models of a result (1 for cardreg_fit, the grid's length
 * for a path or a cross-validation) and the design's columns (coefficients
 * per model). */
int cardreg_dims(cardreg_handle h, int64_t *models, int64_t *columns);

/* Model k's coefficients (columns values, the design's order) and
 * intercept, on the data's scale. */
int cardreg_coef(cardreg_handle h, int64_t k, double *coef, double *intercept);

/* Model k's λ, its certificate (the relative duality gap; NaN when the
 * penalty has none) and whether it converged (1) or not (0). */
int cardreg_status(cardreg_handle h, int64_t k, double *lambda, double *gap,
                   int32_t *converged);

/* The whole result as JSON: for cardreg_fit the command line's
 * `cardreg fit --format json` document (clusters, level groups, the
 * certificate, the CV summary when λ was cross-validated); for a path or
 * a cross-validation the grid, every model's coefficients, intercept,
 * gap, status, deviance ratio and clusters, and the curve (cvm, cvsd,
 * lambda_min, lambda_1se) with, in "fits", cardreg_fit's document of the
 * models at lambda_min and lambda_1se. *out is freed with
 * cardreg_string_free. */
int cardreg_json(cardreg_handle h, char **out);

/* Predictions of model k for n new rows laid out as at fitting (the same
 * p numeric columns, the same factors with codes into the same levels;
 * a code of -1 is an error naming the row): type "link", "response" or
 * "class" (binomial), written to out (n values). */
int cardreg_predict(cardreg_handle h, int64_t k,
                    const double *x, int64_t n, int64_t p, int32_t layout,
                    const int32_t *codes, int64_t nfactors,
                    const double *offset, const char *type, double *out);

/* cardreg_predict for n new rows whose p numeric columns are CSC arrays
 * (see Conventions), whatever form the fit's x had. */
int cardreg_predict_csc(cardreg_handle h, int64_t k, int64_t n, int64_t p,
                        const int64_t *colstart, const int32_t *rowind,
                        const double *values, const int32_t *codes,
                        int64_t nfactors, const double *offset,
                        const char *type, double *out);

/* What the library offers, as JSON (*out freed with cardreg_string_free):
 *   {"families": [{"name", "link", "parameter": null or {"name", "range"},
 *                  "measures": [{"name", "title"}]}],
 *    "penalties": [{"name", "nu", "inputs": [option names], "glm", "grid"}],
 *    "options": {"fit": [...], "path": [...], "cv": [...]}}
 * read from the library's registries: the families (a parameter is written
 * after the name and a colon, "tweedie:1.5"), their cross-validation
 * measures (the default first, with cv.glmnet's title), the penalties with
 * the options they need, and the option names each call accepts. */
int cardreg_describe(char **out);

/* The predictions of family (a name of cardreg_describe's families, with
 * its parameter) at n linear predictors eta: type "link" (eta itself),
 * "response" (the inverse link) or "class" (binomial), written to out (n
 * values). For predictions from coefficients the caller holds. */
int cardreg_response(const char *family, const double *eta, int64_t n,
                     const char *type, double *out);

/* Frees a result; 0 or an unknown handle is an error. */
int cardreg_free(cardreg_handle h);

/* Frees a string cardreg returned. NULL is ignored. */
void cardreg_string_free(char *s);

#ifdef __cplusplus
}
#endif

#endif /* CARDREG_H */
