package datafit

import (
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// projectedDesign is the proximal Newton model's design
// X̃ = P·diag(s)·X_P, P the projection off the orthonormal basis (the
// intercept and the unpenalised columns in the weighted metric), applied
// in the products instead of formed: X̃ is dense even where X_P is sparse
// (a factor's dummy columns), so forming it took n·m memory per Newton
// step and its Gram form m² (K² for a factor of K levels, with n·K²
// operations to form). Its products cost O(nnz + n·k), k the basis size.
// It has no Gram form on purpose.
type projectedDesign struct {
	l     *Loss
	s     []float64
	basis [][]float64
	buf   []float64 // n scratch values for one product (the products run every iteration)
}

var _ solver.Design = (*projectedDesign)(nil)

// Dims returns n and m, the penalised columns.
func (d *projectedDesign) Dims() (int, int) { return len(d.s), len(d.l.xp) }

// Mul writes X̃·B into dst, sized automatically when empty.
func (d *projectedDesign) Mul(dst *mat.Dense, b mat.Matrix) {
	m, q := b.Dims()
	if m != len(d.l.xp) {
		panic(mat.ErrShape)
	}
	n := len(d.s)
	if dst.IsEmpty() {
		dst.ReuseAs(n, q)
	}
	t := d.scratch()
	for j := 0; j < q; j++ {
		clear(t)
		for a := 0; a < m; a++ {
			if v := b.At(a, j); v != 0 {
				d.l.xp[a].Axpy(v, t)
			}
		}
		for i := range t {
			t[i] *= d.s[i]
		}
		d.project(t)
		dst.SetCol(j, t)
	}
}

// MulTrans writes X̃ᵀ·R = X_Pᵀ·diag(s)·P·R into dst, sized automatically
// when empty.
func (d *projectedDesign) MulTrans(dst *mat.Dense, r mat.Matrix) {
	n, q := r.Dims()
	if n != len(d.s) {
		panic(mat.ErrShape)
	}
	m := len(d.l.xp)
	if dst.IsEmpty() {
		dst.ReuseAs(m, q)
	}
	u := d.scratch()
	for j := 0; j < q; j++ {
		mat.Col(u, j, r)
		d.project(u)
		for i := range u {
			u[i] *= d.s[i]
		}
		for a, x := range d.l.xp {
			dst.Set(a, j, x.Dot(u))
		}
	}
}

// scratch returns the design's buffer of n values (not cleared).
func (d *projectedDesign) scratch() []float64 {
	if d.buf == nil {
		d.buf = make([]float64, len(d.s))
	}
	return d.buf
}

// project removes from v its components along the basis, in order, as
// weightedResidual does.
func (d *projectedDesign) project(v []float64) {
	for _, q := range d.basis {
		var dot float64
		for i, x := range v {
			dot += q[i] * x
		}
		for i := range v {
			v[i] -= dot * q[i]
		}
	}
}

// sparseModel reports whether the Newton model should keep the columns
// sparse (projectedDesign): most penalised columns are sparse
// and there are enough of them for the dense model's n·m and m² to matter.
func (l *Loss) sparseModel() bool {
	var k int
	for _, c := range l.xp {
		if !c.IsDense() {
			k++
		}
	}
	return len(l.xp) >= solver.SparseMinColumns && 2*k >= len(l.xp)
}
