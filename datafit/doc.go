// Package datafit holds the data fits of a penalised generalised linear
// model: the response families (gaussian, binomial, poisson, gamma,
// tweedie:P, negbin:θ; a family with a parameter carries it in its name,
// which ByName parses) and the loss the solvers minimise for them.
//
// # Objective
//
// Every family is fitted on one scale, the weighted deviance
//
//	F(b₀, β) = Σᵢ wᵢ·d(yᵢ, ηᵢ) + λ·h(β),   ηᵢ = oᵢ + b₀ + xᵢᵀβ,
//
// with d the family's unit deviance (twice the log-likelihood below the
// saturated model's), w the observation weights rescaled to sum to n (as
// glmnet rescales them), o the offset and h the penalty. For gaussian,
// d = (y − η)² and F is the source paper's ‖y − b₀ − Xβ‖² + λh(β). glmnet
// minimises F/(2n) with its penalty written λ_glmnet·P, so for every family
// λ_glmnet = λ/(2n) (for the lasso with unit penalty factors P = ‖β‖₁).
//
// Rows may stand for several observations each (Data.Observations and
// Data.Constant: identical rows aggregated, as package estimator does for
// designs of factors). Their weights then sum to the observations', n is
// the number of observations, and the constant each aggregated row's
// deviance leaves out is added back, so that F is the observations' F.
//
// # The loss the solvers see
//
// The unpenalised part of the model, the intercept b₀ and any predictors
// excluded from the penalty, is minimised out exactly inside the loss
// (Loss): for each β the loss solves the small smooth problem in the
// unpenalised coefficients by a damped Newton method, so the solvers see a
// smooth convex function of the penalised coefficients alone. Its gradient
// Xᵀu, u = w⊙∂d/∂η, is orthogonal to the intercept and to the excluded
// columns at that minimum, which makes the scaled u a feasible dual point:
// the duality gap
//
//	F − D,   D(u) = −Σᵢ wᵢ d*(yᵢ, uᵢ/wᵢ) + uᵀo,
//
// with d* the conjugate of the unit deviance in η (closed form for every
// family), certifies every fit. The loss also gives, at any β, the
// weighted least-squares model of a proximal Newton step (IRLS): weights
// wᵢ∂²d/∂η²/2, working response η − o − (∂d/∂η)/(∂²d/∂η²), with the
// unpenalised part profiled out of its Gram matrix.
package datafit
