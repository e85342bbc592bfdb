package cardmat

import (
	"github.com/cardsparse/cardreg/internal/densemat"
	"github.com/cardsparse/cardreg/internal/kernel"
	"gonum.org/v1/gonum/mat"
)

// MulTrans writes mᵀ·r into dst (sized automatically when empty). It
// implements solver.Design.
func (m *Matrix) MulTrans(dst *mat.Dense, r mat.Matrix) { m.MulTransOps(dst, r) }

// MulTransOps is MulTrans that reports its operation counts: per column j,
// the rows of r are summed by code (M·N additions) and each of the m_j sums
// is multiplied once by its value (m_j·N multiplications, (m_j−1)·N
// additions). Columns are spread over the cores.
func (m *Matrix) MulTransOps(dst *mat.Dense, r mat.Matrix) Ops {
	rr, n := r.Dims()
	if rr != m.rows {
		panic(mat.ErrShape)
	}
	densemat.Size(dst, m.cols, n)
	rd := densemat.Unaliased(dst, r)
	var ops Ops
	for _, vals := range m.values {
		ops.Additions += m.rows*n + (len(vals)-1)*n
		ops.Multiplications += len(vals) * n
	}
	parallelRows(m.cols, m.rows*m.cols*n, func(lo, hi int) {
		var sums []float64
		for j := lo; j < hi; j++ {
			sums = m.sumByCode(sums, j, rd)
			combine(dst.RawRowView(j), m.values[j], sums)
		}
	})
	return ops
}

// sumByCode returns, reusing buf, the m_j×N row sums of r grouped by the
// codes of column j: row k sums the rows i of r with code(i, j) = k.
func (m *Matrix) sumByCode(buf []float64, j int, r *mat.Dense) []float64 {
	_, n := r.Dims()
	size := len(m.values[j]) * n
	if cap(buf) < size {
		buf = make([]float64, size)
	}
	sums := buf[:size]
	clear(sums)
	for i := 0; i < m.rows; i++ {
		k := m.code(i, j)
		addTo(sums[k*n:(k+1)*n], r.RawRowView(i))
	}
	return sums
}

// combine writes Σ_k vals[k]·sums[k] into out, sums holding one row of
// len(out) entries per value: one multiplication per value and entry.
func combine(out, vals, sums []float64) {
	n := len(out)
	for c := range out {
		out[c] = vals[0] * sums[c]
	}
	for k := 1; k < len(vals); k++ {
		kernel.Axpy(vals[k], sums[k*n:(k+1)*n], out)
	}
}

// addTo adds x to dst elementwise (equal lengths): the SIMD axpy for long
// rows, a plain loop for short ones where the call costs more.
func addTo(dst, x []float64) {
	if len(dst) >= 16 {
		kernel.Axpy(1, x[:len(dst)], dst)
		return
	}
	x = x[:len(dst)]
	for c := range dst {
		dst[c] += x[c]
	}
}

// LeftMul sets dst = d·m (sized automatically when empty) for a dense d:
// column k of the result is Σ_v C_k[v]·(sum of the columns p of d with
// code(p, k) = v), the source paper's grouping by codes applied to the
// columns of d. It is (mᵀ·dᵀ)ᵀ, computed by MulTransOps on a transposed
// copy of d.
func (m *Matrix) LeftMul(dst *mat.Dense, d mat.Matrix) { m.LeftMulOps(dst, d) }

// LeftMulOps is LeftMul that reports its operation counts: for R rows of d,
// R·M·N additions to group the columns of d and Σ_k m_k·R multiplications
// and (m_k−1)·R additions to combine the groups.
func (m *Matrix) LeftMulOps(dst *mat.Dense, d mat.Matrix) Ops {
	dr, dc := d.Dims()
	if dc != m.rows {
		panic(mat.ErrShape)
	}
	densemat.Size(dst, dr, m.cols)
	var t mat.Dense
	ops := m.MulTransOps(&t, d.T())
	dst.Copy(t.T())
	return ops
}
