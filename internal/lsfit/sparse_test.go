package lsfit

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// factorData draws n rows of one factor with k levels (its k−1 dummy
// columns, level 0 the reference, effects in three steps along the levels)
// and two numeric predictors, and the penalty: the factor's block of the
// given type beside a lasso block on the numeric columns.
func factorData(seed uint64, n, k int, typ penalty.BlockType) (*mat.Dense, *mat.Dense, *penalty.Blocks) {
	rng := rand.New(rand.NewPCG(seed, 7))
	p := k - 1 + 2
	x := mat.NewDense(n, p, nil)
	y := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		l := rng.IntN(k)
		if l > 0 {
			x.Set(i, l-1, 1)
		}
		x.Set(i, k-1, rng.NormFloat64())
		x.Set(i, k, rng.NormFloat64())
		y.Set(i, 0, float64(3*l/k)+0.5*x.At(i, k-1)+0.3*rng.NormFloat64())
	}
	rows := make([]int, k-1)
	for j := range rows {
		rows[j] = j
	}
	pen, err := penalty.NewBlocks(p, []penalty.Block{{Type: typ, Rows: rows}, {Type: penalty.LassoBlock, Rows: []int{k - 1, k}}})
	if err != nil {
		panic(err)
	}
	return x, y, pen
}

// A dense design with a factor block of many levels is held sparsely
// (its products O(nnz), no centred n×p copy), and the fit is the one on
// the same design held any other way: both certified by their gaps.
func TestFactorFitSparseLayout(t *testing.T) {
	for _, typ := range []penalty.BlockType{penalty.NominalBlock, penalty.OrdinalBlock} {
		x, y, pen := factorData(5, 1500, 300, typ)
		_, isSparse := factorLayout(solver.DenseDesign{X: x}, pen, nil).(*solver.SparseDesign)
		require.True(t, isSparse, "%v: a one-hot factor design must be held sparsely", typ)
		opts := &fit.Options{Settings: solver.Settings{Tol: 1e-10, MaxIter: 200000}}
		lam := 20.0
		sparse, err := Fit(solver.DenseDesign{X: x}, y, pen, lam, opts)
		require.NoError(t, err)
		cols, err := Fit(solver.ColumnDesign{XT: mat.DenseCopyOf(x.T())}, y, pen, lam, opts)
		require.NoError(t, err)
		require.True(t, sparse.Converged && cols.Converged, "%v: %v %v", typ, sparse.Gap, cols.Gap)
		require.True(t, mat.EqualApprox(sparse.Coef, cols.Coef, 1e-4), "%v:\n%v\n%v", typ, mat.Formatted(sparse.Coef.T()), mat.Formatted(cols.Coef.T()))
		require.InDelta(t, cols.Intercept[0], sparse.Intercept[0], 1e-4)
		require.False(t, math.IsNaN(sparse.Objective))
	}
}
