package solver

import (
	"errors"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/internal/kernel"
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// Reweighter is the capability IRLSCD needs of a loss: a weighted
// deviance Σᵢ wᵢd(yᵢ, ηᵢ) of a linear predictor
// η = offset + X_P·β + X_U·a, β the penalised coefficients (the loss's
// parameter) and a the free ones (intercept first, then the unpenalised
// coefficients), which the loss minimises out. What is family-specific
// (the IRLS weights and working responses, the deviance, facts about the
// columns) stays with the loss; the algorithm is the method's.
type Reweighter interface {
	Loss
	// IRLSDesign returns the design IRLSCD sweeps over, for the penalty
	// factors f (one per penalised predictor). Its slices are read-only.
	IRLSDesign(f []float64) IRLSDesign
	// Point evaluates the loss at β = theta and returns fresh copies of
	// η and of the free coefficients a there.
	Point(theta mat.Matrix) (eta, free []float64)
	// Settle makes β = beta the loss's current point from the linear
	// predictor eta computed with the free coefficients free (as
	// coordinate descent leaves them); the loss profiles a again from
	// there, without rebuilding η.
	Settle(beta, eta, free []float64)
	// Reweight writes, at η = eta, the IRLS weights vᵢ = wᵢ(∂²d/∂η²)/2 and
	// working residuals rᵢ = −(∂d/∂η)/(∂²d/∂η²) into v and r (both 0
	// where the weight or the curvature is 0), and returns the deviance
	// Σᵢ wᵢd(yᵢ, ηᵢ) there: one pass for the objective of a point and the
	// weighted model at it.
	Reweight(eta, v, r []float64) float64
}

// IRLSDesign is what IRLSCD reads of a Reweighter's data.
type IRLSDesign struct {
	// Columns holds the penalised columns of X, dense, sparse or
	// indicators (a sparse column's sweeps cost O(nnz)).
	Columns []design.Column
	// Free holds the columns of the free coefficients as rows (k×n), the
	// intercept's ones first when Intercept; nil when k = 0. IRLSCD
	// writes nothing into it.
	Free *mat.Dense
	// Intercept says whether the first free coefficient is an intercept.
	Intercept bool
	// OffCentre marks the penalised columns centred by their weighted
	// means in each weighted model (glmnet's xm): the dense ones whose
	// mean is beyond their standard deviation (nearly parallel to the
	// intercept) and every sparse one; MaxAbs is max|x| of those columns
	// (a bound on any weighted mean), 0 for the others.
	OffCentre []bool
	MaxAbs    []float64
	// Twin[j] ≥ 0 is an earlier penalised column equal to column j times
	// TwinSign[j] (±1) with the same penalty factor, else −1: the copy is
	// kept at zero (every split between copies is optimal).
	Twin     []int
	TwinSign []float64
}

// IRLSCD is glmnet's algorithm for the lasso on a generalised linear
// model (J. Friedman, T. Hastie and R. Tibshirani, J. Stat. Softw. 33(1),
// 2010): iteratively reweighted least squares whose weighted model is
// solved by cyclic coordinate descent on the columns of X, centred by
// their weighted means when there is an intercept (so that columns far
// from zero, e.g. temperatures near 300 K, are not nearly parallel to it),
// the intercept and the unpenalised coefficients updated in the same
// sweeps without shrinkage, sweeps over the active set between full
// sweeps. A step that raises the objective is halved. Once the objective
// changes by at most Tol between reweightings, it forecasts the duality
// gap from the IRLS weights alone (foreseenGap: one product per column,
// no evaluation of the family); when the forecast is within 0.9·Tol it
// evaluates the duality gap of the true problem and stops once that is
// at most Tol. When the objective has settled (a change within Tol/10)
// but the gap has not, it tightens the sweeps and goes on, and when that
// stalls (tolerances near the rounding floor) ProxNewton finishes from
// the point reached; it does so too after 100 reweightings (at most
// MaxIter).
//
// MaxIter bounds the sweeps of each weighted model (as glmnet's maxit):
// one model may need more than DefaultMaxIter sweeps at the tightest
// sweep tolerance when the columns are nearly collinear, and the next
// reweighting goes on from the point reached. Iterations counts
// reweightings (and proximal Newton's steps). It needs a Reweighter loss
// and the lasso penalty (penalty.L1 or penalty.WeightedL1), or any
// separable penalty with a per-coordinate prox (penalty.CoordinateProxer,
// as the elastic net): the lasso's soft-thresholding is that prox's
// special case, kept inline.
type IRLSCD struct {
	// forecast stops at the certificate's forecast (foreseenGap within
	// 0.9·Tol) without computing the certificate, the loss settled at the
	// point reached; the result's Gap is NaN. For WorkingSet, whose
	// optimality check on the full problem computes the full gradient the
	// certificate needs: one pass serves both. Honoured only when the
	// forecast is (every penalty factor positive, the lasso).
	forecast bool
}

// maxReweights bounds IRLSCD's reweightings before ProxNewton finishes.
const maxReweights = 100

// Minimize implements Method.
func (ir IRLSCD) Minimize(p Problem, init mat.Matrix, s Settings) (*Result, error) {
	rw, ok := p.Loss.(Reweighter)
	if !ok {
		return nil, errors.New("solver: IRLSCD needs a loss with IRLS models (a Reweighter)")
	}
	m, _ := p.Loss.Dims()
	factors, prox, ok := cdPenalty(p.Penalty, m)
	if !ok {
		return nil, errors.New("solver: IRLSCD needs the lasso penalty (with or without factors) or a separable penalty with a per-coordinate prox")
	}
	s = s.defaults()
	cd := newIRLSState(rw, factors, p.Lambda, init)
	if prox != nil {
		cd.setProx(p.Penalty, prox)
	}
	cd.forecastOnly = ir.forecast && cd.forecastable()
	res, done := cd.run(p, s)
	if done {
		return res, nil
	}
	// Not certified: proximal Newton finishes from the point reached.
	rw.Settle(cd.beta, cd.eta, cd.free)
	r, err := Minimize(p, mat.NewDense(m, 1, slices.Clone(cd.beta)), &s, &ProxNewton{})
	if err != nil {
		return nil, err
	}
	r.Iterations += res.Iterations
	return r, nil
}

// run reweights and solves the weighted models until the duality gap
// certifies the point (true) or the sweeps stall or run out (false).
func (cd *irlsState) run(p Problem, s Settings) (*Result, bool) {
	m := len(cd.beta)
	res := &Result{Gap: math.NaN(), Residual: math.NaN(), Status: IterationLimit}
	grad := mat.NewDense(m, 1, nil)
	obj := cd.objective()
	thr := math.Min(1e-3, s.Tol*s.Tol)
	lastGap, failures := math.Inf(1), 0
	for k := 1; k <= min(s.MaxIter, maxReweights); k++ {
		res.Iterations = k
		next := cd.reweightAndSolve(thr*obj, s.MaxIter, obj)
		change := math.Abs(next-obj) / math.Max(math.Abs(next), math.SmallestNonzeroFloat64)
		obj = next
		settled := change <= math.Max(0.1*s.Tol, 1e-12)
		if !settled && change > s.Tol {
			continue
		}
		// The certificate's gap, foreseen from the gradient alone: a
		// reweighting can be spared (the sweeps' point is already good
		// enough), or a certificate bound to fail (sweep on, tighter).
		if thr > 1e-20 && cd.foreseenGap(obj) > 0.9*s.Tol {
			if settled {
				thr = math.Max(thr/10, 1e-22)
			}
			continue
		}
		theta := mat.NewDense(m, 1, slices.Clone(cd.beta))
		cd.loss.Settle(cd.beta, cd.eta, cd.free) // the profile starts from the sweeps' point
		if cd.forecastOnly && thr > 1e-20 {
			res.Objective, res.Theta = obj, theta
			return res, true // the caller certifies
		}
		o, gap, floor := CertificateGrad(p, theta, grad)
		res.Objective, res.Gap, res.Theta = o, gap, theta
		if st := gapStatus(gap, floor, s.Tol); st != IterationLimit {
			res.Converged, res.Status = true, st
			return res, true
		}
		if gap >= lastGap/2 {
			if failures++; failures >= 3 {
				return res, false // stalled at the precision of the sweeps
			}
		}
		lastGap = gap
		thr = math.Max(thr/10, 1e-22)
		// The certificate profiled the intercept: continue from there.
		cd.eta, cd.free = cd.loss.Point(theta)
		obj = cd.objective()
	}
	return res, false
}

// forecastable says whether foreseenGap forecasts the certificate: the
// lasso with every penalty factor positive.
func (cd *irlsState) forecastable() bool {
	return cd.prox == nil && !slices.ContainsFunc(cd.f, func(f float64) bool { return !(f > 0) })
}

// foreseenGap returns, to first order, the relative duality gap the
// certificate would find at the current point (objective obj), without
// evaluating the family: the gradient g = Xᵀ(w⊙∂d/∂η) comes from
// w⊙∂d/∂η = −2v⊙r, the weights the objective left at η, without
// profiling the free coefficients again. With the certificate's dual point
// s·w⊙∂d/∂η, s = min(1, 1/maxⱼ(|gⱼ|/λfⱼ)), the gap is
// (1 − s)·λΣⱼfⱼ|βⱼ| + s·Σⱼ(λfⱼ|βⱼ| + βⱼgⱼ) plus the loss's Fenchel–Young
// gap, ≥ 0 and second order in the point's distance to the optimum, so
// the forecast falls a little short of the certificate (TestForeseenGap:
// within 15 %, 3 % and 0.5 % at relative perturbations 1e-3, 1e-4 and
// 1e-5 of a solution). It costs a product per column; 0 (no forecast)
// when a column is unpenalised.
func (cd *irlsState) foreseenGap(obj float64) float64 {
	if !(obj > 0) || cd.prox != nil {
		return 0
	}
	if len(cd.u) != len(cd.v) {
		cd.u = make([]float64, len(cd.v))
	}
	for i, v := range cd.v {
		cd.u[i] = -2 * v * cd.r[i]
	}
	var worst, l1, slack float64
	for j, x := range cd.d.Columns {
		t := cd.lambda * cd.f[j]
		if !(t > 0) {
			return 0
		}
		g := x.Dot(cd.u)
		worst = math.Max(worst, math.Abs(g)/t)
		l1 += t * math.Abs(cd.beta[j])
		slack += t*math.Abs(cd.beta[j]) + cd.beta[j]*g
	}
	s := 1.0
	if worst > 1 {
		s = 1 / worst
	}
	return ((1-s)*l1 + s*slack) / obj
}

// reweightAndSolve solves the weighted model at the current point to the
// sweep threshold thr, halving the step while it raises the objective
// (obj at the current point), and returns the objective reached.
func (cd *irlsState) reweightAndSolve(thr float64, maxSweeps int, obj float64) float64 {
	cd.reweight()
	prevBeta, prevFree, prevEta := slices.Clone(cd.beta), slices.Clone(cd.free), slices.Clone(cd.eta)
	cd.solveModel(thr, maxSweeps)
	next := cd.objective()
	for t := 0; t < 30 && !(next <= obj*(1+1e-12)); t++ {
		cd.halve(prevBeta, prevFree, prevEta)
		next = cd.objective()
	}
	return next
}

// irlsState is the state of IRLSCD.
type irlsState struct {
	loss   Reweighter
	d      IRLSDesign
	f      []float64
	lambda float64
	beta   []float64
	free   []float64 // intercept and unpenalised coefficients
	eta    []float64 // linear predictor, offset included
	v, r   []float64 // IRLS weights w∂²d/∂η²/2 and working residuals
	vr     []float64 // v⊙r, kept up to date by the sweeps
	u      []float64 // w⊙∂d/∂η (foreseenGap's)
	xv     []float64 // Σ v (x − m)² per penalised column (0: not computed)
	// With an intercept the weighted model's off-centre columns are
	// centred, so that the intercept is orthogonal to them (glmnet's xm):
	// m and mu are the v-weighted means of the penalised (0 for a column
	// not off centre) and unpenalised columns (mu[0], the ones', unused),
	// sv is Σ v and svr Σ v⊙r (fresh when svrStale is false). A centred
	// coordinate's step moves the intercept by −m·δ and leaves Σ v⊙r.
	m, mu   []float64
	sv, svr float64
	// svrStale says that an uncentred step has moved Σ v⊙r since svr was
	// computed (freshSVR).
	svrStale bool
	// c is the share of a sparse column's centred steps not yet written
	// into vr: the model's v⊙r is vr + c·v. A centred step of a sparse
	// column moves v⊙r by −δ·v⊙x + δ·m·v; the dense second term waits in
	// c (flush) so that the step costs O(nnz).
	c float64
	// prox is the penalty's per-coordinate prox when it is not the lasso
	// (nil for the lasso, whose update stays inline), pen the penalty.
	prox penalty.CoordinateProxer
	pen  penalty.Penalty
	// forecastOnly is IRLSCD.forecast where the forecast is meaningful.
	forecastOnly bool
}

// setProx makes the state's penalty pen, a separable penalty other than
// the lasso: its coordinate updates are prox's and no column is a twin of
// another (a strictly convex part splits a coefficient between equal
// columns, which the lasso's rule of keeping copies at zero would not).
func (cd *irlsState) setProx(pen penalty.Penalty, prox penalty.CoordinateProxer) {
	cd.prox, cd.pen = prox, pen
	twin := make([]int, len(cd.d.Twin))
	for j := range twin {
		twin[j] = -1
	}
	cd.d.Twin = twin
}

// newIRLSState starts IRLSCD at init (nil: zero), a copy's share of a
// coefficient moved to its original (η is the same).
func newIRLSState(rw Reweighter, factors []float64, lambda float64, init mat.Matrix) *irlsState {
	m, _ := rw.Dims()
	d := rw.IRLSDesign(factors)
	cd := &irlsState{loss: rw, d: d, f: factors, lambda: lambda, beta: make([]float64, m),
		xv: make([]float64, m), m: make([]float64, m)}
	if init != nil {
		mat.Col(cd.beta, 0, init)
	}
	for j, t := range d.Twin {
		if t >= 0 {
			cd.beta[t], cd.beta[j] = cd.beta[t]+d.TwinSign[j]*cd.beta[j], 0
		}
	}
	cd.eta, cd.free = rw.Point(mat.NewDense(m, 1, cd.beta))
	n := len(cd.eta)
	cd.v, cd.r, cd.vr = make([]float64, n), make([]float64, n), make([]float64, n)
	if d.Free != nil {
		cd.mu = make([]float64, len(cd.free))
	}
	return cd
}

// objective returns the deviance at η plus the penalty, and leaves the
// IRLS weights and working residuals at η in v and r for the next
// reweighting.
func (cd *irlsState) objective() float64 {
	f := cd.loss.Reweight(cd.eta, cd.v, cd.r)
	if cd.prox != nil {
		return f + cd.lambda*cd.pen.Value(mat.NewDense(len(cd.beta), 1, cd.beta))
	}
	for j, b := range cd.beta {
		f += cd.lambda * cd.f[j] * math.Abs(b)
	}
	return f
}

// reweight sets the columns' weighted means under the IRLS weights at η
// (which the objective there left in v and r) when the model has an
// intercept.
func (cd *irlsState) reweight() {
	clear(cd.xv)
	if !cd.d.Intercept {
		return
	}
	ones := cd.d.Free.RawRowView(0)
	if cd.sv = kernel.Dot(ones, cd.v); !(cd.sv > 0) {
		clear(cd.m)
		clear(cd.mu)
		return
	}
	for j := range cd.m {
		cd.m[j] = math.NaN() // computed when needed (mean)
	}
	for a := 1; a < len(cd.mu); a++ {
		cd.mu[a] = kernel.Dot(cd.d.Free.RawRowView(a), cd.v) / cd.sv
	}
}

// solveModel runs coordinate descent on Σ v (r − Δη)² + λΣ f|β| until a
// full sweep changes no penalised coefficient by more than thr in the
// model's scale (xv·δ²), or for at most maxSweeps sweeps (an inner solve:
// no stall rule, the caller's duality gap decides). It keeps vr = v⊙r, so
// that each coordinate's correlation is one dot product, and moves η by
// the coefficients' total changes at the end.
func (cd *irlsState) solveModel(thr float64, maxSweeps int) {
	beta0, free0 := slices.Clone(cd.beta), slices.Clone(cd.free)
	cd.c = 0
	for i := range cd.vr {
		cd.vr[i] = cd.v[i] * cd.r[i]
	}
	if cd.d.Intercept {
		cd.svr, cd.svrStale = kernel.Dot(cd.d.Free.RawRowView(0), cd.vr), false
	}
	sweeps := 0
	for sweeps < maxSweeps {
		sweeps++
		if cd.sweep(true) <= thr {
			break
		}
		for sweeps < maxSweeps {
			sweeps++
			if cd.sweep(false) <= thr {
				break
			}
		}
	}
	for j, b := range cd.beta {
		if d := b - beta0[j]; d != 0 {
			cd.d.Columns[j].Axpy(d, cd.eta)
		}
	}
	for a, b := range cd.free {
		if d := b - free0[a]; d != 0 {
			kernel.Axpy(d, cd.d.Free.RawRowView(a), cd.eta)
		}
	}
}

// sweep updates the free coefficients and then every penalised
// coefficient (all) or the nonzero ones, and returns the largest model
// decrease.
func (cd *irlsState) sweep(all bool) float64 {
	big := cd.sweepFree()
	for j, b := range cd.beta {
		if all || b != 0 {
			big = math.Max(big, cd.update(j))
		}
	}
	return big
}

// update applies the exact coordinate update to penalised βⱼ (its column
// centred) and returns xvⱼδ², the model decrease it buys.
func (cd *irlsState) update(j int) float64 {
	if cd.d.Twin[j] >= 0 {
		return 0 // its original carries the coefficient
	}
	x := cd.d.Columns[j]
	if x.IsDense() {
		cd.flush()
	}
	gx := x.Dot(cd.vr) // less c·Σv⊙x (= c·m·Σv) for a sparse column
	thr := cd.lambda * cd.f[j] / 2
	// |mⱼ| ≤ max|xⱼ|: a column that stays at zero whatever its mean needs
	// no pass over it for the mean (svr, the intercept's gradient, is
	// near 0 after each intercept update).
	if cd.d.OffCentre[j] {
		cd.freshSVR()
	}
	if cd.beta[j] == 0 && cd.d.OffCentre[j] && math.Abs(gx)+cd.d.MaxAbs[j]*(math.Abs(cd.svr)+math.Abs(cd.c)*cd.sv) <= thr {
		return 0
	}
	mj := cd.mean(j)
	g := gx - mj*cd.svr
	if !x.IsDense() {
		g += cd.c * mj * cd.sv
	}
	if cd.beta[j] == 0 && math.Abs(g) <= thr {
		return 0 // stays at zero, whatever xvⱼ
	}
	if cd.xv[j] == 0 {
		if cd.xv[j] = cd.centredSq(x, mj); cd.xv[j] == 0 {
			return 0
		}
	}
	next := penalty.SoftThreshold(g+cd.xv[j]*cd.beta[j], thr) / cd.xv[j]
	if cd.prox != nil {
		// argmin xvⱼ(b − c)² + λhⱼ(b), c the unpenalised update.
		next = cd.prox.CoordinateProx(j, g/cd.xv[j]+cd.beta[j], cd.lambda/(2*cd.xv[j]))
	}
	delta := next - cd.beta[j]
	if delta == 0 {
		return 0
	}
	cd.stepColumn(x, mj, delta)
	cd.beta[j] = next
	return cd.xv[j] * delta * delta
}

// mean returns the v-weighted mean of penalised column j (0 without an
// intercept), computing it at its first use after a reweighting: glmnet's
// xm for every column would cost a pass over X at every reweighting,
// most of it for columns that stay at zero.
func (cd *irlsState) mean(j int) float64 {
	if !cd.d.OffCentre[j] {
		return 0 // centring buys nothing: no pass over the column
	}
	if math.IsNaN(cd.m[j]) {
		cd.m[j] = 0
		if cd.sv > 0 {
			cd.m[j] = cd.d.Columns[j].Dot(cd.v) / cd.sv
		}
	}
	return cd.m[j]
}

// step moves vr by a step delta of the coefficient of column x centred
// at mean mj, and the intercept by −mj·delta, so that the linear
// predictor moves by delta·x − mj·delta (Σ v⊙r is unchanged).
func (cd *irlsState) step(x []float64, mj, delta float64) {
	kernel.AxpyMul(-delta, cd.v, x, cd.vr)
	cd.moveCentre(mj, delta)
}

// moveCentre completes a step delta of a coefficient whose column is
// centred at mj: the intercept moves by −mj·delta and vr by the mean's
// share; an uncentred step marks Σ v⊙r stale.
func (cd *irlsState) moveCentre(mj, delta float64) {
	if mj != 0 {
		kernel.Axpy(delta*mj, cd.v, cd.vr)
		cd.free[0] -= mj * delta
	} else if cd.d.Intercept {
		cd.svrStale = true // an uncentred step moves Σ v⊙r
	}
}

// stepColumn is step for penalised column x.
func (cd *irlsState) stepColumn(x design.Column, mj, delta float64) {
	if x.IsDense() && x.Scale == 0 {
		cd.step(x.Dense, mj, delta)
		return
	}
	x.AxpyMul(-delta, cd.v, cd.vr)
	if mj != 0 {
		cd.c += delta * mj
		cd.free[0] -= mj * delta
	} else if cd.d.Intercept {
		cd.svrStale = true
	}
}

// flush writes the pending shift c into vr (O(n)), before a dense
// column's step or the free coefficients' read vr itself.
func (cd *irlsState) flush() {
	if cd.c != 0 {
		kernel.Axpy(cd.c, cd.v, cd.vr)
		cd.c = 0
	}
}

// freshSVR recomputes svr = Σ v⊙r when an uncentred column's step has
// moved it since: the centred columns' gradients (and their screening
// bound) read it.
func (cd *irlsState) freshSVR() {
	if cd.svrStale {
		cd.svr, cd.svrStale = kernel.Dot(cd.d.Free.RawRowView(0), cd.vr)+cd.c*cd.sv, false
	}
}

// centredSq returns Σ v (x − m)² of penalised column x: over a sparse
// column's stored rows plus m²·Σ v over the others (no cancellation).
func (cd *irlsState) centredSq(x design.Column, m float64) float64 {
	if x.IsDense() && x.Scale == 0 {
		return centredSq(x.Dense, cd.v, m)
	}
	if m == 0 {
		return x.WeightedSq(cd.v)
	}
	var s, rest float64
	rest = cd.sv
	x.Each(func(i int, xi float64) {
		d := xi - m
		s += cd.v[i] * d * d
		rest -= cd.v[i]
	})
	if x.IsDense() {
		return s
	}
	return s + m*m*math.Max(rest, 0)
}

// centredSq returns Σ v (x − m)².
func centredSq(x, v []float64, m float64) float64 {
	if m == 0 {
		return kernel.Dot3(x, x, v)
	}
	var s float64
	for i, xi := range x {
		d := xi - m
		s += v[i] * d * d
	}
	return s
}

// sweepFree updates the unpenalised coefficients (their columns centred)
// and then the intercept (no shrinkage), and returns the largest model
// decrease.
func (cd *irlsState) sweepFree() float64 {
	if cd.d.Free == nil {
		return 0
	}
	cd.flush()
	var big float64
	first := 0
	if cd.d.Intercept {
		first = 1
	}
	for a := first; a < len(cd.free); a++ {
		x, ma := cd.d.Free.RawRowView(a), cd.mu[a]
		cd.freshSVR()
		g, xv := kernel.Dot(x, cd.vr)-ma*cd.svr, centredSq(x, cd.v, ma)
		if xv == 0 {
			continue
		}
		delta := g / xv
		cd.step(x, ma, delta)
		cd.free[a] += delta
		big = math.Max(big, xv*delta*delta)
	}
	if first == 1 && cd.sv > 0 {
		ones := cd.d.Free.RawRowView(0)
		delta := kernel.Dot(ones, cd.vr) / cd.sv
		kernel.Axpy(-delta, cd.v, cd.vr)
		cd.free[0] += delta
		cd.svr, cd.svrStale = kernel.Dot(ones, cd.vr), false
		big = math.Max(big, cd.sv*delta*delta)
	}
	return big
}

// halve moves the coefficients halfway back to the previous point (η is
// linear in them).
func (cd *irlsState) halve(beta, free, eta []float64) {
	for j := range cd.beta {
		cd.beta[j] = (cd.beta[j] + beta[j]) / 2
	}
	for a := range cd.free {
		cd.free[a] = (cd.free[a] + free[a]) / 2
	}
	for i := range cd.eta {
		cd.eta[i] = (cd.eta[i] + eta[i]) / 2
	}
}
