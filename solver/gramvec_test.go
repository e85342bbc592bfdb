package solver

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
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

// fullView fills the lower triangle from the upper one on h's own storage,
// for sizes around the tile and a stride wider than p.
func TestFullView(t *testing.T) {
	for _, p := range []int{1, 5, 63, 64, 65, 200} {
		for _, pad := range []int{0, 3} {
			s := p + pad
			data := make([]float64, (p-1)*s+p)
			for i := range data {
				data[i] = -1 // the lower triangle's old contents
			}
			for i := range p {
				for j := i; j < p; j++ {
					data[i*s+j] = float64(1000*i + j)
				}
			}
			var h mat.SymDense
			h.SetRawSymmetric(blas64.Symmetric{N: p, Stride: s, Uplo: blas.Upper, Data: data})
			full := fullView(&h)
			for i := range p {
				for j := range p {
					require.Equal(t, float64(1000*min(i, j)+max(i, j)), full.At(i, j), "p=%d pad=%d (%d,%d)", p, pad, i, j)
				}
			}
			full.Set(p-1, 0, 7) // the same storage
			require.Equal(t, 7.0, data[(p-1)*s])
		}
	}
}
