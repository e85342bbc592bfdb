// Package tensorreg fits penalised tensor regression
//
//	Y = ⟨X, B⟩_L + intercept + U,
//
// with X of shape N×P₁×…×P_L and Y of shape N×Q₁×…×Q_M, on top of package
// estimator. The contracted product ⟨X, B⟩_L sums over the last L modes of
// X and the first L of B; on the unfoldings it is the matrix product
// X(N×P)·B(P×Q), P = P₁⋯P_L, Q = Q₁⋯Q_M, so every tensor fit is the
// multi-response fit of the vectorised problem (estimator.Fit), with the
// penalty on the columns of the P×Q unfolding of B or on the mode-k fibers
// of B (TensorOptions.Mode, OnMode). The objective and conventions are
// estimator's: ‖Y − ⟨X, B⟩_L − intercept‖²_F + λ·h(B), λ_glmnet = λ/(2n).
//
// TheoryLambda is Theorem 2's λ of the source paper for a design.
//
// The tensor operations (Unfold, Fold, ModeProduct, Contract) follow
// T. G. Kolda and B. W. Bader, "Tensor Decompositions and Applications",
// SIAM Review 51(3), 2009, with row-major index order throughout.
package tensorreg
