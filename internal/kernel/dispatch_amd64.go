//go:build amd64 && !purego

package kernel

import "golang.org/x/sys/cpu"

// hasAsm reports whether the AVX2/FMA micro-kernel can run on this CPU.
var hasAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// hasAVX512 reports whether the AVX-512 kernels can run: the CPU has
// AVX-512 F and VL (the exponential's 256-bit integer steps may use
// registers 16–31, which need VL) and the OS saves the ZMM state (x/sys/cpu
// checks both).
var hasAVX512 = hasAsm && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL

// avx512 reports whether the AVX-512 kernels are to run (where the AVX2 ones
// would).
func avx512() bool { return UseAVX512 && hasAVX512 }

func kern6x8(k int, a, b, c []float64, ldc int) {
	if UseAsm && hasAsm {
		kern6x8AVX2(k, &a[0], &b[0], &c[0], ldc)
		return
	}
	kern6x8Go(k, a, b, c, ldc)
}

// kern8x adds the 8×w block (w = 4, 8, 16 or 24) of the Gram product over k
// rows to c: rows from the 8-wide panel a, columns from the w/8 panels of
// b, ldb doubles apart, and prefetches the 2⌊k/4⌋ cache lines from pf.
func kern8x(w, k int, a, b, c []float64, ldc, ldb int, pf uintptr) {
	switch w {
	case 4:
		kern8x4AVX512(k, &a[0], &b[0], &c[0], ldc, ldb, pf)
	case 8:
		kern8x8AVX512(k, &a[0], &b[0], &c[0], ldc, ldb, pf)
	case 16:
		kern8x16AVX512(k, &a[0], &b[0], &c[0], ldc, ldb, pf)
	default:
		kern8x24AVX512(k, &a[0], &b[0], &c[0], ldc, ldb, pf)
	}
}

// The vector kernels have no AVX-512 form: it did not pay (asmgen/avx512.go).

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

// expAsm and log1pUnitAsm take n a multiple of 4: eight at a time with
// AVX-512, the last four with AVX2 (the same values, lane by lane).
func expAsm(n int, x, dst []float64) {
	m := 0
	if avx512() && n >= 8 {
		m = n &^ 7
		expAVX512(m, &x[0], &dst[0])
	}
	if m < n {
		expAVX2(n-m, &x[m], &dst[m])
	}
}

func log1pUnitAsm(n int, x, dst []float64) {
	m := 0
	if avx512() && n >= 8 {
		m = n &^ 7
		log1pUnitAVX512(m, &x[0], &dst[0])
	}
	if m < n {
		log1pUnitAVX2(n-m, &x[m], &dst[m])
	}
}

func pack8Asm(k, full int, x []float64, ldx int, dst []float64) {
	pack8AVX2(k, full, &x[0], ldx, &dst[0])
}
