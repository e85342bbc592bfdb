// Command asmgen writes kernel_amd64.s, the AVX2/FMA micro-kernels of
// package kernel. It lives in its own module so that the library's go.mod
// does not require avo. Run it through go:generate in package kernel.
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// mr and nr are the rows and columns of the register block of C.
const mr, nr = 6, 8

func main() {
	ConstraintExpr("amd64,!purego")

	TEXT("kern6x8AVX2", NOSPLIT, "func(k int, a, b, c *float64, ldc int)")
	Doc(fmt.Sprintf("kern6x8AVX2 adds Σ_l a[l*%d+i]·b[l*%d+j] to c[i*ldc+j] for i<%d, j<%d, l<k (k ≥ 1).", mr, nr, mr, nr))
	Pragma("noescape")
	k := Load(Param("k"), GP64())
	a := Load(Param("a"), GP64())
	b := Load(Param("b"), GP64())
	c := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	SHLQ(U8(3), ldc)

	var acc [mr][2]reg.VecVirtual
	for i := range acc {
		for j := range acc[i] {
			acc[i][j] = YMM()
			VXORPD(acc[i][j], acc[i][j], acc[i][j])
		}
	}
	b0, b1, s := YMM(), YMM(), YMM()
	// step emits one rank-1 update from row l of the panels.
	step := func(l int) {
		VMOVUPD(Mem{Base: b, Disp: 8 * nr * l}, b0)
		VMOVUPD(Mem{Base: b, Disp: 8*nr*l + 32}, b1)
		for i := 0; i < mr; i++ {
			VBROADCASTSD(Mem{Base: a, Disp: 8 * (mr*l + i)}, s)
			VFMADD231PD(b0, s, acc[i][0])
			VFMADD231PD(b1, s, acc[i][1])
		}
	}
	// The loop is unrolled by unroll; the k mod unroll remaining rows run
	// one at a time first.
	const unroll = 4
	r := GP64()
	MOVQ(k, r)
	ANDQ(U8(unroll-1), r)
	JZ(LabelRef("main"))
	Label("tail")
	step(0)
	ADDQ(U32(8*mr), a)
	ADDQ(U32(8*nr), b)
	DECQ(r)
	JNZ(LabelRef("tail"))
	Label("main")
	SHRQ(U8(2), k)
	JZ(LabelRef("store"))
	Label("loop")
	for l := 0; l < unroll; l++ {
		step(l)
	}
	ADDQ(U32(8*mr*unroll), a)
	ADDQ(U32(8*nr*unroll), b)
	DECQ(k)
	JNZ(LabelRef("loop"))
	Label("store")

	t := YMM()
	for i := 0; i < mr; i++ {
		for j := 0; j < 2; j++ {
			m := Mem{Base: c, Disp: 32 * j}
			VADDPD(m, acc[i][j], t)
			VMOVUPD(t, m)
		}
		if i < mr-1 {
			ADDQ(ldc, c)
		}
	}
	VZEROUPPER()
	RET()
	Generate()
}
