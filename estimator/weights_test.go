package estimator

import (
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// TestWeightsScaleFree: only the weights' ratios matter (they are
// rescaled to sum to n, as glmnet and the family routes rescale them):
// weighted gaussian rows (gathered into statistics) with weights w and 3w
// give one fit, the same as a stream of the rows with weights 3w, and the
// family route's certificate (Certify, which rescales the weights itself)
// finds it optimal at the same λ.
func TestWeightsScaleFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n, p := 120, 5
	x := mat.NewDense(n, p, nil)
	y := make([]float64, n)
	w, w3 := make([]float64, n), make([]float64, n)
	for i := range n {
		for j := range p {
			x.Set(i, j, rng.NormFloat64())
		}
		y[i] = 2*x.At(i, 0) - x.At(i, 1) + rng.NormFloat64()
		w[i] = 0.5 + 2*rng.Float64()
		w3[i] = 3 * w[i]
	}
	weighted := func(w []float64) *Rows { r := NewRows(x, y); r.Weights = w; return r }
	pen, lambda := penalty.L1{}, 40.0
	opts := &Options{Settings: solver.Settings{Tol: 1e-12}}
	ref, err := Fit(weighted(w), pen, lambda, opts)
	require.NoError(t, err)
	raw := suffstat.NewFolds(1, p+1) // statistics as a caller gathers them: weights as given
	for i := range n {
		raw.Fold[0].Add(append(mat.Row(nil, i, x), y[i]), w3[i])
	}
	forms := map[string]Data{"weights ×3": weighted(w3), "stream ×3": &Stream{Source: sliceSource{x: x, y: y, w: w3}, P: p},
		"stats ×3": &Stats{Folds: raw, Q: 1}}
	for name, d := range forms {
		m, err := Fit(d, pen, lambda, opts)
		require.NoError(t, err, name)
		require.InDeltaSlice(t, ref.Coefficients(0), m.Coefficients(0), 1e-8, name)
		require.InDelta(t, ref.Intercept[0], m.Intercept[0], 1e-8, name)
	}
	require.InDelta(t, floats.Sum(w3), raw.All().W, 1e-9, "the caller's statistics are not changed")
	gap, err := Certify(weighted(w3), pen, lambda, ref.Coefficients(0), opts)
	require.NoError(t, err)
	require.Less(t, gap, 1e-8)
	_, err = rowStats(weighted(make([]float64, n)), nil, 1)
	require.ErrorContains(t, err, "every weight is 0")
}
