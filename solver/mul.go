package solver

import (
	"github.com/cardsparse/cardreg/internal/kernel"
	"gonum.org/v1/gonum/mat"
)

// thinCols is the widest right-hand side multiplied column by column.
// gonum's Dense.Mul runs dgemm as axpy updates of the right-hand side's
// width, which is slow for a few columns; gemv per column is not.
const thinCols = 4

// Mul writes a·b into dst (sized automatically when empty), using
// matrix–vector products when b has few columns, and otherwise, when both
// are dense matrices or their transposes and the CPU has AVX2 and FMA,
// internal/kernel's packed product. a may be a *mat.Dense, a *mat.SymDense
// or the transpose of a *mat.Dense.
func Mul(dst *mat.Dense, a, b mat.Matrix) {
	r, _ := a.Dims()
	_, q := b.Dims()
	if q > thinCols {
		da, ta, okA := denseOp(a)
		db, tb, okB := denseOp(b)
		if okA && okB && kernel.Accelerated() {
			kernel.Mul(dst, da, ta, db, tb)
			return
		}
		dst.Mul(a, b)
		return
	}
	if dst.IsEmpty() {
		dst.ReuseAs(r, q)
	}
	var bv, out mat.VecDense
	for j := 0; j < q; j++ {
		bv.CloneFromVec(colVec(b, j))
		out.MulVec(a, &bv)
		dst.SetCol(j, out.RawVector().Data)
	}
}

func colVec(m mat.Matrix, j int) mat.Vector {
	if d, ok := m.(*mat.Dense); ok {
		return d.ColView(j)
	}
	r, _ := m.Dims()
	return mat.NewVecDense(r, mat.Col(nil, j, m))
}

// denseOp returns m as a *mat.Dense and whether it is transposed, or false
// when m is neither a *mat.Dense nor the transpose of one.
func denseOp(m mat.Matrix) (*mat.Dense, bool, bool) {
	switch m := m.(type) {
	case *mat.Dense:
		return m, false, true
	case mat.Transpose:
		d, ok := m.Matrix.(*mat.Dense)
		return d, true, ok
	}
	return nil, false, false
}
