package solver

import (
	"errors"
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// FISTA is the accelerated proximal gradient method with adaptive restart,
// backtracking when the loss has no Lipschitz bound, and polishing on the
// penalty's linear pieces (see the package documentation).
type FISTA struct {
	// NoPolish turns polishing off, leaving plain FISTA.
	NoPolish bool
}

// Polisher is a loss that can minimise f(Θ) + λ·h(Θ) exactly over the
// linear pieces of a piecewise-linear h, one piece per column.
type Polisher interface {
	// Polish writes into dst the minimiser of f + λh restricted to the
	// pieces (one per column of dst) and reports whether the reduced
	// problem had a unique solution.
	Polish(dst *mat.Dense, pieces []penalty.Piece, lambda float64) bool
}

// Minimize implements Method.
func (m *FISTA) Minimize(p Problem, init mat.Matrix, s Settings) (*Result, error) {
	r := m.start(p, init, s)
	for k := 1; k <= s.MaxIter; k++ {
		resid, err := r.iterate(k)
		if err != nil {
			return nil, err
		}
		r.res.Iterations = k
		if k%s.GapEvery != 0 && k != s.MaxIter {
			continue
		}
		if r.check(k, resid) {
			break
		}
	}
	res := r.res
	res.Theta = r.x
	if !res.Converged && math.IsNaN(res.Gap) && math.IsNaN(res.Residual) {
		res.Objective = p.Objective(r.x)
	}
	return res, nil
}

// fistaRun is the state of one FISTA minimisation.
type fistaRun struct {
	m                      *FISTA
	p                      Problem
	s                      Settings
	x, y, xNew, grad, step *mat.Dense
	L                      float64      // the step is 1/L
	metric                 *blockMetric // when not nil, the step is the metric's (L unused)
	scratch                metricScratch
	backtrack              bool    // no Lipschitz bound: L doubles until the step decreases f enough
	t                      float64 // the momentum's sequence
	pol                    *polishState
	pg                     *Progress
	res                    *Result
}

// start returns the state at init (nil: zero).
func (m *FISTA) start(p Problem, init mat.Matrix, s Settings) *fistaRun {
	rows, cols := p.Loss.Dims()
	r := &fistaRun{m: m, p: p, s: s, x: mat.NewDense(rows, cols, nil), xNew: mat.NewDense(rows, cols, nil),
		grad: mat.NewDense(rows, cols, nil), step: mat.NewDense(rows, cols, nil), t: 1}
	if init != nil {
		r.x.Copy(init)
	}
	r.y = mat.DenseCopyOf(r.x)
	r.L = p.Loss.Lipschitz()
	if r.backtrack = !(r.L > 0) || math.IsInf(r.L, 1); r.backtrack {
		r.L = 1
	} else {
		r.metric = newBlockMetric(p)
	}
	r.pol = m.polisher(p)
	r.pg = NewProgress(s.stallWindow(fistaStallIters))
	r.res = &Result{Gap: math.NaN(), Residual: math.NaN(), Status: IterationLimit}
	return r
}

// iterate takes the k-th proximal gradient step from y, moves the
// momentum (restarting it when it points uphill), and returns the
// relative fixed-point residual of the step.
func (r *fistaRun) iterate(k int) (float64, error) {
	fy := r.p.Loss.Eval(r.grad, r.y)
	if math.IsNaN(fy) || math.IsInf(fy, 0) {
		return 0, fmt.Errorf("solver: the loss is %v at iteration %d (badly scaled data?)", fy, k)
	}
	if err := r.proxStep(fy); err != nil {
		return 0, err
	}
	// Fixed-point residual of the prox-gradient map, before y moves,
	// relative to the iterates (so that it does not depend on the
	// scale of Θ; 0/0 when both are exactly zero counts as 0).
	r.step.Sub(r.xNew, r.y)
	resid := relative(frobNorm(r.step), math.Max(frobNorm(r.xNew), frobNorm(r.y)))
	// Gradient restart: ⟨y − x⁺, x⁺ − x⟩ > 0 means the momentum points
	// uphill.
	tNew := (1 + math.Sqrt(1+4*r.t*r.t)) / 2
	beta := (r.t - 1) / tNew
	r.grad.Sub(r.xNew, r.x)
	if -r.dot(r.step, r.grad) > 0 {
		beta, tNew = 0, 1
	}
	r.y.Scale(beta, r.grad)
	r.y.Add(r.y, r.xNew)
	r.x, r.xNew = r.xNew, r.x
	r.t = tNew
	return resid, nil
}

// proxStep writes the proximal gradient step from y (f(y) = fy, its
// gradient in grad) into xNew, doubling L until the step decreases f
// enough when backtracking.
func (r *fistaRun) proxStep(fy float64) error {
	if r.metric != nil {
		r.metric.step(r.xNew, r.y, r.grad, r.p.Lambda, &r.scratch)
		return nil
	}
	for {
		r.step.Scale(-1/r.L, r.grad)
		r.step.Add(r.step, r.y)
		r.p.Penalty.Prox(r.xNew, r.step, r.p.Lambda/r.L)
		if !r.backtrack || sufficientDecrease(r.p.Loss, r.xNew, r.y, r.grad, fy, r.L) || roundingStep(r.xNew, r.y) {
			return nil
		}
		if r.L *= 2; math.IsInf(r.L, 1) {
			return errors.New("solver: backtracking found no step: the loss is not smooth or not finite")
		}
	}
}

// dot is the inner product of the step's metric.
func (r *fistaRun) dot(a, b *mat.Dense) float64 {
	if r.metric != nil {
		return r.metric.inner(a, b)
	}
	return mat.Dot(vecView(a), vecView(b))
}

// check evaluates the stopping criterion at iteration k (the duality gap,
// or the residual resid where there is none), polishes, and reports
// whether the method stops.
func (r *fistaRun) check(k int, resid float64) bool {
	res, s := r.res, r.s
	obj, gap, floor := certificate(r.p, r.x, r.grad)
	if math.IsNaN(gap) {
		res.Objective, res.Residual = obj, resid
		r.m.trace(res, s, k, obj, resid)
		if resid <= s.Tol {
			res.Converged, res.Status = true, ResidualConverged
			return true
		}
		if r.pg.Stalled(k, obj, resid) {
			res.Status = Stalled
			return true
		}
		return false
	}
	res.Objective, res.Gap, res.Polished = obj, gap, false
	r.m.trace(res, s, k, obj, gap)
	if res.Status = gapStatus(gap, floor, s.Tol); res.Status != IterationLimit {
		res.Converged = true
		return true
	}
	if r.polish(k, obj, gap) {
		return true
	}
	if r.pg.Stalled(k, res.Objective, res.Gap) {
		res.Status = Stalled
		return true
	}
	return false
}

// polish tries the polished point at x (certificate obj, gap), keeps it
// when it is better certified, and reports whether it stops the method.
func (r *fistaRun) polish(k int, obj, gap float64) bool {
	if !r.pol.try(r.p, r.x) {
		return false
	}
	res := r.res
	pObj, pGap, pFloor := certificate(r.p, r.pol.cand, r.grad)
	if !(pGap < gap && pObj <= obj) {
		return false
	}
	r.x.Copy(r.pol.cand)
	r.y.Copy(r.x)
	r.t = 1
	res.Objective, res.Gap, res.Polished = pObj, pGap, true
	r.m.trace(res, r.s, k, pObj, pGap)
	if res.Status = gapStatus(pGap, pFloor, r.s.Tol); res.Status != IterationLimit {
		res.Converged = true
		return true
	}
	return false
}

// fistaStallIters is how many iterations without progress stop FISTA
// (status Stalled).
const fistaStallIters = 500

// relative returns a/b, and 0 when both are 0.
func relative(a, b float64) float64 {
	if a == 0 {
		return 0
	}
	return a / b
}

// gapStatus says whether a certificate stops the method.
func gapStatus(gap float64, floor bool, tol float64) Status {
	switch {
	case gap <= tol:
		return GapConverged
	case floor:
		return GapFloor
	}
	return IterationLimit
}

func (m *FISTA) trace(res *Result, s Settings, k int, obj, crit float64) {
	if s.Trace {
		res.Trace = append(res.Trace, TraceEntry{Iteration: k, Objective: obj, Criterion: crit})
	}
}

// roundingStep reports whether the step from y to x is at the rounding
// level of y: no step can decrease f any more in float64, whose rounding
// (a deviance near 0, whose terms cancel, say) may then keep the
// sufficient-decrease test from holding at any L. The step is taken (it
// moves nothing) and the certificate judges the point.
func roundingStep(x, y *mat.Dense) bool {
	var d mat.Dense
	d.Sub(x, y)
	return frobNorm(&d) <= 1e-14*frobNorm(y)
}

// sufficientDecrease is the backtracking test
// f(x) ≤ f(y) + ⟨∇f(y), x − y⟩ + (L/2)‖x − y‖².
func sufficientDecrease(f Loss, x, y, grad *mat.Dense, fy, L float64) bool {
	var d mat.Dense
	d.Sub(x, y)
	n := mat.Norm(&d, 2)
	return f.Eval(nil, x) <= fy+mat.Dot(vecView(grad), vecView(&d))+L/2*n*n+1e-12*math.Abs(fy)
}

// vecView sees a dense matrix as a vector (a copy when it is not
// contiguous).
func vecView(m *mat.Dense) *mat.VecDense {
	r, c := m.Dims()
	raw := m.RawMatrix()
	if raw.Stride == c {
		return mat.NewVecDense(r*c, raw.Data[:r*c])
	}
	v := mat.NewVecDense(r*c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			v.SetVec(i*c+j, m.At(i, j))
		}
	}
	return v
}

// polishState decides when to polish: only when the cluster structure is the
// same at two consecutive gap checks and differs from the last structure
// polished, so that a costly reduced solve is not repeated needlessly.
type polishState struct {
	loss   Polisher
	pen    penalty.Piecewise
	prev   string
	tried  string
	cand   *mat.Dense
	pieces []penalty.Piece
	off    bool // the last try solved on the piece and left it
	eager  bool // the next try polishes without waiting for a repeat
}

func (m *FISTA) polisher(p Problem) *polishState {
	if m.NoPolish {
		return nil
	}
	return newPolisher(p)
}

// newPolisher returns the polishing state of p, or nil when its loss or
// penalty cannot polish.
func newPolisher(p Problem) *polishState {
	l, ok1 := p.Loss.(Polisher)
	h, ok2 := p.Penalty.(penalty.Piecewise)
	if !ok1 || !ok2 {
		return nil
	}
	return &polishState{loss: l, pen: h}
}

func (ps *polishState) try(p Problem, x *mat.Dense) bool {
	if ps == nil {
		return false
	}
	ps.off = false
	rows, cols := x.Dims()
	ps.pieces = ps.pieces[:0]
	col := make([]float64, rows)
	var sig []byte
	for j := 0; j < cols; j++ {
		mat.Col(col, j, x)
		pc := ps.pen.Piece(col, cols)
		ps.pieces = append(ps.pieces, pc)
		sig = appendSignature(sig, pc, col)
	}
	key := string(sig)
	stable := (key == ps.prev || ps.eager) && key != ps.tried
	ps.prev, ps.eager = key, false
	if !stable {
		return false
	}
	ps.tried = key
	if ps.cand == nil {
		ps.cand = mat.NewDense(rows, cols, nil)
	}
	if !ps.loss.Polish(ps.cand, ps.pieces, p.Lambda) {
		return false
	}
	// The reduced solve is the minimiser on the piece only if its solution
	// stays on the piece (same clusters, order and signs).
	ok := ps.signature(ps.cand, col) == key
	ps.off = !ok
	return ok
}

func (ps *polishState) signature(x *mat.Dense, col []float64) string {
	_, cols := x.Dims()
	var sig []byte
	for j := 0; j < cols; j++ {
		mat.Col(col, j, x)
		sig = appendSignature(sig, ps.pen.Piece(col, cols), col)
	}
	return string(sig)
}

// appendSignature encodes a piece: its clusters in order and the sign
// pattern of its slopes, which together fix the linear piece.
func appendSignature(sig []byte, pc penalty.Piece, col []float64) []byte {
	for c, cl := range pc.Clusters {
		for _, i := range cl {
			sig = append(sig, byte(i), byte(i>>8), byte(i>>16))
		}
		sig = append(sig, ',')
		if pc.Slopes[c] < 0 {
			sig = append(sig, '-')
		}
	}
	sig = append(sig, byte(len(pc.Constraints)), '|')
	return sig
}
