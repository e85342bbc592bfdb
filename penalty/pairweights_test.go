package penalty

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// Three levels with counts 2, 4, 2 (n = 8) and the reference at level 1:
// index 0 is level 1, index 1 is level 0, index 2 is level 2.
func TestCountPairWeights(t *testing.T) {
	w := CountPairWeights([]float64{2, 4, 2}, 1)
	a, b := 2.0/3*math.Sqrt(6.0/8), 2.0/3*math.Sqrt(4.0/8)
	require.InDeltaSlice(t, []float64{
		0, a, a,
		a, 0, b,
		a, b, 0,
	}, w, 1e-15)
	// Reference first: no reindexing.
	w = CountPairWeights([]float64{1, 3}, 0)
	require.InDeltaSlice(t, []float64{0, 1, 1, 0}, w, 1e-15)
	_, err := NewBlocks(2, []Block{{Type: NominalBlock, Rows: []int{0, 1}, Weights: CountPairWeights([]float64{2, 4, 2}, 1)}})
	require.NoError(t, err)
	require.Panics(t, func() { CountPairWeights([]float64{1, -1}, 0) })
	require.Panics(t, func() { CountPairWeights([]float64{1, 1}, 2) })
}

func TestCountChainWeights(t *testing.T) {
	require.InDeltaSlice(t, []float64{math.Sqrt(6.0 / 10), math.Sqrt(7.0 / 10)},
		CountChainWeights([]float64{2, 4, 3, 1})[:2], 1e-15)
	require.InDelta(t, math.Sqrt(4.0/10), CountChainWeights([]float64{2, 4, 3, 1})[2], 1e-15)
}

func TestAdaptiveWeights(t *testing.T) {
	// β̂ = (1, −2) for levels 1, 2; the reference's β̂_0 = 0.
	require.InDeltaSlice(t, []float64{
		0, 1, 0.5,
		1, 0, 1.0 / 3,
		0.5, 1.0 / 3, 0,
	}, AdaptivePairWeights([]float64{1, -2}), 1e-15)
	// A tie gets 1/(AdaptiveFloor·max|β̂|).
	require.InDeltaSlice(t, []float64{0, 0.5, 0.5, 0.5, 0, 1 / (2 * AdaptiveFloor), 0.5, 1 / (2 * AdaptiveFloor), 0},
		AdaptivePairWeights([]float64{2, 2}), 1e-6)
	require.Equal(t, []float64{0, 1, 1, 0}, AdaptivePairWeights([]float64{0}))

	// Effects (1, 0, 1) with the reference in the middle; (0, 1, 1) with it first.
	require.Equal(t, []float64{1, 1}, AdaptiveChainWeights([]float64{1, 1}, 1))
	require.InDeltaSlice(t, []float64{1, 1 / AdaptiveFloor}, AdaptiveChainWeights([]float64{1, 1}, 0), 1e-6)
	require.Equal(t, []float64{0.5, 0.25}, AdaptiveChainWeights([]float64{2, -4}, 1))
	require.Panics(t, func() { AdaptiveChainWeights([]float64{1}, 2) })
}
