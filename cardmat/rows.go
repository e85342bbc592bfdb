package cardmat

import (
	"errors"

	"github.com/cardsparse/cardreg/internal/densemat"
	"gonum.org/v1/gonum/mat"
)

// RowMatrix is an M×P matrix stored row by row as distinct values and
// codes: the row-wise encoding of the source paper, used when a matrix is
// the right factor of a compressed product (MulCompressed) or the left
// factor of a product with a long inner dimension (Mul, the paper's
// Algorithm 2). Build it with EncodeRows.
type RowMatrix struct {
	t *Matrix // the transpose, column-encoded: row i of the matrix is column i of t
}

// EncodeRows compresses a row by row: the distinct values of every row and
// the code of every entry. Errors are those of Encode, with rows and
// columns named in a's orientation.
func EncodeRows(a mat.Matrix) (*RowMatrix, error) {
	if a == nil {
		return nil, errors.New("cardmat: nil matrix")
	}
	t, err := encode(a.T(), true)
	if err != nil {
		return nil, err
	}
	return &RowMatrix{t: t}, nil
}

// Dims returns the shape.
func (r *RowMatrix) Dims() (int, int) { return r.t.cols, r.t.rows }

// At returns entry (i, j).
func (r *RowMatrix) At(i, j int) float64 { return r.t.At(j, i) }

// T returns the transpose without copying, as a mat.Matrix.
func (r *RowMatrix) T() mat.Matrix { return mat.Transpose{Matrix: r} }

// Decode returns the dense matrix.
func (r *RowMatrix) Decode() *mat.Dense { return mat.DenseCopyOf(r.t.Decode().T()) }

// Distinct returns the number of distinct values of each row.
func (r *RowMatrix) Distinct() []int { return r.t.Distinct() }

// Memory returns the storage accounting (the same layouts as Matrix).
func (r *RowMatrix) Memory() Memory { return r.t.Memory() }

// Mul writes r·b into dst (sized automatically when empty) by the source
// paper's Algorithm 2, meant for a long inner dimension P: for each row k,
// the rows of b are summed by the codes of row k (P·N additions), and each
// of the m_k sums is multiplied once by its value (m_k·N multiplications).
// Rows are spread over the cores.
func (r *RowMatrix) Mul(dst *mat.Dense, b mat.Matrix) { r.MulOps(dst, b) }

// MulOps is Mul that reports its operation counts: M·P·N additions to
// group the rows of b, Σ_k m_k·N multiplications and (m_k−1)·N additions
// to combine the groups.
func (r *RowMatrix) MulOps(dst *mat.Dense, b mat.Matrix) Ops {
	m, p := r.Dims()
	br, n := b.Dims()
	if br != p {
		panic(mat.ErrShape)
	}
	densemat.Size(dst, m, n)
	bd := densemat.Unaliased(dst, b)
	var ops Ops
	for _, vals := range r.t.values {
		ops.Additions += p*n + (len(vals)-1)*n
		ops.Multiplications += len(vals) * n
	}
	parallelRows(m, m*p*n, func(lo, hi int) {
		var sums []float64
		for k := lo; k < hi; k++ {
			sums = r.t.sumByCode(sums, k, bd)
			combine(dst.RawRowView(k), r.t.values[k], sums)
		}
	})
	return ops
}

// MulCompressed writes w·v into dst (sized automatically when empty) for a
// column-encoded w (M×P) and a row-encoded v (P×N): the source paper's
// Algorithm 3 for small P. For each j the outer product of the distinct
// values, D_j = C_w(j) ⊗ C_v(j), costs m_j·n_j multiplications; scattering
// it by v's codes gives the tables of Mul, and the rows of the result
// accumulate them by w's codes with additions only. The count is
// Σ_j m_j·n_j multiplications against M·P·N for the dense product.
func MulCompressed(dst *mat.Dense, w *Matrix, v *RowMatrix) Ops {
	vr, n := v.Dims()
	if vr != w.cols {
		panic(mat.ErrShape)
	}
	densemat.Size(dst, w.rows, n)
	plan, codes := w.blocks()
	var ops Ops
	var scratch arena
	defer scratch.release()
	tables := w.buildTables(&scratch, plan, n, func(j int) []float64 {
		cw, cv := w.values[j], v.t.values[j]
		outer := scratch.take(len(cw) * len(cv))
		for a, x := range cw {
			for b, y := range cv {
				outer[a*len(cv)+b] = x * y
			}
		}
		ops.Multiplications += len(cw) * len(cv)
		table := scratch.take(len(cw) * n)
		for a := range cw {
			row, d := table[a*n:(a+1)*n], outer[a*len(cv):(a+1)*len(cv)]
			for c := range row {
				row[c] = d[v.t.code(c, j)]
			}
		}
		return table
	})
	ops.Additions += plan.additions(w.rows, n)
	w.accumulate(dst, plan, codes, tables)
	return ops
}
