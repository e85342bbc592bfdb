package solver

import (
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestInnerSolvesAreNotStallStopped: at λ = 1e-300 the duality gap
// certifies nothing and the objective stops moving, so an outer solve
// stops with status Stalled; an inner solve (proximal Newton's model)
// did too, which changed the outer method's whole path and stopped
// near-collinear binomial lasso fits that converged before. Now an inner
// solve runs to its tolerance or MaxIter (coordinate descent here; FISTA
// converges on this problem).
func TestInnerSolvesAreNotStallStopped(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 1))
	x, y := mat.NewDense(160, 5, nil), mat.NewDense(160, 1, nil)
	for i := range 160 {
		for j := range 5 {
			x.Set(i, j, r.NormFloat64())
		}
		y.Set(i, 0, x.At(i, 0)-x.At(i, 2)+r.NormFloat64())
	}
	p := Problem{Loss: NewLeastSquares(DenseDesign{X: x}, y), Penalty: penalty.L1{}, Lambda: 1e-300}
	const maxIter = 3000
	for _, m := range []Method{CoordinateDescent{}} {
		outer, err := Minimize(p, nil, &Settings{MaxIter: maxIter}, m)
		require.NoError(t, err)
		require.Equal(t, Stalled, outer.Status, "%T outer", m)
		require.Less(t, outer.Iterations, maxIter, "%T outer", m)
		inner, err := Minimize(p, nil, &Settings{MaxIter: maxIter, inner: true}, m)
		require.NoError(t, err)
		require.Equal(t, IterationLimit, inner.Status, "%T inner", m)
		require.Equal(t, maxIter, inner.Iterations, "%T inner", m)
	}
}
