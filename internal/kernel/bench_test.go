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

// BenchmarkGemm times Gemm on the shapes of the digits network's products
// and a few others, in the transpose cases the network uses. GFlop/s
// counts 2·m·n·k flops.
func BenchmarkGemm(b *testing.B) {
	for _, s := range []struct {
		tA, tB  bool
		m, n, k int
	}{
		{false, false, 8, 8, 8},
		{false, false, 64, 64, 64},
		{false, true, 1797, 40, 64},
		{true, false, 40, 64, 1797},
		{false, false, 1797, 64, 40},
		{false, false, 300, 257, 600},
		{true, true, 300, 257, 600},
	} {
		rng := rand.New(rand.NewPCG(1, 1))
		a, bm := make([]float64, s.m*s.k), make([]float64, s.k*s.n)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		for i := range bm {
			bm[i] = rng.NormFloat64()
		}
		_, lda := stored(s.tA, s.m, s.k)
		_, ldb := stored(s.tB, s.k, s.n)
		c := make([]float64, s.m*s.n)
		b.Run(fmt.Sprintf("%dx%dx%d/tA=%v/tB=%v", s.m, s.n, s.k, s.tA, s.tB), func(b *testing.B) {
			for b.Loop() {
				Gemm(s.tA, s.tB, s.m, s.n, s.k, a, lda, bm, ldb, 0, c, s.n)
			}
			b.ReportMetric(2*float64(s.m)*float64(s.n)*float64(s.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFlop/s")
		})
	}
}
