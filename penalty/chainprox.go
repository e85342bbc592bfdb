package penalty

import (
	"math"
	"slices"
)

// This file holds the linear-time prox of the ordinal chain (the weighted
// 1-D fused lasso with one level pinned at 0), by the dynamic programme of
// N. A. Johnson, "A dynamic programming algorithm for the fused lasso and
// L0-segmentation", J. Comput. Graph. Statist. 22(2), 2013, §2, written
// here for edge weights and a pinned end.

// chainProx replaces x, the K−1 free levels of an ordinal block with K
// levels in order (level ref pinned at 0, level l stored at l for l < ref
// and at l − 1 for l > ref), by argmin_z ½‖z − x‖² + τ Σ_e w_e|z_{e+1} − z_e|
// over the chain, z_ref = 0; w nil means every edge weighs 1. The pinned
// level splits the chain in two, each with its end next to ref tied to 0
// by that edge's weight, and each is solved on its own by chainSide in
// O(K) time and memory (each breakpoint is pushed once and popped at most
// once). Levels fused together receive exactly the same value, and levels
// fused with the reference exactly 0.
func chainProx(x []float64, ref int, w []float64, tau float64, s *chainScratch) {
	if tau == 0 {
		return
	}
	k := len(x) + 1
	weight := func(e int) float64 {
		if w == nil {
			return tau
		}
		return tau * w[e]
	}
	// Left of ref: levels 0…ref−1 are x[0:ref], edges 0…ref−2 between them
	// and edge ref−1 to the reference.
	if ref > 0 {
		s.side(x[:ref], func(i int) float64 { return weight(i) })
	}
	// Right of ref: levels ref+1…K−1 are x[ref:], edge ref ties level ref+1
	// to the reference. chainSide pins the last entry, so the side is
	// solved in reverse: entry i of the reversed side is x[k−2−i], level
	// k−1−i, and the edge after it joins levels k−2−i and k−1−i.
	if ref < k-1 {
		r := x[ref:]
		slices.Reverse(r)
		s.side(r, func(i int) float64 { return weight(k - 2 - i) })
		slices.Reverse(r)
	}
}

// chainScratch holds chainProx's working memory, reused across calls.
type chainScratch struct {
	pos, da, db []float64 // the breakpoints of the message's derivative, a deque
	lo, hi      []float64 // the backtracking bounds of each entry
}

// side replaces v by argmin_z ½‖z − v‖² + Σ_{i<m−1} λ_i|z_{i+1} − z_i| +
// λ_{m−1}|z_{m−1}|, λ_i = lam(i) ≥ 0, m = len(v) ≥ 1: a chain whose last
// entry is tied to a pinned 0.
//
// The forward pass carries f_i, the derivative of the best value of the
// first i+1 terms as a function of z_i: f_0(z) = z − v_0, and
// f_{i+1}(z) = z − v_{i+1} + clamp(f_i(z), −λ_i, λ_i), the clamp coming
// from minimising over z_i (Johnson 2013, eq. 6). Every f_i is continuous,
// piecewise linear and increasing with slopes ≥ 1, so it is held as the
// coefficients (a, b) of its leftmost and rightmost pieces, a·z + b, and a
// deque of breakpoints with the change of (a, b) across each. The clamp
// cuts f_i where it crosses ∓λ_i, at lo_i and hi_i, popping the
// breakpoints beyond from either end; the best z_i given z_{i+1} is then
// clamp(z_{i+1}, lo_i, hi_i). The last entry minimises f_{m−1}(z) +
// λ_{m−1}·∂|z|, so z_{m−1} = clamp(0, root of f = −λ_{m−1}, root of
// f = λ_{m−1}).
func (s *chainScratch) side(v []float64, lam func(i int) float64) {
	m := len(v)
	s.grow(2 * m)
	lo, hi := s.lo[:m], s.hi[:m]
	// The deque lives in pos/da/db[head:tail], started in the middle so
	// that it can grow by one at each end per step.
	head, tail := m, m
	aL, bL, aR, bR := 1.0, -v[0], 1.0, -v[0]
	for i := 0; i < m-1; i++ {
		l := lam(i)
		// Left end: the point where f crosses −l.
		a, b := aL, bL
		for head < tail && a*s.pos[head]+b < -l {
			a += s.da[head]
			b += s.db[head]
			head++
		}
		lo[i] = (-l - b) / a
		head--
		s.pos[head], s.da[head], s.db[head] = lo[i], a, b+l
		aL, bL = 0, -l
		// Right end: the point where f crosses l.
		a, b = aR, bR
		for head < tail && a*s.pos[tail-1]+b > l {
			tail--
			a -= s.da[tail]
			b -= s.db[tail]
		}
		hi[i] = (l - b) / a
		s.pos[tail], s.da[tail], s.db[tail] = hi[i], -a, l-b
		tail++
		aR, bR = 0, l
		// Entry i+1's own term adds z − v_{i+1} to every piece.
		aL, bL, aR, bR = aL+1, bL-v[i+1], aR+1, bR-v[i+1]
	}
	l := lam(m - 1)
	root := func(t float64) float64 {
		a, b := aL, bL
		for k := head; k < tail && a*s.pos[k]+b < t; k++ {
			a += s.da[k]
			b += s.db[k]
		}
		return (t - b) / a
	}
	tol := roundingTol(v, lam)
	v[m-1] = clamp(0, snap(root(-l), tol), snap(root(l), tol), tol)
	for i := m - 2; i >= 0; i-- {
		v[i] = clamp(v[i+1], snap(lo[i], tol), snap(hi[i], tol), tol)
	}
}

// snap returns 0 for |z| ≤ tol, else z: a segment's value that is 0 in
// exact arithmetic is exactly 0, as the reference's cluster.
func snap(z, tol float64) float64 {
	if math.Abs(z) <= tol {
		return 0
	}
	return z
}

// roundingTol is the distance within which side's backtracking fuses: 1e-13
// of the largest |v_i| and λ_i. The bounds are sums of those divided by
// segment lengths, so rounding leaves a bound that equals the next value in
// exact arithmetic (ties in v: a segment's mean exactly at a kink) some
// 1e-17 off, which would split one cluster into two a rounding error apart,
// or leave a near-zero cluster beside the reference's exact 0.
func roundingTol(v []float64, lam func(i int) float64) float64 {
	var m float64
	for i, x := range v {
		m = max(m, math.Abs(x), lam(i))
	}
	return 1e-13 * m
}

// grow makes room for a side of m/2 entries.
func (s *chainScratch) grow(m int) {
	if len(s.pos) < m+1 {
		s.pos = make([]float64, m+1)
		s.da = make([]float64, m+1)
		s.db = make([]float64, m+1)
		s.lo = make([]float64, m+1)
		s.hi = make([]float64, m+1)
	}
}

// clamp returns z limited to [lo, hi]; z itself (the very value, so that
// fused entries are exactly equal) when it is inside or within tol of it.
func clamp(z, lo, hi, tol float64) float64 {
	switch {
	case z < lo-tol:
		return lo
	case z > hi+tol:
		return hi
	}
	return z
}
