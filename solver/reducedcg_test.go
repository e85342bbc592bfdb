package solver

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// factorDesign returns n rows of the k−1 dummy columns of a factor with k
// levels (row i at level i mod k, level 0 the reference) beside one
// numeric column, and a response.
func factorDesign(rng *rand.Rand, n, k int) (*mat.Dense, *mat.Dense) {
	x := mat.NewDense(n, k, nil)
	y := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		if l := i % k; l > 0 {
			x.Set(i, l-1, 1)
		}
		x.Set(i, k-1, rng.NormFloat64())
		y.Set(i, 0, float64(i%k%5)+rng.NormFloat64())
	}
	return x, y
}

// randPiece draws a piece of p rows: random clusters (a random
// partition of a random subset of the rows) with random slopes.
func randPiece(rng *rand.Rand, p int) penalty.Piece {
	var pc penalty.Piece
	perm := rng.Perm(p)
	for s := 0; s < p; {
		e := min(p, s+1+rng.IntN(4))
		if rng.IntN(5) > 0 {
			pc.Clusters = append(pc.Clusters, perm[s:e])
			pc.Slopes = append(pc.Slopes, 4*rng.Float64()-2)
		}
		s = e
	}
	return pc
}

// Polish's two solves of the reduced normal equations, the dense Cholesky
// factor and conjugate gradients, must give the same point, on a design
// held by rows, by columns and in Gram form, for general and for one-hot
// designs.
func TestPolishConjugateGradientsMatchDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	defer func(m int) { denseReducedMax = m }(denseReducedMax)
	for trial := 0; trial < 24; trial++ {
		var x, y *mat.Dense
		if trial%2 == 0 {
			x, y = factorDesign(rng, 90, 25)
		} else {
			x, y = regression(uint64(trial), 70, 20, 1)
		}
		_, p := x.Dims()
		pc := randPiece(rng, p)
		lam := 5 * rng.Float64()
		var design Design = DenseDesign{x}
		if trial%3 == 1 {
			design = ColumnDesign{XT: mat.DenseCopyOf(x.T())}
		}
		solve := func(limit int) *mat.Dense {
			denseReducedMax = limit
			ls := NewLeastSquares(design, y)
			if trial%3 == 2 {
				ls.gram()
			}
			dst := mat.NewDense(p, 1, nil)
			require.True(t, ls.Polish(dst, []penalty.Piece{pc}, lam), "trial %d limit %d", trial, limit)
			return dst
		}
		dense, cg := solve(1000), solve(0)
		scale := 1e-8 * (1 + mat.Norm(dense, math.Inf(1)))
		require.True(t, mat.EqualApprox(dense, cg, scale), "trial %d:\ndense %v\ncg    %v", trial, mat.Formatted(dense.T()), mat.Formatted(cg.T()))
	}
}

// Polishing a factor with thousands of clusters must not form the
// nc×nc reduced matrix or the n×nc cluster columns (each 32 MB here, and
// n·nc² = 8·10⁹ operations to form the first): its memory is O(n + p).
func TestPolishManyClustersLinearMemory(t *testing.T) {
	rng := rand.New(rand.NewPCG(83, 84))
	const k = 2000
	x, y := factorDesign(rng, 2*k, k)
	ls := NewLeastSquares(DenseDesign{x}, y)
	var pc penalty.Piece
	for i := 0; i < k; i++ {
		pc.Clusters = append(pc.Clusters, []int{i})
		pc.Slopes = append(pc.Slopes, 0.1*rng.NormFloat64())
	}
	dst := mat.NewDense(k, 1, nil)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	require.True(t, ls.Polish(dst, []penalty.Piece{pc}, 1))
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	require.Less(t, alloc, uint64(8<<20), "Polish allocated %d MB", alloc>>20)
	// The answer satisfies its normal equations: Dᵀ(c − XᵀXθ) = (λ/2)·slopes
	// with D = I here.
	var r, g mat.Dense
	r.Mul(x, dst)
	r.Sub(y, &r)
	g.Mul(x.T(), &r)
	for c := range pc.Clusters {
		require.InDelta(t, 0.5*pc.Slopes[c], g.At(c, 0), 1e-6, "cluster %d", c)
	}
}

// Fewer clusters than denseReducedMax on many rows: forming the reduced
// matrix from the rows costs n·nc² (5.4·10⁸ here, and the n×nc cluster
// columns, 14 MB) on a sparse design without a Gram form, which
// denseReducedWork sends to conjugate gradients.
func TestPolishManyRowsNoDenseReduced(t *testing.T) {
	rng := rand.New(rand.NewPCG(85, 86))
	const n, k = 6000, 300
	x, y := factorDesign(rng, n, k)
	sd := SparseOf(x, 1.0/16)
	require.NotNil(t, sd)
	ls := NewLeastSquares(sd, y) // no Gram form: the reduced matrix comes from the rows
	require.True(t, ls.gram() == nil)
	var pc penalty.Piece
	for i := 0; i < k; i++ {
		pc.Clusters = append(pc.Clusters, []int{i})
		pc.Slopes = append(pc.Slopes, 0.1*rng.NormFloat64())
	}
	dst := mat.NewDense(k, 1, nil)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	require.True(t, ls.Polish(dst, []penalty.Piece{pc}, 1))
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	require.Less(t, alloc, uint64(8<<20), "Polish allocated %d MB", alloc>>20)
	var r, g mat.Dense
	r.Mul(x, dst)
	r.Sub(y, &r)
	g.Mul(x.T(), &r)
	for c := range pc.Clusters {
		require.InDelta(t, 0.5*pc.Slopes[c], g.At(c, 0), 1e-6, "cluster %d", c)
	}
}
