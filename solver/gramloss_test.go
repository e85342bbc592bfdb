package solver

import (
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// A loss known only by XᵀX, XᵀY and ‖Y‖² gives the fit of the loss on X
// and Y: the same objective, gap and solution, for FISTA with polishing
// and for ADMM.
func TestGramLeastSquaresMatchesRows(t *testing.T) {
	x, y := regression(11, 120, 9, 2)
	// On the rows themselves: a design without a Gram form.
	rows := NewLeastSquares(rowsOnly{DenseDesign{X: x}}, y)
	require.Nil(t, rows.Gram())
	var h mat.SymDense
	h.SymOuterK(1, x.T())
	var c mat.Dense
	c.Mul(x.T(), y)
	yy := mat.Norm(y, 2)
	stats := NewGramLeastSquares(&h, &c, yy*yy)
	for _, tc := range []struct {
		name string
		pen  penalty.Penalty
		m    Method
	}{
		{"cardinality FISTA", penalty.Cardinality{Nu: 1.5}, &FISTA{}},
		{"lasso FISTA", penalty.L1{Nu: 1}, &FISTA{}},
		{"general ADMM", mustGeneral(t, 9), &ADMM{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Settings{Tol: 1e-10, MaxIter: 50000}
			ref := Loss(rows)
			if _, ok := tc.m.(*ADMM); ok {
				ref = NewLeastSquares(DenseDesign{X: x}, y) // ADMM needs XᵀX
			}
			want, err := Minimize(Problem{Loss: ref, Penalty: tc.pen, Lambda: 40}, nil, s, tc.m)
			require.NoError(t, err)
			got, err := Minimize(Problem{Loss: stats, Penalty: tc.pen, Lambda: 40}, nil, s, tc.m)
			require.NoError(t, err)
			require.True(t, got.Converged)
			require.InEpsilon(t, want.Objective, got.Objective, 1e-9)
			require.True(t, mat.EqualApprox(want.Theta, got.Theta, 1e-6), "%v\n%v", mat.Formatted(want.Theta), mat.Formatted(got.Theta))
		})
	}
	require.InEpsilon(t, rows.Lipschitz(), stats.Lipschitz(), 1e-9)
}

func mustGeneral(t *testing.T, p int) penalty.Penalty {
	g := mat.NewDense(p-1, p, nil)
	for i := range p - 1 {
		g.Set(i, i, 1)
		g.Set(i, i+1, -1)
	}
	gen, err := penalty.NewGeneral(g, p, 1)
	require.NoError(t, err)
	return gen
}

// rowsOnly hides a design's Gram form, so that the loss works on X.
type rowsOnly struct{ d DenseDesign }

func (r rowsOnly) Dims() (int, int)                      { return r.d.Dims() }
func (r rowsOnly) Mul(dst *mat.Dense, b mat.Matrix)      { r.d.Mul(dst, b) }
func (r rowsOnly) MulTrans(dst *mat.Dense, m mat.Matrix) { r.d.MulTrans(dst, m) }

// A negative ν is an error for every method (coordinate descent used to
// report "converged" with gap 0, FISTA panicked).
func TestNegativeNuRefused(t *testing.T) {
	x, y := regression(12, 40, 5, 1)
	ls := NewLeastSquares(DenseDesign{X: x}, y)
	for _, pen := range []penalty.Penalty{penalty.L1{Nu: -1}, penalty.Cardinality{Nu: -2}, penalty.NewGrouped([]int{0, 0, 1, 1, 1}, -1)} {
		for _, m := range []Method{CoordinateDescent{}, &FISTA{}, &ADMM{}} {
			_, err := Minimize(Problem{Loss: ls, Penalty: pen, Lambda: 3}, nil, nil, m)
			require.ErrorContains(t, err, "ν", "%T %T", pen, m)
		}
	}
}

// The one-pass evaluation on the rows of a dense design, serial and split
// over the cores, equals the two products it replaces.
func TestEvalRowsMatchesProducts(t *testing.T) {
	for _, dims := range [][2]int{{30, 50}, {90, 12000}} { // the second is split
		x, y := regression(42, dims[0], dims[1], 1)
		ls := NewLeastSquares(DenseDesign{x}, y)
		theta := mat.NewDense(dims[1], 1, nil)
		for i := 0; i < dims[1]; i++ {
			theta.Set(i, 0, float64(i%5)-2)
		}
		var grad mat.Dense
		f := ls.Eval(&grad, theta)
		var r, want mat.Dense
		r.Mul(x, theta)
		r.Sub(&r, y)
		want.Mul(x.T(), &r)
		want.Scale(2, &want)
		rr := mat.Norm(&r, 2)
		require.InDelta(t, rr*rr, f, 1e-12*rr*rr)
		require.True(t, mat.EqualApprox(&grad, &want, 1e-9), "%v", dims)
	}
	require.GreaterOrEqual(t, 90*12000, parallelRows)
}

// The fast Frobenius norm equals mat.Norm's, also where the sum of squares
// would overflow or underflow, and on views that are not contiguous.
func TestFrobNorm(t *testing.T) {
	x, _ := regression(43, 7, 5, 1)
	for _, scale := range []float64{1, 1e-200, 1e200, 0} {
		var m mat.Dense
		m.Scale(scale, x)
		want := mat.Norm(&m, 2)
		require.InDelta(t, want, frobNorm(&m), 1e-14*want, "scale %g", scale)
	}
	view := x.Slice(1, 5, 1, 4)
	require.InDelta(t, mat.Norm(view, 2), frobNorm(view), 1e-14*mat.Norm(view, 2))
}
