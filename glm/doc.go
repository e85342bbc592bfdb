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
// The default method is proximal Newton (solver.ProxNewton, glmnet's outer
// loop): each outer iteration is one weighted least-squares problem,
// solved by coordinate descent for the lasso and by FISTA with polishing
// on its Gram matrix for the other penalties; for those, wide data (p > n,
// or p above 5000) go to FISTA on the deviance directly.
package glm
