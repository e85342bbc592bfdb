// Package bounds computes the constants the source paper's guarantees
// depend on: the kernel constant M_G, the network constants of its
// Theorem 1, and the theoretical tuning parameter λ for networks and for
// regression (Theorem 2), plus a Monte-Carlo estimate of the effective
// noise.
//
// # Kernel constant
//
// M_G = max_layers ‖Ḡ⁻¹‖₁→₁, with Ḡ the restriction of G to ker(G)^⊥,
// equivalently M_G = max{‖y‖₁ : y ⊥ ker G, ‖Gy‖₁ ≤ 1} (DESIGN §3). Closed
// forms: M_A = 2/n for the all-pairs matrix on n rows (y = e₁ − 1/n attains
// the upper bound ‖A⁺‖₁→₁ = 2/n, since A⁺ = Aᵀ/n), 2/(n√P) with the
// paper's √P weight, and the worst block for grouped partitions. KernelOf
// handles a general G exactly for p ≤ MaxExactColumns by linear programs
// over sign vectors (gonum's optimize/convex/lp, made robust against its
// cycling on these degenerate programs), and gives a certified interval
// beyond.
//
// # Theoretical λ
//
// NetworkLambda follows Theorem 1 and its corollaries; RegressionLambda
// follows Theorem 2 for a matrix design. Where the paper's text and its
// proofs disagree, the code follows the proofs and says so on the field:
// c_Lip uses the definition's 2/L (the Lipschitz theorem states 1/L); the
// paper's lemma bound 2/√P_l for the all-pairs matrix holds only with the
// √P_l weight (unweighted, M_l = 2/p_{l+1}); Theorem 2's s is a maximum over
// the columns of X; and λ = max(M_G, 1/ν)·λ_t, as the proof requires. The
// paper's constant (√2/L)^{2L−1} in Theorem 1 is reproduced as stated, with
// the noise constant C an explicit input; its proof, carried through with
// 2/L throughout, gives a constant 2^L times larger, which C can absorb for
// a fixed depth only. Logarithms are natural.
//
// The source is A. Mohaddes and J. Lederer, "Cardinality Sparsity:
// Applications in Matrix-Matrix Multiplications and Machine Learning", TMLR
// 2025, §4 and §5.
package bounds
