// Package glm fits penalised generalised linear models: least squares,
// logistic and Poisson regression with observation weights, offsets and
// predictors left out of the penalty, under any penalty of package penalty
// (cardinality, grouped, lasso with penalty factors).
//
// The objective is the weighted deviance of package datafit plus λ·h(β);
// for every family λ_glmnet = λ/(2n) (see datafit). Fit solves one λ, Path
// a decreasing grid with warm starts, CrossValidate K folds as cv.glmnet
// does. Every fit is certified by the relative duality gap of the true
// (non-quadratic) problem.
//
// The default method is proximal Newton (solver.ProxNewton): each outer
// iteration is one weighted least-squares problem in Gram form, solved by
// FISTA with polishing, which suits n ≥ p; for wide data (p > n, or p
// above the Gram limit) FISTA runs on the deviance directly.
package glm
