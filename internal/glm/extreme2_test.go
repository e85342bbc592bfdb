package glm

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
)

// TestStreamedExtremeScales: the streamed intercept-only fit ran Newton
// from b₀ = 0 with steps capped at 5 and 50 of them, so a gamma response
// ×1e300 (b₀ ≈ 690), ×1e−300, or Poisson offsets of 700 were refused as
// "the intercept-only model did not converge (separable data?)" though the
// fit in memory handles them. It now starts at datafit.NullStart (exact
// for the log link) and the streamed fit equals the one in memory, with
// weights and offsets too.
func TestStreamedExtremeScales(t *testing.T) {
	for _, c := range []struct {
		name  string
		fam   datafit.Family
		scale float64 // the responses' factor
		off   float64 // every row's offset
	}{
		{"gamma ×1e300", datafit.Gamma{}, 1e300, 0},
		{"gamma ×1e-300", datafit.Gamma{}, 1e-300, 0},
		{"gamma offsets 700", datafit.Gamma{}, 1, 700},
		{"poisson offsets 700", datafit.Poisson{}, 1, 700},
		{"poisson offsets -700", datafit.Poisson{}, 1, -700},
	} {
		for _, weighted := range []bool{false, true} {
			tb := own(c.fam, 150, 4, 2)
			n := len(tb.y)
			tb.o = make([]float64, n)
			for i := range n {
				tb.y[i] *= c.scale
				tb.o[i] = c.off + 0.1*math.Sin(float64(i))
			}
			if weighted {
				tb.w = make([]float64, n)
				for i := range n {
					tb.w[i] = math.Pow(10, float64(i%5)-2)
				}
			}
			what := fmt.Sprintf("%s weighted %v", c.name, weighted)
			o := fit.Options{Family: c.fam}
			lmax, _, err := LambdaMax(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, penalty.L1{}, &o)
			require.NoError(t, err, what)
			mem, err := Fit(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, penalty.L1{}, 0.2*lmax, &o)
			require.NoError(t, err, what)
			require.True(t, mem.Converged, what)
			got, err := FitSource(&tableSource{tb: tb}, 4, penalty.L1{}, 0.2*lmax, &fit.Options{Family: c.fam})
			require.NoError(t, err, what)
			require.True(t, got.Converged, "%s: %v", what, got.Status)
			require.InDelta(t, mem.Intercept[0], got.Intercept[0], 1e-5*math.Max(1, math.Abs(mem.Intercept[0])), what)
			require.InDeltaSlice(t, coef(mem), coef(got), 1e-5, what)
		}
	}
}

// TestStreamedOutlierLineSearch: with one gamma response 1e15 times the
// others (accepted: the others' curvatures still count), the streamed fit
// stopped as "stalled" at its first step, its one line-search pass of step
// lengths 1 … 2⁻⁹ all too long for a Newton model that one row dominates.
// The line search now takes further passes down to 2⁻⁵⁹, and the fit
// equals the one in memory.
func TestStreamedOutlierLineSearch(t *testing.T) {
	for _, big := range []float64{1e10, 1e15} {
		for _, pen := range []penalty.Penalty{penalty.L1{}, penalty.Cardinality{Nu: 1.5}} {
			tb := own(datafit.Gamma{}, 200, 3, 5)
			tb.y[7] = big
			what := fmt.Sprintf("y %g %v", big, pen)
			o := fit.Options{Family: datafit.Gamma{}}
			mem, err := Fit(&Rows{X: tb.x, Y: tb.y}, pen, 1, &o)
			require.NoError(t, err, what)
			require.True(t, mem.Converged, what)
			got, err := FitSource(&tableSource{tb: tb}, 3, pen, 1, &o)
			require.NoError(t, err, what)
			require.True(t, got.Converged, "%s: %v after %d", what, got.Status, got.Iterations)
			require.InEpsilon(t, mem.Deviance, got.Deviance, 1e-6, what)
		}
	}
}

// TestDominantCurvatureRefused: a gamma response 1e20 (or 1e300) times
// the others, or a Poisson offset of 700 among zeros, makes one row's
// curvature at the intercept-only fit outweigh all the others below its
// rounding; the fits then ended with "backtracking found no step: the loss
// is not smooth or not finite", "the loss is NaN at iteration 1" or
// "separable data?". Now both routes refuse the data up front, naming the
// row, the field and the bound; the weight counts in the curvature.
func TestDominantCurvatureRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		fam  datafit.Family
		edit func(tb *table)
		what string
	}{
		{"gamma 1e20", datafit.Gamma{}, func(tb *table) { tb.y[3] = 1e20 }, "response"},
		{"gamma 1e300", datafit.Gamma{}, func(tb *table) { tb.y[3] = 1e300 }, "response"},
		{"gamma weight", datafit.Gamma{}, func(tb *table) { tb.y[3] = 1e10; tb.w[3] = 1e10 }, "response"},
		{"gamma offset", datafit.Gamma{}, func(tb *table) { tb.o[3] = -700 }, "offset"},
		{"poisson offset 700", datafit.Poisson{}, func(tb *table) { tb.o[3] = 700 }, "offset"},
		{"gamma spread", datafit.Gamma{}, func(tb *table) { tb.y[3], tb.y[5] = 1e-300, 1e15 }, "response"},
		{"poisson weighted offset", datafit.Poisson{}, func(tb *table) { tb.o[3] = 30; tb.w[3] = 1e10 }, "offset"},
	} {
		tb := own(c.fam, 120, 3, 4)
		n := len(tb.y)
		tb.w, tb.o = slices.Repeat([]float64{1}, n), make([]float64, n)
		c.edit(tb)
		o := fit.Options{Family: c.fam}
		_, err := Fit(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, penalty.L1{}, 1, &o)
		var re *datafit.RowError
		require.True(t, errors.As(err, &re), "%s: %v", c.name, err)
		require.Equal(t, 3, re.Row, c.name)
		require.Equal(t, c.what, re.What, c.name)
		require.Regexp(t, "outweighs all the other rows' together|gamma rows may span at most e\\^709", err.Error(), c.name)
		_, err = FitSource(&tableSource{tb: tb}, 3, penalty.L1{}, 1, &fit.Options{Family: c.fam})
		require.True(t, errors.As(err, &re), "%s streamed: %v", c.name, err)
		require.Equal(t, 3, re.Row, c.name)
	}
	// Below the bounds, a tiny response (beside one of 1e7: a spread of
	// e^706), and the same outlier with the rest weighted up, fit, in
	// memory and streamed.
	tb := own(datafit.Gamma{}, 120, 3, 4)
	tb.y[3], tb.y[5] = 1e-300, 1e7
	for _, pen := range []penalty.Penalty{penalty.L1{}, penalty.Cardinality{Nu: 1.5}} {
		m, err := Fit(&Rows{X: tb.x, Y: tb.y}, pen, 1, &fit.Options{Family: datafit.Gamma{}})
		require.NoError(t, err)
		require.True(t, m.Converged)
		s, err := FitSource(&tableSource{tb: tb}, 3, pen, 1, &fit.Options{Family: datafit.Gamma{}})
		require.NoError(t, err)
		require.True(t, s.Converged)
		require.InEpsilon(t, m.Deviance, s.Deviance, 1e-6)
	}
	tb.y[3], tb.w = 1e20, slices.Repeat([]float64{1e6}, 120)
	tb.w[3] = 1
	m, err := Fit(&Rows{X: tb.x, Y: tb.y, Weights: tb.w}, penalty.L1{}, 1, &fit.Options{Family: datafit.Gamma{}})
	require.NoError(t, err)
	require.True(t, m.Converged)
}

// TestStreamedNullFitBracketed: binomial offsets of ±700 put every row at
// the logistic boundary, where the intercept-only fit has no curvature
// and Newton's steps are unbounded. Streamed, capped at 5, its 50 passes
// stopped far from b₀ ≈ −699 and the fit was refused ("did not
// converge"); in memory the profile's backtracking could not shorten a
// step of ~1e300 enough and left b₀ at its start, −0.69: a null deviance
// of 141355 against the minimum's 95327, "converged". Now the streamed
// steps double and a bracket bisects, the profile's backtracking starts
// from a step that moves η by at most 709, and both find the minimum.
func TestStreamedNullFitBracketed(t *testing.T) {
	tb := own(datafit.Binomial{}, 200, 2, 8)
	n := len(tb.y)
	tb.o = make([]float64, n)
	for i := range n {
		tb.o[i] = 700
		if i%2 == 1 {
			tb.o[i] = -700
		}
		tb.y[i] = float64(i % 3 % 2)
	}
	o := fit.Options{Family: datafit.Binomial{}}
	mem, err := Fit(&Rows{X: tb.x, Y: tb.y, Offset: tb.o}, penalty.L1{}, 1e6, &o)
	require.NoError(t, err)
	got, err := FitSource(&tableSource{tb: tb}, 2, penalty.L1{}, 1e6, &fit.Options{Family: datafit.Binomial{}})
	require.NoError(t, err)
	require.Equal(t, []float64{0, 0}, coef(got))
	require.InDelta(t, mem.Intercept[0], got.Intercept[0], 1e-6*math.Abs(mem.Intercept[0]))
	require.InEpsilon(t, mem.NullDeviance, got.NullDeviance, 1e-9)
	require.Less(t, mem.Intercept[0], -690.0, "the minimum, not the start")
	t.Logf("b₀ %v in %d passes", got.Intercept[0], got.Passes)
}
