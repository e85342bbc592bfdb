// Package bounds computes the constants the source paper's guarantees
// depend on: the kernel constant M_G, and the theoretical tuning parameter
// λ.
//
// M_G = max_layers ‖Ḡ⁻¹‖₁→₁, with Ḡ the restriction of G to ker(G)^⊥,
// equivalently M_G = max{‖y‖₁ : y ⊥ ker G, ‖Gy‖₁ ≤ 1} (DESIGN §3). Closed
// forms: M_A = 2/n for the all-pairs matrix on n rows (y = e₁ − 1/n attains
// the upper bound ‖A⁺‖₁→₁ = 2/n, since A⁺ = Aᵀ/n), 2/(n√P) with the
// paper's √P weight, and the worst block for grouped partitions. A general
// small G is handled exactly by linear programs over sign vectors; a larger
// one gets a certified interval.
package bounds
