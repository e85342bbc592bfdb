package datafit

import "math"

// rootIncreasing returns the root of f, an increasing function of one
// variable given with its derivative, by Newton's method from x0 kept
// inside a bracket: [lo, hi] is first widened, doubling its width, until
// f(lo) ≤ 0 ≤ f(hi) (for a root that exists; 200 doublings at most), and
// a step that leaves the bracket, or does not shrink |f| enough, is
// replaced by bisection. The families' conjugates without a closed form
// (Tweedie) solve ∂d/∂η = v with it. It stops when the bracket or the
// step is within a few ulps of the root, or f is 0.
func rootIncreasing(f func(x float64) (val, der float64), lo, hi, x0 float64) float64 {
	for i := 0; i < 200; i++ {
		if v, _ := f(hi); v >= 0 || math.IsNaN(v) {
			break
		}
		lo, hi = hi, hi+2*(hi-lo)
	}
	for i := 0; i < 200; i++ {
		if v, _ := f(lo); v <= 0 || math.IsNaN(v) {
			break
		}
		lo, hi = lo-2*(hi-lo), lo
	}
	x := x0
	if !(x > lo && x < hi) {
		x = lo + (hi-lo)/2
	}
	for i := 0; i < 400; i++ {
		v, d := f(x)
		switch {
		case v == 0:
			return x
		case v < 0:
			lo = x
		default:
			hi = x
		}
		next := x - v/d
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		if next == x || hi-lo <= 4e-16*math.Max(math.Abs(lo), math.Abs(hi)) || math.Abs(next-x) <= 1e-16*math.Abs(x) {
			return next
		}
		x = next
	}
	return x
}
