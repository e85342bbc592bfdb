package reference

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ProxGapTolerance is the relative primal–dual gap at which ProxExplicit
// stops: it returns once P(x) − D(u) ≤ ProxGapTolerance·max(1, P(x)).
const ProxGapTolerance = 1e-13

// ProxMaxSweeps is the number of full coordinate-descent sweeps over the dual
// variables after which ProxExplicit gives up and reports ErrNotConverged.
const ProxMaxSweeps = 200000

// proxFirstPolish is the sweep after which the first active-set polish is
// attempted while coordinate descent is still running; later attempts come
// after 2, 4, 8, … times as many sweeps, and one more is made as soon as
// coordinate descent alone meets the tolerance.
const proxFirstPolish = 8

// ErrNotConverged is returned (wrapped) by the iterative routines of this
// package when their iteration cap is reached before their tolerance is met.
var ErrNotConverged = errors.New("reference: iteration cap reached before the tolerance was met")

// ProxExplicit returns the proximal point
//
//	x* = argmin_x ½‖x − v‖² + tau·‖Kx‖₁
//
// for an arbitrary explicit m×n matrix K, together with the primal–dual gap
// that certifies it. It solves the dual problem
//
//	min ½‖v − Kᵀu‖²  subject to  u ∈ [−tau, tau]^m,
//
// whose solution gives x* = v − Kᵀu, by exact cyclic coordinate descent
// (each coordinate minimised in closed form and clipped to the box; rows of
// K that are entirely zero are skipped). Because coordinate descent can
// crawl when K is ill-conditioned, an exact active-set method (see polish)
// is also started from the current dual point after 8, 16, 32, … sweeps and
// as soon as coordinate descent alone meets the tolerance; whichever
// dual-feasible point has the smaller gap is kept. Iteration stops when the
// gap
//
//	P(x) − D(u),  P(x) = ½‖x−v‖² + tau‖Kx‖₁,  D(u) = ½‖v‖² − ½‖v−Kᵀu‖²,
//
// is at most ProxGapTolerance·max(1, P(x)). For x = v − Kᵀu this gap equals
// Σ_i (tau·|(Kx)_i| − u_i·(Kx)_i), a sum of non-negative terms, and it is
// evaluated in that cancellation-free form (so it may be a rounding-level
// negative number at worst). Because P is 1-strongly convex,
// ½‖x − x*‖² ≤ gap.
//
// If ProxMaxSweeps sweeps pass without meeting the tolerance, the x with the
// smallest gap seen is returned together with that gap and an error wrapping
// ErrNotConverged. That happens in practice only for badly scaled K: the gap
// cannot be computed below roughly tau·ε·Σ_i ‖k_i‖₁·‖x‖_∞ (ε the machine
// epsilon, k_i the rows of K), which exceeds the tolerance when rows have
// norms in the thousands. ProxExplicit panics if len(v) differs from the number of
// columns of K, if tau is negative, infinite or NaN, or if K or v contain a
// non-finite value.
func ProxExplicit(K *mat.Dense, v []float64, tau float64) (x []float64, gap float64, err error) {
	x, _, gap, err = ProxExplicitWithDual(K, v, tau)
	return x, gap, err
}

// ProxExplicitWithDual is ProxExplicit that also returns the dual certificate
// u ∈ [−tau, tau]^m, with x = v − Kᵀu computed from u, so that a test can
// recompute P(x) − D(u) on its own.
func ProxExplicitWithDual(K *mat.Dense, v []float64, tau float64) (x, u []float64, gap float64, err error) {
	return proxExplicit(K, v, tau, ProxMaxSweeps, true)
}

// proxCandidate is a dual-feasible point with its primal image and gap.
type proxCandidate struct {
	x, u   []float64
	gap, p float64
}

// proxProblem holds the rows of K and the data of one prox evaluation.
type proxProblem struct {
	rows [][]float64 // rows[i] is row i of K
	sq   []float64   // sq[i] = ‖rows[i]‖²
	v    []float64
	tau  float64
}

// primal returns x = v − Kᵀu, computed from scratch.
func (p *proxProblem) primal(u []float64) []float64 {
	x := make([]float64, len(p.v))
	copy(x, p.v)
	for i, ui := range u {
		if ui == 0 {
			continue
		}
		for j, kij := range p.rows[i] {
			x[j] -= ui * kij
		}
	}
	return x
}

// evaluate returns the gap Σ_i (tau|r_i| − u_i r_i) with r = Kx, and the
// primal objective P(x). It assumes x = v − Kᵀu.
func (p *proxProblem) evaluate(x, u []float64) (gap, primal float64) {
	var l1 float64
	for i, row := range p.rows {
		r := dot(row, x)
		l1 += math.Abs(r)
		gap += p.tau*math.Abs(r) - u[i]*r
	}
	var sq float64
	for j := range x {
		d := x[j] - p.v[j]
		sq += d * d
	}
	return gap, 0.5*sq + p.tau*l1
}

// candidate returns the dual-feasible point u (copied) with its primal
// image and gap.
func (p *proxProblem) candidate(u []float64) proxCandidate {
	x := p.primal(u)
	g, pv := p.evaluate(x, u)
	uc := make([]float64, len(u))
	copy(uc, u)
	return proxCandidate{x: x, u: uc, gap: g, p: pv}
}

// done reports whether c's gap meets ProxGapTolerance.
func (c proxCandidate) done() bool {
	return c.gap <= ProxGapTolerance*math.Max(1, c.p)
}

// proxExplicit is ProxExplicitWithDual with the sweep cap maxSweeps and the
// active-set polish optional.
func proxExplicit(K *mat.Dense, v []float64, tau float64, maxSweeps int, polish bool) (x, u []float64, gap float64, err error) {
	p := newProxProblem(K, v, tau)
	u = make([]float64, len(p.rows))
	best := p.candidate(u)
	if tau == 0 || best.done() {
		return best.x, best.u, best.gap, nil
	}
	cur := p.primal(u) // running primal iterate v − Kᵀu
	nextPolish := proxFirstPolish
	for sweep := 1; sweep <= maxSweeps; sweep++ {
		p.sweep(u, cur)
		// Recompute the iterate from u to remove accumulated drift.
		cur = p.primal(u)
		if g, pv := p.evaluate(cur, u); g < best.gap {
			best = proxCandidate{x: append([]float64(nil), cur...), u: append([]float64(nil), u...), gap: g, p: pv}
		}
		if polish && (best.done() || sweep == nextPolish) {
			if c := p.candidate(p.polish(u)); c.gap < best.gap {
				best = c
			}
			nextPolish *= 2
		}
		if best.done() {
			return best.x, best.u, best.gap, nil
		}
	}
	return best.x, best.u, best.gap, fmt.Errorf("ProxExplicit: gap %g after %d sweeps: %w", best.gap, maxSweeps, ErrNotConverged)
}

// newProxProblem checks ProxExplicit's arguments, panicking as it
// documents, and returns the problem with K's rows.
func newProxProblem(K *mat.Dense, v []float64, tau float64) *proxProblem {
	m, n := K.Dims()
	if len(v) != n {
		panic(fmt.Sprintf("reference: ProxExplicit: len(v) = %d, K has %d columns", len(v), n))
	}
	if !(tau >= 0) || math.IsInf(tau, 1) {
		panic("reference: ProxExplicit needs a finite tau >= 0")
	}
	if !allFinite(v) {
		panic("reference: ProxExplicit: v has a non-finite entry")
	}
	p := &proxProblem{rows: make([][]float64, m), sq: make([]float64, m), v: v, tau: tau}
	for i := range p.rows {
		p.rows[i] = mat.Row(nil, i, K)
		if !allFinite(p.rows[i]) {
			panic("reference: ProxExplicit: K has a non-finite entry")
		}
		p.sq[i] = dot(p.rows[i], p.rows[i])
	}
	return p
}

// allFinite reports whether no entry of v is infinite or NaN.
func allFinite(v []float64) bool {
	for _, vj := range v {
		if math.IsNaN(vj) || math.IsInf(vj, 0) {
			return false
		}
	}
	return true
}

// sweep makes one pass of exact cyclic coordinate descent on the dual over
// the non-zero rows of K, updating u and the running iterate cur = v − Kᵀu.
func (p *proxProblem) sweep(u, cur []float64) {
	for i, row := range p.rows {
		if p.sq[i] == 0 {
			continue
		}
		// Exact minimiser of ½‖v − Kᵀu‖² over u_i, then clipped.
		ui := u[i] + dot(row, cur)/p.sq[i]
		ui = math.Max(-p.tau, math.Min(p.tau, ui))
		d := ui - u[i]
		if d == 0 {
			continue
		}
		for j, kij := range row {
			cur[j] -= d * kij
		}
		u[i] = ui
	}
}

// polish runs a monotone active-set method (in the style of Lawson and
// Hanson's NNLS, for box constraints) on the dual, starting from the
// dual-feasible point u0. Coordinates strictly inside the box form the free
// set F; the others are held at their bounds. Each step moves the free
// coordinates towards the exact minimiser of the dual on the current face,
// u_F + δ with δ the minimum-norm least-squares solution of K_Fᵀδ ≈ x (so that
// the new x = v − Kᵀu satisfies K_F x = 0), stopping at the first bound it
// meets, which is then fixed. Once the face minimiser is reached, the bound
// coordinate whose multiplier has the wrong sign (u_i·(Kx)_i < 0) by the
// largest margin is released. The dual objective never increases, and when
// no multiplier has the wrong sign the KKT conditions hold, so the gap of
// the result is zero up to rounding. polish gives up (returning its current,
// still feasible, point) if it stalls or exceeds its iteration budget; the
// caller only ever uses the result through its gap.
func (p *proxProblem) polish(u0 []float64) []float64 {
	m := len(u0)
	u, fixed := p.atBounds(u0)
	released := -1
	for iter := 0; iter < 4*m+20; iter++ {
		alpha, stalled := p.faceMove(u, fixed, released)
		if stalled {
			return u
		}
		if alpha < 1 {
			released = -1
			continue
		}
		// On the face minimiser: look for a bound multiplier of the wrong sign.
		worst := p.worstMultiplier(u, fixed)
		if worst < 0 {
			return u
		}
		fixed[worst] = false
		released = worst
	}
	return u
}

// atBounds returns a copy of u0 with the coordinates on or beyond their
// bound (and those of zero rows) marked fixed, the former set exactly to
// ±tau.
func (p *proxProblem) atBounds(u0 []float64) (u []float64, fixed []bool) {
	u = make([]float64, len(u0))
	copy(u, u0)
	fixed = make([]bool, len(u0))
	for i := range u {
		fixed[i] = p.sq[i] == 0 || math.Abs(u[i]) >= p.tau
		if fixed[i] && p.sq[i] != 0 {
			u[i] = math.Copysign(p.tau, u[i])
		}
	}
	return u, fixed
}

// faceMove moves the free coordinates of u along the step to the face
// minimiser, by the largest fraction alpha ≤ 1 that stays in the box, and
// fixes those that reach a bound. It reports stalled when the coordinate
// just released cannot move inwards.
func (p *proxProblem) faceMove(u []float64, fixed []bool, released int) (alpha float64, stalled bool) {
	var free []int
	for i := range u {
		if !fixed[i] {
			free = append(free, i)
		}
	}
	if len(free) == 0 {
		return 1, false
	}
	delta := p.faceStep(u, free)
	alpha = p.stepToBox(u, free, delta)
	tau := p.tau
	for c, i := range free {
		ui := u[i] + alpha*delta[c]
		if alpha < 1 && math.Abs(ui) >= tau*(1-1e-15) {
			if i == released && alpha == 0 {
				return alpha, true
			}
			ui = math.Copysign(tau, ui)
			fixed[i] = true
		}
		u[i] = math.Max(-tau, math.Min(tau, ui))
	}
	return alpha, false
}

// stepToBox returns the largest alpha in [0, 1] for which u_F + alpha·delta
// stays in [−tau, tau].
func (p *proxProblem) stepToBox(u []float64, free []int, delta []float64) float64 {
	alpha := 1.0
	for c, i := range free {
		switch d := delta[c]; {
		case u[i]+d > p.tau:
			alpha = math.Min(alpha, (p.tau-u[i])/d)
		case u[i]+d < -p.tau:
			alpha = math.Min(alpha, (-p.tau-u[i])/d)
		}
	}
	return math.Max(alpha, 0)
}

// worstMultiplier returns the fixed coordinate whose multiplier has the
// wrong sign (u_i·(Kx)_i < 0) by the largest margin, or −1 if none has.
// Violations below the rounding error of (Kx)_i are ignored.
func (p *proxProblem) worstMultiplier(u []float64, fixed []bool) int {
	x := p.primal(u)
	n := len(p.v)
	worst, worstViol := -1, 0.0
	for i := range u {
		if !fixed[i] || p.sq[i] == 0 {
			continue
		}
		var r, mag float64
		for j, kij := range p.rows[i] {
			r += kij * x[j]
			mag += math.Abs(kij * x[j])
		}
		viol := -u[i] * r
		noise := 4 * float64(n) * 0x1p-52 * p.tau * mag
		if viol > noise && viol > worstViol {
			worst, worstViol = i, viol
		}
	}
	return worst
}

// faceStep returns the minimum-norm δ minimising ‖x − K_Fᵀδ‖ for
// x = v − Kᵀu, where K_F holds the rows of K indexed by free.
func (p *proxProblem) faceStep(u []float64, free []int) []float64 {
	n := len(p.v)
	x := p.primal(u)
	kf := mat.NewDense(n, len(free), nil)
	for c, i := range free {
		for j, kij := range p.rows[i] {
			kf.Set(j, c, kij)
		}
	}
	delta := make([]float64, len(free))
	var svd mat.SVD
	if !svd.Factorize(kf, mat.SVDThin) {
		return delta
	}
	rank := svd.Rank(float64(max(n, len(free))) * 0x1p-52)
	if rank == 0 {
		return delta
	}
	var d mat.VecDense
	svd.SolveVecTo(&d, mat.NewVecDense(n, x), rank)
	for c := range delta {
		delta[c] = d.AtVec(c)
	}
	return delta
}

// dot returns the inner product of a and b.
func dot(a, b []float64) float64 {
	var s float64
	for i, ai := range a {
		s += ai * b[i]
	}
	return s
}
