package lsfit

import (
	"math"
	"math/rand/v2"
	"testing"

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
