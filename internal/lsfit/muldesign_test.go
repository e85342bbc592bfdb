package lsfit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// mulDesign equals gonum's product (1e-13 relative to Σ|x_ij·b_j|) for a
// dense design with one column of b, written into a contiguous column or a
// strided one, and falls back to the design's Mul for two columns.
func TestMulDesignMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, dims := range [][2]int{{7, 3}, {600, 500}, {1200, 301}} {
		n, p := dims[0], dims[1]
		x := mat.NewDense(n, p, nil)
		for i := range n {
			for j := range p {
				x.Set(i, j, rng.NormFloat64())
			}
		}
		for _, q := range []int{1, 2} {
			b := mat.NewDense(p, q, nil)
			for i := range p {
				for j := range q {
					b.Set(i, j, rng.NormFloat64())
				}
			}
			var want mat.Dense
			want.Mul(x, b)
			wide := mat.NewDense(n, q+1, nil)
			for _, dst := range []*mat.Dense{mat.NewDense(n, q, nil), wide.Slice(0, n, 1, q+1).(*mat.Dense)} {
				mulDesign(dst, solver.DenseDesign{X: x}, b)
				for i := range n {
					for j := range q {
						var scale float64
						for k := range p {
							scale += math.Abs(x.At(i, k) * b.At(k, j))
						}
						require.InDelta(t, want.At(i, j), dst.At(i, j), 1e-13*scale, "%v q=%d (%d,%d)", dims, q, i, j)
					}
				}
			}
		}
	}
}

// columnMaxAbsFinite gives columnMaxAbs's sizes on finite data (signed
// zeros, subnormals, the largest double included) and refuses ±Inf and
// NaN wherever they are, the first row and the last column too; Fit,
// FitPath and CrossValidate refuse such a design with its place.
func TestColumnMaxAbsFinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	x := mat.NewDense(40, 5, nil)
	for i := range 40 {
		for j := range 5 {
			x.Set(i, j, rng.NormFloat64()*math.Pow(10, float64(rng.IntN(40)-20)))
		}
	}
	x.Set(3, 0, math.Copysign(0, -1))
	x.Set(5, 1, -math.MaxFloat64)
	x.Set(6, 2, 5e-324)
	got, ok := columnMaxAbsFinite(x)
	require.True(t, ok)
	require.Equal(t, columnMaxAbs(x), got)
	for _, bad := range []float64{math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN()} {
		for _, at := range [][2]int{{0, 0}, {39, 4}, {17, 2}} {
			y := mat.DenseCopyOf(x)
			y.Set(at[0], at[1], bad)
			_, ok := columnMaxAbsFinite(y)
			require.False(t, ok, "%v at %v", bad, at)
			resp := mat.NewDense(40, 1, nil)
			_, err := Fit(solver.DenseDesign{X: y}, resp, penalty.Cardinality{Nu: 1}, 1, &fit.Options{Standardize: at[1] == 4})
			require.ErrorContains(t, err, fmt.Sprintf("row %d, column %d", at[0]+1, at[1]+1), "%v at %v", bad, at)
			_, err = FitPath(solver.DenseDesign{X: y}, resp, penalty.L1{}, nil)
			require.ErrorContains(t, err, "non-finite value", "%v at %v", bad, at)
		}
	}
}
