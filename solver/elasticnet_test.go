package solver

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// The elastic net on least squares: DefaultMethod runs Gram coordinate
// descent on it (its per-coordinate prox), which agrees with FISTA on the
// plain prox, and every fit is certified by the conjugate's duality gap.
// The gap is an upper bound on the true suboptimality at any point: at
// points perturbed from a solution certified to 1e-15, the absolute gap
// is at least P(Θ) − P(Θ*).
func TestElasticNetLeastSquaresCertified(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, q := range []int{1, 2} {
		x, y := regression(41, 80, 12, q)
		ls := NewLeastSquares(DenseDesign{x}, y)
		for _, alpha := range []float64{0, 0.3, 0.8, 1} {
			f := make([]float64, 12)
			for j := range f {
				f[j] = 0.5 + float64(j%3)/2
			}
			pen := penalty.ElasticNet{Alpha: alpha, Factors: f}
			lmax, ok := LambdaMax(ls, pen)
			require.True(t, ok)
			p := Problem{Loss: ls, Penalty: pen, Lambda: 0.1 * lmax}
			m := DefaultMethod(p, Hints{})
			require.IsType(t, GramCoordinateDescent{}, m)
			best, err := Minimize(p, nil, &Settings{Tol: 1e-15, MaxIter: 1e6}, m)
			require.NoError(t, err)
			require.True(t, best.Converged, "α %v: %v gap %v", alpha, best.Status, best.Gap)
			fista, err := Minimize(p, nil, &Settings{Tol: 1e-12, MaxIter: 1e6}, &FISTA{})
			require.NoError(t, err)
			require.True(t, fista.Converged, "FISTA α %v: %v gap %v", alpha, fista.Status, fista.Gap)
			require.True(t, mat.EqualApprox(best.Theta, fista.Theta, 1e-5), "α %v", alpha)
			opt := p.Objective(best.Theta)
			require.InDelta(t, best.Gap, Certificate(p, best.Theta), 1e-12)
			for _, scale := range []float64{1e-4, 1e-2, 1} {
				pt := mat.DenseCopyOf(best.Theta)
				for i := range 12 {
					for j := range q {
						pt.Set(i, j, pt.At(i, j)+scale*r.NormFloat64())
					}
				}
				obj := p.Objective(pt)
				gap := Certificate(p, pt) * obj
				require.GreaterOrEqual(t, gap, (obj-opt)*(1-1e-9)-1e-12*opt, "α %v perturbation %v", alpha, scale)
			}
		}
	}
}

// At λ ≥ ZeroLambda the elastic net's solution is zero, and the
// certificate says so (a gap of 0 at Θ = 0), for α > 0.
func TestElasticNetZeroAtLambdaMax(t *testing.T) {
	x, y := regression(42, 50, 8, 1)
	ls := NewLeastSquares(DenseDesign{x}, y)
	pen := penalty.ElasticNet{Alpha: 0.4}
	lmax, _ := LambdaMax(ls, pen)
	p := Problem{Loss: ls, Penalty: pen, Lambda: lmax}
	require.Less(t, Certificate(p, mat.NewDense(8, 1, nil)), 1e-15)
	p.Lambda = 0.9 * lmax
	require.Greater(t, Certificate(p, mat.NewDense(8, 1, nil)), 1e-6)
	res, err := Minimize(p, nil, nil, DefaultMethod(p, Hints{}))
	require.NoError(t, err)
	require.True(t, res.Converged)
	require.Greater(t, mat.Norm(res.Theta, math.Inf(1)), 0.0)
}
