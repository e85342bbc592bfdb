package solver

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// PassNewtoner is a loss known only through passes over its rows (a file
// too large for memory, read again for each pass), each pass costing as
// much as a whole fit in memory. ProxNewton takes two passes per step on
// it: one for the quadratic model at the current point, and one that
// evaluates the objective at several step lengths at once and the dual
// objective at the current point (its certificate). The loss may carry
// free parameters (an intercept) that it fits within its model and moves
// along the steps ProxNewton takes.
type PassNewtoner interface {
	Loss
	// ModelPass makes one pass at theta, writes the loss's gradient there
	// into grad and returns the loss's value and its quadratic model, a
	// least-squares loss in Θ (the free parameters fitted within it).
	ModelPass(theta, grad *mat.Dense) (f float64, q *LeastSquares, err error)
	// LinePass makes one pass that evaluates the loss at
	// theta + t·(next − theta), the free parameters moved likewise towards
	// the model's, for each step length t of ts, and the loss's dual
	// objective at theta's dual point scaled by each s of scales (as
	// DualLoss.Dual; one scale for a norm, two for a penalty known by its
	// conjugate, see DualScales). slope is the free parameters' share of
	// the directional derivative along the step.
	LinePass(theta, next *mat.Dense, ts, scales []float64) (f, duals []float64, slope float64, err error)
	// Step moves the free parameters by the step length t of the last
	// LinePass.
	Step(t float64)
	// FreeOptimal reports whether the free parameters were at their
	// optimum at the last ModelPass's point, which makes the scaled
	// gradient there a feasible dual point.
	FreeOptimal() bool
}

// passSteps is how many step lengths, 1, ½, …, a PassNewtoner's line
// search evaluates in its one pass.
const passSteps = 10

// passLineRounds is how many passes a PassNewtoner's line search may take,
// each with step lengths 2^−passSteps times the last's, before it gives
// up (t down to 2⁻⁵⁹, as the 60 halvings of the search in memory): where
// one row's curvature dwarfs the others' (a gamma response 1e10 times the
// rest), the Newton step is too long by more than 2⁹, and a single pass
// stopped the fit as stalled at its first step.
const passLineRounds = 6

// passStallSteps is how many outer steps without progress stop proximal
// Newton on a PassNewtoner (status Stalled): each step is two passes.
const passStallSteps = 5

// passModelTolFloor is the smallest tolerance of a PassNewtoner's model
// solves, a decade below ProxNewton's in memory (modelTolFloor): a pass
// costs more than any inner iteration.
const passModelTolFloor = 1e-14

// minimizePasses is ProxNewton on a PassNewtoner: per step, a model pass,
// the model's solve (FISTA in Gram form), and a pass for the line search
// and the certificate of the current point, which stops the method once
// its relative gap is at most Tol with the free parameters at their
// optimum.
func (m *ProxNewton) minimizePasses(p Problem, pl PassNewtoner, init mat.Matrix, s Settings) (*Result, error) {
	rows, cols := p.Loss.Dims()
	x := mat.NewDense(rows, cols, nil)
	if init != nil {
		x.Copy(init)
	}
	grad := mat.NewDense(rows, cols, nil)
	res := &Result{Gap: math.NaN(), Residual: math.NaN(), Status: IterationLimit}
	gap := math.Inf(1)
	outer := min(s.MaxIter, maxOuter)
	pg := NewProgress(passStallSteps)
	for k := 1; k <= outer; k++ {
		f, q, err := pl.ModelPass(x, grad)
		if err != nil {
			return nil, err
		}
		next, err := m.passModel(p, q, x, f, gap, s)
		if err != nil {
			return nil, err
		}
		ls, err := passLine(p, pl, x, next, grad, f, s.Tol)
		if err != nil {
			return nil, err
		}
		res.Iterations = k
		res.Objective, gap = ls.obj, ls.gap
		res.Gap = gap // of x, the point certified
		if m.passStop(res, pg, k, ls, pl.FreeOptimal(), s.Tol) {
			break
		}
		x = ls.x
		pl.Step(ls.t)
		if k == outer {
			res.Gap = math.NaN() // the last step was not certified
		}
	}
	res.Theta = x
	return res, nil
}

// passStop sets res's status after step k's certificate and reports
// whether it stops the method: converged (gap at most tol with the free
// parameters optimal), no decrease along the step (stalled at rounding),
// or no progress over passStallSteps steps (each is two passes: do not
// repeat them for nothing).
func (m *ProxNewton) passStop(res *Result, pg *Progress, k int, ls *passLineResult, freeOK bool, tol float64) bool {
	switch {
	case (res.Gap <= tol || ls.floor) && (freeOK || ls.tiny):
		res.Converged, res.Status = true, gapStatus(res.Gap, ls.floor, tol)
	case ls.t == 0:
		res.Status = Stalled
		if res.Gap <= tol {
			res.Converged, res.Status = true, GapConverged
		}
	case pg.Stalled(k, res.Objective, res.Gap):
		res.Status = Stalled
	default:
		return false
	}
	return true
}

// passModel minimises the model q plus λh from x, to a tenth of the gap
// of the last certified point (gap; f is the loss at x), converted to the
// model's scale.
func (m *ProxNewton) passModel(p Problem, q *LeastSquares, x *mat.Dense, f, gap float64, s Settings) (*mat.Dense, error) {
	hx := p.Lambda * p.Penalty.Value(x)
	tol := modelTol(gap, f+hx, q.Eval(nil, x)+hx, passModelTolFloor)
	set := &Settings{Tol: tol, MaxIter: max(s.MaxIter, 1000)}
	r, err := Minimize(Problem{Loss: q, Penalty: p.Penalty, Lambda: p.Lambda}, x, set, m.inner(p, q))
	if err != nil {
		return nil, err
	}
	return r.Theta, nil
}

// passLineResult is the outcome of a line-search pass.
type passLineResult struct {
	x   *mat.Dense // the point accepted (the current one when t = 0)
	t   float64    // the step taken (0: none)
	obj float64    // the objective at the current point
	gap float64    // its relative duality gap (NaN: unknown)
	// floor reports whether its absolute gap is at the loss's rounding
	// floor (a loss with a GapFloor method; status GapFloor), and tiny
	// whether the objective itself is: a deviance is ≥ 0, so the point
	// is then within the floor of the minimum whatever the free
	// parameters (offsets that decide every response: a deviance of
	// 1e-302 whose intercept's derivative is of its own size).
	floor, tiny bool
}

// passLine evaluates, in one pass, the objective along the Newton step
// from x to next at passSteps step lengths and the certificate of x (the
// loss f and gradient grad there), and takes the longest step with
// sufficient decrease (Armijo); when none has, further passes try steps
// 2^−passSteps times shorter (passLineRounds), unless x is certified to
// tol already or the step is no descent direction.
func passLine(p Problem, pl PassNewtoner, x, next, grad *mat.Dense, f, tol float64) (*passLineResult, error) {
	scales, terms, ok := DualScales(p, grad)
	hx := p.Penalty.Value(x)
	out := &passLineResult{x: x, obj: f + p.Lambda*hx, gap: math.NaN()}
	var decrease float64
	ts := make([]float64, passSteps)
	for round := range passLineRounds {
		for k := range ts {
			ts[k] = math.Pow(0.5, float64(round*passSteps+k))
		}
		fs, duals, slope, err := pl.LinePass(x, next, ts, scales)
		if err != nil {
			return nil, err
		}
		if round == 0 {
			if ok { // as certificate: an objective of 0 (a deviance underflowed) has its absolute gap
				dual := math.Inf(-1)
				for k, d := range duals {
					dual = math.Max(dual, d-terms[k])
				}
				g := math.Max(out.obj-dual, 0)
				out.gap = RelativeGap(g, out.obj)
				if fl, ok := pl.(interface{ GapFloor() float64 }); ok {
					out.floor, out.tiny = g <= fl.GapFloor(), out.obj <= fl.GapFloor()
				}
			}
			decrease = slope
			xs, ns := x.RawMatrix().Data, next.RawMatrix().Data
			for j, g := range grad.RawMatrix().Data {
				decrease += g * (ns[j] - xs[j])
			}
			decrease += p.Lambda * (p.Penalty.Value(next) - hx)
		}
		for k, t := range ts {
			cand := stepTo(x, next, t)
			obj := fs[k] + p.Lambda*p.Penalty.Value(cand)
			if obj <= out.obj+armijo*t*math.Min(decrease, 0) && obj < out.obj || t == 1 && belowRounding(obj, out.obj, decrease) {
				out.x, out.t = cand, t
				return out, nil
			}
		}
		if !(decrease < 0) || out.gap <= tol {
			break // not a descent direction, or certified already: no more passes
		}
	}
	return out, nil
}

// objRounding is the relative rounding of an objective's evaluation that
// a step's comparison cannot see through: a few hundred ulps (as the
// profile's in datafit).
const objRounding = 1e-13

// belowRounding reports whether the full Newton step, to objective obj
// from cur with predicted decrease decrease, is one whose decrease the
// comparison cannot judge: predicted below cur's rounding, and obj not
// above cur beyond it. The streamed intercept moves only with the steps:
// with a Poisson count of 9e15 (objective 7.5e16, rounding ~10) the step
// that brings its derivative from 2e6 to 100 gains 1e-4, no step was
// taken, and the fit stalled at a relative gap of 0.99 (its dual point
// scaled down by that derivative's effect on the gradient) where the fit
// in memory, which profiles the intercept, converges.
func belowRounding(obj, cur, decrease float64) bool {
	r := objRounding * math.Abs(cur)
	return -decrease <= r && obj <= cur+r
}

// stepTo returns x + t·(next − x), entry by entry.
func stepTo(x, next *mat.Dense, t float64) *mat.Dense {
	r, c := x.Dims()
	out := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			a := x.At(i, j)
			out.Set(i, j, a+t*(next.At(i, j)-a))
		}
	}
	return out
}
