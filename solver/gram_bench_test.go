package solver

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkGram times gram (XᵀX) on the shapes of the kernel issue. The
// GFlop/s metric counts n·p² flops (the full XᵀX).
func BenchmarkGram(b *testing.B) {
	for _, s := range [][2]int{{5000, 500}, {100000, 100}} {
		n, p := s[0], s[1]
		rng := rand.New(rand.NewPCG(1, 1))
		data := make([]float64, n*p)
		for i := range data {
			data[i] = rng.NormFloat64()
		}
		x := mat.NewDense(n, p, data)
		b.Run(fmt.Sprintf("%dx%d", n, p), func(b *testing.B) {
			var dst mat.SymDense
			for b.Loop() {
				dst = mat.SymDense{}
				gram(&dst, x)
			}
			b.ReportMetric(float64(n)*float64(p)*float64(p)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFlop/s")
		})
	}
}
