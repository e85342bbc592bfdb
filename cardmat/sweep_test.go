package cardmat

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func BenchmarkSweepK2(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, v := integerMatrix(rng, 512, 80, 2), integerMatrix(rng, 80, 512, 2)
	x.Apply(func(_, _ int, _ float64) float64 { return float64(rng.IntN(2)) + 0.3 }, x)
	m, _ := Encode(x)
	out := mat.NewDense(512, 512, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Mul(out, v)
	}
}
