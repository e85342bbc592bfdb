package glm

import (
	"testing"
	"time"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
)

// TestSolversStopWhenStalled: at a λ far below the gradient's rounding the
// duality gap certifies nothing (its dual point is scaled to 0), so before
// the stall rule proximal Newton ran all its 100 outer iterations, each
// with up to MaxIter inner FISTA iterations, and FISTA alone ran all of
// MaxIter, without changing the objective. Now both stop after a few
// checks without progress, status Stalled, not converged.
func TestSolversStopWhenStalled(t *testing.T) {
	tb := own(datafit.Poisson{}, 160, 5, 3)
	pen := penalty.Cardinality{Nu: 5.0 / 3}
	for _, c := range []struct {
		name    string
		method  solver.Method
		maxIter int
	}{
		{"prox-newton", &solver.ProxNewton{}, 1000}, // old: 20000 in its FISTA finish
		{"fista", &solver.FISTA{}, 1000},            // old: 20000
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, lambda := range []float64{1e-300, 1e-306} {
				start := time.Now()
				m, err := Fit(tb.x, tb.y, pen, lambda, &Options{Family: datafit.Poisson{}, Method: c.method})
				require.NoError(t, err)
				require.False(t, m.Converged)
				require.Equal(t, solver.Stalled, m.Status, "λ %g: %v after %d iterations", lambda, m.Status, m.Iterations)
				require.Less(t, m.Iterations, c.maxIter)
				require.Less(t, time.Since(start), 20*time.Second)
			}
		})
	}
}

// TestCVWithHugeWeightReturns is the tester's case: Poisson CV on 200
// rows, one weight 1e308. The fold without the heavy row fits at λ near
// 1e-306 and spun for minutes; now it returns quickly (or the data layer
// refuses the weight up front).
func TestCVWithHugeWeightReturns(t *testing.T) {
	tb := own(datafit.Poisson{}, 200, 5, 7)
	w := make([]float64, 200)
	for i := range w {
		w[i] = 1
	}
	w[17] = 1e308
	co := &CVOptions{Folds: 5, Seed: 1}
	co.Family, co.Weights = datafit.Poisson{}, w
	start := time.Now()
	cv, err := CrossValidate(tb.x, tb.y, penalty.Cardinality{Nu: 5.0 / 3}, co)
	if err != nil {
		t.Logf("refused: %v", err)
	} else {
		for _, m := range cv.Path.Models {
			require.Less(t, m.Iterations, 2000)
		}
	}
	require.Less(t, time.Since(start), 60*time.Second)
}
