package kernel

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkGram times Gram on each path (the AVX-512 and AVX2 kernels, the
// portable Go forms) beside gonum's SymOuterK (impl=gonum). GFlop/cpu-s
// counts n·p² flops per CPU second (run with GOMAXPROCS=1).
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
		for _, impl := range []string{"avx512", "avx2", "go", "gonum"} {
			if impl == "avx2" && !hasAsm || impl == "avx512" && !hasAVX512 {
				continue
			}
			b.Run(fmt.Sprintf("%dx%d/impl=%s", n, p, impl), func(b *testing.B) {
				defer func(u, z bool) { UseAsm, UseAVX512 = u, z }(UseAsm, UseAVX512)
				UseAsm, UseAVX512 = impl == "avx2" || impl == "avx512", impl == "avx512"
				var g mat.SymDense
				cpuLoop(b, float64(n)*float64(p)*float64(p), "GFlop/cpu-s", func() {
					if impl == "gonum" {
						g.SymOuterK(1, x.T())
					} else {
						Gram(dst, p, data, n, p, p)
					}
				})
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

// BenchmarkMicroKernel times the Gram micro-kernels alone on one slab of
// kc rows held in cache: the AVX2 6×8 block and the AVX-512 8×w blocks.
// GFlop/s counts two flops per multiply-add.
func BenchmarkMicroKernel(b *testing.B) {
	a, bp, c := make([]float64, kc*8+8), make([]float64, 3*kc*8+8), make([]float64, 8*24)
	for i := range a {
		a[i] = 1e-3 * float64(i%7)
	}
	for i := range bp {
		bp[i] = 1e-3 * float64(i%5)
	}
	a, bp = align64(a), align64(bp)
	run := func(name string, rows, cols int, f func()) {
		b.Run(name, func(b *testing.B) { cpuLoop(b, 2*float64(rows*cols*kc), "GFlop/cpu-s", f) })
	}
	if hasAsm {
		run("avx2-6x8", 6, 8, func() { kern6x8(kc, a, bp, c, 24) })
	}
	if hasAVX512 {
		for _, w := range []int{4, 8, 16, 24} {
			run(fmt.Sprintf("avx512-8x%d", w), 8, w, func() { kern8x(w, kc, a, bp, c, 24, 8*kc, uintptr(unsafe.Pointer(&a[0]))) })
		}
	}
}

// cpuLoop runs f b.N times by b.Loop and reports work/1e9 units per CPU
// second of the process under unit (run with GOMAXPROCS=1: on a loaded
// machine the wall time b.Elapsed measures other programs too).
func cpuLoop(b *testing.B, work float64, unit string, f func()) {
	c0 := cpuSeconds()
	for b.Loop() {
		f()
	}
	if c := cpuSeconds() - c0; c > 0 {
		b.ReportMetric(work*float64(b.N)/c/1e9, unit)
		b.ReportMetric(c/float64(b.N)*1e9, "cpu-ns/op")
	}
}
