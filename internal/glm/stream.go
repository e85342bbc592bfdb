package glm

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
	"gonum.org/v1/gonum/mat"
)

// RowSource gives a data set's rows, one pass at a time (see
// data.RowSource).
type RowSource = data.RowSource

// FitSource fits the model at one λ from a RowSource of p predictors in
// O(p²) memory, by proximal Newton with two passes per outer iteration:
// one for the weighted statistics of the IRLS model (package suffstat:
// weights wᵢ∂²d/∂η²/2, working response), whose Gram form the inner method
// solves with the intercept fitted by centring, and one for the line search
// (ten step lengths at once) and the certificate of the current point. A
// few passes at the start fit the intercept-only model (the null deviance).
// The fit stops when the relative duality gap reaches the tolerance with
// the intercept at its optimum (relative intercept gradient ≤ 1e-9). Offsets
// and weights are supported, and Standardize (three more passes for the
// column scales); Unpenalized is not (an error).
// Tolerances below about 1e-8 may not be reached: the Newton steps can
// stall at a relative gap near 1e-9 (reported as not converged).
func FitSource(src RowSource, p int, pen penalty.Penalty, lambda float64, opts *fit.Options) (*fit.Model, error) {
	if err := solver.CheckLambda(lambda); err != nil {
		return nil, fmt.Errorf("glm: %w", err)
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
	m.Passes = s.passes
	return m, nil
}

// FitPathSource fits a path like FitPath from a RowSource of p predictors
// in O(p²) memory (see FitSource), each fit warm-started at the previous
// one, with FitPath's grid and stopping rules. Passes: one to check the
// rows, a few for the intercept-only model, one for λ_max when the grid is
// generated, then per λ two per Newton step (typically 2–5 steps from a
// warm start) and one for the deviance of the fit.
func FitPathSource(src RowSource, p int, pen penalty.Penalty, opts *fit.PathOptions) (*fit.Path, error) {
	var po fit.PathOptions
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
	pth, err := runPath(s.fam, grid, generated, func(lambda float64) (*fit.Model, error) {
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
	pth.Passes = s.passes
	return pth, nil
}

// newStream validates the options, checks the rows and fits the
// intercept-only model, which it returns.
func newStream(src RowSource, p int, pen penalty.Penalty, opts *fit.Options) (*streamFit, point, error) {
	var o fit.Options
	if opts != nil {
		o = *opts
	}
	if o.Family == nil {
		o.Family = datafit.Gaussian{}
	}
	if len(o.Unpenalized) > 0 {
		return nil, point{}, errors.New("glm: a streamed fit does not support unpenalised predictors")
	}
	if err := penalty.Validate(pen); err != nil {
		return nil, point{}, err
	}
	s := &streamFit{src: src, p: p, fam: o.Family, intercept: !o.NoIntercept, pen: pen, set: o.Settings}
	if o.Standardize {
		if err := s.standardize(); err != nil {
			return nil, point{}, err
		}
	}
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
func (s *streamFit) grid(null point, po *fit.PathOptions) ([]float64, bool, error) {
	if po.Lambdas != nil {
		return checkGrid(po.Lambdas)
	}
	st, err := s.statistics(null)
	if err != nil {
		return nil, false, err
	}
	lmax, ok := penalty.GridTop(s.pen, mat.NewDense(s.p, 1, st.grad))
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
	start     float64 // the intercept-only fit's start (datafit.NullStart)
	// oShift is the mean offset, taken out of every row's offset and put
	// into the intercept (b₀ here is the model's plus oShift): the dual's
	// term Σw·∂d/∂η·o then stays of the size of the offsets' spread, not of
	// the offsets (at ±700 its rounding alone exceeded the tolerance).
	oShift float64
	sd     []float64 // column scales (nil without standardisation)
	passes int
	null   float64
	// dualSum is Σ w·datafit.DualScaleOf(y), the weights rescaled
	// (GapFloor).
	dualSum float64
	// yLo and yHi are the smallest and largest responses with weight
	// (datafit.InterceptAtInfinity).
	yLo, yHi float64
	// The state of proximal Newton's passes: the current intercept, the
	// last model pass's statistics, and the intercept of the model's
	// solution at the last line-search pass.
	b0     float64
	st     *stats
	nextB0 float64
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
		err := row(i, x, y, w, o-s.oShift)
		i++
		return err
	})
}

// solve runs proximal Newton (solver.ProxNewton on the streamed loss, two
// passes per step) at s.lambda from cur and returns the point reached,
// certified by the result.
func (s *streamFit) solve(cur point) (point, *solver.Result, error) {
	s.b0 = cur.b0
	start := mat.NewDense(s.p, 1, slices.Clone(cur.beta))
	res, err := solver.Minimize(solver.Problem{Loss: s, Penalty: s.pen, Lambda: s.lambda}, start, &s.set, &solver.ProxNewton{})
	if err != nil {
		return point{}, nil, err
	}
	return point{b0: s.b0, beta: mat.Col(nil, 0, res.Theta)}, res, nil
}

// check is the first pass: counts, weights and valid responses.
func (s *streamFit) check() error {
	var wsum float64
	s.yLo, s.yHi = math.Inf(1), math.Inf(-1)
	rc := datafit.NewRowChecker(s.fam, s.p)
	start := datafit.NewNullStart(s.fam)
	var osum float64
	err := s.pass(func(i int, x []float64, y, w, o float64) error {
		wsum += w
		osum += o
		s.n++
		if err := rc.Add(i, x, y, w, o); err != nil {
			return err
		}
		start.Add(y, w, o)
		s.dualSum += w * datafit.DualScaleOf(s.fam, y)
		if w > 0 {
			s.yLo, s.yHi = math.Min(s.yLo, y), math.Max(s.yHi, y)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if s.n < 2 || !(wsum > 0) || math.IsInf(wsum, 0) || math.IsInf(float64(s.n)/wsum, 0) {
		return fmt.Errorf("glm: %d rows with total weight %v: need at least 2 rows and a total weight within float64's range once rescaled to sum n (divide the weights by a common factor)", s.n, wsum)
	}
	if err := rc.Check(); err != nil {
		return err
	}
	s.wscale = float64(s.n) / wsum
	s.dualSum *= s.wscale
	if s.intercept {
		s.oShift = osum / float64(s.n)
	}
	s.start = start.Value() + s.oShift
	return nil
}

// nullFitSteps bounds the Newton passes of the streamed intercept-only
// fit.
const nullFitSteps = 100

// nullFit fits the intercept-only model (with the offsets) by Newton passes
// from datafit.NullStart's start, and records the null deviance. The fit
// is convex in b₀: each pass's derivative sign narrows a bracket of the
// minimiser, a step leaving it bisects it, and a step longer than the cap
// (5 at first) is cut to it and doubles it. Binomial rows that offsets of
// ±700 put at the boundary have no curvature, and their Newton steps are
// unbounded: the steps of at most 5 took 280 passes to cross 1400 and
// stopped at 50.
func (s *streamFit) nullFit(cur *point) error {
	if !s.intercept {
		dev, _, _, err := s.interceptPass(*cur)
		s.null = dev
		return err
	}
	cur.b0 = s.start
	lo, hi, cap := math.Inf(-1), math.Inf(1), 5.0
	for range nullFitSteps {
		dev, g, h, err := s.interceptPass(*cur)
		if err != nil {
			return err
		}
		s.null = dev
		if g == 0 {
			return nil
		}
		if g > 0 {
			hi = cur.b0
		} else {
			lo = cur.b0
		}
		if dev <= s.GapFloor() && datafit.InterceptAtInfinity(s.fam, s.yLo, s.yHi) == nil {
			// A deviance below its own rounding, which no b₀ lowers by
			// more, and a finite minimum (offsets of ±700 that agree with
			// every response: a deviance of 1e-302, flat, whose Newton
			// steps of 1 in the exponential tails did not reach b₀ ≈ 0 in
			// 100 passes). With one class the minimum is at infinity: go
			// on, and fail as such.
			return nil
		}
		step := -g / h
		if !(h > 0) || math.IsInf(step, 0) || math.IsNaN(step) {
			step = math.Copysign(math.Inf(1), -g)
		}
		if math.Abs(step) <= 1e-12*(1+math.Abs(cur.b0)) {
			return nil
		}
		if math.Abs(step) > cap {
			step = math.Copysign(cap, step)
			cap *= 2
		}
		next := cur.b0 + step
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2 // both ends finite: a step left the bracket
		}
		if next == cur.b0 {
			return nil // the bracket is at rounding
		}
		cur.b0 = next
	}
	return fmt.Errorf("glm: the intercept-only model did not converge in %d Newton steps from b₀ = %.6g (at %.6g)", nullFitSteps, s.start-s.oShift, cur.b0-s.oShift)
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
	mo       *suffstat.Moments // of [x, z] with weights w∂²d/∂η²/2
	grad     []float64         // Σ w ∂d/∂η x
	g0, abs0 float64           // Σ w ∂d/∂η and Σ w|∂d/∂η|
	deviance float64
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
		d2 = datafit.NewtonCurvature(d1, d2)
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
	return st, nil
}

var _ solver.PassNewtoner = (*streamFit)(nil)

// Dims implements solver.Loss: the p coefficients (the intercept is a
// free parameter the loss moves itself).
func (s *streamFit) Dims() (int, int) { return s.p, 1 }

// Lipschitz implements solver.Loss: unknown.
func (s *streamFit) Lipschitz() float64 { return 0 }

// Eval implements solver.Loss by one pass at (b₀, β = theta): the
// deviance, and its gradient into grad when not nil; NaN when the pass
// fails. Proximal Newton does not call it (ModelPass gives both).
func (s *streamFit) Eval(grad *mat.Dense, theta mat.Matrix) float64 {
	st, err := s.statistics(point{b0: s.b0, beta: mat.Col(nil, 0, theta)})
	if err != nil {
		return math.NaN()
	}
	if grad != nil {
		if grad.IsEmpty() {
			grad.ReuseAs(s.p, 1)
		}
		grad.SetCol(0, st.grad)
	}
	return st.deviance
}

// ModelPass implements solver.PassNewtoner: one statistics pass at
// (b₀, β = theta), the IRLS model in Gram form from its moments (the
// intercept by centring, or about zero without one).
func (s *streamFit) ModelPass(theta, grad *mat.Dense) (float64, *solver.LeastSquares, error) {
	st, err := s.statistics(point{b0: s.b0, beta: mat.Col(nil, 0, theta)})
	if err != nil {
		return 0, nil, err
	}
	s.st = st
	grad.SetCol(0, st.grad)
	if !(st.mo.W > 0) {
		return 0, nil, errors.New("glm: every observation has zero curvature (fitted means at the boundary: separable data?)")
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
	return st.deviance, solver.NewGramLeastSquares(h, cross, math.Max(c.At(s.p, s.p), 0)), nil
}

// LinePass implements solver.PassNewtoner: one pass for the deviance at
// the step lengths ts along the step from (b₀, theta) to the model's
// solution (next, its intercept from the model's means) and the loss's
// dual objective at (b₀, theta) scaled by each of scales.
func (s *streamFit) LinePass(theta, next *mat.Dense, ts, scales []float64) ([]float64, []float64, float64, error) {
	cur := point{b0: s.b0, beta: mat.Col(nil, 0, theta)}
	to := point{beta: mat.Col(nil, 0, next)}
	if s.intercept {
		to.b0 = s.st.mo.Mean[s.p]
		for j, v := range to.beta {
			to.b0 -= s.st.mo.Mean[j] * v
		}
	}
	s.nextB0 = to.b0
	cand := make([]point, len(ts))
	for k, t := range ts {
		cand[k] = point{b0: cur.b0 + t*(to.b0-cur.b0), beta: make([]float64, s.p)}
		for j := range cand[k].beta {
			cand[k].beta[j] = cur.beta[j] + t*(to.beta[j]-cur.beta[j])
		}
	}
	dev := make([]float64, len(ts))
	duals := make([]float64, len(scales))
	err := s.pass(func(_ int, x []float64, y, w, o float64) error {
		w *= s.wscale
		for k := range cand {
			dev[k] += w * s.fam.Deviance(y, cand[k].eta(x, o))
		}
		if w > 0 {
			d1, _ := s.fam.Derivs(y, cur.eta(x, o))
			for k, sc := range scales {
				duals[k] += -w*s.fam.Conjugate(y, sc*d1) + sc*w*d1*o
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, 0, err
	}
	return dev, duals, s.st.g0 * (to.b0 - cur.b0), nil
}

// GradientRounding implements solver.GradientRounder by one pass at
// (b₀, β = theta), each row's bound datafit.RowGradientRounding's.
func (s *streamFit) GradientRounding(theta mat.Matrix, f func(x []float64, r float64)) {
	pt := point{b0: s.b0, beta: mat.Col(nil, 0, theta)}
	_ = s.pass(func(_ int, x []float64, y, w, o float64) error {
		w *= s.wscale
		if w == 0 {
			return nil
		}
		mag := math.Abs(o) + math.Abs(pt.b0)
		for j, v := range x {
			mag += math.Abs(v * pt.beta[j])
		}
		d1, d2 := s.fam.Derivs(y, pt.eta(x, o))
		if r := datafit.RowGradientRounding(w, d1, d2, mag); r > 0 {
			f(x, r)
		}
		return nil
	})
}

// GapFloor implements solver.DualLoss's rule for the streamed fit: the
// absolute duality gap below which the gap is the rounding of its own
// evaluation (datafit.GapFloor). Where offsets decide every response
// (±700 with y agreeing), the deviance is 2e-302 and its relative gap 701
// at the rounding: the fit in memory stopped at this floor, the streamed
// one stalled.
func (s *streamFit) GapFloor() float64 { return datafit.GapFloor(s.null, s.dualSum) }

// Step implements solver.PassNewtoner: the intercept moves by the step
// length t towards the model's.
func (s *streamFit) Step(t float64) { s.b0 += t * (s.nextB0 - s.b0) }

// FreeOptimal implements solver.PassNewtoner: the intercept is at its
// optimum at the last model pass's point.
func (s *streamFit) FreeOptimal() bool { return s.st.interceptOK(s.intercept) }

// model is the fitted model at pt, certified by res.
func (s *streamFit) model(pt point, res *solver.Result) (*fit.Model, error) {
	dev, _, _, err := s.interceptPass(pt)
	if err != nil {
		return nil, err
	}
	pt.beta = slices.Clone(pt.beta)
	beta := mat.NewDense(s.p, 1, pt.beta)
	coef := slices.Clone(pt.beta)
	for j, sd := range s.sd {
		coef[j] /= sd
	}
	m := &fit.Model{Family: s.fam, Penalty: s.pen, Lambda: s.lambda, Coef: mat.NewDense(s.p, 1, coef), Intercept: []float64{pt.b0 - s.oShift}, PenalizedDeviance: math.NaN(),
		Deviance: dev, NullDeviance: s.null, Objective: dev + s.lambda*s.pen.Value(beta), Gap: res.Gap,
		Iterations: res.Iterations, Converged: res.Converged, Status: res.Status, RoundingLambda: res.RoundingLambda, N: s.n,
		Penalized: fit.AllOf(s.p)}
	eng := fit.EngineOf(m)
	eng.Solution, eng.Fitted = beta, beta
	if s.null > 0 {
		m.DevRatio = 1 - dev/s.null
		eng.PathRatio = m.DevRatio
	}
	gaussianR2(m)
	return m, nil
}
