package glm

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
	"gonum.org/v1/gonum/mat"
)

// RowSource gives a data set's rows, one pass at a time (see
// data.RowSource).
type RowSource = data.RowSource

// StreamResult is a fit from a RowSource with the number of passes it
// took.
type StreamResult struct {
	*Model
	// Passes counts the passes over the rows.
	Passes int
}

// FitSource fits the model at one λ from a RowSource of p predictors in
// O(p²) memory, by proximal Newton with two passes per outer iteration:
// one for the weighted statistics of the IRLS model (package suffstat:
// weights wᵢ∂²d/∂η²/2, working response), whose Gram form the inner method
// solves with the intercept fitted by centring, and one for the line search
// (ten step lengths at once) and the certificate of the current point. A
// few passes at the start fit the intercept-only model (the null deviance).
// The fit stops when the relative duality gap reaches the tolerance with
// the intercept at its optimum (relative intercept gradient ≤ 1e-9). Offsets
// and weights are supported; Unpenalized and Standardize are not (an error).
// Tolerances below about 1e-8 may not be reached: the Newton steps can
// stall at a relative gap near 1e-9 (reported as not converged).
func FitSource(src RowSource, p int, pen penalty.Penalty, lambda float64, opts *Options) (*StreamResult, error) {
	if lambda < 0 || math.IsNaN(lambda) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("glm: λ must be finite and ≥ 0, got %v", lambda)
	}
	s, null, err := newStream(src, p, pen, opts)
	if err != nil {
		return nil, err
	}
	s.lambda = lambda
	pt, res, err := s.solve(null)
	if err != nil {
		return nil, err
	}
	m, err := s.model(pt, res)
	if err != nil {
		return nil, err
	}
	return &StreamResult{Model: m, Passes: s.passes}, nil
}

// StreamPath is a path fitted from a RowSource with the number of passes
// it took.
type StreamPath struct {
	*Path
	// Passes counts the passes over the rows.
	Passes int
}

// FitPathSource fits a path like FitPath from a RowSource of p predictors
// in O(p²) memory (see FitSource), each fit warm-started at the previous
// one, with FitPath's grid and stopping rules. Passes: one to check the
// rows, a few for the intercept-only model, one for λ_max when the grid is
// generated, then per λ two per Newton step (typically 2–5 steps from a
// warm start) and one for the deviance of the fit.
func FitPathSource(src RowSource, p int, pen penalty.Penalty, opts *PathOptions) (*StreamPath, error) {
	var po PathOptions
	if opts != nil {
		po = *opts
	}
	s, null, err := newStream(src, p, pen, &po.Options)
	if err != nil {
		return nil, err
	}
	grid, generated, err := s.grid(null, &po)
	if err != nil {
		return nil, err
	}
	warm := null
	pth, err := runPath(s.fam, grid, generated, func(lambda float64) (*Model, error) {
		s.lambda = lambda
		pt, res, err := s.solve(warm)
		if err != nil {
			return nil, err
		}
		warm = pt
		return s.model(pt, res)
	})
	if err != nil {
		return nil, err
	}
	return &StreamPath{Path: pth, Passes: s.passes}, nil
}

// newStream validates the options, checks the rows and fits the
// intercept-only model, which it returns.
func newStream(src RowSource, p int, pen penalty.Penalty, opts *Options) (*streamFit, point, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Family == nil {
		o.Family = datafit.Gaussian{}
	}
	if len(o.Unpenalized) > 0 || o.Standardize || o.Weights != nil || o.Offset != nil {
		return nil, point{}, errors.New("glm: a streamed fit takes weights and offsets from its source and supports neither unpenalised predictors nor standardisation")
	}
	if err := penalty.Validate(pen); err != nil {
		return nil, point{}, err
	}
	s := &streamFit{src: src, p: p, fam: o.Family, intercept: !o.NoIntercept, pen: pen, set: o.Settings}
	if s.set.Tol == 0 {
		s.set.Tol = solver.DefaultTol
	}
	if err := s.check(); err != nil {
		return nil, point{}, err
	}
	null := point{beta: make([]float64, s.p)}
	if err := s.nullFit(&null); err != nil {
		return nil, point{}, err
	}
	return s, null, nil
}

// grid returns the user's grid, or FitPath's generated one from λ_max, the
// dual norm of the gradient at the intercept-only model (one pass).
func (s *streamFit) grid(null point, po *PathOptions) ([]float64, bool, error) {
	if po.Lambdas != nil {
		return checkGrid(po.Lambdas)
	}
	st, err := s.statistics(null)
	if err != nil {
		return nil, false, err
	}
	lmax, ok := penalty.DualNorm(s.pen, mat.NewDense(s.p, 1, st.grad))
	if !ok {
		return nil, false, errors.New("glm: the penalty has no dual norm, so λ_max is unknown: give the grid")
	}
	return logGrid(lmax, s.n, s.p, po)
}

type streamFit struct {
	src       RowSource
	p         int
	fam       datafit.Family
	intercept bool
	pen       penalty.Penalty
	lambda    float64
	set       solver.Settings
	n         int
	wscale    float64 // n/Σw: the weights rescaled to sum to n
	passes    int
	null      float64
}

// point is a candidate (b₀, β).
type point struct {
	b0   float64
	beta []float64
}

func (pt point) eta(x []float64, o float64) float64 {
	e := o + pt.b0
	for j, v := range x {
		if pt.beta[j] != 0 {
			e += v * pt.beta[j]
		}
	}
	return e
}

func (s *streamFit) pass(row func(i int, x []float64, y, w, o float64) error) error {
	s.passes++
	i := 0
	return s.src.Pass(func(x []float64, y, w, o float64) error {
		if len(x) != s.p {
			return fmt.Errorf("glm: row %d has %d predictors, want %d", i+1, len(x), s.p)
		}
		err := row(i, x, y, w, o)
		i++
		return err
	})
}

// streamStallSteps is how many outer steps without progress stop a
// streamed fit (status solver.Stalled).
const streamStallSteps = 5

// solve runs proximal Newton at s.lambda from cur and returns the point
// reached, certified by the result.
func (s *streamFit) solve(cur point) (point, *solver.Result, error) {
	res := &solver.Result{Gap: math.NaN(), Residual: math.NaN(), Status: solver.IterationLimit}
	gap := math.Inf(1)
	maxOuter := min(s.set.MaxIter, 100)
	if maxOuter == 0 {
		maxOuter = 100
	}
	pg := solver.NewProgress(streamStallSteps)
	for k := 1; k <= maxOuter; k++ {
		st, err := s.statistics(cur)
		if err != nil {
			return point{}, nil, err
		}
		next, err := s.innerSolve(st, cur, gap)
		if err != nil {
			return point{}, nil, err
		}
		ls, err := s.lineSearch(cur, next, st)
		if err != nil {
			return point{}, nil, err
		}
		res.Iterations = k
		res.Objective, gap = ls.obj0, ls.gap0
		res.Gap = gap // of cur, the point certified
		if gap <= s.set.Tol && st.interceptOK(s.intercept) {
			res.Converged, res.Status = true, solver.GapConverged
			break
		}
		if ls.t == 0 {
			res.Status = solver.Stalled
			if gap <= s.set.Tol {
				res.Converged, res.Status = true, solver.GapConverged
			}
			break // no decrease along the Newton step: stalled at rounding
		}
		if pg.Stalled(k, res.Objective, gap) {
			res.Status = solver.Stalled
			break // each step is a pass over the source: do not repeat them for nothing
		}
		cur = ls.point
		if k == maxOuter {
			res.Gap = math.NaN() // the last step was not certified
		}
	}
	return cur, res, nil
}

// check is the first pass: counts, weights and valid responses.
func (s *streamFit) check() error {
	var wsum float64
	var ws suffstat.WeightSummary
	top := make([]float64, s.p) // each column's largest magnitude
	err := s.pass(func(i int, x []float64, y, w, o float64) error {
		if err := datafit.CheckRow(s.fam, i, x, y, w, o); err != nil {
			return err
		}
		for j, v := range x {
			top[j] = math.Max(top[j], math.Abs(v))
		}
		wsum += w
		ws.Add(w)
		s.n++
		return nil
	})
	if err != nil {
		return err
	}
	if s.n < 2 || !(wsum > 0) || math.IsInf(wsum, 0) || math.IsInf(float64(s.n)/wsum, 0) {
		return fmt.Errorf("glm: %d rows with total weight %v: need at least 2 rows and a total weight within float64's range once rescaled to sum n (divide the weights by a common factor)", s.n, wsum)
	}
	if err := ws.Check(); err != nil {
		return &datafit.RowError{Row: int(ws.MaxRow), What: "weight", Err: err}
	}
	for j, m := range top {
		if err := datafit.CheckColumnScale(j, m); err != nil {
			return err
		}
	}
	s.wscale = float64(s.n) / wsum
	return nil
}

// nullFit fits the intercept-only model (with the offsets) by Newton passes
// and records the null deviance.
func (s *streamFit) nullFit(cur *point) error {
	if !s.intercept {
		dev, _, _, err := s.interceptPass(*cur)
		s.null = dev
		return err
	}
	for range 50 {
		dev, g, h, err := s.interceptPass(*cur)
		if err != nil {
			return err
		}
		s.null = dev
		if !(h > 0) {
			return errors.New("glm: the intercept-only model has no curvature (a single binomial class, or all-zero counts?)")
		}
		step := -g / h
		if math.Abs(step) <= 1e-12*(1+math.Abs(cur.b0)) {
			return nil
		}
		cur.b0 += math.Max(-5, math.Min(5, step)) // damped far from the optimum
	}
	return errors.New("glm: the intercept-only model did not converge (separable data?)")
}

// interceptPass returns the deviance and its first two derivatives in b₀.
func (s *streamFit) interceptPass(pt point) (dev, g, h float64, err error) {
	err = s.pass(func(_ int, x []float64, y, w, o float64) error {
		w *= s.wscale
		e := pt.eta(x, o)
		d1, d2 := s.fam.Derivs(y, e)
		dev += w * s.fam.Deviance(y, e)
		g += w * d1
		h += w * d2
		return nil
	})
	return dev, g, h, err
}

// stats are what one statistics pass collects at a point.
type stats struct {
	mo        *suffstat.Moments // of [x, z] with weights w∂²d/∂η²/2
	grad      []float64         // Σ w ∂d/∂η x
	g0, abs0  float64           // Σ w ∂d/∂η and Σ w|∂d/∂η|
	deviance  float64
	dualScale float64 // s = min(1, λ/h*(grad))
}

// interceptOK reports whether the intercept is at its optimum to 1e-9,
// which makes the scaled gradient a feasible dual point.
func (st *stats) interceptOK(intercept bool) bool {
	return !intercept || math.Abs(st.g0) <= 1e-9*math.Max(st.abs0, math.SmallestNonzeroFloat64)
}

func (s *streamFit) statistics(pt point) (*stats, error) {
	st := &stats{mo: suffstat.New(s.p + 1), grad: make([]float64, s.p)}
	z := make([]float64, s.p+1)
	chunk := suffstat.NewChunk(st.mo, suffstat.DefaultBlock)
	err := s.pass(func(_ int, x []float64, y, w, o float64) error {
		w *= s.wscale
		e := pt.eta(x, o)
		d1, d2 := s.fam.Derivs(y, e)
		st.deviance += w * s.fam.Deviance(y, e)
		for j, v := range x {
			st.grad[j] += w * d1 * v
		}
		st.g0 += w * d1
		st.abs0 += w * math.Abs(d1)
		if w == 0 || !(d2 > 0) {
			return nil
		}
		copy(z, x)
		z[s.p] = e - o - d1/d2
		chunk.Add(z, w*d2/2)
		return nil
	})
	if err != nil {
		chunk.Close() // the statistics are dropped
		return nil, err
	}
	chunk.Flush()
	if math.IsInf(st.deviance, 0) || math.IsNaN(st.deviance) {
		return nil, errors.New("glm: the deviance overflows float64 (badly scaled data?)")
	}
	st.dualScale = 1
	if d, ok := penalty.DualNorm(s.pen, mat.NewDense(s.p, 1, st.grad)); ok && d > s.lambda {
		st.dualScale = s.lambda / d
	} else if !ok {
		st.dualScale = math.NaN()
	}
	return st, nil
}

// innerSolve minimises the IRLS model plus λh, from the moments in Gram
// form (the intercept by centring, or about zero without one).
func (s *streamFit) innerSolve(st *stats, cur point, gap float64) (point, error) {
	if !(st.mo.W > 0) {
		return point{}, errors.New("glm: every observation has zero curvature (fitted means at the boundary: separable data?)")
	}
	d := s.p + 1
	c := st.mo.Sym()
	if !s.intercept {
		for a := range d {
			for b := a; b < d; b++ {
				c.SetSym(a, b, c.At(a, b)+st.mo.W*st.mo.Mean[a]*st.mo.Mean[b])
			}
		}
	}
	h := mat.NewSymDense(s.p, nil)
	cross := mat.NewDense(s.p, 1, nil)
	for a := range s.p {
		for b := a; b < s.p; b++ {
			h.SetSym(a, b, c.At(a, b))
		}
		cross.Set(a, 0, c.At(a, s.p))
	}
	q := solver.NewGramLeastSquares(h, cross, math.Max(c.At(s.p, s.p), 0))
	start := mat.NewDense(s.p, 1, append([]float64(nil), cur.beta...))
	// The model's relative gap is on the model's scale: ask for a tenth of
	// the true gap, converted to that scale.
	hcur := s.lambda * s.pen.Value(start)
	tol := 0.1 * gap * (st.deviance + hcur) / (q.Eval(nil, start) + hcur)
	tol = math.Min(1e-3, math.Max(1e-14, tol))
	if math.IsNaN(tol) || math.IsInf(gap, 0) {
		tol = 1e-3
	}
	r, err := solver.Minimize(solver.Problem{Loss: q, Penalty: s.pen, Lambda: s.lambda}, start, &solver.Settings{Tol: tol, MaxIter: max(s.set.MaxIter, 1000)}, &solver.FISTA{})
	if err != nil {
		return point{}, err
	}
	next := point{beta: mat.Col(nil, 0, r.Theta)}
	if s.intercept {
		next.b0 = st.mo.Mean[s.p]
		for j, v := range next.beta {
			next.b0 -= st.mo.Mean[j] * v
		}
	}
	return next, nil
}

// lineResult is the outcome of a line-search pass.
type lineResult struct {
	point
	t          float64 // the step taken (0: none)
	obj0, gap0 float64 // objective and relative gap at the current point
}

// lineSearch evaluates the objective along the Newton step at ten step
// lengths and the dual objective at the current point, in one pass.
func (s *streamFit) lineSearch(cur, next point, st *stats) (*lineResult, error) {
	const steps = 10
	cand := make([]point, steps)
	ts := make([]float64, steps)
	for k := range cand {
		ts[k] = math.Pow(0.5, float64(k))
		cand[k] = point{b0: cur.b0 + ts[k]*(next.b0-cur.b0), beta: make([]float64, s.p)}
		for j := range cand[k].beta {
			cand[k].beta[j] = cur.beta[j] + ts[k]*(next.beta[j]-cur.beta[j])
		}
	}
	dev := make([]float64, steps)
	var dual float64
	err := s.pass(func(_ int, x []float64, y, w, o float64) error {
		w *= s.wscale
		for k := range cand {
			dev[k] += w * s.fam.Deviance(y, cand[k].eta(x, o))
		}
		if w > 0 {
			d1, _ := s.fam.Derivs(y, cur.eta(x, o))
			dual += -w*s.fam.Conjugate(y, st.dualScale*d1) + st.dualScale*w*d1*o
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	hcur := s.pen.Value(mat.NewDense(s.p, 1, cur.beta))
	out := &lineResult{obj0: st.deviance + s.lambda*hcur, gap0: math.NaN()}
	if !math.IsNaN(st.dualScale) && out.obj0 > 0 {
		out.gap0 = math.Max(out.obj0-dual, 0) / out.obj0
	}
	decrease := st.g0 * (next.b0 - cur.b0)
	for j, g := range st.grad {
		decrease += g * (next.beta[j] - cur.beta[j])
	}
	decrease += s.lambda * (s.pen.Value(mat.NewDense(s.p, 1, next.beta)) - hcur)
	for k := range cand {
		f := dev[k] + s.lambda*s.pen.Value(mat.NewDense(s.p, 1, cand[k].beta))
		if f <= out.obj0+1e-4*ts[k]*math.Min(decrease, 0) && f < out.obj0 {
			out.point, out.t = cand[k], ts[k]
			return out, nil
		}
	}
	out.point = cur
	return out, nil
}

// model is the fitted model at pt, certified by res.
func (s *streamFit) model(pt point, res *solver.Result) (*Model, error) {
	dev, _, _, err := s.interceptPass(pt)
	if err != nil {
		return nil, err
	}
	pt.beta = slices.Clone(pt.beta)
	beta := mat.NewDense(s.p, 1, pt.beta)
	m := &Model{Family: s.fam, Penalty: s.pen, Lambda: s.lambda, Coef: pt.beta, Intercept: pt.b0,
		Deviance: dev, NullDeviance: s.null, Objective: dev + s.lambda*s.pen.Value(beta), Gap: res.Gap,
		Iterations: res.Iterations, Converged: res.Converged, Status: res.Status, N: s.n,
		solution: beta, fitted: beta}
	for j := range s.p {
		m.Penalized = append(m.Penalized, j)
	}
	if s.null > 0 {
		m.DevRatio = 1 - dev/s.null
	}
	return m, nil
}
