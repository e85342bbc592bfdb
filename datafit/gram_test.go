package datafit

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// The Gram form of the projected Newton model, summed row by row over the
// sparse columns, equals X̃ᵀX̃ of the model's design formed densely by its
// products, with the intercept and an unpenalised column projected out,
// and a dense column of few non-zeros among the rows' entries.
func TestGramDesignMatchesProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 2))
	const n, k = 800, 20
	x, y := mat.NewDense(n, k+3, nil), make([]float64, n)
	for i := range n {
		if l := rng.IntN(k + 1); l < k {
			x.Set(i, l, 1)
		}
		if rng.Float64() < 0.05 {
			x.Set(i, (i+3)%k, 2.5) // a second entry in some rows
		}
		x.Set(i, k, rng.NormFloat64())
		if rng.Float64() < 0.2 {
			x.Set(i, k+1, 1.5) // dense in the loss, indexed by rows in the Gram
		}
		x.Set(i, k+2, rng.NormFloat64())
		y[i] = float64(rng.IntN(3))
	}
	l, err := NewLoss(Poisson{}, &Data{X: x, Y: y, Unpenalized: []int{k + 2}})
	require.NoError(t, err)
	require.True(t, l.gramModel())
	beta := mat.NewDense(k+2, 1, nil)
	for a := range k + 2 {
		beta.Set(a, 0, 0.1*rng.NormFloat64())
	}
	q, err := l.Quadratic(beta)
	require.NoError(t, err)
	got := q.Gram()
	require.NotNil(t, got)
	// The same model formed densely (every column held dense).
	dl, err := NewLoss(Poisson{}, &Data{X: x, Y: y, Unpenalized: []int{k + 2}})
	require.NoError(t, err)
	densify(dl)
	require.False(t, dl.gramModel())
	dq, err := dl.Quadratic(beta)
	require.NoError(t, err)
	want := dq.Gram()
	require.True(t, mat.EqualApprox(got, want, 1e-9), "%v\n%v", mat.Formatted(got), mat.Formatted(want))
	require.True(t, mat.EqualApprox(q.Cross(), dq.Cross(), 1e-9))
	require.InDelta(t, dq.Eval(nil, beta), q.Eval(nil, beta), 1e-8)
}

// With sparse columns the Lipschitz bound comes from power iteration on
// the projected design's products; it equals the bound of the same loss
// with every column dense (the dense n×m form) to the iteration's
// accuracy.
func TestProjectedLipschitz(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 3))
	const n, k = 600, 30
	x, y := mat.NewDense(n, k+1, nil), make([]float64, n)
	w := make([]float64, n)
	for i := range n {
		x.Set(i, rng.IntN(k), 1)
		x.Set(i, k, 2+rng.NormFloat64())
		y[i], w[i] = float64(rng.IntN(2)), 0.5+rng.Float64()
	}
	for _, intercept := range []bool{true, false} {
		l, err := NewLoss(Binomial{}, &Data{X: x, Y: y, Weights: w, NoIntercept: !intercept})
		require.NoError(t, err)
		require.True(t, l.sparseColumns())
		dl, err := NewLoss(Binomial{}, &Data{X: x, Y: y, Weights: w, NoIntercept: !intercept})
		require.NoError(t, err)
		densify(dl)
		require.False(t, dl.sparseColumns())
		require.InEpsilon(t, dl.Lipschitz(), l.Lipschitz(), 1e-6, "intercept %v", intercept)
	}
}
