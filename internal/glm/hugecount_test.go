package glm

import (
	"math"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
)

// hugeCount returns 200 rows of four N(0, 1) predictors and counts 0…5,
// one of them 9e15 (below datafit.MaxCount, so accepted).
func hugeCount() *table {
	tb := own(datafit.Poisson{}, 200, 4, 15)
	for i := range tb.y {
		tb.y[i] = math.Min(tb.y[i], 5)
	}
	tb.y[17] = 9e15
	return tb
}

// TestHugeCountRounding: a Poisson count of 9e15 has μ ≈ 9e15 at the fit,
// where one ulp of η moves μ by ~64: the gradient is known to ±~100|x|
// only, and at λ = 1 no dual point is within the tolerance. The fits said
// "stalled … (badly scaled problem?)" at relative gaps of 0.87 (in
// memory) and 0.97 (streamed); now they say the gap cannot be certified
// below the gradient's rounding and give that rounding's dual norm (a
// bound: 242 for the lasso, 69 for the cardinality penalty), the same on
// both routes; λ = 100 converges on both. At λ = 1000 the streamed
// fit stalled at its first steps (the intercept's last correction gains
// less than the objective's rounding, so no step was taken) where the fit
// in memory converges; now it converges to the same fit.
func TestHugeCountRounding(t *testing.T) {
	tb := hugeCount()
	for _, pen := range []penalty.Penalty{penalty.L1{}, penalty.Cardinality{Nu: 2}} {
		o := fit.Options{Family: datafit.Poisson{}}
		mem, err := Fit(&Rows{X: tb.x, Y: tb.y}, pen, 1, &o)
		require.NoError(t, err)
		require.Equal(t, solver.Uncertifiable, mem.Status, "%v: %v", pen, mem.Status)
		got, err := FitSource(&tableSource{tb: tb}, 4, pen, 1, &o)
		require.NoError(t, err)
		require.Equal(t, solver.Uncertifiable, got.Status, "%v streamed: %v", pen, got.Status)
		require.Greater(t, mem.RoundingLambda, 10.0, "%v", pen)
		require.InEpsilon(t, mem.RoundingLambda, got.RoundingLambda, 0.05, "%v", pen)
		for _, lambda := range []float64{100, 1000} {
			m, err := Fit(&Rows{X: tb.x, Y: tb.y}, pen, lambda, &o)
			require.NoError(t, err)
			require.True(t, m.Converged, "%v λ %v: %v", pen, lambda, m.Status)
			s, err := FitSource(&tableSource{tb: tb}, 4, pen, lambda, &o)
			require.NoError(t, err)
			require.True(t, s.Converged, "%v λ %v streamed: %v", pen, lambda, s.Status)
			require.InEpsilon(t, m.Objective, s.Objective, 1e-9, "%v λ %v", pen, lambda)
		}
		t.Logf("%v: rounding λ %.4g in memory, %.4g streamed", pen, mem.RoundingLambda, got.RoundingLambda)
	}
}
