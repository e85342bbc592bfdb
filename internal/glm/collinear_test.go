package glm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/testenv"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// nearCollinear is n rows of p columns x_j = z + 0.01·noise_j around one
// latent z (standard deviation 0.3), and a binomial response driven by z:
// the reviewer's corrb.csv.
func nearCollinear(n, p int, seed uint64) (*mat.Dense, []float64) {
	r := rand.New(rand.NewPCG(seed, 11))
	x := mat.NewDense(n, p, nil)
	y := make([]float64, n)
	for i := range n {
		z := 0.3 * r.NormFloat64()
		for j := range p {
			x.Set(i, j, z+0.01*r.NormFloat64())
		}
		if r.Float64() < 1/(1+math.Exp(-3*z)) {
			y[i] = 1
		}
	}
	return x, y
}

// TestLassoNearCollinearConverges: on 40 near-collinear columns the
// binomial lasso at λ = 3 and 0.1 converged before the day's solver
// changes (corrb.csv; at 0.001 too, in 72 iterations and 46 s, too slow
// for a test); then the sweeps of the first reweighting used up the default
// budget (MaxIter sweeps) and the fit returned unconverged after one
// iteration, and the stall rule stopped the inner and outer solves of
// proximal Newton early. Each fit must converge at the default settings to
// the objective (1e-9) of a fit certified to a relative gap of 1e-10.
func TestLassoNearCollinearConverges(t *testing.T) {
	x, y := nearCollinear(300, 40, 1)
	lambdas := []float64{3}
	if testenv.Slow() {
		lambdas = append(lambdas, 0.1) // the hard case: 7 s with its 1e-10 reference
	}
	for _, lambda := range lambdas {
		m, err := Fit(&Rows{X: x, Y: y}, penalty.L1{}, lambda, &fit.Options{Family: datafit.Binomial{}})
		require.NoError(t, err)
		require.True(t, m.Converged, "λ %g: %v after %d iterations, gap %g", lambda, m.Status, m.Iterations, m.Gap)
		ref, err := Fit(&Rows{X: x, Y: y}, penalty.L1{}, lambda, &fit.Options{Family: datafit.Binomial{},
			Settings: solver.Settings{Tol: 1e-10, MaxIter: 1000000}})
		require.NoError(t, err)
		require.True(t, ref.Converged, "λ %g: the reference: %v", lambda, ref.Status)
		require.InDelta(t, ref.Objective, m.Objective, 1e-9*ref.Objective, "λ %g", lambda)
	}
}
