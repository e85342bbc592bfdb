// Package glm is the family engine behind package estimator (callers use
// estimator, which chooses this engine or the least-squares one,
// internal/lsfit, in one place). It fits penalised generalised linear
// models: least squares, logistic, Poisson, gamma, Tweedie and negative binomial regression with observation weights, offsets and
// predictors left out of the penalty, under any penalty of package penalty
// (cardinality, grouped, lasso with penalty factors).
//
// The objective is the weighted deviance of package datafit plus λ·h(β);
// for every family λ_glmnet = λ/(2n) (see datafit). Fit solves one λ, Path
// a decreasing grid with warm starts, CrossValidate K folds as cv.glmnet
// does. Every fit is certified by the relative duality gap of the true
// (non-quadratic) problem.
//
// The lasso (with or without penalty factors) is solved by glmnet's own
// algorithm, iteratively reweighted least squares with coordinate descent
// on the columns (solver.IRLSCD), on a working set of predictors
// above 64 of them. The other penalties use proximal Newton
// (solver.ProxNewton, glmnet's outer loop) with FISTA and polishing on
// each weighted model's Gram matrix, or, for wide data (p > n, or p above
// 5000), FISTA on the deviance directly. Every answer is certified by the
// duality gap of the true problem.
package glm
