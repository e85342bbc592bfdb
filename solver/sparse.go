package solver

import (
	"github.com/cardsparse/cardreg/internal/densemat"
	"gonum.org/v1/gonum/mat"
)

// SparseDesign is a design held by its non-zero entries, row by row
// (compressed sparse rows). A factor's dummy columns are its natural case:
// a factor with K levels puts one non-zero in each row of its K − 1
// columns, so its products cost O(n) instead of O(nK) and it takes
// O(n) memory instead of O(nK). Build it with SparseOf. It has no Gram
// form on purpose: XᵀX would be p×p, K² for the factor, while a product
// costs O(nnz).
type SparseDesign struct {
	n, p  int
	start []int // row i's entries are at start[i]:start[i+1] of col and val
	col   []int32
	val   []float64
}

var (
	_ Design      = (*SparseDesign)(nil)
	_ RowSelector = (*SparseDesign)(nil)
)

// SparseMaxDensity is the largest share of non-zero entries at which the
// fits hold factor columns by their non-zero entries (SparseDesign in the
// least-squares fits, an index of each column's non-zero rows in the
// family fits): a factor with K levels fills 1/K of its dummy columns.
const SparseMaxDensity = 1.0 / 16

// SparseMinColumns is the fewest columns for which holding them sparse is
// worth a pass: below, the dense products are as fast and the dense-only
// methods (coordinate descent, the Gram form) stay available.
const SparseMinColumns = 256

// SparseOf returns x held by its non-zero entries when at most the
// fraction maxDensity of them is non-zero, else nil. x is not kept.
func SparseOf(x *mat.Dense, maxDensity float64) *SparseDesign {
	n, p := x.Dims()
	var nnz int
	for i := 0; i < n; i++ {
		for _, v := range x.RawRowView(i) {
			if v != 0 {
				nnz++
			}
		}
	}
	if float64(nnz) > maxDensity*float64(n)*float64(p) {
		return nil
	}
	s := &SparseDesign{n: n, p: p, start: make([]int, n+1), col: make([]int32, 0, nnz), val: make([]float64, 0, nnz)}
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			if v != 0 {
				s.col = append(s.col, int32(j))
				s.val = append(s.val, v)
			}
		}
		s.start[i+1] = len(s.col)
	}
	return s
}

// Dims returns n and p.
func (s *SparseDesign) Dims() (int, int) { return s.n, s.p }

// Mul writes X·B into dst, sized automatically when empty. It panics if B
// does not have p rows.
func (s *SparseDesign) Mul(dst *mat.Dense, b mat.Matrix) {
	r, q := b.Dims()
	if r != s.p {
		panic(mat.ErrShape)
	}
	bd := densemat.Unaliased(dst, b)
	densemat.Size(dst, s.n, q)
	raw := bd.RawMatrix()
	for i := 0; i < s.n; i++ {
		out := dst.RawRowView(i)
		clear(out)
		for k := s.start[i]; k < s.start[i+1]; k++ {
			row := raw.Data[int(s.col[k])*raw.Stride : int(s.col[k])*raw.Stride+q]
			for j, v := range row {
				out[j] += s.val[k] * v
			}
		}
	}
}

// MulTrans writes Xᵀ·R into dst, sized automatically when empty. It
// panics if R does not have n rows.
func (s *SparseDesign) MulTrans(dst *mat.Dense, r mat.Matrix) {
	n, q := r.Dims()
	if n != s.n {
		panic(mat.ErrShape)
	}
	rd := densemat.Unaliased(dst, r)
	densemat.Size(dst, s.p, q)
	dst.Zero()
	for i := 0; i < s.n; i++ {
		in := rd.RawRowView(i)
		for k := s.start[i]; k < s.start[i+1]; k++ {
			out := dst.RawRowView(int(s.col[k]))
			for j, v := range in {
				out[j] += s.val[k] * v
			}
		}
	}
}

// SelectRows returns the design made of the given rows, in order.
func (s *SparseDesign) SelectRows(rows []int) Design {
	out := &SparseDesign{n: len(rows), p: s.p, start: make([]int, len(rows)+1)}
	for t, i := range rows {
		out.col = append(out.col, s.col[s.start[i]:s.start[i+1]]...)
		out.val = append(out.val, s.val[s.start[i]:s.start[i+1]]...)
		out.start[t+1] = len(out.col)
	}
	return out
}
