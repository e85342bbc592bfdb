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

// enetStreamFamilies are the families the streamed elastic net is checked
// on: binomial and Poisson (the rounds' families), Tweedie and the negative
// binomial (passes only).
var enetStreamFamilies = []datafit.Family{datafit.Binomial{}, datafit.Poisson{}, datafit.Tweedie{P: 1.5}, datafit.NegBin{Theta: 2}}

// TestElasticNetStreamMatchesFit: a streamed elastic-net fit (passes per
// Newton step; α = 0 ridge, 0.5, 0.9) with weights and offsets equals the
// in-memory fit and is certified by the penalty's conjugate: converged, its
// relative gap at most the tolerance, the same objective and coefficients.
// Before the certificate used the conjugate, every such fit stalled with no
// gap.
func TestElasticNetStreamMatchesFit(t *testing.T) {
	for _, fam := range enetStreamFamilies {
		tb := withWeightsOffsets(own(fam, 400, 7, 41))
		rows := &Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}
		for _, alpha := range []float64{0, 0.5, 0.9} {
			name := fmt.Sprintf("%s α=%v", fam.Name(), alpha)
			pen := penalty.ElasticNet{Alpha: alpha}
			opts := &fit.Options{Family: fam, Settings: solver.Settings{Tol: 1e-10}}
			lmax, _, err := LambdaMax(rows, pen, opts)
			require.NoError(t, err)
			lambda := 0.05 * lmax
			if alpha == 0 {
				lambda = 1e-3 * lmax // ridge's λ_max is glmnet's at α = 0.001
			}
			want, err := Fit(rows, pen, lambda, opts)
			require.NoError(t, err)
			require.True(t, want.Converged, name)
			src := &tableSource{tb: tb}
			got, err := FitSource(src, 7, pen, lambda, &fit.Options{Family: fam, Settings: solver.Settings{Tol: 1e-10}})
			require.NoError(t, err)
			require.True(t, got.Converged, "%s: %v gap %v", name, got.Status, got.Gap)
			require.LessOrEqual(t, got.Gap, 1e-10, name)
			require.InEpsilon(t, want.Objective, got.Objective, 1e-9, name)
			require.InDelta(t, want.Intercept[0], got.Intercept[0], 1e-5, name)
			require.InDeltaSlice(t, coef(want), coef(got), 1e-5, name)
			require.Equal(t, src.passes, got.Passes)
			t.Logf("%s: %d passes, gap %.1e", name, got.Passes, got.Gap)
		}
	}
}

// TestElasticNetStreamGapBounds: stopped early (tolerances 1e-1 … 1e-5),
// a streamed elastic-net fit's absolute gap bounds its true
// suboptimality, its objective minus the optimum's (the in-memory fit
// certified to 1e-13): the streamed certificate is a certificate. Without
// an intercept, which a streamed fit only stops on once it is optimal (by
// then so is the rest, to rounding), so that the early stops are short of
// the optimum.
func TestElasticNetStreamGapBounds(t *testing.T) {
	for _, fam := range enetStreamFamilies {
		tb := withWeightsOffsets(own(fam, 400, 7, 43))
		rows := &Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}
		for _, alpha := range []float64{0, 0.5, 0.95} {
			name := fmt.Sprintf("%s α=%v", fam.Name(), alpha)
			pen := penalty.ElasticNet{Alpha: alpha}
			opts := &fit.Options{Family: fam, NoIntercept: true, Settings: solver.Settings{Tol: 1e-13, MaxIter: 100000}}
			lmax, _, err := LambdaMax(rows, pen, opts)
			require.NoError(t, err)
			lambda := 0.02 * lmax
			opt, err := Fit(rows, pen, lambda, opts)
			require.NoError(t, err)
			require.True(t, opt.Converged, name)
			sub := 0.0
			for _, tol := range []float64{1e-1, 1e-2, 1e-3, 1e-4, 1e-5} {
				got, err := FitSource(&tableSource{tb: tb}, 7, pen, lambda, &fit.Options{Family: fam, NoIntercept: true, Settings: solver.Settings{Tol: tol}})
				require.NoError(t, err)
				require.True(t, got.Converged, "%s tol %v: %v", name, tol, got.Status)
				require.LessOrEqual(t, got.Gap, tol, name)
				excess := got.Objective - opt.Objective
				bound := got.Gap*got.Objective + opt.Gap*opt.Objective
				require.GreaterOrEqual(t, bound, excess-1e-12*opt.Objective, "%s tol %v: gap %v below the excess %v", name, tol, got.Gap, excess/got.Objective)
				sub = max(sub, excess/opt.Objective)
			}
			require.Positive(t, sub, "%s: some early stop short of the optimum, so the bound is tested", name)
			t.Logf("%s: largest relative excess %.1e", name, sub)
		}
	}
}

// TestElasticNetStreamPath: a streamed elastic-net path (glmnet's grid
// from the penalty's λ_max, its stopping rules) is FitPath's, every fit
// certified.
func TestElasticNetStreamPath(t *testing.T) {
	for _, fam := range enetStreamFamilies {
		tb := withWeightsOffsets(own(fam, 300, 6, 45))
		for _, alpha := range []float64{0, 0.5} {
			name := fmt.Sprintf("%s α=%v", fam.Name(), alpha)
			pen := penalty.ElasticNet{Alpha: alpha}
			po := &fit.PathOptions{Options: fit.Options{Family: fam, Settings: solver.Settings{Tol: 1e-9}}, NLambda: 20}
			want, err := FitPath(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, po)
			require.NoError(t, err)
			got, err := FitPathSource(&tableSource{tb: tb}, 6, pen, po)
			require.NoError(t, err)
			require.Equal(t, len(want.Models), len(got.Models), name)
			for k, m := range got.Models {
				require.InEpsilon(t, want.Lambdas[k], got.Lambdas[k], 1e-9, name)
				require.True(t, m.Converged, "%s λ %d: %v gap %v", name, k, m.Status, m.Gap)
				require.LessOrEqual(t, m.Gap, 1e-9, name)
				require.InEpsilon(t, want.Models[k].Objective, m.Objective, 1e-8, "%s λ %d", name, k)
			}
			t.Logf("%s: %d λ, %d passes", name, len(got.Models), got.Passes)
		}
	}
}
