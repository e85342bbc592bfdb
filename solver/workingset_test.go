package solver

import (
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestWorkingSetMargin: without a previous fit the margin is
// workingMargin; after one at λ' (its own or handed over by Remember) it
// is the sequential strong rule's 2 − λ'/λ for λ < λ', clamped at 0, and
// the remembered gradient is the start's only at the remembered point.
func TestWorkingSetMargin(t *testing.T) {
	w := &WorkingSet{}
	require.Equal(t, workingMargin, w.margin(1))
	zero, grad := mat.NewDense(2, 1, nil), mat.NewDense(2, 1, []float64{3, -4})
	w.Remember(2, zero, grad)
	require.InDelta(t, 2-2/1.5, w.margin(1.5), 1e-15)
	require.Equal(t, 0.0, w.margin(0.5))
	require.Equal(t, workingMargin, w.margin(3))
	require.Equal(t, []float64{3, -4}, w.startGrad(nil, mat.NewDense(2, 1, nil)).RawMatrix().Data)
}
