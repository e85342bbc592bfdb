package glm

import (
	"math"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/reference"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestCardinalityMatchesReference fits cardinality logistic and Poisson
// models, certified by a relative duality gap ≤ 1e-7, and checks them
// against an independent ADMM on the explicit difference matrix
// (internal/reference): same objective to 1e-7, same coefficients, ours
// never above. Both proximal Newton and FISTA are checked, with weights.
func TestCardinalityMatchesReference(t *testing.T) {
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}} {
		tb := own(fam, 120, 6, 11)
		n, p := tb.x.Dims()
		w := make([]float64, n)
		for i := range w {
			w[i] = 0.5 + float64(i%3)/2
		}
		var sw float64
		for _, v := range w {
			sw += v
		}
		wn := make([]float64, n) // as glm rescales them
		for i, v := range w {
			wn[i] = v * float64(n) / sw
		}
		pen := penalty.Cardinality{Nu: 1.5}
		for _, method := range []solver.Method{&solver.ProxNewton{}, &solver.FISTA{}} {
			opts := &fit.Options{Family: fam, Method: method, Settings: solver.Settings{Tol: 1e-9, MaxIter: 200000}}
			lmax, _, err := LambdaMax(&Rows{X: tb.x, Y: tb.y, Weights: w}, pen, opts)
			require.NoError(t, err)
			for _, frac := range []float64{0.3, 0.05} {
				m, err := Fit(&Rows{X: tb.x, Y: tb.y, Weights: w}, pen, frac*lmax, opts)
				require.NoError(t, err)
				require.True(t, m.Converged, "%s: %v", fam.Name(), m.Status)
				require.LessOrEqual(t, m.Gap, 1e-7)
				b0, beta, obj, err := reference.GLMADMM(fam.Name(), tb.x, tb.y, wn, reference.ExplicitCardinality(p, 1.5), frac*lmax, 5000)
				require.NoError(t, err)
				require.InEpsilon(t, obj, m.Objective, 1e-7, "%s λ = %g λmax", fam.Name(), frac)
				require.LessOrEqual(t, m.Objective, obj*(1+1e-9))
				require.InDelta(t, b0, m.Intercept[0], 1e-3)
				for j := range p {
					require.InDelta(t, beta[j], coef(m)[j], 1e-3, "%s coefficient %d", fam.Name(), j)
				}
				t.Logf("%s %T λ=%.2gλmax: objective %.12g (reference %.12g), gap %.1e, distinct %v", fam.Name(), method, frac, m.Objective, obj, m.Gap, distinct(coef(m)))
				if math.IsNaN(m.Gap) {
					t.Fatal("no certificate")
				}
			}
		}
	}
}

func distinct(v []float64) int {
	seen := map[float64]bool{}
	for _, x := range v {
		seen[x] = true
	}
	return len(seen)
}

// TestRelax checks the relaxed refit: its cluster values are a stationary
// point of the unpenalised deviance over the clusters (the gradient summed
// over each cluster vanishes), the clusters are the penalised fit's, and
// the deviance is below the penalised fit's.
func TestRelax(t *testing.T) {
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}} {
		tb := own(fam, 300, 9, 21)
		pen := penalty.Cardinality{Nu: 1}
		opts := &fit.Options{Family: fam}
		lmax, _, err := LambdaMax(&Rows{X: tb.x, Y: tb.y}, pen, opts)
		require.NoError(t, err)
		plain, err := Fit(&Rows{X: tb.x, Y: tb.y}, pen, 0.2*lmax, opts)
		require.NoError(t, err)
		opts.Relax = true
		m, err := Fit(&Rows{X: tb.x, Y: tb.y}, pen, 0.2*lmax, opts)
		require.NoError(t, err)
		require.True(t, m.Relaxed)
		require.Less(t, m.Deviance, plain.Deviance)
		require.Equal(t, plain.Clusters(0), m.Clusters(0), "the same clusters (of the penalised solution)")
		require.Equal(t, len(plain.DistinctValues(0)), distinct(coef(m)))
		pb, err := newProblem(&Rows{X: tb.x, Y: tb.y}, opts)
		require.NoError(t, err)
		var g mat.Dense
		pb.loss.Eval(&g, mat.NewDense(9, 1, coef(m)))
		for _, cl := range m.Clusters(0) {
			var s float64
			for _, j := range cl {
				s += g.At(j, 0)
			}
			require.InDelta(t, 0, s, 1e-6*m.NullDeviance, "%s cluster %v", fam.Name(), cl)
		}
	}
}
