package solver

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// mulGram equals gonum's product H·Θ (1e-13 relative to Σ|H_ij·Θ_jk|) for
// one, a few and many columns, contiguous or strided (a column of a wider
// matrix), and a VecDense, on both sides of gramVecMin.
func TestMulGramMatchesGonum(t *testing.T) {
	for _, p := range []int{7, 64, 130, 600} {
		x, _ := regression(21, p+40, p, 1)
		ls := NewLeastSquares(DenseDesign{X: x}, mat.NewDense(p+40, 1, nil))
		h := ls.Gram()
		wide, _ := regression(22, p, 9, 1)
		cases := map[string]mat.Matrix{
			"one column":   wide.Slice(0, p, 0, 1).(*mat.Dense).ColView(0),
			"strided":      wide.Slice(0, p, 3, 4),
			"contiguous":   mat.DenseCopyOf(wide.Slice(0, p, 4, 5)),
			"three":        wide.Slice(0, p, 1, 4),
			"many columns": wide,
		}
		for name, theta := range cases {
			var got, want mat.Dense
			ls.mulGram(&got, theta)
			want.Mul(h, theta)
			_, q := theta.Dims()
			for i := range p {
				for k := range q {
					var scale float64
					for j := range p {
						scale += math.Abs(h.At(i, j) * theta.At(j, k))
					}
					require.InDelta(t, want.At(i, k), got.At(i, k), 1e-13*scale, "p=%d %s (%d,%d)", p, name, i, k)
				}
			}
		}
		require.Panics(t, func() { ls.mulGram(mat.NewDense(p, 2, nil), wide.Slice(0, p, 0, 1)) }, "p=%d: a wrongly sized dst", p)
	}
}
