package solver_test

import (
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// passLoss presents a deviance held in memory as a solver.PassNewtoner,
// counting the passes proximal Newton asks for. The intercept is
// profiled by the deviance itself, so there is nothing free to move.
type passLoss struct {
	l      *datafit.Loss
	passes int
}

func (p *passLoss) Dims() (int, int)                               { return p.l.Dims() }
func (p *passLoss) Eval(grad *mat.Dense, theta mat.Matrix) float64 { return p.l.Eval(grad, theta) }
func (p *passLoss) Lipschitz() float64                             { return 0 }
func (p *passLoss) Step(float64)                                   {}
func (p *passLoss) FreeOptimal() bool                              { return true }

func (p *passLoss) ModelPass(theta, grad *mat.Dense) (float64, *solver.LeastSquares, error) {
	p.passes++
	f := p.l.Eval(grad, theta)
	q, err := p.l.Quadratic(theta)
	return f, q, err
}

func (p *passLoss) LinePass(theta, next *mat.Dense, ts, scales []float64) ([]float64, []float64, float64, error) {
	p.passes++
	f := make([]float64, len(ts))
	for k, t := range ts {
		var c mat.Dense
		c.Sub(next, theta)
		c.Scale(t, &c)
		c.Add(theta, &c)
		f[k] = p.l.Eval(nil, &c)
	}
	duals := make([]float64, len(scales))
	for k, s := range scales {
		duals[k] = p.l.Dual(theta, p.l.Eval(nil, theta), s)
	}
	return f, duals, 0, nil
}

// TestProxNewtonPasses: on a loss read by passes, proximal Newton takes
// two passes per step (model; line search with the certificate) and
// reaches the solution it finds in memory, certified, for norms and for
// the elastic net (its conjugate's certificate).
func TestProxNewtonPasses(t *testing.T) {
	loss, err := datafit.NewLoss(datafit.Poisson{}, poissonData(4, 300, 6))
	require.NoError(t, err)
	// The elastic net (ridge too) is certified by its conjugate.
	for _, pen := range []penalty.Penalty{penalty.L1{}, penalty.Cardinality{Nu: 1}, penalty.ElasticNet{Alpha: 0.5}, penalty.ElasticNet{}} {
		lmax, ok := solver.LambdaMax(loss, pen)
		require.True(t, ok)
		set := &solver.Settings{Tol: 1e-9}
		pl := &passLoss{l: loss}
		got, err := solver.Minimize(solver.Problem{Loss: pl, Penalty: pen, Lambda: 0.1 * lmax}, nil, set, &solver.ProxNewton{})
		require.NoError(t, err)
		require.True(t, got.Converged, "%T: %v", pen, got.Status)
		require.LessOrEqual(t, got.Gap, 1e-9)
		require.Equal(t, 2*got.Iterations, pl.passes, "%T", pen)
		want, err := solver.Minimize(solver.Problem{Loss: loss, Penalty: pen, Lambda: 0.1 * lmax}, nil, &solver.Settings{Tol: 1e-12}, &solver.ProxNewton{})
		require.NoError(t, err)
		for j := range 6 {
			require.InDelta(t, want.Theta.At(j, 0), got.Theta.At(j, 0), 1e-5, "%T coefficient %d", pen, j)
		}
	}
}

// poissonData draws counts of a log-linear model of p standard normal
// predictors.
func poissonData(seed uint64, n, p int) *datafit.Data {
	d := logistic(seed, n, p)
	for i := range n {
		eta := 0.3
		for j := range 3 {
			v := d.X.At(i, j+1)
			eta += 0.4 * v
		}
		d.Y[i] = float64(int(2*eta*eta + float64(i%3)))
	}
	return d
}
