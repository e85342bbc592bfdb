// Package design holds a design matrix as columns of three kinds, side by
// side in one matrix: dense columns, sparse columns (the rows where the
// column is non-zero and their values, a compressed-sparse-column block)
// and indicator columns (the rows of one level of a factor, values all
// one: a categorical block, never expanded). Every product a fit needs
// (Xβ, Xᵀr, one column's dot and axpy for coordinate descent, its
// weighted square and mean) costs O(n) for a dense column and O(nnz) for
// the others, so a factor of K levels costs O(n) per product over its K
// columns instead of O(nK), and a sparse matrix is never densified.
//
// Columns may carry a scale (standardisation without a copy): the column
// is Scale times its stored values. Centring is left to the fits, which
// centre implicitly (xⱼᵀr − x̄ⱼΣr).
package design
