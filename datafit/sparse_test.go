package datafit

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// A factor's dummy columns are indexed by their non-zero rows; the loss's
// value and gradient must be those of the same loss without the index, and
// the gradient that of central differences of the value. A restriction
// keeps each column's own index.
func TestSparseColumnsMatchDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	const n, k = 400, 40
	x := mat.NewDense(n, k+1, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		l := rng.IntN(k + 1)
		if l < k {
			x.Set(i, l, 1)
		}
		x.Set(i, k, rng.NormFloat64())
		y[i] = float64(rng.IntN(4))
	}
	for _, fam := range []Family{Poisson{}, Gaussian{}} {
		sparse, err := NewLoss(fam, &Data{X: x, Y: y})
		require.NoError(t, err)
		require.NotNil(t, sparse.nz[0], "a dummy column is indexed")
		require.Nil(t, sparse.nz[k], "a numeric column is not")
		dense, err := NewLoss(fam, &Data{X: x, Y: y})
		require.NoError(t, err)
		dense.nz = make([][]int32, len(dense.nz))
		beta := mat.NewDense(k+1, 1, nil)
		for a := 0; a <= k; a++ {
			beta.Set(a, 0, 0.3*rng.NormFloat64())
		}
		var gs, gd mat.Dense
		fs, fd := sparse.Eval(&gs, beta), dense.Eval(&gd, beta)
		require.InDelta(t, fd, fs, 1e-10*math.Abs(fd))
		require.True(t, mat.EqualApprox(&gs, &gd, 1e-10))
		for _, a := range []int{0, 7, k} {
			h := 1e-6
			bp, bm := mat.DenseCopyOf(beta), mat.DenseCopyOf(beta)
			bp.Set(a, 0, beta.At(a, 0)+h)
			bm.Set(a, 0, beta.At(a, 0)-h)
			fdiff := (sparse.Eval(nil, bp) - sparse.Eval(nil, bm)) / (2 * h)
			require.InDelta(t, fdiff, gs.At(a, 0), 1e-5*(1+math.Abs(fdiff)), "%s column %d", fam.Name(), a)
		}
		keep := []int{k, 3, 0}
		r := sparse.Restrict(keep).(*Loss)
		rb := mat.NewDense(3, 1, []float64{beta.At(k, 0), beta.At(3, 0), beta.At(0, 0)})
		full := mat.NewDense(k+1, 1, nil)
		for t2, a := range keep {
			full.Set(a, 0, rb.At(t2, 0))
		}
		require.InDelta(t, dense.Eval(nil, full), r.Eval(nil, rb), 1e-10*math.Abs(fd))
	}
}

// With a factor of 1000 levels a gradient costs O(n) through the index,
// not O(n·K): 50 evaluations took about 0.2 s over the dense columns.
func TestSparseColumnsFast(t *testing.T) {
	rng := rand.New(rand.NewPCG(63, 64))
	const n, k = 4000, 1000
	x := mat.NewDense(n, k, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		x.Set(i, i%k, 1)
		y[i] = float64(rng.IntN(4))
	}
	l, err := NewLoss(Poisson{}, &Data{X: x, Y: y})
	require.NoError(t, err)
	beta := mat.NewDense(k, 1, nil)
	var g mat.Dense
	start := time.Now()
	for it := 0; it < 50; it++ {
		beta.Set(it%k, 0, 0.01*float64(it+1)) // a new point each time
		l.Eval(&g, beta)
	}
	require.Less(t, time.Since(start), 40*time.Millisecond)
}
