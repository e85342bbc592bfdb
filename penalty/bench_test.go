package penalty

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkCardinalityProx1e6 is the spec's prox target: one vector of 10⁶
// entries in at most 0.5 s.
func BenchmarkCardinalityProx1e6(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	v := mat.NewDense(1_000_000, 1, nil)
	for i := 0; i < 1_000_000; i++ {
		v.Set(i, 0, rng.NormFloat64())
	}
	var dst mat.Dense
	h := Cardinality{Nu: 1}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.Prox(&dst, v, 1e-4)
	}
}

// BenchmarkCardinalityWide is the wide-data size: the prox, value and dual
// norm of one column of 20000 coefficients, as a proximal gradient step and
// a duality gap pay them.
func BenchmarkCardinalityWide(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	v := mat.NewDense(20000, 1, nil)
	for i := 0; i < 20000; i++ {
		v.Set(i, 0, float64(rng.IntN(50))+1e-3*rng.NormFloat64())
	}
	var dst mat.Dense
	h := Cardinality{Nu: 1}
	b.Run("Prox", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			h.Prox(&dst, v, 1e-2)
		}
	})
	b.Run("Value", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			h.Value(v)
		}
	})
	b.Run("DualNorm", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			h.DualNorm(v)
		}
	})
}
