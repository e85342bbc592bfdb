package tensorreg

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func randTensor(rng *rand.Rand, shape ...int) *Tensor {
	t := NewTensor(shape, nil)
	for i := range t.Data {
		t.Data[i] = rng.NormFloat64()
	}
	return t
}

func TestUnfoldFoldAgainstLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randTensor(rng, 2, 3, 4)
	for n := 0; n < 3; n++ {
		u := Unfold(x, n)
		// Naive: fiber along mode n at the other indices, columns in
		// row-major order of the remaining indices.
		col := 0
		for a := 0; a < 2; a++ {
			for b := 0; b < 3; b++ {
				for c := 0; c < 4; c++ {
					idx := []int{a, b, c}
					if idx[n] != 0 {
						continue
					}
					for i := 0; i < x.Shape[n]; i++ {
						idx[n] = i
						require.Equal(t, x.At(idx...), u.At(i, col))
					}
					col++
				}
			}
		}
		require.Equal(t, x.Data, Fold(u, n, x.Shape).Data)
	}
}

func TestModeProductAgainstLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	x := randTensor(rng, 3, 4, 2)
	m := mat.NewDense(5, 4, nil)
	for i := 0; i < 5; i++ {
		for j := 0; j < 4; j++ {
			m.Set(i, j, rng.NormFloat64())
		}
	}
	y := ModeProduct(x, m, 1)
	require.Equal(t, []int{3, 5, 2}, y.Shape)
	for a := 0; a < 3; a++ {
		for j := 0; j < 5; j++ {
			for c := 0; c < 2; c++ {
				var s float64
				for b := 0; b < 4; b++ {
					s += m.At(j, b) * x.At(a, b, c)
				}
				require.InDelta(t, s, y.At(a, j, c), 1e-12)
			}
		}
	}
}

func TestContractAgainstLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	x := randTensor(rng, 4, 2, 3)
	b := randTensor(rng, 2, 3, 2, 2)
	y := Contract(x, b, 2)
	require.Equal(t, []int{4, 2, 2}, y.Shape)
	for n := 0; n < 4; n++ {
		for q1 := 0; q1 < 2; q1++ {
			for q2 := 0; q2 < 2; q2++ {
				var s float64
				for p1 := 0; p1 < 2; p1++ {
					for p2 := 0; p2 < 3; p2++ {
						s += x.At(n, p1, p2) * b.At(p1, p2, q1, q2)
					}
				}
				require.InDelta(t, s, y.At(n, q1, q2), 1e-12)
			}
		}
	}
	require.Panics(t, func() { Contract(x, randTensor(rng, 3, 2), 2) })
}
