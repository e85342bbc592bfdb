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
// were 4–7 % slower at n = 1000 and no faster at 5000 and 100000 (the
// loads bound them either way), so they were not kept.

// gram8 emits kern8xWAVX512, the 8×w register block (w = 8, 16 or 24) of
// the Gram product on ZMM registers: rows from one 8-wide panel a, columns
// from w/8 consecutive 8-wide panels of b, ldb doubles apart. w = 4 is the
// first half of one panel on YMM registers, for the last columns of C. Each entry of
// C is one FMA chain over l from zero, added to C at the end, as in
// kern6x8AVX2, so that the blocking does not change a bit.
func gram8(w int) {
	nb := max(w/8, 1)
	vec, vb := ZMM, 64 // the register and its width in bytes
	if w == 4 {
		vec, vb = YMM, 32
	}
	name := fmt.Sprintf("kern8x%dAVX512", w)
	TEXT(name, NOSPLIT, "func(k int, a, b, c *float64, ldc, ldb int, pf uintptr)")
	Doc(fmt.Sprintf("%s adds Σ_l a[l*8+i]·b[(j/8)*ldb+l*8+j%%8] to c[i*ldc+j] for i<8, j<%d, l<k (k ≥ 1), and prefetches the 2⌊k/4⌋ cache lines from pf.", name, w))
	Pragma("noescape")
	k := Load(Param("k"), GP64())
	a := Load(Param("a"), GP64())
	b := Load(Param("b"), GP64())
	c := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	ldb := Load(Param("ldb"), GP64())
	pf := Load(Param("pf"), GP64())
	SHLQ(U8(3), ldc)
	SHLQ(U8(3), ldb)

	acc := make([][]reg.VecVirtual, 8)
	for i := range acc {
		acc[i] = make([]reg.VecVirtual, nb)
		for j := range acc[i] {
			acc[i][j] = vec()
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
			bv[q] = vec()
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
	// Two lines of the next slab of X per iteration, so that its packing
	// finds it in cache (the packing otherwise waits on memory).
	PREFETCHT0(Mem{Base: pf})
	PREFETCHT0(Mem{Base: pf, Disp: 64})
	ADDQ(U32(128), pf)
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
			t := vec()
			m := Mem{Base: c, Disp: vb * q}
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

// expConsts and logConsts are the constants of the AVX2 kernels, declared
// by expKernel and log1pKernel, which the AVX-512 kernels broadcast.
type expConsts struct {
	lo, hi, l2e, nhi, nlo, bias Mem
	c                           [14]Mem
}

type logConsts struct {
	one, two, half, sq2, lhi, llo Mem
	c                             [11]Mem
}

var (
	expK expConsts
	logK logConsts
)

// bcast loads the constant m into a new ZMM register, all eight lanes.
func bcast(m Mem) reg.VecVirtual {
	z := ZMM()
	VBROADCASTSD(m, z)
	return z
}

// elementwise512 is elementwise on ZMM registers: dst[i] = f(x[i]) for
// i < 8·⌊n/8⌋, setup run once before the loop (the constants).
func elementwise512(name string, setup func(), body func(x reg.VecVirtual) reg.VecVirtual) {
	elementwiseOn(name, 3, ZMM, setup, body)
}

// exp512 emits expAVX512, expAVX2's operations on eight lanes.
func exp512() {
	TEXT("expAVX512", NOSPLIT, "func(n int, x, dst *float64)")
	Doc("expAVX512 sets dst[i] = Exp(x[i]) for i < 8·⌊n/8⌋.")
	Pragma("noescape")
	var lo, hi, l2e, nhi, nlo, bias reg.VecVirtual
	var c [14]reg.VecVirtual
	elementwise512("exp512", func() {
		lo, hi, l2e, nhi, nlo, bias = bcast(expK.lo), bcast(expK.hi), bcast(expK.l2e), bcast(expK.nhi), bcast(expK.nlo), bcast(expK.bias)
		for i := range c {
			c[i] = bcast(expK.c[i])
		}
	}, func(x reg.VecVirtual) reg.VecVirtual {
		xc, kf, r, p := ZMM(), ZMM(), ZMM(), ZMM()
		VMAXPD(lo, x, xc)
		VMINPD(hi, xc, xc)
		VMULPD(l2e, xc, kf)
		VRNDSCALEPD(U8(0), kf, kf) // to nearest, ties to even
		VMOVAPD(xc, r)
		VFMADD231PD(nhi, kf, r)
		VFMADD231PD(nlo, kf, r)
		VMOVAPD(c[13], p)
		for i := 12; i >= 0; i-- {
			VFMADD213PD(c[i], r, p)
		}
		k, k1, k2 := YMM(), YMM(), YMM()
		VCVTPD2DQ(kf, k)
		VPSRAD(U8(1), k, k1)
		VPSUBD(k1, k, k2)
		for _, h := range []reg.VecVirtual{k1, k2} {
			s := ZMM()
			VPMOVSXDQ(h, s)
			VPADDQ(bias, s, s)
			VPSLLQ(U8(52), s, s)
			VMULPD(s, p, p)
		}
		nan := K()
		VCMPPD(U8(3), x, x, nan) // unordered
		VMOVAPD(x, nan, p)       // NaN in, NaN out
		return p
	})
}

// log1p512 emits log1pUnitAVX512, log1pUnitAVX2's operations on eight
// lanes.
func log1p512() {
	TEXT("log1pUnitAVX512", NOSPLIT, "func(n int, x, dst *float64)")
	Doc("log1pUnitAVX512 sets dst[i] = Log1pUnit(x[i]) for i < 8·⌊n/8⌋.")
	Pragma("noescape")
	var one, two, half, sq2, lhi, llo reg.VecVirtual
	var c [11]reg.VecVirtual
	elementwise512("log1p512", func() {
		one, two, half, sq2, lhi, llo = bcast(logK.one), bcast(logK.two), bcast(logK.half), bcast(logK.sq2), bcast(logK.lhi), bcast(logK.llo)
		for k := range c {
			c[k] = bcast(logK.c[k])
		}
	}, func(x reg.VecVirtual) reg.VecVirtual {
		u, c0, t := ZMM(), ZMM(), ZMM()
		VADDPD(one, x, u)
		VSUBPD(one, u, t)
		VSUBPD(t, x, c0)
		VDIVPD(u, c0, c0)
		big := K()
		m, e := ZMM(), ZMM()
		VCMPPD(U8(0x1e), sq2, u, big) // u > √2
		VMOVAPD(u, m)
		VMULPD(half, u, big, m) // u/2 where big
		VMOVAPD_Z(one, big, e)  // 1 where big, else 0
		f, s, z, q := ZMM(), ZMM(), ZMM(), ZMM()
		VSUBPD(one, m, f)
		VADDPD(two, f, t)
		VDIVPD(t, f, s)
		VMULPD(s, s, z)
		VMOVAPD(c[10], q)
		for k := 9; k >= 0; k-- {
			VFMADD213PD(c[k], z, q)
		}
		VMULPD(q, z, q)
		hf := ZMM()
		VMULPD(half, f, hf)
		VMULPD(f, hf, hf)
		VADDPD(q, hf, q)
		VMULPD(q, s, q)
		VSUBPD(q, hf, hf)
		VSUBPD(hf, f, f)
		VMULPD(llo, e, t)
		VADDPD(t, f, f)
		VMULPD(lhi, e, t)
		VADDPD(f, t, t)
		VADDPD(c0, t, t)
		return t
	})
}
