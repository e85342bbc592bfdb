package deepreg

import (
	"math/rand/v2"
	"testing"

	"github.com/cardsparse/cardreg/solver"
)

// BenchmarkDigitsStep times one full-batch gradient of a 64-40-10 relu
// network with cross-entropy on 1797 rows (the shape of the paper's digits
// experiment; random inputs with 17 levels).
func BenchmarkDigitsStep(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y := randomData(rng, 1797, 64, 10, true)
	x.Apply(func(_, _ int, _ float64) float64 { return float64(rng.IntN(17)) / 16 }, x)
	net, _ := New([]int{64, 40, 10}, []Activation{ReLU{}}, false, 1)
	d := solver.DenseDesign{X: x}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		net.Gradient(d, y, CrossEntropy{})
	}
}
