package deepreg

import (
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// SetInputs standardises the columns and Inputs applies the same centre
// and scale to new rows.
func TestSetInputs(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{1, 10, 2, 10, 3, 30, 4, 30})
	var s Saved
	s.SetInputs(x, []string{"a", "b"}, true)
	require.Equal(t, []string{"a", "b"}, s.Names)
	require.InDeltaSlice(t, []float64{2.5, 20}, s.Center, 1e-12)
	require.InDeltaSlice(t, []float64{-1.3416407864998738, -1, 1.3416407864998738, 1}, []float64{x.At(0, 0), x.At(0, 1), x.At(3, 0), x.At(3, 1)}, 1e-12)
	raw := mat.NewDense(1, 2, []float64{4, 30})
	s.Inputs(raw)
	require.InDeltaSlice(t, []float64{x.At(3, 0), x.At(3, 1)}, raw.RawRowView(0), 1e-12)

	y := mat.NewDense(2, 1, []float64{5, 7})
	var plain Saved
	plain.SetInputs(y, []string{"c"}, false)
	require.Equal(t, []float64{5, 7}, y.RawMatrix().Data)
	require.Nil(t, plain.Center)
}
