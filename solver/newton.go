package solver

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Newtoner is a loss that gives, at Θ, its second-order model as a
// least-squares loss: f(Θ') ≈ f(Θ) + ⟨∇f(Θ), Θ' − Θ⟩ + ½⟨Θ' − Θ, ∇²f(Θ)(Θ' − Θ)⟩
// equals the returned loss at Θ' up to a constant. Generalised linear
// models give it by iteratively reweighted least squares.
type Newtoner interface {
	DualLoss
	// Quadratic returns the model at theta.
	Quadratic(theta *mat.Dense) (*LeastSquares, error)
}

// ProxNewton is the proximal Newton method (Lee, Sun and Saunders, SIAM J.
// Optim. 24(3), 2014), glmnet's outer loop for non-quadratic losses: each
// outer iteration minimises the loss's quadratic model plus λh with an
// inner method, then backtracks along the step until the true objective
// decreases enough. It stops on the true problem's relative duality gap;
// Iterations counts outer iterations. It needs a Newtoner loss, or a
// PassNewtoner, a loss read by passes over its rows, on which each step
// is two passes (see PassNewtoner).
type ProxNewton struct {
	// Inner minimises the quadratic models. If nil, coordinate descent
	// for the lasso on a dense model (glmnet's inner loop), else FISTA
	// with polishing on the model's Gram form.
	Inner Method
}

// inner returns the method for the model q.
func (m *ProxNewton) inner(p Problem, q *LeastSquares) Method {
	if m.Inner != nil {
		return m.Inner
	}
	switch q.x.(type) {
	case DenseDesign, ColumnDesign:
		if IsSeparableL1(p.Penalty) {
			return CoordinateDescent{}
		}
	}
	return &FISTA{}
}

// Minimize implements Method.
func (m *ProxNewton) Minimize(p Problem, init mat.Matrix, s Settings) (*Result, error) {
	if pl, ok := p.Loss.(PassNewtoner); ok {
		return m.minimizePasses(p, pl, init, s)
	}
	nl, ok := p.Loss.(Newtoner)
	if !ok {
		return nil, errors.New("solver: proximal Newton needs a loss with a quadratic model (a Newtoner or a PassNewtoner)")
	}
	rows, cols := p.Loss.Dims()
	x := mat.NewDense(rows, cols, nil)
	if init != nil {
		x.Copy(init)
	}
	grad := mat.NewDense(rows, cols, nil)
	res := &Result{Gap: math.NaN(), Residual: math.NaN(), Status: IterationLimit}
	obj, gap, floor := certificate(p, x, grad)
	res.Objective, res.Gap = obj, gap
	pg := NewProgress(newtonStallSteps)
	pg.Stalled(0, obj, gap)
	for k := 1; k <= min(s.MaxIter, maxOuter); k++ {
		if res.Status = gapStatus(gap, floor, s.Tol); res.Status != IterationLimit {
			res.Converged = true
			break
		}
		next, err := m.step(p, nl, x, grad, obj, gap, s)
		if err != nil {
			return nil, err
		}
		res.Iterations = k
		if next == nil {
			// No decrease along the Newton step: the objective is flat
			// to rounding while the dual point is not yet good enough.
			// First-order steps finish the certificate.
			return m.finish(p, x, s, res)
		}
		x = next
		obj, gap, floor = certificate(p, x, grad)
		res.Objective, res.Gap = obj, gap
		if s.Trace {
			res.Trace = append(res.Trace, TraceEntry{Iteration: k, Objective: obj, Criterion: gap})
		}
		if gapStatus(gap, floor, s.Tol) == IterationLimit && pg.Stalled(k, obj, gap) {
			res.Status = Stalled
			break
		}
	}
	if !res.Converged && res.Status != Stalled {
		if st := gapStatus(gap, floor, s.Tol); st != IterationLimit {
			res.Converged, res.Status = true, st
		}
	}
	res.Theta = x
	return res, nil
}

// newtonStallSteps is how many outer iterations without progress stop
// proximal Newton (status Stalled).
const newtonStallSteps = 25

// maxOuter bounds the outer iterations; proximal Newton converges in tens.
const maxOuter = 100

// step minimises the model at x and returns the accepted point, or nil when
// the line search finds no decrease. grad holds ∇f(x).
func (m *ProxNewton) step(p Problem, nl Newtoner, x, grad *mat.Dense, obj, gap float64, s Settings) (*mat.Dense, error) {
	q, err := nl.Quadratic(x)
	if err != nil {
		return nil, err
	}
	tol := modelTol(gap, obj, q.valueCheap(x)+p.Lambda*p.Penalty.Value(x), modelTolFloor)
	r, err := Minimize(Problem{Loss: q, Penalty: p.Penalty, Lambda: p.Lambda}, x, &Settings{Tol: tol, MaxIter: s.MaxIter, GapEvery: s.GapEvery, inner: true}, m.inner(p, q))
	if err != nil {
		return nil, err
	}
	var d mat.Dense
	d.Sub(r.Theta, x)
	if mat.Norm(&d, math.Inf(1)) == 0 {
		return nil, nil
	}
	hx := p.Penalty.Value(x)
	decrease := mat.Dot(vecView(grad), vecView(&d)) + p.Lambda*(p.Penalty.Value(r.Theta)-hx)
	cand := mat.NewDense(x.RawMatrix().Rows, x.RawMatrix().Cols, nil)
	for t := 1.0; t > 1e-12; t /= 2 {
		cand.Scale(t, &d)
		cand.Add(cand, x)
		f := p.Objective(cand)
		if f <= obj+armijo*t*math.Min(decrease, 0) && !math.IsNaN(f) {
			if f < obj || t == 1 && f == obj {
				return cand, nil
			}
		}
	}
	return nil, nil
}

// modelTolFloor is the smallest tolerance of proximal Newton's model
// solves.
const modelTolFloor = 1e-13

// modelTol returns the tolerance of a model's solve: a tenth of the outer
// relative gap gap, in absolute terms (obj is the objective, qx the
// model's objective at the current point), as a relative gap of the
// model, within [floor, 1e-3] (1e-3 when the gap is unknown).
func modelTol(gap, obj, qx, floor float64) float64 {
	tol := 0.1 * gap * obj / math.Max(qx, math.SmallestNonzeroFloat64)
	tol = math.Min(math.Max(tol, floor), 1e-3)
	if math.IsNaN(tol) {
		tol = 1e-3
	}
	return tol
}

// armijo is the sufficient-decrease fraction of the line search.
const armijo = 1e-4

// finish runs FISTA from x when proximal Newton stalls, and reports the
// outer iterations plus FISTA's.
func (m *ProxNewton) finish(p Problem, x *mat.Dense, s Settings, res *Result) (*Result, error) {
	r, err := (&FISTA{}).Minimize(p, x, s)
	if err != nil {
		return nil, err
	}
	r.Iterations += res.Iterations
	r.Trace = append(res.Trace, r.Trace...)
	return r, nil
}
