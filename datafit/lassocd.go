package datafit

import (
	"errors"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/internal/kernel"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// LassoCD minimises the problem p, the deviance plus λ·Σⱼ fⱼ|βⱼ| (p's
// penalty: penalty.L1 or penalty.WeightedL1; p's loss must be l), over the
// penalised coefficients by glmnet's algorithm:
// iteratively reweighted least squares whose weighted model is solved by
// cyclic coordinate descent on the columns of X, centred by their
// weighted means when there is an intercept (so that columns far from
// zero, e.g. temperatures near 300 K, are not nearly parallel to it), the
// intercept and the unpenalised coefficients updated in the same sweeps
// without shrinkage, sweeps over the active set between full sweeps (J.
// Friedman, T. Hastie and R. Tibshirani, J. Stat. Softw. 33(1), 2010). A
// step that raises the objective is halved. When the coefficients settle
// it evaluates the duality gap of the true problem (the intercept and
// unpenalised part profiled exactly) and stops once it is at most s.Tol;
// otherwise it tightens the sweeps and goes on, and when that stalls
// (tolerances near the rounding floor) solver.ProxNewton finishes from the
// point reached; it does so too after 100 reweightings (at most
// s.MaxIter). s.MaxIter bounds the sweeps of each weighted model (as
// glmnet's maxit): one model may need more than 20000 sweeps at the
// tightest sweep tolerance when the columns are nearly collinear, and the
// next reweighting goes on from the point reached. Proximal Newton's outer
// steps are at most 100, its inner solves at most s.MaxIter iterations
// each, so a small s.MaxIter returns promptly.
// Iterations counts reweightings (and proximal Newton's steps).
func (l *Loss) LassoCD(pen solver.Problem, init mat.Matrix, s solver.Settings) (*solver.Result, error) {
	m, n := len(l.xp), len(l.y)
	factors, ok := solver.L1Factors(pen.Penalty, m)
	if !ok {
		return nil, errors.New("datafit: LassoCD needs the lasso penalty (with or without factors)")
	}
	if err := penalty.Validate(pen.Penalty); err != nil {
		return nil, err
	}
	if s.Tol == 0 {
		s.Tol = 1e-7
	}
	lambda := pen.Lambda
	cd := &lassoCD{l: l, f: factors, lambda: lambda, beta: make([]float64, m), eta: make([]float64, n),
		v: make([]float64, n), r: make([]float64, n), vr: make([]float64, n), xv: make([]float64, m), m: make([]float64, m)}
	if init != nil {
		mat.Col(cd.beta, 0, init)
	}
	cd.twin, cd.twinSign = l.copies(factors)
	cd.maxAbs, cd.offCentre = l.columnStats()
	for j, t := range cd.twin {
		if t >= 0 { // the copy's share goes to the original: η is the same
			cd.beta[t], cd.beta[j] = cd.beta[t]+cd.twinSign[j]*cd.beta[j], 0
		}
	}
	theta := mat.NewDense(m, 1, cd.beta)
	l.evaluate(theta) // η and the profiled intercept at the start
	cd.free = slices.Clone(l.free)
	copy(cd.eta, l.eta)
	if l.xu != nil {
		cd.xut = mat.DenseCopyOf(l.xu.T())
		cd.mu = make([]float64, len(cd.free))
	}
	res := &solver.Result{Gap: math.NaN(), Residual: math.NaN(), Status: solver.IterationLimit}
	grad := mat.NewDense(m, 1, nil)
	obj := cd.objective(cd.eta)
	thr := math.Min(1e-3, s.Tol*s.Tol)
	lastGap, failures := math.Inf(1), 0
	if s.MaxIter == 0 {
		s.MaxIter = solver.DefaultMaxIter
	}
	reweights := min(s.MaxIter, 100)
	for k := 1; k <= reweights; k++ {
		res.Iterations = k
		cd.reweight()
		prevBeta, prevFree, prevEta := slices.Clone(cd.beta), slices.Clone(cd.free), slices.Clone(cd.eta)
		cd.solveModel(thr*obj, s.MaxIter)
		next := cd.objective(cd.eta)
		for t := 0; t < 30 && !(next <= obj*(1+1e-12)); t++ {
			cd.halve(prevBeta, prevFree, prevEta)
			next = cd.objective(cd.eta)
		}
		change := math.Abs(next-obj) / math.Max(math.Abs(next), math.SmallestNonzeroFloat64)
		obj = next
		if change > math.Max(0.1*s.Tol, 1e-12) {
			continue
		}
		theta := mat.NewDense(m, 1, slices.Clone(cd.beta))
		l.adopt(cd.beta, cd.eta, cd.free) // the profile starts from the sweeps' point
		o, gap, floor := solver.CertificateGrad(pen, theta, grad)
		res.Objective, res.Gap, res.Theta = o, gap, theta
		if gap <= s.Tol || floor {
			res.Converged, res.Status = true, solver.GapConverged
			if gap > s.Tol {
				res.Status = solver.GapFloor
			}
			return res, nil
		}
		if gap >= lastGap/2 {
			if failures++; failures >= 3 {
				break // stalled at the precision of the sweeps: finish below
			}
		}
		lastGap = gap
		thr = math.Max(thr/10, 1e-22)
		// The certificate profiled the intercept: continue from there.
		cd.free = slices.Clone(l.free)
		copy(cd.eta, l.eta)
		obj = o
	}
	// Not certified: proximal Newton finishes from the point reached.
	l.adopt(cd.beta, cd.eta, cd.free)
	r, err := solver.Minimize(pen, mat.NewDense(m, 1, slices.Clone(cd.beta)), &s, &solver.ProxNewton{})
	if err != nil {
		return nil, err
	}
	r.Iterations += res.Iterations
	return r, nil
}

// lassoCD is the state of LassoCD.
type lassoCD struct {
	l      *Loss
	f      []float64
	lambda float64
	beta   []float64
	free   []float64  // intercept and unpenalised coefficients
	eta    []float64  // linear predictor, offset included
	v, r   []float64  // IRLS weights w∂²d/∂η²/2 and working residuals
	vr     []float64  // v⊙r, kept up to date by the sweeps
	xv     []float64  // Σ v (x − m)² per penalised column (0: not computed)
	xut    *mat.Dense // unpenalised columns by rows (first the ones)
	// With an intercept the weighted model's off-centre columns are
	// centred, so that the intercept is orthogonal to them (glmnet's xm):
	// m and mu are the v-weighted means of the penalised (0 for a column
	// not off centre) and unpenalised columns (mu[0], the ones', unused),
	// sv is Σ v and svr Σ v⊙r (fresh when svrStale is false). A centred
	// coordinate's step moves the intercept by −m·δ and leaves Σ v⊙r.
	m, mu   []float64
	sv, svr float64
	// maxAbs and offCentre are Loss.columnStats: only the columns off
	// centre are centred (their means m computed at first use).
	maxAbs    []float64
	offCentre []bool
	// svrStale says that an uncentred step has moved Σ v⊙r since svr was
	// computed (freshSVR).
	svrStale bool
	// twin[j] is an earlier penalised column equal to column j times
	// twinSign[j] (±1), within the rounding of standardisation
	// (sameUpToSign), with the same factor (−1: none). Every split of a
	// coefficient between copies is optimal; the copy is kept at zero, so
	// that a duplicated column does not leave a sliver (1e-16 to 1e-6) of
	// the value on it.
	twin     []int
	twinSign []float64
}

// copies returns twins(l.xp, f), computed once per factors.
func (l *Loss) copies(f []float64) ([]int, []float64) {
	if l.twin == nil || !slices.Equal(l.twinF, f) {
		l.twin, l.twinSign = twins(l.xp, f)
		l.twinF = slices.Clone(f)
	}
	return l.twin, l.twinSign
}

// columnStats returns, per penalised column, max|x| (a bound on any
// weighted mean of it) and whether it is off centre: its mean beyond its
// standard deviation, so that without centring it is nearly parallel to
// the intercept (a temperature near 300 K varying by 2 K) and the sweeps
// crawl. Computed once per loss (and its restrictions), read-only.
func (l *Loss) columnStats() ([]float64, []bool) {
	if l.maxAbs == nil {
		l.maxAbs, l.offCentre = make([]float64, len(l.xp)), make([]bool, len(l.xp))
		for j, x := range l.xp {
			var s float64
			for _, v := range x {
				s += v
			}
			n := float64(len(x))
			mean := s / n
			// Σx²/n − mean² loses digits only for a column far off centre,
			// which the test finds all the same.
			l.offCentre[j] = mean*mean > kernel.Dot(x, x)/n-mean*mean
			if !l.offCentre[j] {
				continue // maxAbs bounds the means of centred columns only
			}
			for _, v := range x {
				if a := math.Abs(v); a > l.maxAbs[j] {
					l.maxAbs[j] = a
				}
			}
		}
	}
	return l.maxAbs, l.offCentre
}

// twins returns, per column of xp, the index of the first earlier column
// equal to it or to its negation with the same factor in f, or −1, and
// the sign.
func twins(xp [][]float64, f []float64) ([]int, []float64) {
	out, sign := make([]int, len(xp)), make([]float64, len(xp))
	seen := map[uint64][]int{}
	for j, x := range xp {
		out[j] = -1
		key := absHash(x)
		for _, k := range seen[key] {
			if f[k] != f[j] {
				continue
			}
			if s := sameUpToSign(xp[k], x); s != 0 {
				out[j], sign[j] = k, s
				break
			}
		}
		if out[j] < 0 {
			seen[key] = append(seen[key], j)
		}
	}
	return out, sign
}

// twinBits is how many low bits of the mantissa the hash of absHash
// ignores, so that columns equal but for the rounding of a scaling
// (standardised multiples of one column) share a bucket.
const twinBits = 20

// twinUlps is how far, in units of the last place, two copies' entries
// may differ: the rounding of standardisation (each column's scale is
// rounded apart; 6 ulps seen).
const twinUlps = 64

// absHash hashes the magnitudes of x, but for their last twinBits bits
// (FNV-1a over the rounded bit patterns, a word at a time: a byte-wise
// hash.Hash cost a third of a logistic path's time).
func absHash(x []float64) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range x {
		h ^= (math.Float64bits(math.Abs(v)) + 1<<(twinBits-1)) >> twinBits // rounded
		h *= 1099511628211
	}
	return h
}

// sameUpToSign returns 1 when y = x, −1 when y = −x (and not x), each
// entry within twinUlps units of the last place, else 0.
func sameUpToSign(x, y []float64) float64 {
	for _, s := range []float64{1, -1} {
		same := true
		for i, v := range x {
			if math.Abs(y[i]-s*v) > twinUlps*ulp(v) {
				same = false
				break
			}
		}
		if same {
			return s
		}
	}
	return 0
}

// ulp returns the spacing of float64 values at v.
func ulp(v float64) float64 {
	v = math.Abs(v)
	return math.Nextafter(v, math.Inf(1)) - v
}

// objective returns the deviance at η plus the penalty.
func (cd *lassoCD) objective(eta []float64) float64 {
	f := cd.l.value(eta)
	for j, b := range cd.beta {
		f += cd.lambda * cd.f[j] * math.Abs(b)
	}
	return f
}

// reweight sets the IRLS weights and working residuals at η, and the
// columns' weighted means when the model has an intercept.
func (cd *lassoCD) reweight() {
	for i, e := range cd.eta {
		cd.v[i], cd.r[i] = 0, 0
		if cd.l.w[i] == 0 {
			continue
		}
		d1, d2 := cd.l.fam.Derivs(cd.l.y[i], e)
		if d2 > 0 {
			cd.v[i] = cd.l.w[i] * d2 / 2
			cd.r[i] = -d1 / d2
		}
	}
	clear(cd.xv)
	if !cd.l.intercept {
		return
	}
	ones := cd.xut.RawRowView(0)
	if cd.sv = kernel.Dot(ones, cd.v); !(cd.sv > 0) {
		clear(cd.m)
		clear(cd.mu)
		return
	}
	for j := range cd.m {
		cd.m[j] = math.NaN() // computed when needed (mean)
	}
	for a := 1; a < len(cd.mu); a++ {
		cd.mu[a] = kernel.Dot(cd.xut.RawRowView(a), cd.v) / cd.sv
	}
}

// solveModel runs coordinate descent on Σ v (r − Δη)² + λΣ f|β| until a
// full sweep changes no penalised coefficient by more than thr in the
// model's scale (xv·δ²), or for at most maxSweeps sweeps (an inner solve:
// no stall rule, the caller's duality gap decides). It keeps vr = v⊙r, so
// that each coordinate's correlation is one dot product, and moves η by
// the coefficients' total changes at the end.
func (cd *lassoCD) solveModel(thr float64, maxSweeps int) {
	m := len(cd.beta)
	beta0, free0 := slices.Clone(cd.beta), slices.Clone(cd.free)
	for i := range cd.vr {
		cd.vr[i] = cd.v[i] * cd.r[i]
	}
	if cd.l.intercept {
		cd.svr, cd.svrStale = kernel.Dot(cd.xut.RawRowView(0), cd.vr), false
	}
	var sweeps int
	sweep := func(all bool) float64 {
		sweeps++
		big := cd.sweepFree()
		for j := range m {
			if all || cd.beta[j] != 0 {
				big = math.Max(big, cd.update(j))
			}
		}
		return big
	}
	for sweeps < maxSweeps {
		if sweep(true) <= thr {
			break
		}
		for sweeps < maxSweeps && sweep(false) > thr {
		}
	}
	for j, b := range cd.beta {
		if d := b - beta0[j]; d != 0 {
			kernel.Axpy(d, cd.l.xp[j], cd.eta)
		}
	}
	for a, b := range cd.free {
		if d := b - free0[a]; d != 0 {
			kernel.Axpy(d, cd.xut.RawRowView(a), cd.eta)
		}
	}
}

// update applies the exact coordinate update to penalised βⱼ (its column
// centred) and returns xvⱼδ², the model decrease it buys.
func (cd *lassoCD) update(j int) float64 {
	if cd.twin[j] >= 0 {
		return 0 // its original carries the coefficient
	}
	x := cd.l.xp[j]
	gx := kernel.Dot(x, cd.vr)
	thr := cd.lambda * cd.f[j] / 2
	// |mⱼ| ≤ max|xⱼ|: a column that stays at zero whatever its mean needs
	// no pass over it for the mean (svr, the intercept's gradient, is
	// near 0 after each intercept update).
	if cd.offCentre[j] {
		cd.freshSVR()
	}
	if cd.beta[j] == 0 && cd.offCentre[j] && math.Abs(gx)+cd.maxAbs[j]*math.Abs(cd.svr) <= thr {
		return 0
	}
	mj := cd.mean(j)
	g := gx - mj*cd.svr
	if cd.beta[j] == 0 && math.Abs(g) <= thr {
		return 0 // stays at zero, whatever xvⱼ
	}
	if cd.xv[j] == 0 {
		if cd.xv[j] = centredSq(x, cd.v, mj); cd.xv[j] == 0 {
			return 0
		}
	}
	next := penalty.SoftThreshold(g+cd.xv[j]*cd.beta[j], thr) / cd.xv[j]
	delta := next - cd.beta[j]
	if delta == 0 {
		return 0
	}
	cd.step(x, mj, delta)
	cd.beta[j] = next
	return cd.xv[j] * delta * delta
}

// mean returns the v-weighted mean of penalised column j (0 without an
// intercept), computing it at its first use after a reweighting: glmnet's
// xm for every column would cost a pass over X at every reweighting,
// most of it for columns that stay at zero.
func (cd *lassoCD) mean(j int) float64 {
	if !cd.offCentre[j] {
		return 0 // centring buys nothing: no pass over the column
	}
	if math.IsNaN(cd.m[j]) {
		cd.m[j] = 0
		if cd.sv > 0 {
			cd.m[j] = kernel.Dot(cd.l.xp[j], cd.v) / cd.sv
		}
	}
	return cd.m[j]
}

// step moves vr by a step delta of the coefficient of column x centred
// at mean mj, and the intercept by −mj·delta, so that the linear
// predictor moves by delta·x − mj·delta (Σ v⊙r is unchanged).
func (cd *lassoCD) step(x []float64, mj, delta float64) {
	kernel.AxpyMul(-delta, cd.v, x, cd.vr)
	if mj != 0 {
		kernel.Axpy(delta*mj, cd.v, cd.vr)
		cd.free[0] -= mj * delta
	} else if cd.l.intercept {
		cd.svrStale = true // an uncentred step moves Σ v⊙r
	}
}

// freshSVR recomputes svr = Σ v⊙r when an uncentred column's step has
// moved it since: the centred columns' gradients (and their screening
// bound) read it.
func (cd *lassoCD) freshSVR() {
	if cd.svrStale {
		cd.svr, cd.svrStale = kernel.Dot(cd.xut.RawRowView(0), cd.vr), false
	}
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
func (cd *lassoCD) sweepFree() float64 {
	if cd.xut == nil {
		return 0
	}
	var big float64
	first := 0
	if cd.l.intercept {
		first = 1
	}
	for a := first; a < len(cd.free); a++ {
		x, ma := cd.xut.RawRowView(a), cd.mu[a]
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
		ones := cd.xut.RawRowView(0)
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
func (cd *lassoCD) halve(beta, free, eta []float64) {
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
