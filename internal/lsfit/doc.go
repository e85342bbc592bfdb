// Package lsfit is the least-squares engine behind package estimator: the
// gaussian family's fast paths (centring as the exact intercept profile,
// the Gram matrix or the sufficient statistics formed once per path,
// several responses as one fit). Callers use estimator, which chooses this
// engine (or the family engine, internal/glm) in one place.
//
// # Objective and conventions
//
// The objective is the source paper's, with no 1/(2n):
//
//	‖Y − ⟨X, B⟩_L − intercept‖²_F + λ·h(B),
//
// where h is a penalty from package penalty acting on the columns of the P×Q
// unfolding of B (or on the mode-k fibers of B, tensorreg.TensorOptions.Mode). glmnet
// and scikit-learn minimise (1/(2n))‖y − Xβ‖² + λ_glmnet‖β‖₁, so
// λ_glmnet = λ/(2n). The intercept is unpenalised: X and Y are centred and
// the intercept is recovered from the means. Standardisation is off by
// default, because equal coefficients then mean equal per-unit effects,
// which is what cardinality sparsity is about.
//
// The design enters through solver.Design (dimensions, X·B, Xᵀ·R), so dense
// matrices, Gram forms and compressed matrices run through the same code;
// centring and scaling are applied implicitly for designs that are not
// dense.
//
// # What it offers
//
// Fit solves at one λ (ridge in closed form; other penalties with the
// certified solvers of package solver). FitPath runs a decreasing geometric
// λ grid with warm starts: from λ_max = h*(2XᵀY) for the lasso and grouped
// penalties, and for the cardinality penalty from λ_fuse, the smallest λ at
// which the fit is fully fused, since above it the common value merely
// shrinks (DESIGN §3). CrossValidate runs K-fold cross-validation on that
// grid and reports λ_min and λ_1se by glmnet's rule (the largest λ whose mean
// error is within one standard error of the minimum). A Model gives the
// coefficients, intercept, clusters and distinct values per response, the
// effective number of parameters, R², residuals, and the solver's
// iterations, gap and convergence. fit.Options.Relax refits every solution by
// least squares on its clusters (glmnet's relax = TRUE, γ = 0), which
// removes the shrinkage of the common values; on simulated data with four
// true values it lowers ‖β̂ − β*‖ by about 30 % (TestRecovery).
//
// Cross-validation fits fold k at λ·(W_train/W), the share of rows (or of
// the total weight) its training rows hold: the objective sums over rows,
// so the full-data λ would penalise each training row harder than the
// final fit does. The curve is the folds' errors weighted by fold size with
// cv.glmnet's standard error; with the same folds and grid, λ_min and λ_1se
// are cv.glmnet's (cmd/cardreg's TestCVMatchesGlmnet runs R).
//
// FitStats, FitPathStats and CrossValidateStats fit from sufficient
// statistics alone (package suffstat: Σw, the weighted means and centred
// co-moments of X and Y, per fold), with observation weights, in O((p+q)²)
// memory whatever the number of rows; they give the fits on the rows
// (fit.Model.Residuals is then nil).
//
// Data far from unit scale are fitted at unit scale: X and Y are multiplied
// by exact powers of two and the results mapped back, so that products
// neither underflow (data × 1e-160 once gave all-zero coefficients,
// "converged") nor overflow. Constancy is judged relative to each column's
// own magnitude (IsConstant).
package lsfit
