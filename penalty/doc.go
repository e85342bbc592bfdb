// Package penalty implements the cardinality-sparsity penalty family
//
//	h(Θ) = ‖GΘ‖₁ + ν‖Π_GΘ‖₁,   ν > 0,
//
// acting column by column on a p×q parameter matrix Θ, together with the ridge
// baseline ‖Θ‖²_F.
//
// The types are
//
//   - Cardinality: G = A, the all-pairs difference matrix (one row e_i − e_j per
//     pair i < j), so h(θ) = Σ_{i<j}|θ_i − θ_j| + ν·|Σ_i θ_i| per column;
//   - Grouped: G = ⊕_k w_k A_k, block diagonal over a partition of the rows
//     into groups B_k, with w_k = √P_k (P_k = |B_k|·q parameters) by default or
//     w_k = 1 when unweighted;
//   - L1: G = 0, so Π_G = I and h = ν‖Θ‖₁ (the lasso for ν = 1);
//   - General: any user matrix G, with Π_G = I − G⁺G computed once;
//   - Blocks: a sum of norms on disjoint sets of rows, each a weighted
//     lasso, a cardinality penalty, or a one-hot coded factor with its
//     reference level pinned at 0: a nominal factor penalised over all
//     pairs of levels (the generalized fused lasso) or an ordinal factor
//     along its chain of levels (the fused lasso), with pair weights from
//     pairweights.go;
//   - Ridge: h = ‖Θ‖²_F, which is not a norm and is offered as a baseline.
//
// Every penalty has a value and a proximal operator
// prox_{τh}(Θ) = argmin_X ½‖X − Θ‖²_F + τ·h(X). Penalties whose dual norm
// h*(g) = sup{⟨g, x⟩ : h(x) ≤ 1} is known in closed form implement DualNormer;
// solvers use it for duality gaps and for λ_max. Penalties whose kernel
// projector is cheap implement KernelProjector.
//
// # Algorithms
//
// The cardinality and grouped penalties never build G: the pairwise part of
// one column of length n is evaluated in sorted form,
// Σ_{i<j}|v_i − v_j| = Σ_k (n + 1 − 2k)·v_(k) with v sorted decreasingly, and
// its proximal operator is computed exactly in O(n log n) time and O(n)
// memory by sorting, subtracting τ(n + 1 − 2k) and projecting onto
// non-increasing sequences by pool-adjacent-violators (PAVA); the mean is
// then soft-thresholded separately, since the two parts act on orthogonal
// subspaces. This is the proximal map of the clustered lasso, see
// X. Lin, M. Liu, D. Sun and K.-C. Toh, "On the efficient computation of a
// generalized Jacobian of the projector over the Birkhoff polytope" and
// "Efficient sparse semismooth Newton methods for the clustered lasso
// problem", SIAM J. Optim. 29(3), 2019. The dual norm of the pairwise part is
// max_k S_k(g⊥)/(k(n − k)), S_k the sum of the k largest entries of the
// centred column (the unit ball of a symmetric submodular Lovász extension,
// F. Bach, "Learning with submodular functions", 2013, §5).
//
// The factor blocks are weighted graph total variations with one node (the
// reference) pinned at 0. An ordinal factor's graph is a chain, which the
// reference splits into two chains each tied to 0 at one end: its prox is
// the weighted 1-D fused lasso on each, solved in O(K) time and memory by
// the dynamic programme of N. A. Johnson, "A dynamic programming algorithm
// for the fused lasso and L0-segmentation", J. Comput. Graph. Statist.
// 22(2), 2013. A nominal factor's prox is max(y⁺, 0) + min(y⁻, 0), y^± the
// prox of the graph without the reference applied to v ∓ τr (r the weights
// of the edges to the reference), each computed exactly by the
// divide-and-conquer minimum-cut method of D. S. Hochbaum, "An efficient
// algorithm for image segmentation, Markov random fields and related
// problems", J. ACM 48(4), 2001 (see also Bach 2013, §9.1); with equal
// weights it reduces to the all-pairs prox followed by soft-thresholding at
// τ. Their dual norm is max_S |g(S)|/w(∂S) over sets of non-reference
// levels, in closed form for equal weights and for chains and by
// Dinkelbach's method with minimum cuts otherwise.
//
// General has no closed-form proximal operator: Prox solves the dual
// box-constrained problem min_{‖u‖∞ ≤ τ} ½‖v − Kᵀu‖², K = [G; νΠ_G], by
// accelerated projected gradient until the prox's own duality gap falls
// below a stated tolerance.
//
// The mathematics is derived in the project's DESIGN notes, §3; the source is
// A. Mohaddes and J. Lederer, "Cardinality Sparsity: Applications in
// Matrix-Matrix Multiplications and Machine Learning", TMLR 2025.
package penalty
