// Package cardmat stores matrices whose columns (or rows) hold few distinct
// values in compressed, dictionary-coded form, and multiplies them without
// decompressing.
//
// A Matrix (Encode) keeps, per column j, the sorted distinct values C_j
// (m_j of them) and one code per entry: a byte when m_j ≤ 256, two bytes
// beyond. A RowMatrix (EncodeRows) does the same per row. Products follow
// DESIGN §3 and the source paper's §3 and appendix:
//
//   - X·B (Matrix.Mul): per column j, the table T_j = C_j ⊗ B_(j,:) (m_j × N
//     multiplications). Adjacent columns whose value combinations number at
//     most 256 share one table of summed rows (eight binary columns, two of
//     16 values: the method of the Four Russians), and every output row adds
//     one table row per block: additions only in the M×P×N part.
//   - W·V with both factors compressed (MulCompressed): the paper's
//     outer-product algorithm for small P; the tables come from the m_j·n_j
//     products of distinct values.
//   - W·V for a long inner dimension (RowMatrix.Mul): the paper's
//     row-grouping algorithm; the rows of V are summed by the codes of each
//     row of W, and each sum is multiplied once.
//   - D·X for a dense D (Matrix.LeftMul), Xᵀ·R (Matrix.MulTrans: rows of R
//     summed by code), XᵀX (Matrix.Gram: contingency counts of code pairs,
//     exact for integer data).
//   - Binary 0/1 matrices (Binary): integer products by popcount, and
//     products over GF(2) by the paper's tables on bit-packed rows (MulMod2).
//
// Every product can report its scalar operation counts (Ops) beside
// DenseOps, the M·P·N of the dense product. Products equal gonum's
// mat.Dense.Mul exactly on integer data and to rounding otherwise.
//
// Whether the compressed form pays depends on the shape: Matrix.Choose
// estimates it from the operation counts and the crossovers measured in
// bench/README.md, and Auto multiplies with whichever form it prefers.
// Matrix and Auto implement the solver's design interface (Dims, Mul,
// MulTrans), its Gram form, and row selection for cross-validation, so a
// regression on cardinality-sparse data runs on the compressed form
// unchanged.
//
// Memory reports the bytes used against dense float32 and float64, and under
// the paper's accounting (codes at ⌈log₂ m_j⌉ bits).
package cardmat
