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
// cyclic coordinate descent on the columns of X, the intercept and the
// unpenalised coefficients updated in the same sweeps without shrinkage,
// sweeps over the active set between full sweeps (J. Friedman, T. Hastie
// and R. Tibshirani, J. Stat. Softw. 33(1), 2010). A step that raises the
// objective is halved. When the coefficients settle it evaluates the
// duality gap of the true problem (the intercept and unpenalised part
// profiled exactly) and stops once it is at most s.Tol; otherwise it
// tightens the sweeps and goes on, and when that stalls (tolerances near
// the rounding floor) solver.ProxNewton finishes from the point reached.
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
		v: make([]float64, n), r: make([]float64, n), vr: make([]float64, n), xv: make([]float64, m)}
	if init != nil {
		mat.Col(cd.beta, 0, init)
	}
	theta := mat.NewDense(m, 1, cd.beta)
	l.evaluate(theta) // η and the profiled intercept at the start
	cd.free = slices.Clone(l.free)
	copy(cd.eta, l.eta)
	if l.xu != nil {
		cd.xut = mat.DenseCopyOf(l.xu.T())
	}
	res := &solver.Result{Gap: math.NaN(), Residual: math.NaN(), Status: solver.IterationLimit}
	grad := mat.NewDense(m, 1, nil)
	obj := cd.objective(cd.eta)
	thr := math.Min(1e-3, s.Tol*s.Tol)
	lastGap, failures := math.Inf(1), 0
	reweights := 100
	if s.MaxIter > 0 {
		reweights = min(s.MaxIter, reweights)
	}
	for k := 1; k <= reweights; k++ {
		res.Iterations = k
		cd.reweight()
		prevBeta, prevFree, prevEta := slices.Clone(cd.beta), slices.Clone(cd.free), slices.Clone(cd.eta)
		cd.solveModel(thr * obj)
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
		thr = math.Max(thr/10, 1e-16)
		// The certificate profiled the intercept: continue from there.
		cd.free = slices.Clone(l.free)
		copy(cd.eta, l.eta)
		obj = o
	}
	// Not certified: proximal Newton finishes from the point reached.
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
	xv     []float64  // Σ v x² per penalised column (0: not computed)
	xut    *mat.Dense // unpenalised columns by rows (first the ones)
}

// objective returns the deviance at η plus the penalty.
func (cd *lassoCD) objective(eta []float64) float64 {
	f := cd.l.value(eta)
	for j, b := range cd.beta {
		f += cd.lambda * cd.f[j] * math.Abs(b)
	}
	return f
}

// reweight sets the IRLS weights and working residuals at η.
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
}

// solveModel runs coordinate descent on Σ v (r − Δη)² + λΣ f|β| until a
// full sweep changes no penalised coefficient by more than thr in the
// model's scale (xv·δ²). It keeps vr = v⊙r, so that each coordinate's
// correlation is one dot product, and moves η by the coefficients' total
// changes at the end.
func (cd *lassoCD) solveModel(thr float64) {
	m := len(cd.beta)
	beta0, free0 := slices.Clone(cd.beta), slices.Clone(cd.free)
	for i := range cd.vr {
		cd.vr[i] = cd.v[i] * cd.r[i]
	}
	for range 1000 {
		big := cd.sweepFree()
		for j := range m {
			big = math.Max(big, cd.update(j))
		}
		if big <= thr {
			break
		}
		for range 1000 {
			big = cd.sweepFree()
			for j := range m {
				if cd.beta[j] != 0 {
					big = math.Max(big, cd.update(j))
				}
			}
			if big <= thr {
				break
			}
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

// update applies the exact coordinate update to penalised βⱼ and returns
// xvⱼδ², the model decrease it buys.
func (cd *lassoCD) update(j int) float64 {
	x := cd.l.xp[j]
	g := kernel.Dot(x, cd.vr)
	thr := cd.lambda * cd.f[j] / 2
	if cd.beta[j] == 0 && math.Abs(g) <= thr {
		return 0 // stays at zero, whatever xvⱼ
	}
	if cd.xv[j] == 0 {
		if cd.xv[j] = kernel.Dot3(x, x, cd.v); cd.xv[j] == 0 {
			return 0
		}
	}
	next := penalty.SoftThreshold(g+cd.xv[j]*cd.beta[j], thr) / cd.xv[j]
	delta := next - cd.beta[j]
	if delta == 0 {
		return 0
	}
	kernel.AxpyMul(-delta, cd.v, x, cd.vr)
	cd.beta[j] = next
	return cd.xv[j] * delta * delta
}

// sweepFree updates the intercept and unpenalised coefficients (no
// shrinkage) and returns the largest model decrease.
func (cd *lassoCD) sweepFree() float64 {
	if cd.xut == nil {
		return 0
	}
	var big float64
	for a := range cd.free {
		x := cd.xut.RawRowView(a)
		g, xv := kernel.Dot(x, cd.vr), kernel.Dot3(x, x, cd.v)
		if xv == 0 {
			continue
		}
		delta := g / xv
		kernel.AxpyMul(-delta, cd.v, x, cd.vr)
		cd.free[a] += delta
		big = math.Max(big, xv*delta*delta)
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
