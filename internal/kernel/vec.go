package kernel

import "math"

// Dot returns Σ x[i]·y[i] over i < len(x). It panics if y is shorter.
// The whole blocks of 16 are summed in 16 lanes (dotGo's order) and the
// rest one by one, the same bits on every dispatch path.
func Dot(x, y []float64) float64 {
	n := len(x)
	if len(y) < n { // the assembly reads n values of each
		panic(errShort)
	}
	var s float64
	k := n &^ (block - 1)
	if k > 0 {
		if UseAsm && hasAsm {
			s = dotAsm(n, x, y)
		} else {
			s = dotGo(k, x, y)
		}
	}
	for i := k; i < n; i++ {
		// The conversion keeps the compiler from fusing (the language
		// allows it, and some architectures do): every path rounds twice.
		s += float64(x[i] * y[i])
	}
	return s
}

// Dot3 returns Σ a[i]·b[i]·c[i] over i < len(a), in Dot's order. It
// panics if b or c is shorter.
func Dot3(a, b, c []float64) float64 {
	n := len(a)
	if len(b) < n || len(c) < n {
		panic(errShort)
	}
	var s float64
	k := n &^ (block - 1)
	if k > 0 {
		if UseAsm && hasAsm {
			s = dot3Asm(n, a, b, c)
		} else {
			s = dot3Go(k, a, b, c)
		}
	}
	for i := k; i < n; i++ {
		s += float64(a[i] * b[i] * c[i])
	}
	return s
}

// AxpyMul adds alpha·a[i]·b[i] to y[i] for i < len(y), fused (one
// rounding of alpha·(a[i]·b[i]) + y[i]) over the whole blocks of 16, as
// the assembly does. It panics if a or b is shorter.
func AxpyMul(alpha float64, a, b, y []float64) {
	n := len(y)
	if len(a) < n || len(b) < n {
		panic(errShort)
	}
	k := n &^ (block - 1)
	if k > 0 {
		if UseAsm && hasAsm {
			axpyMulAsm(n, alpha, a, b, y)
		} else {
			for i := range k {
				y[i] = math.FMA(alpha, a[i]*b[i], y[i])
			}
		}
	}
	for i := k; i < n; i++ {
		y[i] += float64(alpha * a[i] * b[i])
	}
}

// Axpy adds alpha·x[i] to y[i] for i < len(y), fused over the whole
// blocks of 16 as the assembly does. It panics if x is shorter.
func Axpy(alpha float64, x, y []float64) {
	n := len(y)
	if len(x) < n {
		panic(errShort)
	}
	k := n &^ (block - 1)
	if k > 0 {
		if UseAsm && hasAsm {
			axpyAsm(n, alpha, x, y)
		} else {
			for i := range k {
				y[i] = math.FMA(alpha, x[i], y[i])
			}
		}
	}
	for i := k; i < n; i++ {
		y[i] += float64(alpha * x[i])
	}
}

// dotGo is the assembly's Dot in Go, bit for bit: for k a multiple of
// block, lane j (< 16) is the FMA chain over the i ≡ j mod 16, and the
// lanes are summed by sumLanes.
func dotGo(k int, x, y []float64) float64 {
	var acc [block]float64
	for i := 0; i < k; i += block {
		xs, ys := x[i:i+block:i+block], y[i:i+block:i+block]
		for j := range acc {
			acc[j] = math.FMA(xs[j], ys[j], acc[j])
		}
	}
	return sumLanes(&acc)
}

// dot3Go is dotGo of the products a[i]·b[i] and c[i], rounded as the
// assembly rounds them.
func dot3Go(k int, a, b, c []float64) float64 {
	var acc [block]float64
	for i := 0; i < k; i += block {
		as, bs, cs := a[i:i+block:i+block], b[i:i+block:i+block], c[i:i+block:i+block]
		for j := range acc {
			acc[j] = math.FMA(as[j]*bs[j], cs[j], acc[j])
		}
	}
	return sumLanes(&acc)
}

// sumLanes adds the 16 lanes in the order of the assembly: the four
// 4-wide registers as (r0 + r1) + (r2 + r3), then their lanes as
// (l0 + l2) + (l1 + l3).
func sumLanes(acc *[block]float64) float64 {
	var v [4]float64
	for l := range v {
		v[l] = (acc[l] + acc[4+l]) + (acc[8+l] + acc[12+l])
	}
	return (v[0] + v[2]) + (v[1] + v[3])
}

// Sum4 sets y[i] to a[i]+b[i]+c[i]+d[i] for i < len(y), summed in that
// order, plus y[i] when acc is set: four rows added to y in one pass. It
// panics if a, b, c or d is shorter than y.
func Sum4(acc bool, a, b, c, d, y []float64) {
	n := len(y)
	if len(a) < n || len(b) < n || len(c) < n || len(d) < n {
		panic(errShort)
	}
	k := 0
	if UseAsm && hasAsm && n >= block {
		k = n &^ (block - 1)
		sum4Asm(n, acc, a, b, c, d, y)
	}
	for i := k; i < n; i++ {
		s := a[i] + b[i] + c[i] + d[i]
		if acc {
			s += y[i]
		}
		y[i] = s
	}
}

// errShort is the panic of a vector shorter than the operation's length.
const errShort = "kernel: vector too short"

// block is the number of values the assembly kernels take per iteration
// (the rest is done in Go).
const block = 16
