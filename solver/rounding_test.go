package solver

import (
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// roundedLS is a least-squares loss whose rows claim a gradient rounding
// of r each (GradientRounder).
type roundedLS struct {
	*LeastSquares
	x *mat.Dense
	r float64
}

func (l roundedLS) GradientRounding(_ mat.Matrix, f func(x []float64, r float64)) {
	n, _ := l.x.Dims()
	for i := range n {
		f(mat.Row(nil, i, l.x), l.r)
	}
}

// stalls is a method that stops at once, stalled, at its start.
type stalls struct{}

func (stalls) Minimize(p Problem, init mat.Matrix, _ Settings) (*Result, error) {
	r, c := p.Loss.Dims()
	x := mat.NewDense(r, c, nil)
	if init != nil {
		x.Copy(init)
	}
	return &Result{Theta: x, Status: Stalled}, nil
}

// TestStallBelowRounding: a stall at a λ below the dual norm of the
// gradient's rounding error (RoundingLambda: Σ rᵢ‖xᵢ‖_*) was reported as
// "stalled … (badly scaled problem?)", with nothing to say which λ could
// be certified; now its status is Uncertifiable with that λ. A stall above
// it, or of a loss that does not bound its rounding, stays Stalled.
func TestStallBelowRounding(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, -2, 0.5, 0, -1, 1})
	ls := NewLeastSquares(DenseDesign{X: x}, mat.NewDense(3, 1, []float64{1, 2, 3}))
	loss := roundedLS{ls, x, 0.25}
	want := 0.25 * (2 + 0.5 + 1) // Σ r‖xᵢ‖∞, the lasso's dual norm
	for _, c := range []struct {
		loss   Loss
		lambda float64
		status Status
		lr     float64
	}{
		{loss, 0.5, Uncertifiable, want},
		{loss, 2 * want, Stalled, 0},
		{ls, 0.5, Stalled, 0},
	} {
		res, err := Minimize(Problem{Loss: c.loss, Penalty: penalty.L1{}, Lambda: c.lambda}, nil, nil, stalls{})
		require.NoError(t, err)
		require.Equal(t, c.status, res.Status, "λ %v", c.lambda)
		require.InDelta(t, c.lr, res.RoundingLambda, 1e-15, "λ %v", c.lambda)
	}
	require.Contains(t, Uncertifiable.String(), "cannot be certified below the gradient's rounding")
}

// TestBelowRounding: the streamed line search takes a full Newton step
// whose predicted decrease is below the objective's rounding when it does
// not raise the objective beyond that rounding (a step of the intercept
// at an objective of 7.5e16); a step predicted to gain more, or raising
// the objective beyond rounding, is judged by the comparison as before.
func TestBelowRounding(t *testing.T) {
	cur := 7.5e16
	require.True(t, belowRounding(cur+4, cur, -1e-4))
	require.True(t, belowRounding(cur-8, cur, -1e-4))
	require.False(t, belowRounding(cur+1e5, cur, -1e-4))
	require.False(t, belowRounding(cur, cur, -1e5))
}
