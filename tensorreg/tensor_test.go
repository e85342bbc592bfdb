package tensorreg

import (
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
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

func TestModePenaltyActsOnFibers(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	shape := []int{3, 4, 2} // P1, P2, Q
	b := randTensor(rng, shape...)
	theta := b.Matrix(2)
	card := penalty.Cardinality{Nu: 0.5}
	for k := 1; k <= 3; k++ {
		h, err := OnMode(card, shape, 2, k)
		require.NoError(t, err)
		// Naive, by loops: the penalty is the sum over the mode-k fibers,
		// and its prox is the cardinality prox of each fiber.
		var px mat.Dense
		h.Prox(&px, theta, 0.2)
		got := NewTensor(shape, mat.DenseCopyOf(&px).RawMatrix().Data)
		var want float64
		idx := make([]int, 3)
		for idx[0] = 0; idx[0] < 3; idx[0]++ {
			for idx[1] = 0; idx[1] < 4; idx[1]++ {
				for idx[2] = 0; idx[2] < 2; idx[2]++ {
					if idx[k-1] != 0 {
						continue
					}
					fiber := make([]float64, shape[k-1])
					j := append([]int(nil), idx...)
					for i := range fiber {
						j[k-1] = i
						fiber[i] = b.At(j...)
					}
					fm := mat.NewDense(len(fiber), 1, fiber)
					want += card.Value(fm)
					var fp mat.Dense
					card.Prox(&fp, fm, 0.2)
					for i := range fiber {
						j[k-1] = i
						require.InDelta(t, fp.At(i, 0), got.At(j...), 1e-12, "mode %d prox at %v", k, j)
					}
				}
			}
		}
		require.InDelta(t, want, h.Value(theta), 1e-10, "mode %d", k)
		_, ok := penalty.DualNorm(h, theta)
		require.True(t, ok)
	}
	_, err := OnMode(card, shape, 2, 4)
	require.Error(t, err)
}

func TestTensorFitEqualsVectorised(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	const n, p1, p2 = 50, 3, 4
	x := randTensor(rng, n, p1, p2)
	y := randTensor(rng, n)
	for i := 0; i < n; i++ {
		y.Data[i] += 2*x.At(i, 0, 1) - x.At(i, 2, 3)
	}
	// Vectorise by loops: column p2*a+b holds X[:, a, b].
	xv := mat.NewDense(n, p1*p2, nil)
	for i := 0; i < n; i++ {
		for a := 0; a < p1; a++ {
			for b := 0; b < p2; b++ {
				xv.Set(i, a*p2+b, x.At(i, a, b))
			}
		}
	}
	yv := mat.NewDense(n, 1, y.Data)
	opts := &TensorOptions{Options: estimator.Options{Settings: solver.Settings{Tol: 1e-12}}}
	tm, err := FitTensor(x, y, penalty.Cardinality{}, 5, opts)
	require.NoError(t, err)
	vm, err := estimator.Fit(&estimator.Rows{X: solver.DenseDesign{X: xv}, Y: yv}, penalty.Cardinality{}, 5, &opts.Options)
	require.NoError(t, err)
	require.Equal(t, []int{p1, p2, 1}, tm.B.Shape)
	for a := 0; a < p1; a++ {
		for b := 0; b < p2; b++ {
			require.InDelta(t, vm.Coef.At(a*p2+b, 0), tm.B.At(a, b, 0), 1e-9)
		}
	}
}
