package glm

import (
	"fmt"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/glmscan"
	"github.com/cardsparse/cardreg/internal/cvcurve"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// slot says what a scan point is for.
type slot struct {
	md   *roundModel
	set  *trainSet // a null model's set (md nil)
	dual bool
}

// run makes the scans until every model is certified or MaxScans.
func (r *rounds) run() error {
	maxScans := r.o.MaxScans
	if maxScans <= 0 {
		maxScans = DefaultMaxScans
	}
	for first := true; r.sc.Scans() < maxScans; first = false {
		req, slots := r.request(first)
		if len(slots) == 0 {
			return nil
		}
		sums, err := r.sc.Scan(req)
		if err != nil {
			return err
		}
		if err := r.absorb(sums, slots); err != nil {
			return err
		}
	}
	return nil
}

// request returns the next scan's points: each uncertified model's
// current iterate and its previous one's dual point, and the first time the
// null models.
func (r *rounds) request(first bool) (*glmscan.Request, []slot) {
	req := &glmscan.Request{Measure: r.o.Measure, Score: r.score}
	var slots []slot
	for _, s := range r.sets {
		if first {
			req.Points = append(req.Points, s.null)
			slots = append(slots, slot{set: s})
		}
		for _, md := range s.models {
			if md.done {
				continue
			}
			req.Points = append(req.Points, md.point(md.b0, md.beta))
			slots = append(slots, slot{md: md})
			if pv := md.prev; pv != nil {
				pt := md.point(pv.b0, pv.beta)
				pt.Dual = &glmscan.DualPoint{Alpha: pv.alpha}
				req.Points = append(req.Points, pt)
				slots = append(slots, slot{md: md, dual: true})
			}
		}
	}
	return req, slots
}

// absorb reads a scan's sums: certificates of the previous iterates, then
// the current iterates' gradients and the next steps.
func (r *rounds) absorb(sums *glmscan.Sums, slots []slot) error {
	for k, sl := range slots {
		if sl.md == nil {
			sl.set.nullDev = sl.set.a * sums.Dev[k]
			continue
		}
		if sl.dual {
			r.certify(sl.md, sl.md.set.a*sums.Dual[k])
		}
	}
	var next []*roundModel
	for k, sl := range slots {
		if sl.md == nil || sl.dual || sl.md.done {
			continue
		}
		if err := r.scanned(sl.md, sums.Grad[k], sums.Dev[k], sums.Score[k]); err != nil {
			return err
		}
		next = append(next, sl.md)
	}
	return r.step(next)
}

// certify sets the gap of md's previous iterate from its loss's dual
// objective (the penalty's share, its conjugate's, taken off).
func (r *rounds) certify(md *roundModel, dual float64) {
	pv := md.prev
	dual -= pv.conj
	pv.gap = solver.RelativeGap(math.Max(pv.obj-dual, 0), pv.obj)
	if math.IsNaN(dual) || math.IsInf(dual, 0) {
		pv.gap = math.Inf(1)
	}
	if md.best == nil || pv.gap < md.best.gap || math.IsNaN(md.best.gap) {
		md.best = pv
	}
	if pv.gap <= r.tol {
		md.done = true
	}
}

// scanned records md's current iterate with its full-data gradient g
// (intercept first, on the data's scale and weights), deviance dev and
// held-out score, and sets its dual point and the gradient of its next
// step.
func (r *rounds) scanned(md *roundModel, g []float64, dev, score float64) error {
	s := md.set
	it := &iterate{b0: md.b0, beta: slices.Clone(md.beta), dev: s.a * dev, score: score, gap: math.NaN()}
	it.obj = it.dev + md.lambda*r.pen.Value(mat.NewDense(r.p, 1, it.beta))
	gs := make([]float64, r.p+1)
	gs[0] = s.a * g[0]
	for j := range r.p {
		gs[j+1] = s.a * g[j+1] / s.sd[j]
	}
	it.alpha, it.conj = r.dualCorrection(md, g, gs[1:])
	md.prev = it
	if md.best == nil {
		md.best = it
	}
	if math.IsNaN(it.obj) || math.IsInf(it.obj, 0) {
		return fmt.Errorf("glm: the deviance overflows at λ = %g (badly scaled data?)", md.lambda)
	}
	md.g = gs
	return nil
}

// dualCorrection returns the correction α of md's current iterate's dual
// point (glmscan.DualPoint), from its full gradient g (on the data's scale
// and weights) and gs (standardised and rescaled, penalised part), and the
// penalty's share of its dual objective, λh*(s·aim/λ). The dual gradient
// it aims at is the last model's prediction of the gradient (a
// subgradient of the penalty at the iterate), else gs, scaled by s
// (solver.DualScales: into the dual norm's ball of radius λ, where h* is
// zero; for a penalty known by its conjugate, 1 where h* is finite, else
// the largest s at which it vanishes: one scan point, not two); α solves
// Σ w z zᵀ α = ğ − (0, s·aim) in the shifted coordinates z = (1, x − shift)
// of the set's Gram matrix and is returned on the data's.
func (r *rounds) dualCorrection(md *roundModel, g, gs []float64) ([]float64, float64) {
	s := md.set
	aim := md.target
	if aim == nil {
		aim = gs
	}
	sc, conj := 0.0, 0.0
	pb := solver.Problem{Penalty: r.pen, Lambda: md.lambda}
	if scales, terms, ok := solver.DualScales(pb, mat.NewDense(r.p, 1, slices.Clone(aim))); ok && md.lambda > 0 {
		k := max(slices.IndexFunc(terms, func(t float64) bool { return !math.IsInf(t, 1) }), 0)
		sc, conj = scales[k], terms[k]
	}
	rhs := mat.NewVecDense(r.p+1, nil)
	rhs.SetVec(0, g[0])
	for j := range r.p {
		rhs.SetVec(j+1, g[j+1]-s.shift[j]*g[0]-sc*aim[j]*s.sd[j]/s.a)
	}
	var al mat.VecDense
	if err := s.gram.SolveVecTo(&al, rhs); err != nil {
		return make([]float64, r.p+1), 0
	}
	out := mat.Col(nil, 0, &al)
	for j := range r.p {
		out[0] -= out[j+1] * s.shift[j]
	}
	return out, conj
}

// result builds the path and the cross-validation from the models'
// certified (or best) iterates.
func (r *rounds) result() (*Rounds, error) {
	out := &Rounds{Scans: r.sc.Scans(), SampleRows: len(r.smp.Y)}
	full := r.sets[0]
	pth, err := runPath(r.fam, r.grid, r.gen, func(l float64) (*fit.Model, error) {
		return r.model(full.models[slices.IndexFunc(full.models, func(m *roundModel) bool { return m.lambda == l })]), nil
	})
	if err != nil {
		return nil, err
	}
	out.Path, pth.Passes = pth, out.Scans
	if !r.o.CV {
		return out, nil
	}
	cv := &fit.CV{Measure: r.o.Measure, Lambdas: pth.Lambdas, Path: pth, Passes: out.Scans}
	k := len(r.sets) - 1
	errs := make([][]float64, k)
	weights := make([]float64, k)
	for f, s := range r.sets[1:] {
		weights[f] = r.tot.W[f]
		if !(weights[f] > 0) {
			return nil, fmt.Errorf("glm: fold %d has no weight", f+1)
		}
		errs[f] = make([]float64, len(cv.Lambdas))
		for l := range errs[f] {
			md := s.models[l]
			errs[f][l] = md.best.score / weights[f]
			if !md.done {
				cv.Unconverged++
			}
		}
	}
	c := cvcurve.Summarise(errs, weights, false)
	cv.Mean, cv.SE, cv.IndexMin, cv.IndexSE = c.Mean, c.SE, c.IndexMin, c.IndexSE
	cv.LambdaMin, cv.LambdaSE = cv.Lambdas[c.IndexMin], cv.Lambdas[c.IndexSE]
	out.CV = cv
	return out, nil
}

// model is md's reported fit: its certified iterate, else its best.
func (r *rounds) model(md *roundModel) *fit.Model {
	it, s := md.best, md.set
	theta := mat.NewDense(r.p, 1, slices.Clone(it.beta))
	coef := make([]float64, r.p)
	m := &fit.Model{Family: r.fam, Penalty: r.pen, Lambda: md.lambda,
		Intercept: []float64{it.b0}, PenalizedDeviance: math.NaN(), Penalized: fit.AllOf(r.p), Deviance: it.dev, NullDeviance: s.nullDev,
		Objective: it.obj, Gap: it.gap, Iterations: md.steps, Converged: md.done,
		Status: solver.IterationLimit, N: s.n}
	eng := fit.EngineOf(m)
	eng.Solution, eng.Fitted = theta, theta
	if md.done {
		m.Status = solver.GapConverged
	}
	for j := range coef {
		coef[j] = it.beta[j] / s.sd[j]
	}
	m.Coef = mat.NewDense(r.p, 1, coef)
	if s.nullDev > 0 {
		m.DevRatio = 1 - it.dev/s.nullDev
		eng.PathRatio = m.DevRatio
	}
	gaussianR2(m)
	return m
}
