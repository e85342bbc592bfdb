//go:build !amd64 || purego

package kernel

// hasAsm is false: this build has no assembly micro-kernel.
const hasAsm = false

// hasAVX512 is false: this build has no assembly.
const hasAVX512 = false

func avx512() bool { return false }

func kern8x(int, int, []float64, []float64, []float64, int, int, uintptr) {
	panic("kernel: no assembly")
}

func kern6x8(k int, a, b, c []float64, ldc int) { kern6x8Go(k, a, b, c, ldc) }

func dotAsm(int, []float64, []float64) float64 { panic("kernel: no assembly") }

func dot3Asm(int, []float64, []float64, []float64) float64 { panic("kernel: no assembly") }

func axpyMulAsm(int, float64, []float64, []float64, []float64) { panic("kernel: no assembly") }

func axpyAsm(int, float64, []float64, []float64) { panic("kernel: no assembly") }

func sum4Asm(int, bool, []float64, []float64, []float64, []float64, []float64) {
	panic("kernel: no assembly")
}

func expAsm(int, []float64, []float64) { panic("kernel: no assembly") }

func log1pUnitAsm(int, []float64, []float64) { panic("kernel: no assembly") }

func pack8Asm(int, int, []float64, int, []float64) { panic("kernel: no assembly") }
