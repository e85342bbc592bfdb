// Package suffstat accumulates the sufficient statistics of a weighted
// least-squares fit: the total weight Σw, the weighted means of the
// variables z = (x₁, …, x_p, y₁, …, y_q) and their centred co-moment matrix
// C = Σᵢ wᵢ (zᵢ − z̄)(zᵢ − z̄)ᵀ, whose blocks are XᵀWX, XᵀWY and YᵀWY of
// the centred data. A penalised least-squares fit with an unpenalised
// intercept needs nothing else, so any number of rows fits in O(d²) memory.
//
// Statistics are mergeable: chunks of rows are summarised on their own and
// combined by the pairwise update of Chan, Golub and LeVeque ("Algorithms
// for computing the sample variance", 1983), extended to weights and
// co-moments,
//
//	W = Wa + Wb,  δ = z̄b − z̄a,  z̄ = z̄a + (Wb/W)·δ,
//	C = Ca + Cb + (Wa·Wb/W)·δδᵀ,
//
// and one row is added by West's weighted form of Welford's update (West,
// "Updating mean and variance estimates", 1979). Raw sums Σz² minus W·z̄²
// are never formed: on a column 1e8 + U(0, 1) they lose every digit, while
// the centred updates keep about eight (the test checks exactly this).
//
// Folds keeps one set of statistics per cross-validation fold, labelled by
// a stable key (a fold column, or a hash of a row key): the training
// statistics of fold k are the merge of the other folds', so a K-fold
// cross-validation, a λ path and the final fit need one pass over the data.
package suffstat
