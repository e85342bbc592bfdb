//go:build amd64 && !purego

package kernel

import "golang.org/x/sys/cpu"

// hasAsm reports whether the AVX2/FMA micro-kernel can run on this CPU.
var hasAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

func kern6x8(k int, a, b, c []float64, ldc int) {
	if UseAsm && hasAsm {
		kern6x8AVX2(k, &a[0], &b[0], &c[0], ldc)
		return
	}
	kern6x8Go(k, a, b, c, ldc)
}

func dotAsm(n int, x, y []float64) float64 { return dotAVX2(n, &x[0], &y[0]) }

func dot3Asm(n int, a, b, c []float64) float64 { return dot3AVX2(n, &a[0], &b[0], &c[0]) }

func axpyMulAsm(n int, alpha float64, a, b, y []float64) { axpyMulAVX2(n, alpha, &a[0], &b[0], &y[0]) }

func axpyAsm(n int, alpha float64, x, y []float64) { axpyAVX2(n, alpha, &x[0], &y[0]) }

func sum4Asm(n int, acc bool, a, b, c, d, y []float64) {
	f := 0
	if acc {
		f = 1
	}
	sum4AVX2(n, f, &a[0], &b[0], &c[0], &d[0], &y[0])
}

func expAsm(n int, x, dst []float64) { expAVX2(n, &x[0], &dst[0]) }

func log1pUnitAsm(n int, x, dst []float64) { log1pUnitAVX2(n, &x[0], &dst[0]) }
