package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The AVX-512 kernels give the AVX2 kernels' values bit for bit: the same
// operations on the same lanes in the same order. A ZMM accumulator holds
// what two YMM accumulators hold (zmm0 = ymm0|ymm1, zmm1 = ymm2|ymm3), and
// the final reduction adds the halves in the AVX2 order.

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
			s := ZMM()
			VBROADCASTSD(Mem{Base: a, Disp: 8 * (8*l + i)}, s)
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

// sumLanes512 adds the two ZMM accumulators as sumLanes adds the four YMM
// ones they hold: (y0+y1) + (y2+y3), then the lanes.
func sumLanes512(acc [2]reg.VecVirtual) reg.Register {
	var y [2]reg.VecVirtual
	for i, z := range acc {
		hi := YMM()
		VEXTRACTF64X4(U8(1), z, hi)
		y[i] = z.AsY().(reg.VecVirtual)
		VADDPD(hi, y[i], y[i])
	}
	VADDPD(y[1], y[0], y[0])
	hi := XMM()
	VEXTRACTF128(U8(1), y[0], hi)
	lo := y[0].AsX()
	VADDPD(hi, lo, lo)
	h := XMM()
	VUNPCKHPD(lo, lo, h)
	VADDSD(h, lo, lo)
	return lo
}

// loop16 emits a loop over the n/16 blocks of 16 doubles, calling body for
// each ZMM half of a block at byte offset 64·i, and advancing ptrs.
func loop16(name string, n reg.Register, ptrs []reg.Register, body func(i int)) {
	SHRQ(U8(4), n)
	JZ(LabelRef(name + "done"))
	Label(name + "loop")
	body(0)
	body(1)
	for _, p := range ptrs {
		ADDQ(U32(8*block), p)
	}
	DECQ(n)
	JNZ(LabelRef(name + "loop"))
	Label(name + "done")
}

// dot512 emits dotAVX512, dotAVX2 on ZMM registers.
func dot512() {
	TEXT("dotAVX512", NOSPLIT, "func(n int, x, y *float64) float64")
	Doc(fmt.Sprintf("dotAVX512 returns dotAVX2(n, x, y) bit for bit: Σ x[i]·y[i] for i < %d·⌊n/%d⌋.", block, block))
	Pragma("noescape")
	n := Load(Param("n"), GP64())
	x := Load(Param("x"), GP64())
	y := Load(Param("y"), GP64())
	acc := [2]reg.VecVirtual{ZMM(), ZMM()}
	for _, z := range acc {
		VPXORQ(z, z, z)
	}
	loop16("dot512", n, []reg.Register{x, y}, func(i int) {
		t := ZMM()
		VMOVUPD(Mem{Base: x, Disp: 64 * i}, t)
		VFMADD231PD(Mem{Base: y, Disp: 64 * i}, t, acc[i])
	})
	s := sumLanes512(acc)
	VZEROUPPER()
	Store(s, ReturnIndex(0))
	RET()
}

// dot3512 emits dot3AVX512, dot3AVX2 on ZMM registers.
func dot3512() {
	TEXT("dot3AVX512", NOSPLIT, "func(n int, a, b, c *float64) float64")
	Doc(fmt.Sprintf("dot3AVX512 returns dot3AVX2(n, a, b, c) bit for bit: Σ a[i]·b[i]·c[i] for i < %d·⌊n/%d⌋.", block, block))
	Pragma("noescape")
	n := Load(Param("n"), GP64())
	a := Load(Param("a"), GP64())
	b := Load(Param("b"), GP64())
	c := Load(Param("c"), GP64())
	acc := [2]reg.VecVirtual{ZMM(), ZMM()}
	for _, z := range acc {
		VPXORQ(z, z, z)
	}
	loop16("dot3512", n, []reg.Register{a, b, c}, func(i int) {
		t := ZMM()
		VMOVUPD(Mem{Base: a, Disp: 64 * i}, t)
		VMULPD(Mem{Base: b, Disp: 64 * i}, t, t)
		VFMADD231PD(Mem{Base: c, Disp: 64 * i}, t, acc[i])
	})
	s := sumLanes512(acc)
	VZEROUPPER()
	Store(s, ReturnIndex(0))
	RET()
}

// axpyMul512 emits axpyMulAVX512, axpyMulAVX2 on ZMM registers.
func axpyMul512() {
	TEXT("axpyMulAVX512", NOSPLIT, "func(n int, alpha float64, a, b, y *float64)")
	Doc(fmt.Sprintf("axpyMulAVX512 does what axpyMulAVX2 does, bit for bit: y[i] += alpha·a[i]·b[i] for i < %d·⌊n/%d⌋.", block, block))
	Pragma("noescape")
	n := Load(Param("n"), GP64())
	al := ZMM()
	VBROADCASTSD(NewParamAddr("alpha", 8), al)
	a := Load(Param("a"), GP64())
	b := Load(Param("b"), GP64())
	y := Load(Param("y"), GP64())
	loop16("axpymul512", n, []reg.Register{a, b, y}, func(i int) {
		t, u := ZMM(), ZMM()
		VMOVUPD(Mem{Base: a, Disp: 64 * i}, t)
		VMULPD(Mem{Base: b, Disp: 64 * i}, t, t)
		VMOVUPD(Mem{Base: y, Disp: 64 * i}, u)
		VFMADD231PD(t, al, u)
		VMOVUPD(u, Mem{Base: y, Disp: 64 * i})
	})
	VZEROUPPER()
	RET()
}

// axpy512 emits axpyAVX512, axpyAVX2 on ZMM registers.
func axpy512() {
	TEXT("axpyAVX512", NOSPLIT, "func(n int, alpha float64, x, y *float64)")
	Doc(fmt.Sprintf("axpyAVX512 does what axpyAVX2 does, bit for bit: y[i] += alpha·x[i] for i < %d·⌊n/%d⌋.", block, block))
	Pragma("noescape")
	n := Load(Param("n"), GP64())
	al := ZMM()
	VBROADCASTSD(NewParamAddr("alpha", 8), al)
	x := Load(Param("x"), GP64())
	y := Load(Param("y"), GP64())
	loop16("axpy512", n, []reg.Register{x, y}, func(i int) {
		u := ZMM()
		VMOVUPD(Mem{Base: y, Disp: 64 * i}, u)
		VFMADD231PD(Mem{Base: x, Disp: 64 * i}, al, u)
		VMOVUPD(u, Mem{Base: y, Disp: 64 * i})
	})
	VZEROUPPER()
	RET()
}
