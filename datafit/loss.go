package datafit

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/internal/kernel"
	"github.com/cardsparse/cardreg/solver"
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
	xp    []design.Column // penalised columns: xp[a] is column penal[a] of X, dense or sparse
	xu    *mat.Dense      // unpenalised columns with a leading column of ones, n×k (nil when k = 0)
	penal []int           // the columns of X in xp
	top   []float64       // max|x| of each column of xp
	unpen []int           // the unpenalised columns of X, in xu after its ones (if any)
	// intercept says whether the first column of xu is the intercept's.
	intercept bool
	y, w, o   []float64
	// yConst holds the family's η-free term of each row's deviance
	// (unitConst), computed once.
	yConst []float64
	// constant is Data.Constant summed on the weights' scale, added to
	// every value of the deviance and of its dual.
	constant float64

	free    []float64 // intercept and unpenalised coefficients at the last evaluation
	eta     []float64 // linear predictor at the last evaluation
	last    []float64 // β at the last evaluation
	nullDev float64
	floor   float64
	lip     float64

	// at holds the rows' unit deviances and derivatives (units); etaGen
	// counts the changes of eta, so that the cache knows it holds eta's
	// values without comparing.
	at     rowCache
	etaGen uint64

	// Caches of the IRLS design (IRLSDesign), computed once per loss: the
	// copies among xp for the factors twinF (see twins), and each column's
	// statistics (columnStats: its hash, max|x| and whether it is off
	// centre, shared with the restrictions) when a fit first needs them.
	twinF     []float64
	hashes    []uint64
	twin      []int
	twinSign  []float64
	maxAbs    []float64
	offCentre []bool
	statsDone []bool // the columns whose statistics are computed
	// byRow is the sparse penalised columns by rows (rows), built when a
	// Newton model's Gram form first needs it.
	byRow *rowIndex
}

var (
	_ solver.DualLoss   = (*Loss)(nil)
	_ solver.Newtoner   = (*Loss)(nil)
	_ solver.Restricter = (*Loss)(nil)
)

// NewLoss returns the loss of family fam on data d, after d.Check (the
// predictors' finiteness checked as they are copied: a pass fewer).
func NewLoss(fam Family, d *Data) (*Loss, error) {
	if fam == nil {
		return nil, errors.New("datafit: nil family")
	}
	if err := d.checkShape(); err != nil {
		return nil, err
	}
	n, p := d.dims()
	w, c := d.weights()
	l := &Loss{fam: fam, y: slices.Clone(d.Y), w: w, constant: c, o: make([]float64, n), intercept: !d.NoIntercept}
	l.yConst = make([]float64, n)
	for i, y := range l.y {
		l.yConst[i] = unitConst(fam, y)
	}
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
	xp, top := d.penalisedColumns(l.penal)
	if len(unpen) > 0 {
		l.xu = d.freeColumns(unpen)
	}
	// A value that is not finite makes its column's maximum NaN or +Inf:
	// then the rows are checked one by one, predictors included, so that
	// the error names the first bad value in the rows' order.
	finite := allFinite(top) && (l.xu == nil || allFinite(l.xu.RawMatrix().Data))
	if err := d.checkValues(fam, !finite); err != nil {
		return nil, err
	}
	l.xp, l.top, l.unpen = xp, top, slices.Clone(d.Unpenalized)
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
		scale += l.w[i] * dualScale(fam, y)
	}
	l.floor = GapFloor(l.nullDev, scale)
	return l, nil
}

// GapFloor returns the absolute duality gap below which a gap is the
// rounding of its own evaluation: 1e-13 of the null deviance plus scale,
// the weighted sum of the rows' DualScaleOf (the size of the terms the
// dual sums).
func GapFloor(null, scale float64) float64 { return 1e-13 * (null + scale) }

// DualScaleOf returns the size of row y's terms in the dual of family fam
// (GapFloor's scale is their weighted sum).
func DualScaleOf(fam Family, y float64) float64 { return dualScale(fam, y) }

// dualScale returns fam's DualScale(y), or 1 + 2|y log y| + 2|y| for a
// family that is not a DualScaler.
func dualScale(fam Family, y float64) float64 {
	if s, ok := fam.(DualScaler); ok {
		return s.DualScale(y)
	}
	return 1 + 2*math.Abs(xlogx(y)) + 2*math.Abs(y)
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

// allFinite reports whether every value of x is finite.
func allFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// CheckScale applies CheckColumnScale to every predictor column, from the
// largest magnitudes the loss found as it copied them (Data.CheckScale's
// verdict without a pass over X).
func (l *Loss) CheckScale() error {
	for a, m := range l.top {
		if err := CheckColumnScale(l.penal[a], m); err != nil {
			return err
		}
	}
	if l.xu == nil {
		return nil
	}
	first := 0
	if l.intercept {
		first = 1 // the ones
	}
	for a, j := range l.unpen {
		var m float64
		for i := range len(l.y) {
			m = max(m, math.Abs(l.xu.At(i, first+a)))
		}
		if err := CheckColumnScale(j, m); err != nil {
			return err
		}
	}
	return nil
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

// interceptStart returns a start for the profiled intercept at base
// after a far-away β: NullStart's, with base as the offsets (for the log
// link the exact minimiser when the intercept is the only unpenalised
// coefficient; Newton from far below it takes steps of e^|η| that no
// backtracking recovers from).
func (l *Loss) interceptStart(base []float64) float64 {
	s := NewNullStart(l.fam)
	for i, b := range base {
		s.Add(l.y[i], l.w[i], b)
	}
	return s.Value()
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

// Response returns the responses y.
func (l *Loss) Response() []float64 { return slices.Clone(l.y) }

// DevianceAt returns the deviance Σ wᵢ d(yᵢ, ηᵢ) (plus the constant of
// aggregated rows, on the scale of Eval) at the linear predictor eta, one
// value per row, with nothing minimised out and the loss left where it
// is: the deviance along a ray in η, which a profile started from far
// away can overstate.
func (l *Loss) DevianceAt(eta []float64) float64 {
	if len(eta) != len(l.y) {
		panic(mat.ErrShape)
	}
	f := l.constant
	for i, e := range eta {
		if l.w[i] != 0 {
			d, _, _ := unit(l.fam, l.y[i], l.yConst[i], e)
			f += l.w[i] * d
		}
	}
	return f
}

// Eval returns the deviance at β = theta, the unpenalised coefficients
// minimised out, and writes its gradient X_Pᵀ(w⊙∂d/∂η) into grad when grad
// is not nil.
func (l *Loss) Eval(grad *mat.Dense, theta mat.Matrix) float64 {
	l.evaluate(theta)
	f := l.value()
	if grad != nil {
		u := make([]float64, len(l.eta))
		for i, d1 := range l.units().d1 {
			u[i] = l.w[i] * d1
		}
		if grad.IsEmpty() {
			grad.ReuseAs(len(l.penal), 1)
		}
		for a, x := range l.xp {
			grad.Set(a, 0, x.Dot(u))
		}
	}
	return f
}

// evaluate sets eta (and free) for β = theta.
func (l *Loss) evaluate(theta mat.Matrix) {
	m := len(l.penal)
	if r, _ := theta.Dims(); r != m {
		panic(mat.ErrShape)
	}
	beta := mat.Col(nil, 0, theta)
	if slices.Equal(beta, l.last) {
		return // η and the profile are those of β already
	}
	l.last = beta
	// base = o + X_P β, column by column over the nonzero coefficients
	// (each contiguous): O(n·nnz) for sparse β.
	b := slices.Clone(l.o)
	for a, v := range beta {
		if v != 0 {
			l.xp[a].Axpy(v, b)
		}
	}
	l.profile(b)
}

// adopt sets the loss at β = beta from a linear predictor eta computed
// with the unpenalised coefficients free (as coordinate descent keeps
// them), then profiles those: it avoids evaluate's O(n·nnz) rebuild of η.
func (l *Loss) adopt(beta, eta, free []float64) {
	l.last = slices.Clone(beta)
	copy(l.free, free)
	base := slices.Clone(eta)
	if l.xu != nil {
		for i := range base {
			for c, v := range l.xu.RawRowView(i) {
				base[i] -= v * free[c]
			}
		}
	}
	// η itself, not base + X_U a again: the rows' values at it (the IRLS
	// objective's, Reweight) are then at hand.
	copy(l.eta, eta)
	l.moved()
	l.profileFrom(base)
}

// Adopt tells l that theta (over all of l's penalised predictors) is the
// point sub, a Restrict of l, was last evaluated at, with zeros outside
// sub's predictors, so that l reuses sub's linear predictor and profile
// instead of rebuilding them. It does nothing when theta is not that point
// (or sub is not a *Loss).
func (l *Loss) Adopt(s solver.Loss, theta mat.Matrix) {
	beta := mat.Col(nil, 0, theta)
	sub, ok := s.(*Loss)
	if !ok || sub.last == nil || len(beta) != len(l.penal) {
		return
	}
	k := 0
	for a, j := range l.penal {
		want := 0.0
		if k < len(sub.penal) && sub.penal[k] == j {
			want = sub.last[k]
			k++
		}
		if beta[a] != want {
			return
		}
	}
	if k != len(sub.penal) {
		return
	}
	l.last = beta
	copy(l.free, sub.free)
	copy(l.eta, sub.eta)
	l.moved()
	if sub.at.holds(sub.eta) {
		l.at = rowCache{eta: slices.Clone(sub.at.eta), dev: slices.Clone(sub.at.dev),
			d1: slices.Clone(sub.at.d1), d2: slices.Clone(sub.at.d2)}
	}
}

// rowCache holds, per row, the unit deviance d(y, η) and its derivatives
// ∂d/∂η and ∂²d/∂η² at the linear predictor eta (0 where the weight is
// 0): the IRLS objective, the profile, the gradient, the dual and the
// Newton model read them at the same η, and each evaluation costs an
// exponential and a logarithm per row, against a comparison per row to
// find them again.
type rowCache struct {
	eta, dev, d1, d2 []float64
	// gen is the loss's etaGen when the values were last found to be at
	// its eta (0: not known).
	gen uint64
}

// holds reports whether c holds the rows' values at eta.
func (c *rowCache) holds(eta []float64) bool {
	return len(c.eta) == len(eta) && slices.Equal(c.eta, eta)
}

// units returns the rows' deviances and derivatives at l.eta, evaluated
// once per η.
func (l *Loss) units() *rowCache {
	if l.at.gen != 0 && l.at.gen == l.etaGen {
		return &l.at
	}
	c := l.unitsAt(l.eta)
	c.gen = l.etaGen
	return c
}

// moved records that l.eta changed.
func (l *Loss) moved() { l.etaGen++ }

// unitsAt returns the rows' deviances and derivatives at eta, from the
// cache when it holds them there, else evaluated into it.
func (l *Loss) unitsAt(eta []float64) *rowCache {
	c := &l.at
	if c.holds(eta) {
		return c
	}
	if n := len(eta); len(c.dev) != n {
		c.eta, c.dev, c.d1, c.d2 = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	}
	copy(c.eta, eta)
	c.gen = 0
	// The two families that fits evaluate most take their exponentials
	// and logarithms four at a time (Unit's values, bit for bit).
	switch l.fam.(type) {
	case Binomial:
		l.binomialUnits(eta, c)
	case Poisson:
		l.poissonUnits(eta, c)
	default:
		for i, e := range eta {
			c.dev[i], c.d1[i], c.d2[i] = 0, 0, 0
			if l.w[i] != 0 {
				c.dev[i], c.d1[i], c.d2[i] = unit(l.fam, l.y[i], l.yConst[i], e)
			}
		}
	}
	return c
}

// binomialUnits fills c with the binomial family's Unit at eta (c.eta
// already eta): t = e^−|η| into c.d1 and log(1 + t) into c.dev by the
// vector kernels, then each row from them.
func (l *Loss) binomialUnits(eta []float64, c *rowCache) {
	t, lg := c.d1, c.dev
	for i, e := range eta {
		lg[i] = -math.Abs(e)
	}
	kernel.ExpTo(t, lg)
	kernel.Log1pUnitTo(lg, t)
	for i, e := range eta {
		if l.w[i] == 0 {
			c.dev[i], c.d1[i], c.d2[i] = 0, 0, 0
			continue
		}
		c.dev[i], c.d1[i], c.d2[i] = binomialUnit(l.y[i], e, t[i], lg[i])
	}
}

// poissonUnits fills c with the Poisson family's Unit at eta (c.eta
// already eta): μ = e^η into c.d2 by the vector kernel, then each row.
func (l *Loss) poissonUnits(eta []float64, c *rowCache) {
	mu := c.d2
	kernel.ExpTo(mu, eta)
	for i, e := range eta {
		if l.w[i] == 0 {
			c.dev[i], c.d1[i], c.d2[i] = 0, 0, 0
			continue
		}
		c.dev[i], c.d1[i], c.d2[i] = poissonUnit(l.y[i], l.yConst[i], e, mu[i])
	}
}

// value returns Σ w d(y, η) at l.eta plus the constant of aggregated rows.
func (l *Loss) value() float64 {
	f := l.constant
	for i, d := range l.units().dev {
		if l.w[i] != 0 {
			f += l.w[i] * d
		}
	}
	return f
}

// profile minimises the deviance over the unpenalised coefficients a, with
// η = base + X_U a, by Newton's method with backtracking, starting from
// the last minimiser, and leaves η in l.eta.
func (l *Loss) profile(base []float64) {
	l.setEta(base, l.free)
	l.profileFrom(base)
}

// profileFrom is profile with l.eta already base + X_U a.
func (l *Loss) profileFrom(base []float64) {
	k := len(l.free)
	if k == 0 {
		return
	}
	f := l.value()
	if !finite(f) || f > 2*l.nullDev {
		// The warm start is poor (after a far-away β): also try the
		// intercept-only fit shifted by the mean of base, keep the better.
		saved := slices.Clone(l.free)
		clear(l.free)
		if l.intercept {
			l.free[0] = l.interceptStart(base)
		}
		l.setEta(base, l.free)
		if fr := l.value(); finite(fr) && !(fr >= f) {
			f = fr
		} else {
			copy(l.free, saved)
			l.setEta(base, l.free)
		}
	}
	if !finite(f) {
		return
	}
	trial := make([]float64, k)
	prev := math.Inf(1)
	for range 100 {
		g, h := l.freeDerivs()
		step, dec, ok := newtonStep(g, h)
		if !ok || negligible(step, l.free) || dec > prev/10 && dec <= 1e-12*(math.Abs(f)+1) {
			return // converged, or stalled at rounding
		}
		prev = dec
		// The full step, accepted within the rounding of the sum (near
		// the minimum the decrease is below it), else backtracking.
		for a := range k {
			trial[a] = l.free[a] + step[a]
		}
		l.setEta(base, trial)
		if ft := l.value(); finite(ft) && ft <= f+1e-13*(math.Abs(f)+1) {
			f = ft
			copy(l.free, trial)
			continue
		}
		if !l.backtrack(base, step, &f, trial) {
			l.setEta(base, l.free)
			return
		}
	}
}

// backtrack halves the Newton step until the deviance does not increase,
// moves there and reports whether it could. It starts from a step that
// moves no row's η by more than MaxOffset (beyond it e^η saturates and no
// row's deviance bends any more): where the rows' curvature is ~0, as when
// binomial offsets of ±700 put every row at the boundary, the Newton step
// is ~1e300 long, 60 halvings leave it beyond reach, and the intercept
// stayed at its start (a null deviance 1.5 times the minimum, "converged").
func (l *Loss) backtrack(base, step []float64, f *float64, trial []float64) bool {
	t := 1.0
	if m := l.etaChange(step); m > MaxOffset {
		t = MaxOffset / m
	}
	for range 60 {
		for a := range step {
			trial[a] = l.free[a] + t*step[a]
		}
		l.setEta(base, trial)
		if ft := l.value(); ft <= *f && finite(ft) {
			*f = ft
			copy(l.free, trial)
			return true
		}
		t /= 2
	}
	return false
}

// etaChange returns max over rows of |X_U·step|, the largest change of a
// row's η a step of the unpenalised coefficients makes.
func (l *Loss) etaChange(step []float64) float64 {
	var m float64
	for i := range l.y {
		var d float64
		for c, v := range l.xu.RawRowView(i) {
			d += v * step[c]
		}
		m = math.Max(m, math.Abs(d))
	}
	return m
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
	l.moved()
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
	g, h := make([]float64, k), make([]float64, k*k)
	c := l.units()
	for i, d1 := range c.d1 {
		if l.w[i] == 0 {
			continue
		}
		wd1, wd2 := l.w[i]*d1, l.w[i]*c.d2[i]
		row := l.xu.RawRowView(i)
		for a, ra := range row {
			g[a] += wd1 * ra
			for b := a; b < k; b++ {
				h[a*k+b] += wd2 * ra * row[b]
			}
		}
	}
	return g, mat.NewSymDense(k, h)
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
	if l.lip == 0 && l.sparseColumns() {
		l.lip = c * l.projectedLipschitz() / 2
	}
	if l.lip == 0 {
		m, n := len(l.xp), len(l.y)
		z := mat.NewDense(m, n, nil)
		src := make([]float64, n)
		for a, col := range l.xp {
			col.Values(src)
			row := z.RawRowView(a)
			var mean, sw float64
			if l.intercept {
				for i, v := range src {
					mean += l.w[i] * v
					sw += l.w[i]
				}
				mean /= sw
			}
			for i, v := range src {
				row[i] = math.Sqrt(l.w[i]) * (v - mean)
			}
		}
		ls := solver.NewLeastSquares(solver.ColumnDesign{XT: z}, mat.NewDense(n, 1, nil))
		l.lip = c * ls.Lipschitz() / 2
	}
	return l.lip
}

// Dual returns the dual objective −Σ wᵢd*(yᵢ, s·∂d/∂ηᵢ) + s·Σ wᵢ(∂d/∂ηᵢ)oᵢ at
// the dual point of β = theta scaled by s, plus the constant of aggregated
// rows (Data.Constant): the absolute gap is the rows' own, which bounds the
// observations' suboptimality too (their objective differs by the
// constant), and a relative gap taken over the value, which includes the
// constant, is relative to the observations' objective.
func (l *Loss) Dual(theta mat.Matrix, _ float64, s float64) float64 {
	l.evaluate(theta)
	d := l.constant
	for i, d1 := range l.units().d1 {
		if l.w[i] == 0 {
			continue
		}
		d -= l.w[i] * l.fam.Conjugate(l.y[i], s*d1)
		d += s * l.w[i] * d1 * l.o[i]
	}
	return d
}

// GapFloor returns 1e-13 of the null deviance plus the size of the terms
// the dual sums.
func (l *Loss) GapFloor() float64 { return l.floor }

// Quadratic returns the proximal Newton (IRLS) model of the loss at
// β = theta as a least-squares loss: the rows of the penalised columns and
// of the working response zᵢ = ηᵢ − oᵢ − (∂d/∂η)/(∂²d/∂η²), scaled by
// √(wᵢ∂²d/∂η²/2), with the intercept and the unpenalised columns projected
// out (in that weighted metric). The loss forms its Gram matrix only if a
// method asks for it (FISTA does, coordinate descent does not). With many
// sparse (factor) columns the model keeps them sparse and projects in its
// products instead (projectedDesign), with no Gram form: the dense model
// is n×m and its Gram form m².
func (l *Loss) Quadratic(theta *mat.Dense) (*solver.LeastSquares, error) {
	l.evaluate(theta)
	m, n := len(l.xp), len(l.y)
	s := make([]float64, n)
	z := make([]float64, n)
	c := l.units()
	for i, e := range l.eta {
		d1, d2 := c.d1[i], NewtonCurvature(c.d1[i], c.d2[i])
		if l.w[i] == 0 || !(d2 > 0) {
			continue
		}
		s[i] = math.Sqrt(l.w[i] * d2 / 2)
		z[i] = s[i] * (e - l.o[i] - d1/d2)
	}
	yt := mat.NewDense(1, n, z)
	var basis []*mat.VecDense
	if l.xu != nil {
		var err error
		if basis, err = weightedBasis(l.xu, s); err != nil {
			return nil, err
		}
	}
	for _, q := range basis {
		projectOut(yt, q)
	}
	if l.sparseModel() {
		d := &projectedDesign{l: l, s: s}
		for _, q := range basis {
			d.basis = append(d.basis, q.RawVector().Data)
		}
		return solver.NewLeastSquares(d, yt.T()), nil
	}
	if l.gramModel() {
		d := &gramDesign{projectedDesign{l: l, s: s}}
		for _, q := range basis {
			d.basis = append(d.basis, q.RawVector().Data)
		}
		return solver.NewLeastSquares(d, yt.T()), nil
	}
	xt := mat.NewDense(m, n, nil)
	for a := range m {
		dst := xt.RawRowView(a)
		x := l.xp[a].Dense
		if !l.xp[a].IsDense() || l.xp[a].Scale != 0 {
			x = l.xp[a].Values(make([]float64, n))
		}
		weightedResidual(dst, x, s, basis)
	}
	return solver.NewLeastSquares(solver.ColumnDesign{XT: xt}, yt.T()), nil
}

// weightedBasis returns an orthonormal basis of the columns of diag(s)·u,
// by modified Gram–Schmidt applied twice.
func weightedBasis(u *mat.Dense, s []float64) ([]*mat.VecDense, error) {
	n, k := u.Dims()
	var basis []*mat.VecDense
	for c := range k {
		v := mat.NewVecDense(n, nil)
		for i := range n {
			v.SetVec(i, s[i]*u.At(i, c))
		}
		before := mat.Norm(v, 2)
		for range 2 {
			for _, q := range basis {
				v.AddScaledVec(v, -mat.Dot(v, q), q)
			}
		}
		after := mat.Norm(v, 2)
		if !(after > 1e-10*before) {
			return nil, errors.New("datafit: the unpenalised predictors are collinear (with the intercept) on the observations that carry weight")
		}
		v.ScaleVec(1/after, v)
		basis = append(basis, v)
	}
	return basis, nil
}

// projectOut removes from every row of a its component along the unit
// vector q.
func projectOut(a *mat.Dense, q *mat.VecDense) {
	qv := q.RawVector().Data
	for r := range a.RawMatrix().Rows {
		row := a.RawRowView(r)
		var dot float64
		for i, v := range row {
			dot += qv[i] * v
		}
		for i := range row {
			row[i] -= dot * qv[i]
		}
	}
}

// weightedResidual writes into dst the column s⊙x less its components
// along the orthonormal basis vectors, the first of them folded into the
// scaling pass.
func weightedResidual(dst, x, s []float64, basis []*mat.VecDense) {
	if len(basis) == 0 {
		for i, v := range x {
			dst[i] = s[i] * v
		}
		return
	}
	q := basis[0].RawVector().Data
	var dot float64
	for i, v := range x {
		dot += q[i] * s[i] * v
	}
	for i, v := range x {
		dst[i] = s[i]*v - dot*q[i]
	}
	for _, b := range basis[1:] {
		qb := b.RawVector().Data
		var d float64
		for i, v := range dst {
			d += qb[i] * v
		}
		for i := range dst {
			dst[i] -= d * qb[i]
		}
	}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// restricted returns beta's entries at positions keep (increasing) when
// beta is zero elsewhere, and whether it is (false for nil).
func restricted(beta []float64, keep []int) ([]float64, bool) {
	if beta == nil {
		return nil, false
	}
	out := make([]float64, len(keep))
	k := 0
	for j, b := range beta {
		if k < len(keep) && keep[k] == j {
			out[k] = b
			k++
		} else if b != 0 {
			return nil, false
		}
	}
	return out, k == len(keep)
}

// Restrict returns the loss of the same data with only the penalised
// predictors at positions keep (indices into Penalized, increasing) free:
// the others are held at zero. Working-set methods solve it and check the
// rest on the full loss. It shares the observations and the columns with l
// (nothing is copied but O(n) of state). It is a *Loss.
func (l *Loss) Restrict(keep []int) solver.Loss {
	n := len(l.y)
	r := *l
	r.xp = make([]design.Column, len(keep))
	r.byRow = nil
	r.penal = make([]int, len(keep))
	r.top = make([]float64, len(keep))
	for a, k := range keep {
		r.xp[a] = l.xp[k]
		r.penal[a] = l.penal[k]
		r.top[a] = l.top[k]
	}
	r.free = slices.Clone(l.free)
	r.eta = make([]float64, n)
	r.at = rowCache{}
	r.last = nil
	r.lip = 0
	if last, ok := restricted(l.last, keep); ok {
		// l's point lies inside the kept predictors (a path's warm start):
		// the restriction starts there, without rebuilding η column by
		// column.
		copy(r.eta, l.eta)
		r.last = last
	}
	// The caches of IRLSDesign are per column: the copies are found again
	// among the kept columns, from the parent's hashes; max|x| and the
	// hashes are the parent's (computed once for all the restrictions of
	// a path).
	r.twinF, r.twin, r.twinSign = nil, nil, nil
	pm, po, ph := l.columnStats(keep)
	r.maxAbs, r.offCentre = make([]float64, len(keep)), make([]bool, len(keep))
	r.hashes, r.statsDone = make([]uint64, len(keep)), make([]bool, len(keep))
	for a, k := range keep {
		r.maxAbs[a], r.offCentre[a], r.hashes[a], r.statsDone[a] = pm[k], po[k], ph[k], true
	}
	return &r
}
