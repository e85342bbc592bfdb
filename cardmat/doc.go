// Package cardmat stores matrices whose columns hold few distinct values in
// compressed (dictionary-coded) form and multiplies them without
// decompressing.
//
// A Matrix keeps, per column j, the sorted distinct values C_j (m_j of
// them) and one code per entry: a byte when m_j ≤ 256, two bytes beyond.
// Products follow DESIGN §3 and the source paper's §3:
//
//   - X·B (Mul): per column j, the table T_j = C_j ⊗ B_(j,:) (m_j × N
//     multiplications), then every output row accumulates T_j[code(i,j), :],
//     so the M×P×N part is additions only: Σ_j m_j·N multiplications against
//     M·P·N for the dense product.
//   - Xᵀ·R (MulTrans): per column j, the rows of R are summed by code (M·N
//     additions) and each sum is multiplied once by its value (m_j·N
//     multiplications).
//   - XᵀX (Gram): per pair of columns, the contingency counts of their codes
//     (M additions) weight the m_j·m_k products of values; exact for
//     integer data.
//
// Matrix implements the solver's design interface (Dims, Mul, MulTrans), its
// Gram form, and row selection for cross-validation, so a regression on
// cardinality-sparse data runs on the compressed form unchanged. Every
// product can report its scalar operation counts (Ops).
package cardmat
