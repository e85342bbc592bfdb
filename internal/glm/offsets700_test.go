package glm

import (
	"fmt"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
)

// offsets700 returns a binomial table of n rows whose offsets are ±700
// (every row, or all but every tenth, which gets 0), the responses
// unrelated to them, weighted 1…4 when weighted.
func offsets700(n int, most, weighted bool) *table {
	tb := own(datafit.Binomial{}, n, 3, 11)
	tb.o = make([]float64, n)
	for i := range n {
		tb.o[i] = 700 * float64(1-2*(i%3%2))
		if most && i%10 == 0 {
			tb.o[i] = 0
		}
	}
	if weighted {
		tb.w = make([]float64, n)
		for i := range n {
			tb.w[i] = float64(1 + i%4)
		}
	}
	return tb
}

// TestBinomialOffsets700: binomial offsets of ±700 (|o| ≤ 709: legal) on
// every row, or most, with responses that disagree with them on many
// rows. In memory the fits ended with "the unpenalised predictors are
// collinear" (the profile's intercept stuck at 765, where 1 − μ rounded
// to 0 made every row flat) or "the loss is NaN at iteration 1" (Newton's
// working responses at ~1e300); streamed they stalled at a relative gap of
// 0.97 (rows of underflowed curvature left out of Newton's model). Now
// both routes converge to the same objective, cross-validation included.
func TestBinomialOffsets700(t *testing.T) {
	pen := penalty.Cardinality{Nu: 2}
	for _, most := range []bool{false, true} {
		for _, weighted := range []bool{false, true} {
			what := fmt.Sprintf("most %v weighted %v", most, weighted)
			tb := offsets700(200, most, weighted)
			o := fit.Options{Family: datafit.Binomial{}}
			mem, err := Fit(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, 1, &o)
			require.NoError(t, err, what)
			require.True(t, mem.Converged, "%s: %v", what, mem.Status)
			got, err := FitSource(&tableSource{tb: tb}, 3, pen, 1, &fit.Options{Family: datafit.Binomial{}})
			require.NoError(t, err, what)
			require.True(t, got.Converged, "%s streamed: %v", what, got.Status)
			require.InEpsilon(t, mem.Objective, got.Objective, 1e-6, what)
			_, err = CrossValidate(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, &fit.CVOptions{PathOptions: fit.PathOptions{Options: o, NLambda: 20}, Folds: 5, Seed: 1})
			require.NoError(t, err, what)
		}
	}
}

// TestOffsetsDecideEveryRow: binomial offsets of ±700 that agree with
// every response leave a deviance of ~2e-302, whose relative duality gap
// (701) is the rounding of its own evaluation. The fit in memory stopped
// at that floor (status GapFloor); the streamed fit had no floor, took no
// certificate of an objective that underflowed to 0, and its null fit
// crawled towards b₀ = 0 by 100 passes and was refused ("did not
// converge") or stalled ("badly scaled problem?"). Now both converge.
func TestOffsetsDecideEveryRow(t *testing.T) {
	tb := offsets700(200, false, false)
	for i, o := range tb.o {
		tb.y[i] = 0
		if o > 0 {
			tb.y[i] = 1
		}
	}
	pen := penalty.Cardinality{Nu: 2}
	mem, err := Fit(&Rows{X: tb.x, Y: tb.y, Offset: tb.o}, pen, 1, &fit.Options{Family: datafit.Binomial{}})
	require.NoError(t, err)
	require.True(t, mem.Converged, "%v", mem.Status)
	got, err := FitSource(&tableSource{tb: tb}, 3, pen, 1, &fit.Options{Family: datafit.Binomial{}})
	require.NoError(t, err)
	require.True(t, got.Converged, "%v", got.Status)
	require.Contains(t, []solver.Status{solver.GapFloor, solver.GapConverged}, got.Status)
	require.Less(t, got.Deviance, 1e-290)
}
