package kernel

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkGram times Gram against gonum's SymOuterK (impl=gonum) and the
// portable micro-kernel (impl=go) side by side. GFlop/s counts n·p² flops.
func BenchmarkGram(b *testing.B) {
	for _, s := range [][2]int{{5000, 500}, {100000, 100}, {1000, 50}, {200, 20}, {64, 16}, {20, 8}} {
		n, p := s[0], s[1]
		rng := rand.New(rand.NewPCG(1, 1))
		data := make([]float64, n*p)
		for i := range data {
			data[i] = rng.NormFloat64()
		}
		x := mat.NewDense(n, p, data)
		dst := make([]float64, p*p)
		for _, impl := range []string{"asm", "go", "gonum"} {
			if impl == "asm" && !hasAsm {
				continue
			}
			b.Run(fmt.Sprintf("%dx%d/impl=%s", n, p, impl), func(b *testing.B) {
				defer func(u bool) { UseAsm = u }(UseAsm)
				UseAsm = impl == "asm"
				var g mat.SymDense
				for b.Loop() {
					if impl == "gonum" {
						g.SymOuterK(1, x.T())
					} else {
						Gram(dst, p, data, n, p, p)
					}
				}
				b.ReportMetric(float64(n)*float64(p)*float64(p)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFlop/s")
			})
		}
	}
}
