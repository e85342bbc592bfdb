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
