package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The AVX-512 kernels give the AVX2 kernels' values bit for bit: every
// entry is formed by the same operations in the same order.
//
// Only the Gram micro-kernel has an AVX-512 form: on Zen 4, which runs a
// 512-bit operation as two 256-bit halves, ZMM forms of Dot, Dot3, AxpyMul
// and Axpy (two ZMM accumulators holding the AVX2 kernels' four YMM ones)
// were 4–7 % slower at n = 1000 and even at 5000 and 100000 (the loads
// bound them either way), so they were not kept.

// gram8 emits kern8xWAVX512, the 8×w register block (w = 8, 16 or 24) of
// the Gram product on ZMM registers: rows from one 8-wide panel a, columns
// from w/8 consecutive 8-wide panels of b, ldb doubles apart. Each entry of
// C is one FMA chain over l from zero, added to C at the end, as in
// kern6x8AVX2, so that the blocking does not change a bit.
func gram8(w int) {
	nb := w / 8
	name := fmt.Sprintf("kern8x%dAVX512", w)
	TEXT(name, NOSPLIT, "func(k int, a, b, c *float64, ldc, ldb int)")
	Doc(fmt.Sprintf("%s adds Σ_l a[l*8+i]·b[(j/8)*ldb+l*8+j%%8] to c[i*ldc+j] for i<8, j<%d, l<k (k ≥ 1).", name, w))
	Pragma("noescape")
	k := Load(Param("k"), GP64())
	a := Load(Param("a"), GP64())
	b := Load(Param("b"), GP64())
	c := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	ldb := Load(Param("ldb"), GP64())
	SHLQ(U8(3), ldc)
	SHLQ(U8(3), ldb)

	acc := make([][]reg.VecVirtual, 8)
	for i := range acc {
		acc[i] = make([]reg.VecVirtual, nb)
		for j := range acc[i] {
			acc[i][j] = ZMM()
			VPXORQ(acc[i][j], acc[i][j], acc[i][j])
		}
	}
	// panel q of b at byte offset disp of its row l.
	panel := func(q, disp int) Mem {
		if q == 0 {
			return Mem{Base: b, Disp: disp}
		}
		return Mem{Base: b, Index: ldb, Scale: uint8(q), Disp: disp}
	}
	step := func(l int) {
		bv := make([]reg.VecVirtual, nb)
		for q := range bv {
			bv[q] = ZMM()
			VMOVUPD(panel(q, 64*l), bv[q])
		}
		for i := 0; i < 8; i++ {
			ai := Mem{Base: a, Disp: 8 * (8*l + i)}
			if nb == 1 {
				VFMADD231PD_BCST(ai, bv[0], acc[i][0])
				continue
			}
			s := ZMM()
			VBROADCASTSD(ai, s)
			for q := range bv {
				VFMADD231PD(bv[q], s, acc[i][q])
			}
		}
	}
	const unroll = 4
	lbl := func(s string) string { return fmt.Sprintf("g%d%s", w, s) }
	r := GP64()
	MOVQ(k, r)
	ANDQ(U8(unroll-1), r)
	JZ(LabelRef(lbl("main")))
	Label(lbl("tail"))
	step(0)
	ADDQ(U32(64), a)
	ADDQ(U32(64), b)
	DECQ(r)
	JNZ(LabelRef(lbl("tail")))
	Label(lbl("main"))
	SHRQ(U8(2), k)
	JZ(LabelRef(lbl("store")))
	Label(lbl("loop"))
	for l := 0; l < unroll; l++ {
		step(l)
	}
	ADDQ(U32(64*unroll), a)
	ADDQ(U32(64*unroll), b)
	DECQ(k)
	JNZ(LabelRef(lbl("loop")))
	Label(lbl("store"))
	for i := 0; i < 8; i++ {
		for q := 0; q < nb; q++ {
			t := ZMM()
			m := Mem{Base: c, Disp: 64 * q}
			VADDPD(m, acc[i][q], t)
			VMOVUPD(t, m)
		}
		if i < 7 {
			ADDQ(ldc, c)
		}
	}
	VZEROUPPER()
	RET()
}
