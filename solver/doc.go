// Package solver minimises composite objectives f(Θ) + λ·h(Θ) over p×q
// matrices Θ, with f smooth and convex (a Loss) and h a penalty from package
// penalty.
//
// As in gonum's optimize, what to minimise (Problem), how (a Method: FISTA,
// ADMM, ProxNewton, for least squares CoordinateDescent,
// GramCoordinateDescent and ClusterCD, for the lasso on a generalised
// linear model IRLSCD and the WorkingSet around it), when to stop
// (Settings) and what happened (Result) are separate types; Minimize ties
// them together. A method discovers what it needs of the loss by a type
// assertion on a capability (DualLoss, Newtoner, PassNewtoner, Reweighter,
// Restricter)
// and refuses a loss without it. DefaultMethod is the one rule choosing a
// method from the penalty, the loss's capabilities and its shape.
//
// # Stopping and certificates
//
// When the loss can evaluate its Fenchel dual (DualLoss) and the penalty
// knows its dual norm (penalty.DualNormer), the solvers stop on the relative
// duality gap (P(Θ) − D(θ))/P(Θ) ≤ Tol, with the dual point θ obtained by
// scaling the loss's dual variable at Θ into the dual-feasible set
// {h*(Xᵀθ) ≤ λ}; the gap is then a certificate of optimality. A penalty
// that is not a norm but knows its conjugate (penalty.Conjugator) gets the
// dual objective −F*(−θ) − λh*(Xᵀθ/λ) at the unscaled and the scaled point
// instead (DualScales, the one home of both). For
// near-exact fits (noiseless data, tiny λ) the objective can be a tiny
// fraction of ‖Y‖², and the gap, a difference of terms of size ‖Y‖², cannot
// be evaluated to Tol relative to it: the methods then stop when the
// absolute gap is within its rounding floor (DualLoss.GapFloor, 1e-14‖Y‖²
// for least squares), with status GapFloor and the gap reached in Gap. For least
// squares f(Θ) = ‖Y − XΘ‖²_F, θ = 2R·min(1, λ/h*(2XᵀR)) with R = Y − XΘ and
// D(θ) = ⟨θ, Y⟩ − ‖θ‖²/4 (DESIGN §3). Otherwise FISTA stops on the relative
// fixed-point residual ‖Θ_{k+1} − Y_k‖_F ≤ Tol·max(‖Θ_{k+1}‖_F, ‖Y_k‖_F) of the
// proximal-gradient map (also at λ = 0, where the dual feasible set
// {Xᵀθ = 0} makes the gap useless), and ADMM on its primal and dual residuals (Boyd et
// al., 2011, §3.3). Reaching MaxIter is never silent: Converged is false and
// Status says why.
//
// # Algorithms
//
// FISTA is the accelerated proximal gradient method of Beck and Teboulle
// (SIAM J. Imaging Sci. 2(1), 2009) with step 1/L from the loss's Lipschitz
// bound, backtracking when the loss gives none, and the gradient-based
// adaptive restart of O'Donoghue and Candès (Found. Comput. Math. 15, 2015).
// On least squares held by its rows (no Gram form: lsfit holds a factor of
// 256 levels or more that way) with a penalty.Blocks whose blocks' curvatures
// λ_max(X_bᵀX_b) differ more than 4× (a numeric column, ‖x‖² ≈ n, beside
// a factor's dummies, a level's count), it steps in the metric that is
// that curvature times the identity on each block, with the Lipschitz
// constant of the gradient in that metric: the prox is each block's own at
// its own step. A fixed metric is FISTA after the change of variables
// φ_b = √d_b·θ_b (the blocks' norms are positively homogeneous), so its
// guarantees hold unchanged, and the levels move by steps their curvature
// allows instead of n/count times shorter.
// When the loss is a Polisher (least squares is) and the penalty is
// piecewise linear (penalty.Piecewise), FISTA also "polishes": once the
// cluster structure of Θ is unchanged between two gap checks it solves the
// problem restricted to that structure exactly (one unknown per cluster, a
// small linear system), and keeps the result only if it lowers the duality
// gap. On the right structure the polished point is the exact minimiser,
// which turns thousands of first-order iterations into one small solve.
// This is the cheap cousin of the semismooth Newton methods of Lin, Liu, Sun
// and Toh (SIAM J. Optim. 29(3), 2019).
//
// ClusterCD is FISTA's alternative for the cardinality and grouped penalties
// on wide dense designs: proximal gradient steps, between which the
// clusters of equal values are moved one at a time, each to its exact
// minimiser (it may merge with another), at O(n) per cluster, with
// FISTA's polishing. On wide paths it takes about half FISTA's iterations,
// each cheaper; a fit it does not certify in 150 gradient steps continues
// with FISTA.
//
// ADMM (Boyd et al., Found. Trends Mach. Learn. 3(1), 2011) handles a general
// G through the split z = KΘ, K = [G; νΠ_G], for quadratic losses: its
// linear system (2H + ρKᵀK) is Cholesky-factorised once and the factor is
// reused across iterations and across calls with the same loss, penalty and
// ρ, so a λ path pays for it once.
//
// The objective scale is the source paper's, with no 1/(2n): for least
// squares, λ_glmnet = λ/(2n).
package solver
