// Command asmgen writes kernel_amd64.s, the AVX2/FMA and AVX-512
// micro-kernels of package kernel (avx512.go holds the latter). It lives in its own module so that the library's go.mod
// does not require avo. Run it through go:generate in package kernel.
package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// mr and nr are the rows and columns of the register block of C.
const mr, nr = 6, 8

func main() {
	ConstraintExpr("amd64,!purego")
	gram()
	dot()
	dot3()
	axpyMul()
	axpy()
	sum4()
	expKernel()
	log1pKernel()
	pack8()
	exp512()
	log1p512()
	for _, w := range []int{4, 8, 16, 24} {
		gram8(w)
	}
	Generate()
}

// gram emits the 6×8 register-blocked micro-kernel of the Gram product.
func gram() {
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
}

// block is the number of float64s the vector kernels handle per loop
// iteration: four YMM registers, so that four independent FMA chains hide
// the instruction's latency.
const block = 16

// sumLanes adds four accumulators and their lanes into the low lane of a
// and returns it as an XMM register.
func sumLanes(acc [4]reg.VecVirtual) reg.Register {
	VADDPD(acc[1], acc[0], acc[0])
	VADDPD(acc[3], acc[2], acc[2])
	VADDPD(acc[2], acc[0], acc[0])
	hi := XMM()
	VEXTRACTF128(U8(1), acc[0], hi)
	lo := acc[0].AsX()
	VADDPD(hi, lo, lo)
	h := XMM()
	VUNPCKHPD(lo, lo, h)
	VADDSD(h, lo, lo)
	return lo
}

// reduce emits a loop over n/16 blocks of the vectors in ptrs, calling body
// for each of the four YMM-wide lanes of a block at byte offset 32·i, and
// returns the four accumulators (zeroed first).
func reduce(name string, n reg.Register, ptrs []reg.Register, body func(i int, acc reg.VecVirtual)) [4]reg.VecVirtual {
	var acc [4]reg.VecVirtual
	for i := range acc {
		acc[i] = YMM()
		VXORPD(acc[i], acc[i], acc[i])
	}
	SHRQ(U8(4), n)
	JZ(LabelRef(name + "done"))
	Label(name + "loop")
	for i := range acc {
		body(i, acc[i])
	}
	for _, p := range ptrs {
		ADDQ(U32(8*block), p)
	}
	DECQ(n)
	JNZ(LabelRef(name + "loop"))
	Label(name + "done")
	return acc
}

// dot emits dotAVX2: Σ x[i]·y[i] over the whole blocks.
func dot() {
	TEXT("dotAVX2", NOSPLIT, "func(n int, x, y *float64) float64")
	Doc(fmt.Sprintf("dotAVX2 returns Σ x[i]·y[i] for i < %d·⌊n/%d⌋.", block, block))
	Pragma("noescape")
	n := Load(Param("n"), GP64())
	x := Load(Param("x"), GP64())
	y := Load(Param("y"), GP64())
	acc := reduce("dot", n, []reg.Register{x, y}, func(i int, acc reg.VecVirtual) {
		t := YMM()
		VMOVUPD(Mem{Base: x, Disp: 32 * i}, t)
		VFMADD231PD(Mem{Base: y, Disp: 32 * i}, t, acc)
	})
	s := sumLanes(acc)
	VZEROUPPER()
	Store(s, ReturnIndex(0))
	RET()
}

// dot3 emits dot3AVX2: Σ a[i]·b[i]·c[i] over the whole blocks.
func dot3() {
	TEXT("dot3AVX2", NOSPLIT, "func(n int, a, b, c *float64) float64")
	Doc(fmt.Sprintf("dot3AVX2 returns Σ a[i]·b[i]·c[i] for i < %d·⌊n/%d⌋.", block, block))
	Pragma("noescape")
	n := Load(Param("n"), GP64())
	a := Load(Param("a"), GP64())
	b := Load(Param("b"), GP64())
	c := Load(Param("c"), GP64())
	acc := reduce("dot3", n, []reg.Register{a, b, c}, func(i int, acc reg.VecVirtual) {
		t := YMM()
		VMOVUPD(Mem{Base: a, Disp: 32 * i}, t)
		VMULPD(Mem{Base: b, Disp: 32 * i}, t, t)
		VFMADD231PD(Mem{Base: c, Disp: 32 * i}, t, acc)
	})
	s := sumLanes(acc)
	VZEROUPPER()
	Store(s, ReturnIndex(0))
	RET()
}

// axpyMul emits axpyMulAVX2: y[i] += alpha·a[i]·b[i] over the whole blocks.
func axpyMul() {
	TEXT("axpyMulAVX2", NOSPLIT, "func(n int, alpha float64, a, b, y *float64)")
	Doc(fmt.Sprintf("axpyMulAVX2 adds alpha·a[i]·b[i] to y[i] for i < %d·⌊n/%d⌋.", block, block))
	Pragma("noescape")
	n := Load(Param("n"), GP64())
	al := YMM()
	VBROADCASTSD(NewParamAddr("alpha", 8), al)
	a := Load(Param("a"), GP64())
	b := Load(Param("b"), GP64())
	y := Load(Param("y"), GP64())
	SHRQ(U8(4), n)
	JZ(LabelRef("axpydone"))
	Label("axpyloop")
	for i := 0; i < block/4; i++ {
		t, u := YMM(), YMM()
		VMOVUPD(Mem{Base: a, Disp: 32 * i}, t)
		VMULPD(Mem{Base: b, Disp: 32 * i}, t, t)
		VMOVUPD(Mem{Base: y, Disp: 32 * i}, u)
		VFMADD231PD(t, al, u)
		VMOVUPD(u, Mem{Base: y, Disp: 32 * i})
	}
	for _, p := range []reg.Register{a, b, y} {
		ADDQ(U32(8*block), p)
	}
	DECQ(n)
	JNZ(LabelRef("axpyloop"))
	Label("axpydone")
	VZEROUPPER()
	RET()
}

// axpy emits axpyAVX2: y[i] += alpha·x[i] over the whole blocks.
func axpy() {
	TEXT("axpyAVX2", NOSPLIT, "func(n int, alpha float64, x, y *float64)")
	Doc(fmt.Sprintf("axpyAVX2 adds alpha·x[i] to y[i] for i < %d·⌊n/%d⌋.", block, block))
	Pragma("noescape")
	n := Load(Param("n"), GP64())
	al := YMM()
	VBROADCASTSD(NewParamAddr("alpha", 8), al)
	x := Load(Param("x"), GP64())
	y := Load(Param("y"), GP64())
	SHRQ(U8(4), n)
	JZ(LabelRef("axdone"))
	Label("axloop")
	for i := 0; i < block/4; i++ {
		u := YMM()
		VMOVUPD(Mem{Base: y, Disp: 32 * i}, u)
		VFMADD231PD(Mem{Base: x, Disp: 32 * i}, al, u)
		VMOVUPD(u, Mem{Base: y, Disp: 32 * i})
	}
	for _, p := range []reg.Register{x, y} {
		ADDQ(U32(8*block), p)
	}
	DECQ(n)
	JNZ(LabelRef("axloop"))
	Label("axdone")
	VZEROUPPER()
	RET()
}

// sum4 emits sum4AVX2: y[i] = a[i]+b[i]+c[i]+d[i] (plus y[i] when acc is
// nonzero) over the whole blocks: four rows summed in one pass over y.
func sum4() {
	TEXT("sum4AVX2", NOSPLIT, "func(n int, acc int, a, b, c, d, y *float64)")
	Doc(fmt.Sprintf("sum4AVX2 sets y[i] to a[i]+b[i]+c[i]+d[i], plus y[i] when acc ≠ 0, for i < %d·⌊n/%d⌋.", block, block))
	Pragma("noescape")
	n := Load(Param("n"), GP64())
	acc := Load(Param("acc"), GP64())
	ptrs := []reg.Register{Load(Param("a"), GP64()), Load(Param("b"), GP64()), Load(Param("c"), GP64()), Load(Param("d"), GP64())}
	y := Load(Param("y"), GP64())
	SHRQ(U8(4), n)
	JZ(LabelRef("sumdone"))
	Label("sumloop")
	u := make([]reg.VecVirtual, block/4)
	for i := range u {
		u[i] = YMM()
		VMOVUPD(Mem{Base: ptrs[0], Disp: 32 * i}, u[i])
		for _, p := range ptrs[1:] {
			VADDPD(Mem{Base: p, Disp: 32 * i}, u[i], u[i])
		}
	}
	TESTQ(acc, acc)
	JZ(LabelRef("sumstore"))
	for i := range u {
		VADDPD(Mem{Base: y, Disp: 32 * i}, u[i], u[i])
	}
	Label("sumstore")
	for i := range u {
		VMOVUPD(u[i], Mem{Base: y, Disp: 32 * i})
	}
	for _, p := range append(ptrs, y) {
		ADDQ(U32(8*block), p)
	}
	DECQ(n)
	JNZ(LabelRef("sumloop"))
	Label("sumdone")
	VZEROUPPER()
	RET()
}

// vconst declares a read-only constant of four copies of the 64 bits b
// and returns it.
func vconst(name string, b uint64) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i := 0; i < 4; i++ {
		DATA(8*i, U64(b))
	}
	return m
}

// fconst is vconst of a float64.
func fconst(name string, v float64) Mem { return vconst(name, math.Float64bits(v)) }

// The constants of kernel.Exp and kernel.Log1pUnit (exp.go), which the
// kernels below compute bit for bit: the same operations in the same
// order, FMA where the Go code calls math.FMA.
const (
	expLo = -746.0
	expHi = 709.8
	log2e = 1.4426950408889634
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
	sqrt2 = 1.4142135623730951
)

// elementwise emits the loop of a kernel func(n int, x, dst *float64) that
// sets dst[i] = f(x[i]) for i < 4·⌊n/4⌋, body mapping a YMM register of x
// to one of results.
func elementwise(name string, body func(x reg.VecVirtual) reg.VecVirtual) {
	elementwiseOn(name, 2, YMM, func() {}, body)
}

// elementwiseOn is elementwise on registers of 2^shift lanes made by vec
// (YMM: 4, ZMM: 8), setup run once before the loop (the constants).
func elementwiseOn(name string, shift uint8, vec func() reg.VecVirtual, setup func(), body func(x reg.VecVirtual) reg.VecVirtual) {
	n := Load(Param("n"), GP64())
	x := Load(Param("x"), GP64())
	dst := Load(Param("dst"), GP64())
	setup()
	SHRQ(U8(shift), n)
	JZ(LabelRef(name + "done"))
	Label(name + "loop")
	v := vec()
	VMOVUPD(Mem{Base: x}, v)
	VMOVUPD(body(v), Mem{Base: dst})
	bytes := U32(8 << shift)
	ADDQ(bytes, x)
	ADDQ(bytes, dst)
	DECQ(n)
	JNZ(LabelRef(name + "loop"))
	Label(name + "done")
	VZEROUPPER()
	RET()
}

// expKernel emits expAVX2, kernel.Exp over a vector.
func expKernel() {
	lo, hi, l2e := fconst("expLo", expLo), fconst("expHi", expHi), fconst("expLog2e", log2e)
	nhi, nlo := fconst("expNegLn2Hi", -ln2Hi), fconst("expNegLn2Lo", -ln2Lo)
	bias := vconst("expBias", 1023)
	var c [14]Mem
	f := 1.0
	for i := range c {
		if i > 0 {
			f *= float64(i)
		}
		c[i] = fconst(fmt.Sprintf("expC%d", i), 1/f)
	}
	expK = expConsts{lo, hi, l2e, nhi, nlo, bias, c}
	TEXT("expAVX2", NOSPLIT, "func(n int, x, dst *float64)")
	Doc("expAVX2 sets dst[i] = Exp(x[i]) for i < 4·⌊n/4⌋.")
	Pragma("noescape")
	elementwise("exp", func(x reg.VecVirtual) reg.VecVirtual {
		xc, kf, r, p := YMM(), YMM(), YMM(), YMM()
		VMAXPD(lo, x, xc)
		VMINPD(hi, xc, xc)
		VMULPD(l2e, xc, kf)
		VROUNDPD(U8(0), kf, kf) // to nearest, ties to even
		VMOVAPD(xc, r)
		VFMADD231PD(nhi, kf, r) // r = kf·(−ln2Hi) + xc
		VFMADD231PD(nlo, kf, r)
		VMOVUPD(c[13], p)
		for i := 12; i >= 0; i-- {
			VFMADD213PD(c[i], r, p) // p = r·p + c[i]
		}
		// 2^k1 · 2^k2 with k1 = k >> 1, k2 = k − k1.
		k, k1, k2 := XMM(), XMM(), XMM()
		VCVTPD2DQY(kf, k)
		VPSRAD(U8(1), k, k1)
		VPSUBD(k1, k, k2)
		for _, h := range []reg.VecVirtual{k1, k2} {
			s := YMM()
			VPMOVSXDQ(h, s)
			VPADDQ(bias, s, s)
			VPSLLQ(U8(52), s, s)
			VMULPD(s, p, p)
		}
		// NaN in, NaN out.
		nan := YMM()
		VCMPPD(U8(3), x, x, nan) // unordered
		VBLENDVPD(nan, x, p, p)
		return p
	})
}

// log1pKernel emits log1pUnitAVX2, kernel.Log1pUnit over a vector.
func log1pKernel() {
	one, two, half := fconst("logOne", 1), fconst("logTwo", 2), fconst("logHalf", 0.5)
	sq2, lhi, llo := fconst("logSqrt2", sqrt2), fconst("logLn2Hi", ln2Hi), fconst("logLn2Lo", ln2Lo)
	var c [11]Mem
	for k := range c {
		c[k] = fconst(fmt.Sprintf("logC%d", k), 2/float64(2*k+3))
	}
	logK = logConsts{one, two, half, sq2, lhi, llo, c}
	TEXT("log1pUnitAVX2", NOSPLIT, "func(n int, x, dst *float64)")
	Doc("log1pUnitAVX2 sets dst[i] = Log1pUnit(x[i]) for i < 4·⌊n/4⌋.")
	Pragma("noescape")
	elementwise("log1p", func(x reg.VecVirtual) reg.VecVirtual {
		u, c0, t := YMM(), YMM(), YMM()
		VADDPD(one, x, u)
		VSUBPD(one, u, t) // u − 1
		VSUBPD(t, x, c0)  // x − (u − 1)
		VDIVPD(u, c0, c0) // the sum's rounding, over u
		big, m, e := YMM(), YMM(), YMM()
		VCMPPD(U8(0x1e), sq2, u, big) // u > √2
		VMULPD(half, u, m)
		VBLENDVPD(big, m, u, m)
		VANDPD(one, big, e) // 1 where big, else 0
		f, s, z, q := YMM(), YMM(), YMM(), YMM()
		VSUBPD(one, m, f)
		VADDPD(two, f, t)
		VDIVPD(t, f, s)
		VMULPD(s, s, z)
		VMOVUPD(c[10], q)
		for k := 9; k >= 0; k-- {
			VFMADD213PD(c[k], z, q) // q = z·q + c[k]
		}
		VMULPD(q, z, q) // R = z·q
		hf := YMM()
		VMULPD(half, f, hf)
		VMULPD(f, hf, hf) // f²/2
		VADDPD(q, hf, q)  // hfsq + R
		VMULPD(q, s, q)   // s·(hfsq + R)
		VSUBPD(q, hf, hf) // hfsq − s·(hfsq + R)
		VSUBPD(hf, f, f)  // log m
		VMULPD(llo, e, t)
		VADDPD(t, f, f) // log m + e·ln2Lo
		VMULPD(lhi, e, t)
		VADDPD(f, t, t)  // e·ln2Hi + (log m + e·ln2Lo)
		VADDPD(c0, t, t) // + the rounding
		return t
	})
}

// pack8 emits pack8AVX2, the whole 8-wide panels of the packing of X that
// Gram multiplies: the 64 bytes of row l, panel q to dst + q·64k + 64l.
func pack8() {
	TEXT("pack8AVX2", NOSPLIT, "func(k, full int, x *float64, ldx int, dst *float64)")
	Doc("pack8AVX2 copies x[l*ldx+8q+r] to dst[q*8*k+l*8+r] for l < k, q < full, r < 8 (k, full ≥ 1).")
	Pragma("noescape")
	k := Load(Param("k"), GP64())
	full := Load(Param("full"), GP64())
	x := Load(Param("x"), GP64())
	ldx := Load(Param("ldx"), GP64())
	dst := Load(Param("dst"), GP64())
	SHLQ(U8(3), ldx)
	stride := GP64()
	MOVQ(k, stride)
	SHLQ(U8(6), stride)
	s, d, q := GP64(), GP64(), GP64()
	Label("packrow")
	MOVQ(x, s)
	MOVQ(dst, d)
	MOVQ(full, q)
	Label("packpanel")
	y0, y1 := YMM(), YMM()
	VMOVUPD(Mem{Base: s}, y0)
	VMOVUPD(Mem{Base: s, Disp: 32}, y1)
	VMOVUPD(y0, Mem{Base: d})
	VMOVUPD(y1, Mem{Base: d, Disp: 32})
	ADDQ(U32(64), s)
	ADDQ(stride, d)
	DECQ(q)
	JNZ(LabelRef("packpanel"))
	ADDQ(ldx, x)
	ADDQ(U32(64), dst)
	DECQ(k)
	JNZ(LabelRef("packrow"))
	VZEROUPPER()
	RET()
}
