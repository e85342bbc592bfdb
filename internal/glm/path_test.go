package glm

import (
	"math"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestSeparablePathStops fits a logistic lasso path on perfectly separable
// data: the path stops with a note once the deviance ratio passes 0.999,
// and every fit on it is finite.
func TestSeparablePathStops(t *testing.T) {
	n := 40
	x := mat.NewDense(n, 3, nil)
	y := make([]float64, n)
	for i := range n {
		v := float64(i) - 19.5
		x.Set(i, 0, v)
		x.Set(i, 1, math.Sin(float64(i)))
		x.Set(i, 2, math.Cos(3*float64(i)))
		if v > 0 {
			y[i] = 1
		}
	}
	p, err := FitPath(&Rows{X: x, Y: y}, penalty.L1{}, &fit.PathOptions{Options: fit.Options{Family: datafit.Binomial{}}, MinRatio: 1e-7})
	require.NoError(t, err)
	require.NotEmpty(t, p.Note)
	require.Less(t, len(p.Models), 100)
	last := p.Models[len(p.Models)-1]
	require.Greater(t, last.DevRatio, devMax)
	for _, m := range p.Models {
		for _, c := range coef(m) {
			require.False(t, math.IsNaN(c) || math.IsInf(c, 0))
		}
	}
	t.Log(p.Note)
}

// TestPathWarmStartsAgree checks that a path's fits equal one-off fits at
// the same λ (warm starts change nothing but speed).
func TestPathWarmStartsAgree(t *testing.T) {
	tb := own(datafit.Poisson{}, 200, 9, 3)
	opts := fit.Options{Family: datafit.Poisson{}}
	opts.Settings.Tol = 1e-11
	p, err := FitPath(&Rows{X: tb.x, Y: tb.y}, penalty.Cardinality{Nu: 1}, &fit.PathOptions{Options: opts, NLambda: 8})
	require.NoError(t, err)
	require.Greater(t, len(p.Models), 4)
	for i, l := range p.Lambdas {
		m, err := Fit(&Rows{X: tb.x, Y: tb.y}, penalty.Cardinality{Nu: 1}, l, &opts)
		require.NoError(t, err)
		require.InEpsilon(t, m.Objective, p.Models[i].Objective, 1e-9)
	}
	require.InDelta(t, 0, p.Models[0].DevRatio, 1e-12, "the first λ is λ_max")
}

// TestLassoMethodsAgree: the default lasso solver (glmnet's IRLS with
// coordinate descent, on a working set above 64 predictors) and proximal
// Newton with FISTA reach the same certified optimum, with penalty factors
// and an unpenalised predictor, for both families.
func TestLassoMethodsAgree(t *testing.T) {
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}} {
		for _, p := range []int{20, 120} {
			tb := own(fam, 300, p, uint64(p))
			factors := make([]float64, p)
			for j := range factors {
				factors[j] = 0.5 + float64(j%3)/2
			}
			factors[2] = 0
			pen, free, err := PenaltyFactors(factors)
			require.NoError(t, err)
			opts := fit.Options{Family: fam, Unpenalized: free}
			opts.Settings.Tol = 1e-10
			lmax, _, err := LambdaMax(&Rows{X: tb.x, Y: tb.y}, pen, &opts)
			require.NoError(t, err)
			for _, frac := range []float64{0.5, 0.05} {
				a, err := Fit(&Rows{X: tb.x, Y: tb.y}, pen, frac*lmax, &opts)
				require.NoError(t, err)
				o := opts
				o.Method = &solver.ProxNewton{Inner: &solver.FISTA{}}
				b, err := Fit(&Rows{X: tb.x, Y: tb.y}, pen, frac*lmax, &o)
				require.NoError(t, err)
				require.True(t, a.Converged && b.Converged, "%s p=%d λ=%g: %v gap %v; %v gap %v", fam.Name(), p, frac, a.Status, a.Gap, b.Status, b.Gap)
				require.InEpsilon(t, b.Objective, a.Objective, 1e-9, "%s p=%d", fam.Name(), p)
				require.InDeltaSlice(t, coef(b), coef(a), 1e-4)
			}
		}
	}
}

// TestRelaxedPathLength: with Relax the path's stopping rules looked at the
// relaxed refits, whose deviance ratio does not move between changes of
// the support, so a binomial lasso path stopped after 5 λ (of 100) and
// cross-validation chose λ_min among them. Now the rules look at the
// penalised fits, as glmnet's do: the relaxed path is as long as the
// plain one, and CV's curve covers it.
func TestRelaxedPathLength(t *testing.T) {
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}, datafit.Gaussian{}} {
		tb := own(fam, 200, 30, 5)
		opts := fit.PathOptions{Options: fit.Options{Family: fam}}
		plain, err := FitPath(&Rows{X: tb.x, Y: tb.y}, penalty.L1{}, &opts)
		require.NoError(t, err)
		opts.Relax = true
		relaxed, err := FitPath(&Rows{X: tb.x, Y: tb.y}, penalty.L1{}, &opts)
		require.NoError(t, err)
		require.Greater(t, len(plain.Lambdas), minPath, fam.Name())
		require.Equal(t, len(plain.Lambdas), len(relaxed.Lambdas), "%s: %s", fam.Name(), relaxed.Note)
		require.Equal(t, plain.Note, relaxed.Note)
		cv, err := CrossValidate(&Rows{X: tb.x, Y: tb.y}, penalty.L1{}, &fit.CVOptions{PathOptions: opts, Folds: 5, Seed: 1})
		require.NoError(t, err)
		require.Equal(t, len(plain.Lambdas), len(cv.Lambdas), fam.Name())
	}
}
