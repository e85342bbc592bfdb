// Package factor fits categorical predictors (factors) whose levels fuse:
// "regions {R23, R31, R52} share one effect".
//
// A factor with K levels enters the design as K−1 dummy columns, one per
// level but its reference, whose effect is pinned at 0 (package data reads
// factors and builds those columns; Design says which columns are whose).
// Each predictor type gets its own penalty (smurf's multi-type idea), one
// block of a block-separable norm (penalty.Blocks):
//
//   - a nominal factor the generalized fused lasso over all pairs of its
//     levels, the reference included: Σ_{j<k} w_jk|β_j − β_k| + Σ_j w_j0|β_j|;
//   - an ordinal factor the fused lasso along its order, the reference pinned
//     at 0: Σ_e w_e|β_{e+1} − β_e|;
//   - the numeric predictors the penalty named (cardinality, lasso, or none).
//
// The pair weights w are equal (every pair and every level against the
// reference weight 1), by level counts (Bondell and Reich's √((n_j + n_k)/n),
// penalty.CountPairWeights) or adaptive (1/|β̂_j − β̂_k| from an unpenalised
// fit). The objective is estimator's, the weighted deviance plus λ·h(β) with
// no 1/(2n), so λ_glmnet = λ/(2n); with equal weights, the gaussian family
// and smurf's objective (1/(2n))‖y − Xβ‖² + λ_smurf·h(β), λ = 2n·λ_smurf.
//
// A fit's answer per factor is its level groups (Levels): the levels sharing
// one effect, that effect (and its refit with Options.Relax), the groups'
// shares of the rows, and for log links the relativity e^β.
package factor
