package radix

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkSortDesc20000(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	v := make([]float64, 20000)
	for i := range v {
		v[i] = float64(rng.IntN(50)) + 1e-3*rng.NormFloat64()
	}
	ps, spare := make([]Pair, len(v)), make([]Pair, len(v))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, x := range v {
			ps[k] = Pair{x, k}
		}
		SortDesc(ps, spare)
	}
}
