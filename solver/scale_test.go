package solver

import (
	"fmt"
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// The stopping criteria are relative: data multiplied by a (X) and b (Y),
// with λ·a·b, give the solution (b/a)·Θ. The residual criteria (FISTA
// without a dual norm or at λ = 0, and ADMM) used absolute floors that
// declared convergence at once when Θ was small.
func TestStoppingIsScaleFree(t *testing.T) {
	x, y := regression(21, 60, 6, 1)
	gen, err := penalty.NewGeneral(penalty.AllPairs(6), 6, 1)
	require.NoError(t, err)
	for _, sc := range [][2]float64{{1, 1e-10}, {1e5, 1e-5}, {1e-4, 1}} {
		a, b := sc[0], sc[1]
		var xs, ys mat.Dense
		xs.Scale(a, x)
		ys.Scale(b, y)
		for _, c := range []struct {
			name string
			pen  penalty.Penalty
			lam  float64 // at a = b = 1
			deg  int
			m    Method
		}{
			{"ridge, FISTA residual", penalty.Ridge{}, 3, 2, nil},
			{"least squares, FISTA residual", penalty.L1{}, 0, 1, nil},
			{"general G, FISTA residual", gen, 20, 1, nil},
			{"general G, ADMM", gen, 20, 1, &ADMM{}},
		} {
			msg := fmt.Sprintf("%s a=%g b=%g", c.name, a, b)
			set := &Settings{Tol: 1e-10, MaxIter: 200000}
			ref, err := Minimize(Problem{NewLeastSquares(DenseDesign{x}, y), c.pen, c.lam}, nil, set, c.m)
			require.NoError(t, err)
			require.True(t, ref.Converged, msg)
			lam := c.lam * a * b
			if c.deg == 2 {
				lam = c.lam * a * a
			}
			res, err := Minimize(Problem{NewLeastSquares(DenseDesign{&xs}, &ys), c.pen, lam}, nil, set, c.m)
			require.NoError(t, err)
			require.True(t, res.Converged, msg)
			var back mat.Dense
			back.Scale(a/b, res.Theta)
			require.True(t, mat.EqualApprox(ref.Theta, &back, 1e-6*mat.Norm(ref.Theta, 2)),
				"%s:\n%v\n%v", msg, mat.Formatted(ref.Theta.T()), mat.Formatted(back.T()))
		}
	}
}
