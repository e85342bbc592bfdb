package datafit

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
	"gonum.org/v1/gonum/mat"
)

// Loss is the weighted deviance Σᵢ wᵢ·d(yᵢ, ηᵢ) as a function of the
// penalised coefficients β alone, the intercept and the unpenalised
// coefficients minimised out exactly (see the package documentation). It is
// a solver.DualLoss, so the solvers certify its fits by a duality gap, and a
// solver.Newtoner, so that proximal Newton can minimise it. A Loss is not
// safe for concurrent use.
type Loss struct {
	fam   Family
	xp    *mat.Dense // penalised columns, n×m
	xu    *mat.Dense // unpenalised columns with a leading column of ones, n×k (nil when k = 0)
	penal []int      // the columns of X in xp
	// intercept says whether the first column of xu is the intercept's.
	intercept bool
	y, w, o   []float64

	free    []float64 // intercept and unpenalised coefficients at the last evaluation
	eta     []float64 // linear predictor at the last evaluation
	last    []float64 // β at the last evaluation
	nullDev float64
	floor   float64
	lip     float64
}

var (
	_ solver.DualLoss = (*Loss)(nil)
	_ solver.Newtoner = (*Loss)(nil)
)

// NewLoss returns the loss of family fam on data d, after d.Check.
func NewLoss(fam Family, d *Data) (*Loss, error) {
	if fam == nil {
		return nil, errors.New("datafit: nil family")
	}
	if err := d.Check(fam); err != nil {
		return nil, err
	}
	n, p := d.X.Dims()
	l := &Loss{fam: fam, y: slices.Clone(d.Y), w: d.weights(), o: make([]float64, n), intercept: !d.NoIntercept}
	if d.Offset != nil {
		copy(l.o, d.Offset)
	}
	var unpen []int
	if !d.NoIntercept {
		unpen = append(unpen, -1)
	}
	unpen = append(unpen, d.Unpenalized...)
	for j := range p {
		if !slices.Contains(d.Unpenalized, j) {
			l.penal = append(l.penal, j)
		}
	}
	if len(l.penal) == 0 {
		return nil, errors.New("datafit: every predictor is unpenalised: nothing for the penalty to act on")
	}
	l.xp = columns(d.X, l.penal)
	if len(unpen) > 0 {
		l.xu = columns(d.X, unpen)
	}
	l.free = make([]float64, len(unpen))
	l.eta = make([]float64, n)
	if !d.NoIntercept {
		l.free[0] = l.nullIntercept()
	}
	zero := mat.NewDense(len(l.penal), 1, nil)
	l.nullDev = l.Eval(nil, zero)
	if math.IsInf(l.nullDev, 0) || math.IsNaN(l.nullDev) {
		return nil, fmt.Errorf("datafit: the %s model without penalised predictors has deviance %v (offsets too large?)", fam.Name(), l.nullDev)
	}
	var scale float64
	for i, y := range l.y {
		scale += l.w[i] * (1 + 2*math.Abs(xlogx(y)) + 2*math.Abs(y))
	}
	l.floor = 1e-13 * (l.nullDev + scale)
	return l, nil
}

// columns copies the listed columns of x (−1 is a column of ones).
func columns(x *mat.Dense, cols []int) *mat.Dense {
	n, _ := x.Dims()
	out := mat.NewDense(n, len(cols), nil)
	for i := range n {
		row := out.RawRowView(i)
		for a, j := range cols {
			if j < 0 {
				row[a] = 1
			} else {
				row[a] = x.At(i, j)
			}
		}
	}
	return out
}

// nullIntercept returns the intercept of the fit without predictors or
// offset, g(ȳ_w), a good start for the profile.
func (l *Loss) nullIntercept() float64 {
	var sy, sw float64
	for i, y := range l.y {
		sy += l.w[i] * y
		sw += l.w[i]
	}
	if eta := l.fam.Eta(sy / sw); !math.IsNaN(eta) && !math.IsInf(eta, 0) {
		return eta
	}
	return 0
}

// Family returns the loss's family.
func (l *Loss) Family() Family { return l.fam }

// Penalized returns the columns of X that β refers to, in order.
func (l *Loss) Penalized() []int { return l.penal }

// Dims returns the number of penalised predictors and 1.
func (l *Loss) Dims() (int, int) { return len(l.penal), 1 }

// NullDeviance returns the deviance of the model without penalised
// predictors (intercept, offset and unpenalised predictors only).
func (l *Loss) NullDeviance() float64 { return l.nullDev }

// Free returns the intercept (first, unless the data have none) and the
// unpenalised coefficients at the last evaluation.
func (l *Loss) Free() []float64 { return slices.Clone(l.free) }

// Eta returns the linear predictor at the last evaluation.
func (l *Loss) Eta() []float64 { return slices.Clone(l.eta) }

// Eval returns the deviance at β = theta, the unpenalised coefficients
// minimised out, and writes its gradient X_Pᵀ(w⊙∂d/∂η) into grad when grad
// is not nil.
func (l *Loss) Eval(grad *mat.Dense, theta mat.Matrix) float64 {
	l.evaluate(theta)
	f := l.value(l.eta)
	if grad != nil {
		u := make([]float64, len(l.eta))
		for i, e := range l.eta {
			if l.w[i] != 0 {
				d1, _ := l.fam.Derivs(l.y[i], e)
				u[i] = l.w[i] * d1
			}
		}
		m := len(l.penal)
		if grad.IsEmpty() {
			grad.ReuseAs(m, 1)
		}
		g := mat.NewVecDense(m, nil)
		g.MulVec(l.xp.T(), mat.NewVecDense(len(u), u))
		grad.SetCol(0, g.RawVector().Data)
	}
	return f
}

// evaluate sets eta (and free) for β = theta.
func (l *Loss) evaluate(theta mat.Matrix) {
	m := len(l.penal)
	beta := mat.Col(nil, 0, theta)
	if r, _ := theta.Dims(); r != m {
		panic(mat.ErrShape)
	}
	l.last = beta
	base := mat.NewVecDense(len(l.y), nil)
	base.MulVec(l.xp, mat.NewVecDense(m, beta))
	b := base.RawVector().Data
	for i := range b {
		b[i] += l.o[i]
	}
	l.profile(b)
}

// value returns Σ w d(y, η).
func (l *Loss) value(eta []float64) float64 {
	var f float64
	for i, e := range eta {
		if l.w[i] != 0 {
			f += l.w[i] * l.fam.Deviance(l.y[i], e)
		}
	}
	return f
}

// profile minimises the deviance over the unpenalised coefficients a, with
// η = base + X_U a, by Newton's method with backtracking, starting from
// the last minimiser, and leaves η in l.eta.
func (l *Loss) profile(base []float64) {
	k := len(l.free)
	l.setEta(base, l.free)
	if k == 0 {
		return
	}
	f := l.value(l.eta)
	// Also try the intercept-only fit shifted by the mean of base (the
	// warm start is poor after a far-away β), and keep the better start.
	saved := slices.Clone(l.free)
	clear(l.free)
	if l.intercept {
		l.free[0] = l.nullIntercept() - weightedMean(base, l.w)
	}
	l.setEta(base, l.free)
	if fr := l.value(l.eta); finite(fr) && !(fr >= f) {
		f = fr
	} else {
		copy(l.free, saved)
		l.setEta(base, l.free)
	}
	if !finite(f) {
		return
	}
	trial := make([]float64, k)
	prev := math.Inf(1)
	for range 100 {
		g, h := l.freeDerivs()
		step, dec, ok := newtonStep(g, h)
		if !ok || negligible(step, l.free) || dec > prev/10 && dec <= 1e-16*(math.Abs(f)+1) {
			return // converged, or stalled at rounding
		}
		prev = dec
		if dec <= 1e-16*(math.Abs(f)+1) {
			// Quadratic convergence: full steps until the step is
			// rounding, so that the free gradient (the dual point's
			// infeasibility) vanishes to working precision.
			for a := range k {
				l.free[a] += step[a]
			}
			l.setEta(base, l.free)
			f = l.value(l.eta)
			continue
		}
		if !l.backtrack(base, step, &f, trial) {
			l.setEta(base, l.free)
			return
		}
	}
}

// backtrack halves the Newton step until the deviance does not increase,
// moves there and reports whether it could.
func (l *Loss) backtrack(base, step []float64, f *float64, trial []float64) bool {
	t := 1.0
	for range 60 {
		for a := range step {
			trial[a] = l.free[a] + t*step[a]
		}
		l.setEta(base, trial)
		if ft := l.value(l.eta); ft <= *f && finite(ft) {
			*f = ft
			copy(l.free, trial)
			return true
		}
		t /= 2
	}
	return false
}

// negligible reports whether a step changes no coefficient beyond rounding.
func negligible(step, at []float64) bool {
	for a, s := range step {
		if math.Abs(s) > 1e-15*(1+math.Abs(at[a])) {
			return false
		}
	}
	return true
}

// setEta writes base + X_U a into l.eta.
func (l *Loss) setEta(base, a []float64) {
	for i := range base {
		e := base[i]
		if l.xu != nil {
			for c, v := range l.xu.RawRowView(i) {
				e += v * a[c]
			}
		}
		l.eta[i] = e
	}
}

// freeDerivs returns the gradient and Hessian of the deviance in the
// unpenalised coefficients at l.eta.
func (l *Loss) freeDerivs() ([]float64, *mat.SymDense) {
	k := len(l.free)
	g := make([]float64, k)
	h := mat.NewSymDense(k, nil)
	for i, e := range l.eta {
		if l.w[i] == 0 {
			continue
		}
		d1, d2 := l.fam.Derivs(l.y[i], e)
		row := l.xu.RawRowView(i)
		for a := range k {
			g[a] += l.w[i] * d1 * row[a]
			for b := a; b < k; b++ {
				h.SetSym(a, b, h.At(a, b)+l.w[i]*d2*row[a]*row[b])
			}
		}
	}
	return g, h
}

// newtonStep solves H s = −g and returns s and the Newton decrement gᵀH⁻¹g,
// with a small ridge when H is singular.
func newtonStep(g []float64, h *mat.SymDense) ([]float64, float64, bool) {
	k := len(g)
	var ch mat.Cholesky
	if !ch.Factorize(h) {
		var top float64
		for a := range k {
			top = math.Max(top, h.At(a, a))
		}
		if !(top > 0) {
			return nil, 0, false
		}
		r := mat.NewSymDense(k, nil)
		r.CopySym(h)
		for a := range k {
			r.SetSym(a, a, r.At(a, a)+1e-10*top)
		}
		if !ch.Factorize(r) {
			return nil, 0, false
		}
	}
	var s mat.VecDense
	if err := ch.SolveVecTo(&s, mat.NewVecDense(k, slices.Clone(g))); err != nil && s.Len() == 0 {
		return nil, 0, false
	}
	out := make([]float64, k)
	var dec float64
	for a := range k {
		out[a] = -s.AtVec(a)
		dec += g[a] * s.AtVec(a)
	}
	if math.IsNaN(dec) || math.IsInf(dec, 0) {
		return nil, 0, false
	}
	return out, dec, true
}

// Lipschitz returns curvature·λ_max(X̃ᵀWX̃), X̃ the penalised columns
// weighted-centred when there is an intercept, an upper bound on the
// Lipschitz constant of the gradient (profiling only lowers the Hessian);
// 0 for families of unbounded curvature (Poisson), which FISTA then
// handles by backtracking.
func (l *Loss) Lipschitz() float64 {
	c := l.fam.Curvature()
	if math.IsInf(c, 0) {
		return 0
	}
	if l.lip == 0 {
		n, m := l.xp.Dims()
		var mean []float64
		if l.intercept {
			mean = weightedMeans(l.xp, l.w)
		}
		z := mat.NewDense(n, m, nil)
		for i := range n {
			s := math.Sqrt(l.w[i])
			row, src := z.RawRowView(i), l.xp.RawRowView(i)
			for j := range m {
				v := src[j]
				if mean != nil {
					v -= mean[j]
				}
				row[j] = s * v
			}
		}
		ls := solver.NewLeastSquares(solver.DenseDesign{X: z}, mat.NewDense(n, 1, nil))
		l.lip = c * ls.Lipschitz() / 2
	}
	return l.lip
}

func weightedMeans(x *mat.Dense, w []float64) []float64 {
	n, m := x.Dims()
	mean := make([]float64, m)
	var sw float64
	for i := range n {
		sw += w[i]
		for j, v := range x.RawRowView(i) {
			mean[j] += w[i] * v
		}
	}
	for j := range mean {
		mean[j] /= sw
	}
	return mean
}

// Dual returns the dual objective −Σ wᵢd*(yᵢ, s·∂d/∂ηᵢ) + s·Σ wᵢ(∂d/∂ηᵢ)oᵢ at
// the dual point of β = theta scaled by s.
func (l *Loss) Dual(theta mat.Matrix, _ float64, s float64) float64 {
	if !slices.Equal(mat.Col(nil, 0, theta), l.last) {
		l.evaluate(theta)
	}
	var d float64
	for i, e := range l.eta {
		if l.w[i] == 0 {
			continue
		}
		d1, _ := l.fam.Derivs(l.y[i], e)
		d -= l.w[i] * l.fam.Conjugate(l.y[i], s*d1)
		d += s * l.w[i] * d1 * l.o[i]
	}
	return d
}

// GapFloor returns 1e-13 of the null deviance plus the size of the terms
// the dual sums.
func (l *Loss) GapFloor() float64 { return l.floor }

// Quadratic returns the proximal Newton (IRLS) model of the loss at
// β = theta as a least-squares loss in Gram form: the weighted least
// squares of the working response on the penalised columns with weights
// wᵢ∂²d/∂η²/2, the intercept and the unpenalised columns profiled out of
// its Gram matrix (a Schur complement of the weighted co-moments).
func (l *Loss) Quadratic(theta *mat.Dense) (*solver.LeastSquares, error) {
	l.evaluate(theta)
	n, m := l.xp.Dims()
	k := len(l.free)
	intercept := l.intercept
	extra := k
	if intercept {
		extra-- // the column of ones is the centring
	}
	d := extra + m + 1
	z := mat.NewDense(n, d, nil)
	wt := make([]float64, n)
	for i, e := range l.eta {
		d1, d2 := l.fam.Derivs(l.y[i], e)
		if l.w[i] == 0 || !(d2 > 0) {
			continue
		}
		wt[i] = l.w[i] * d2 / 2
		row := z.RawRowView(i)
		if extra > 0 {
			copy(row, l.xu.RawRowView(i)[k-extra:])
		}
		copy(row[extra:], l.xp.RawRowView(i))
		row[d-1] = e - l.o[i] - d1/d2
	}
	mo := suffstat.New(d)
	mo.AddRows(z, wt)
	if !(mo.W > 0) {
		return nil, errors.New("datafit: every observation has zero curvature (fitted means at the boundary)")
	}
	c := mo.Sym()
	if !intercept {
		for a := range d {
			for b := a; b < d; b++ {
				c.SetSym(a, b, c.At(a, b)+mo.W*mo.Mean[a]*mo.Mean[b])
			}
		}
	}
	h, cross, yy, err := schur(c, extra)
	if err != nil {
		return nil, err
	}
	return solver.NewGramLeastSquares(h, cross, math.Max(yy, 0)), nil
}

// schur removes the first k variables from the co-moments c of
// [X_U X_P z]: the co-moments of X_P and z after regression on X_U.
func schur(c *mat.SymDense, k int) (*mat.SymDense, *mat.Dense, float64, error) {
	d := c.SymmetricDim()
	m := d - k - 1
	rest := mat.NewSymDense(d-k, nil)
	for a := range d - k {
		for b := a; b < d-k; b++ {
			rest.SetSym(a, b, c.At(k+a, k+b))
		}
	}
	if k > 0 {
		cuu := mat.NewSymDense(k, nil)
		for a := range k {
			for b := a; b < k; b++ {
				cuu.SetSym(a, b, c.At(a, b))
			}
		}
		var ch mat.Cholesky
		if !ch.Factorize(cuu) {
			return nil, nil, 0, errors.New("datafit: the unpenalised predictors are collinear (with the intercept) on the observations that carry weight")
		}
		cur := mat.NewDense(k, d-k, nil)
		for a := range k {
			for b := range d - k {
				cur.Set(a, b, c.At(a, k+b))
			}
		}
		var sol mat.Dense
		if err := ch.SolveTo(&sol, cur); err != nil {
			return nil, nil, 0, err
		}
		var corr mat.Dense
		corr.Mul(cur.T(), &sol)
		for a := range d - k {
			for b := a; b < d-k; b++ {
				rest.SetSym(a, b, rest.At(a, b)-corr.At(a, b))
			}
		}
	}
	h := mat.NewSymDense(m, nil)
	cross := mat.NewDense(m, 1, nil)
	for a := range m {
		for b := a; b < m; b++ {
			h.SetSym(a, b, rest.At(a, b))
		}
		cross.Set(a, 0, rest.At(a, m))
	}
	return h, cross, rest.At(m, m), nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func weightedMean(v, w []float64) float64 {
	var s, sw float64
	for i, x := range v {
		s += w[i] * x
		sw += w[i]
	}
	return s / sw
}
