package kernel

import "math"

// The constants of Exp and Log1pUnit. Exp reduces x to r = x − k·ln 2,
// |r| ≤ ln 2 / 2, with ln 2 split in two (ln2Hi's low bits are zero, so
// k·ln2Hi is exact), evaluates e^r by its Taylor polynomial of degree 13
// (the remainder is below 5e-18 of the value) and scales by 2^k in two
// factors, so that results down to the smallest subnormal are rounded once.
// Log1pUnit takes u = 1 + x as rounded, log u = e·ln 2 + log m with m = u
// or u/2 in [√2/2, √2], log m = 2 atanh(s) with s = f/(2 + f), f = m − 1,
// as f − (f²/2 − s(f²/2 + R)) (fdlibm's arrangement) with R the series
// Σ 2s^2k/(2k+1) to k = 11, and adds the rounding of the sum,
// (x − (u − 1))/u.
const (
	expLo = -746.0 // e^x rounds to 0 below
	expHi = 709.8  // e^x overflows above
	log2e = 1.4426950408889634
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
	sqrt2 = 1.4142135623730951
)

// expC holds 1/i!, i = 0…13.
var expC = func() (c [14]float64) {
	f := 1.0
	for i := range c {
		if i > 0 {
			f *= float64(i)
		}
		c[i] = 1 / f
	}
	return c
}()

// logC holds 2/(2k+1), k = 1…11.
var logC = func() (c [11]float64) {
	for k := range c {
		c[k] = 2 / float64(2*k+3)
	}
	return c
}()

// Exp returns e^x, within 3 ulps of math.Exp (TestExp; 2 seen), computed
// as the assembly kernel of ExpTo computes it, bit for bit: 0 below −746,
// +Inf above 709.8.
func Exp(x float64) float64 {
	if x != x {
		return x
	}
	xc := math.Min(math.Max(x, expLo), expHi)
	kf := math.RoundToEven(xc * log2e)
	r := math.FMA(kf, -ln2Hi, xc)
	r = math.FMA(kf, -ln2Lo, r)
	p := expC[13]
	for i := 12; i >= 0; i-- {
		p = math.FMA(p, r, expC[i])
	}
	k := int32(kf)
	k1 := k >> 1
	return p * pow2(k1) * pow2(k-k1)
}

// pow2 returns 2^k for k in the normal range.
func pow2(k int32) float64 { return math.Float64frombits(uint64(int64(k)+1023) << 52) }

// Log1pUnit returns log(1 + x) for x in [0, 1] (other values give
// unspecified results), within 2 ulps of math.Log1p (TestLog1pUnit),
// computed as the assembly kernel of Log1pUnitTo computes it, bit for bit.
func Log1pUnit(x float64) float64 {
	u := 1 + x
	c := (x - (u - 1)) / u
	m, e := u, 0.0
	if u > sqrt2 {
		m, e = u*0.5, 1
	}
	f := m - 1
	s := f / (2 + f)
	z := s * s
	q := logC[10]
	for k := 9; k >= 0; k-- {
		q = math.FMA(q, z, logC[k])
	}
	rr := z * q
	hfsq := 0.5 * f * f
	// The conversions keep the compiler from fusing a product and a sum
	// (which the language allows): the kernel rounds each.
	logm := f - (hfsq - float64(s*(hfsq+rr)))
	return float64(e*ln2Hi) + (logm + float64(e*ln2Lo)) + c
}

// ExpTo sets dst[i] = Exp(x[i]) for i < len(dst), four at a time with
// AVX2 and FMA where the CPU has them. It panics if x is shorter.
func ExpTo(dst, x []float64) { mapTo(dst, x, expAsm, Exp) }

// Log1pUnitTo sets dst[i] = Log1pUnit(x[i]) for i < len(dst), four at a
// time with AVX2 and FMA where the CPU has them. It panics if x is
// shorter.
func Log1pUnitTo(dst, x []float64) { mapTo(dst, x, log1pUnitAsm, Log1pUnit) }

// mapTo sets dst[i] = f(x[i]) for i < len(dst), by the assembly kernel
// vec (which computes f bit for bit) for the multiples of four.
func mapTo(dst, x []float64, vec func(n int, x, dst []float64), f func(float64) float64) {
	n := len(dst)
	if len(x) < n {
		panic(errShort)
	}
	k := 0
	if UseAsm && hasAsm && n >= 4 {
		k = n &^ 3
		vec(k, x, dst)
	}
	for i := k; i < n; i++ {
		dst[i] = f(x[i])
	}
}
