package datafit

import (
	"github.com/cardsparse/cardreg/design"
	"math"
	"math/rand/v2"
	"testing"

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
		require.False(t, sparse.xp[0].IsDense(), "a dummy column is held sparse")
		require.True(t, sparse.xp[k].IsDense(), "a numeric column is not")
		dense, err := NewLoss(fam, &Data{X: x, Y: y})
		require.NoError(t, err)
		densify(dense)
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

// A dummy column non-zero on few rows is read through the index of its
// non-zero rows (held sparse), so a gradient costs O(nnz), not O(n), per
// column: every one of the k columns here is indexed by exactly its n/k
// rows. BenchmarkSparseColumns times the indexed gradient against the
// same loss without the index.
func TestSparseColumnsIndexed(t *testing.T) {
	x, y := sparseColumnsData(4000, 1000)
	l, err := NewLoss(Poisson{}, &Data{X: x, Y: y})
	require.NoError(t, err)
	require.Len(t, l.xp, 1000)
	for j, c := range l.xp {
		require.Len(t, c.Rows, 4, "column %d", j)
		for _, i := range c.Rows {
			require.Equal(t, j, int(i)%1000, "column %d row %d", j, i)
		}
	}
}

// sparseColumnsData is n rows of k dummy columns, row i holding a 1 in
// column i mod k, and a count response.
func sparseColumnsData(n, k int) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(63, 64))
	x := mat.NewDense(n, k, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		x.Set(i, i%k, 1)
		y[i] = float64(rng.IntN(4))
	}
	return x, y
}

// BenchmarkSparseColumns: a Poisson gradient over 1000 dummy columns of
// 4000 rows, with the index of their non-zero rows and without it.
func BenchmarkSparseColumns(b *testing.B) {
	x, y := sparseColumnsData(4000, 1000)
	for _, indexed := range []bool{true, false} {
		name := map[bool]string{true: "indexed", false: "dense"}[indexed]
		b.Run(name, func(b *testing.B) {
			l, err := NewLoss(Poisson{}, &Data{X: x, Y: y})
			require.NoError(b, err)
			if !indexed {
				densify(l)
			}
			beta := mat.NewDense(1000, 1, nil)
			var g mat.Dense
			for it := 0; b.Loop(); it++ {
				beta.Set(it%1000, 0, 0.01*float64(it%100+1)) // a new point each time
				l.Eval(&g, beta)
			}
		})
	}
}

// The proximal Newton model of a loss with many indexed (factor) columns
// keeps them sparse, the projection off the intercept and the unpenalised
// columns applied in the products: it must be the dense model's least
// squares (same value and gradient at any point), and not a Gram form.
func TestSparseNewtonModelMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(65, 66))
	const n, k = 1500, 300
	x := mat.NewDense(n, k+1, nil)
	y := make([]float64, n)
	w := make([]float64, n)
	for i := 0; i < n; i++ {
		if l := rng.IntN(k + 1); l < k {
			x.Set(i, l, 1)
		}
		x.Set(i, k, rng.NormFloat64())
		y[i] = float64(rng.IntN(5))
		w[i] = 0.5 + rng.Float64()
	}
	for _, fam := range []Family{Poisson{}, Gaussian{}} {
		d := &Data{X: x, Y: y, Weights: w, Unpenalized: []int{k}}
		sparse, err := NewLoss(fam, d)
		require.NoError(t, err)
		dense, err := NewLoss(fam, d)
		require.NoError(t, err)
		densify(dense)
		beta := mat.NewDense(k, 1, nil)
		for a := 0; a < k; a++ {
			beta.Set(a, 0, 0.2*rng.NormFloat64())
		}
		qs, err := sparse.Quadratic(beta)
		require.NoError(t, err)
		qd, err := dense.Quadratic(beta)
		require.NoError(t, err)
		require.Nil(t, qs.Gram(), "%s: the sparse model has no k×k Gram form", fam.Name())
		for trial := 0; trial < 3; trial++ {
			th := mat.NewDense(k, 1, nil)
			for a := 0; a < k; a++ {
				th.Set(a, 0, rng.NormFloat64())
			}
			var gs, gd mat.Dense
			fs, fd := qs.Eval(&gs, th), qd.Eval(&gd, th)
			require.InDelta(t, fd, fs, 1e-9*(1+math.Abs(fd)), fam.Name())
			require.True(t, mat.EqualApprox(&gs, &gd, 1e-8*(1+mat.Norm(&gd, math.Inf(1)))), fam.Name())
		}
	}
}

// densify holds every penalised column of l dense.
func densify(l *Loss) {
	for a, c := range l.xp {
		l.xp[a] = design.Column{Dense: c.Values(make([]float64, len(l.y)))}
	}
}
