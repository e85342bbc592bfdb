package estimator

import (
	"math"
	"testing"

	"github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// DivideColumns divides a dense design in place and a design.Matrix by
// its scaled view, to the same matrix; bad scales are refused.
func TestDivideColumns(t *testing.T) {
	x := mat.NewDense(4, 3, []float64{1, 0, 2, 3, 1, 4, 5, 0, 6, 7, 1, 8})
	s := []float64{2, 1, 4}
	want := mat.NewDense(4, 3, nil)
	for i := range 4 {
		for j := range 3 {
			want.Set(i, j, x.At(i, j)/s[j])
		}
	}
	m := design.FromDense(x, 0.5)
	dense := &Rows{X: solver.DenseDesign{X: mat.DenseCopyOf(x)}}
	require.NoError(t, DivideColumns(dense, s))
	require.Equal(t, want.RawMatrix().Data, dense.X.(solver.DenseDesign).X.RawMatrix().Data)
	cols := &Rows{X: m}
	require.NoError(t, DivideColumns(cols, s))
	require.Equal(t, x.RawMatrix().Data, m.Dense().RawMatrix().Data, "the original design is untouched")
	got := cols.X.(*design.Matrix).Dense()
	for k, v := range want.RawMatrix().Data {
		require.InDelta(t, v, got.RawMatrix().Data[k], 1e-15)
	}
	require.ErrorContains(t, DivideColumns(dense, []float64{1, 1}), "2 scales for 3 columns")
	require.ErrorContains(t, DivideColumns(dense, []float64{1, 0, 1}), "scales must be positive")
	require.ErrorContains(t, DivideColumns(dense, []float64{1, math.NaN(), 1}), "scales must be positive")
}

// ColumnScales are the weighted population standard deviations, 1 for a
// constant column.
func TestColumnScales(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{1, 5, 2, 5, 3, 5, 10, 5})
	w := []float64{1, 2, 1, 0.5}
	var sw, m, ss float64
	for i, v := range []float64{1, 2, 3, 10} {
		sw, m = sw+w[i], m+w[i]*v
	}
	m /= sw
	for i, v := range []float64{1, 2, 3, 10} {
		ss += w[i] * (v - m) * (v - m)
	}
	s := ColumnScales(x, w)
	require.InEpsilon(t, math.Sqrt(ss/sw), s[0], 1e-14)
	require.Equal(t, 1.0, s[1])
}
