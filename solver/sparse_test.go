package solver

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// SparseDesign's products and row selection must equal the
// dense matrix's (gonum's products are the reference).
func TestSparseDesignMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(91, 92))
	for trial := 0; trial < 20; trial++ {
		n, p, q := 1+rng.IntN(30), 1+rng.IntN(20), 1+rng.IntN(3)
		x := mat.NewDense(n, p, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				if rng.IntN(4) == 0 {
					x.Set(i, j, rng.NormFloat64())
				}
			}
		}
		s := SparseOf(x, 1)
		require.NotNil(t, s)
		b := mat.NewDense(p, q, nil)
		r := mat.NewDense(n, q, nil)
		for i := range b.RawMatrix().Data {
			b.RawMatrix().Data[i] = rng.NormFloat64()
		}
		for i := range r.RawMatrix().Data {
			r.RawMatrix().Data[i] = rng.NormFloat64()
		}
		var got, want mat.Dense
		s.Mul(&got, b)
		want.Mul(x, b)
		require.True(t, mat.EqualApprox(&got, &want, 1e-12), "Mul, trial %d", trial)
		got.Reset()
		want.Reset()
		s.MulTrans(&got, r)
		want.Mul(x.T(), r)
		require.True(t, mat.EqualApprox(&got, &want, 1e-12), "MulTrans, trial %d", trial)
		rows := []int{n - 1, 0, n / 2}
		sub := s.SelectRows(rows)
		got.Reset()
		sub.Mul(&got, b)
		for t2, i := range rows {
			var w mat.VecDense
			w.MulVec(b.T(), x.RowView(i))
			for j := 0; j < q; j++ {
				require.InDelta(t, w.AtVec(j), got.At(t2, j), 1e-12)
			}
		}
	}
}

// SparseOf refuses a matrix denser than asked.
func TestSparseOfDensity(t *testing.T) {
	x := mat.NewDense(4, 4, []float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1})
	require.NotNil(t, SparseOf(x, 0.25))
	require.Nil(t, SparseOf(x, 0.2))
}
