// Package estimator is cardreg's one regression layer: Fit, FitPath and
// CrossValidate over (data, family, penalty, options), with one Model, one
// λ grid, one cross-validation and one set of defaults, whatever form the
// data come in.
//
// # Data
//
// A fit reads one of three forms (Data): Rows, the observations in memory
// (a design X of n rows, responses Y n×q, optional weights and offsets);
// Stats, sufficient statistics per fold (package suffstat: what one streamed
// pass or one SQL query computes, O((p+q)²) memory whatever n); and Stream,
// a RowSource read once per pass (a file too large for memory, for the
// families that need more than moments). Every form of the same rows gives
// the same fit, the same λ grid and, for the same seed, the same folds
// (Folds is their one home).
//
// # Objective and conventions
//
// The objective is the weighted deviance plus λ·h(B), with no 1/(2n): for
// the gaussian family ‖Y − XB − 1b₀ᵀ‖²_F + λ·h(B), for the others
// Σᵢ wᵢ dᵢ + λ·h(β) with the weights rescaled to sum to n, as glmnet
// rescales them. glmnet's and scikit-learn's λ is therefore λ/(2n) for every
// family (LambdaGlmnet). The intercept and the predictors in
// Options.Unpenalized are fitted exactly; h acts on the others.
//
// # Routes, chosen once
//
// The gaussian family's fits use its fast paths, which the solvers discover:
// centring is the exact profile of the intercept, the Gram matrix XᵀWX (or
// the statistics) is formed once and shared by every λ of a path, and
// several responses are one multi-response fit. The other families (and
// gaussian fits with penalty factors or predictors left out of the
// penalty) run proximal Newton or glmnet's coordinate descent on the
// deviance. Which one runs is decided in one function (route) from the data
// form, the family and the options; a combination no route can fit is
// refused there with one error.
//
// # Repeated rows
//
// On the family route, rows in memory whose design rows are identical (a
// design of factors: 678,013 motor policies, 13,107 combinations of five
// factors) are fitted once each, as one row standing for its observations
// with the family's exact aggregation of their responses, weights and
// offsets, when the distinct rows are at most half of the observations.
// Fits, paths, grids, deviances, N and cross-validation curves are the
// observations' own (compress.go states the rule, the aggregations and
// which measures keep rows apart).
//
// # Defaults
//
// DefaultFolds (10, cv.glmnet's), solver.DefaultNLambda (100), solver.DefaultTol
// (a relative duality gap of 1e-7) and solver.DefaultMaxIter are written
// once, here and in package solver.
package estimator
