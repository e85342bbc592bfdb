package estimator

import (
	"math"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// allPairs returns the all-pairs difference matrix G of p predictors (a
// row eᵢ − eⱼ for each pair).
func allPairs(p int) *mat.Dense {
	g := mat.NewDense(p*(p-1)/2, p, nil)
	r := 0
	for i := range p {
		for j := i + 1; j < p; j++ {
			g.Set(r, i, 1)
			g.Set(r, j, -1)
			r++
		}
	}
	return g
}

// TestGeneralPenaltyEveryFamily: the general penalty ‖Gβ‖₁ + ν‖Π_Gβ‖₁ with
// the all-pairs G is the cardinality penalty Σ|βᵢ − βⱼ| + ν|Σβ| (its
// kernel is the constant vector), so on every family the two fits (one by
// the general penalty's iterative prox, certified by its residual; the
// other certified by its duality gap) must agree.
func TestGeneralPenaltyEveryFamily(t *testing.T) {
	const p, nu = 6, 1.3
	gen, err := penalty.NewGeneral(allPairs(p), p, nu)
	require.NoError(t, err)
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}, datafit.Gamma{}} {
		x, y := simulated(300, p, fam, 12)
		if _, ok := fam.(datafit.Gamma); ok {
			for i := range y {
				y[i] = math.Exp(0.3*x.At(i, 0)) * (0.5 + float64(i%7)/7)
			}
		}
		o := &Options{Family: fam, Settings: solver.Settings{Tol: 1e-10}}
		card, err := Fit(NewRows(x, y), penalty.Cardinality{Nu: nu}, 5, o)
		require.NoError(t, err, fam.Name())
		// The general penalty has no dual norm: its fit stops on the
		// fixed-point residual.
		g, err := Fit(NewRows(x, y), gen, 5, &Options{Family: fam, Settings: solver.Settings{Tol: 1e-8}})
		require.NoError(t, err, fam.Name())
		require.True(t, g.Converged, "%s: %v after %d iterations", fam.Name(), g.Status, g.Iterations)
		require.InDeltaSlice(t, card.Coefficients(0), g.Coefficients(0), 1e-6, fam.Name())
		require.InDelta(t, card.Intercept[0], g.Intercept[0], 1e-6, fam.Name())
		require.Greater(t, card.EffectiveParams(), 1, fam.Name()) // a fit with clusters, not zero
	}
}

// TestRidgeEveryFamily: a ridge fit of a family, Σwd + λ‖β‖², is smooth:
// its optimality condition is Σᵢ ∂d/∂η(yᵢ, ηᵢ)·xᵢⱼ + 2λβⱼ = 0 for every
// predictor and Σᵢ ∂d/∂η = 0 for the intercept, checked from the
// family's derivatives alone.
func TestRidgeEveryFamily(t *testing.T) {
	const p, lambda = 5, 15.0
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}} {
		x, y := simulated(250, p, fam, 13)
		m, err := Fit(NewRows(x, y), penalty.Ridge{}, lambda, &Options{Family: fam, Settings: solver.Settings{Tol: 1e-12}})
		require.NoError(t, err, fam.Name())
		require.True(t, m.Converged, fam.Name())
		beta := m.Coefficients(0)
		grad := make([]float64, p+1)
		for i := range y {
			eta := m.Intercept[0]
			for j := range p {
				eta += x.At(i, j) * beta[j]
			}
			d1, _ := fam.Derivs(y[i], eta)
			grad[p] += d1
			for j := range p {
				grad[j] += d1 * x.At(i, j)
			}
		}
		for j := range p {
			grad[j] += 2 * lambda * beta[j]
			require.InDelta(t, 0, grad[j], 1e-5, "%s: predictor %d", fam.Name(), j)
		}
		require.InDelta(t, 0, grad[p], 1e-5, "%s: intercept", fam.Name())
		require.Greater(t, math.Abs(beta[0]), 0.05, fam.Name()) // a fit, not the null model
	}
}
