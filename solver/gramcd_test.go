package solver

import (
	"testing"

	"github.com/cardsparse/cardreg/internal/reference"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// Gram coordinate descent reaches the same fits as coordinate descent on
// the rows, FISTA and the reference, on one or several responses, with and
// without penalty factors, from the Gram form of a design and from
// sufficient statistics alone; its gap is recomputed here independently.
func TestGramCoordinateDescentMatches(t *testing.T) {
	for _, dims := range [][3]int{{80, 20, 1}, {50, 10, 3}, {200, 40, 1}, {17, 17, 2}} {
		x, y := regression(21, dims[0], dims[1], dims[2])
		loss := NewLeastSquares(DenseDesign{x}, y)
		var h mat.SymDense
		DenseDesign{x}.Gram(&h)
		stats := NewGramLeastSquares(&h, loss.Cross(), loss.yy)
		factors := make([]float64, dims[1])
		for k := range factors {
			factors[k] = 0.5 + float64(k%3)
		}
		for _, pen := range []penalty.Penalty{penalty.L1{Nu: 2}, penalty.WeightedL1{Factors: factors}} {
			lmax, _ := LambdaMax(loss, pen)
			for _, frac := range []float64{0.9, 0.3, 0.05, 0.001} {
				prob := Problem{loss, pen, frac * lmax}
				naive, err := Minimize(prob, nil, &Settings{Tol: 1e-13}, CoordinateDescent{})
				require.NoError(t, err)
				// At 0.9·λ_max one sweep reaches the exact optimum, its gap
				// rounds to 0, and the gap-safe rule screened the active
				// coordinate out by the rounding of x_kᵀr (then 20000 sweeps).
				require.True(t, naive.Converged, "%v %T %v: %v", dims, pen, frac, naive.Status)
				for _, l := range []*LeastSquares{loss, stats} {
					prob.Loss = l
					gcd, err := Minimize(prob, nil, &Settings{Tol: 1e-12}, GramCoordinateDescent{})
					require.NoError(t, err)
					require.True(t, gcd.Converged, "%v %v %v", dims, frac, gcd.Status)
					if dims[0] >= 2*dims[1] { // else flat directions (see TestCoordinateDescentMatchesReferenceAndFISTA)
						require.True(t, mat.EqualApprox(naive.Theta, gcd.Theta, 1e-6), "%v %T %v", dims, pen, frac)
					}
					obj := prob.Objective(gcd.Theta)
					require.InDelta(t, obj, gcd.Objective, 1e-9*obj)
					require.InDelta(t, naive.Objective, obj, 1e-9*obj)
					// The reported gap against an independent one: the rows'
					// residual, scaled into the dual ball.
					require.LessOrEqual(t, rowsGap(x, y, gcd.Theta, pen, prob.Lambda), 1e-9)
				}
			}
		}
		if dims[2] == 1 {
			lmax, _ := LambdaMax(loss, penalty.L1{})
			want := reference.LassoCD(x, mat.Col(nil, 0, y), 0.05*lmax, 1e-14)
			gcd, err := Minimize(Problem{loss, penalty.L1{}, 0.05 * lmax}, nil, &Settings{Tol: 1e-12}, GramCoordinateDescent{})
			require.NoError(t, err)
			require.InDeltaSlice(t, want, mat.Col(nil, 0, gcd.Theta), 1e-6)
		}
	}
}

// rowsGap is the relative duality gap of the lasso at theta computed from
// the rows: R = Y − XΘ, the dual point 2sR scaled into h*(·) ≤ λ.
func rowsGap(x, y, theta *mat.Dense, pen penalty.Penalty, lambda float64) float64 {
	var r, g mat.Dense
	r.Mul(x, theta)
	r.Sub(y, &r)
	g.Mul(x.T(), &r)
	g.Scale(2, &g)
	d, _ := penalty.DualNorm(pen, &g)
	s := 1.0
	if d > lambda {
		s = lambda / d
	}
	rr := mat.Norm(&r, 2) * mat.Norm(&r, 2)
	obj := rr + lambda*pen.Value(theta)
	dual := 2*s*frob(&r, y) - s*s*rr
	return (obj - dual) / obj
}

// Warm starts from another λ's solution, and a start with coordinates that
// are zero at the optimum (the screening must zero them and re-certify).
func TestGramCoordinateDescentWarmAndScreening(t *testing.T) {
	x, y := regression(22, 300, 60, 1)
	loss := NewLeastSquares(DenseDesign{x}, y)
	lmax, _ := LambdaMax(loss, penalty.L1{})
	lo, err := Minimize(Problem{loss, penalty.L1{}, 0.01 * lmax}, nil, &Settings{Tol: 1e-12}, GramCoordinateDescent{})
	require.NoError(t, err)
	for _, frac := range []float64{0.7, 0.2} {
		prob := Problem{loss, penalty.L1{}, frac * lmax}
		warm, err := Minimize(prob, lo.Theta, &Settings{Tol: 1e-12}, GramCoordinateDescent{})
		require.NoError(t, err)
		require.True(t, warm.Converged)
		want := reference.LassoCD(x, mat.Col(nil, 0, y), frac*lmax, 1e-14)
		got := mat.Col(nil, 0, warm.Theta)
		for k := range want {
			require.InDelta(t, want[k], got[k], 1e-6, "coordinate %d at %v·λmax", k, frac)
			if want[k] != 0 {
				require.NotZero(t, got[k], "a nonzero coordinate was screened out")
			}
		}
		require.LessOrEqual(t, rowsGap(x, y, warm.Theta, penalty.L1{}, prob.Lambda), 1e-9)
	}
}

func TestGramCoordinateDescentRefuses(t *testing.T) {
	x, y := regression(23, 30, 60, 1) // p > n: no Gram form
	wide := NewLeastSquares(DenseDesign{x}, y)
	_, err := Minimize(Problem{wide, penalty.L1{}, 1}, nil, nil, GramCoordinateDescent{})
	require.ErrorContains(t, err, "Gram form")
	x, y = regression(24, 40, 5, 1)
	loss := NewLeastSquares(rowsOnly{DenseDesign{x}}, y)
	_, err = Minimize(Problem{loss, penalty.L1{}, 1}, nil, nil, GramCoordinateDescent{})
	require.ErrorContains(t, err, "Gram form")
	loss = NewLeastSquares(DenseDesign{x}, y)
	_, err = Minimize(Problem{loss, penalty.Cardinality{}, 1}, nil, nil, GramCoordinateDescent{})
	require.ErrorContains(t, err, "L1")
	_, err = Minimize(Problem{loss, penalty.L1{}, 0}, nil, nil, GramCoordinateDescent{})
	require.ErrorContains(t, err, "λ > 0")
	res, err := Minimize(Problem{loss, penalty.L1{}, 0.01}, nil, &Settings{MaxIter: 1, Tol: 1e-15}, GramCoordinateDescent{})
	require.NoError(t, err)
	require.False(t, res.Converged)
	require.Equal(t, IterationLimit, res.Status)
}
