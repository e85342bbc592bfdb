package solver

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/internal/kernel"
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// CoordinateDescent is cyclic coordinate descent for least squares with
// the lasso penalty ν‖Θ‖₁, on the residuals ("naive" updates, as in glmnet:
// J. Friedman, T. Hastie and R. Tibshirani, "Regularization Paths for
// Generalized Linear Models via Coordinate Descent", J. Stat. Softw. 33(1),
// 2010). Each update of coordinate k is exact,
//
//	θ_k ← soft(x_kᵀr + ‖x_k‖²θ_k, λν/2)/‖x_k‖²,   r ← r − x_k Δθ_k,
//
// so a sweep costs O(np) and never forms XᵀX, which makes it the fastest
// method for one λ on a dense design. After each sweep over all
// coordinates it sweeps the nonzero ones until they settle, then evaluates
// the duality gap and stops when the relative gap is at most Tol, like the
// other methods. Iterations counts sweeps.
//
// The dual point is the better of two, each scaled along itself to its best
// feasible multiple: the residual, and from the sixth gap on the
// extrapolation of the last five residuals (dual extrapolation, see
// residuals.extrapolate). The residual alone converges to the dual optimum
// far more slowly than the coefficients to the primal one when p ≫ n; the
// extrapolation halves the time to a gap of 1e-7 at 1000×5000 and
// 200×20000.
//
// Each gap evaluation also screens coordinates out safely (the "gap safe"
// rule of E. Ndiaye, O. Fercoq, A. Gramfort and J. Salmon, JMLR 18, 2017):
// the dual objective ⟨θ, y⟩ − ‖θ‖²/4 is ½-strongly concave, so the dual
// optimum lies within 2√gap of the feasible dual point θ, and a coordinate
// with |x_kᵀθ| + 2√gap·‖x_k‖ < λν is zero at every solution; it is set to
// zero and skipped from then on.
type CoordinateDescent struct{}

// Minimize implements Method. It returns an error unless the loss is a
// LeastSquares on a DenseDesign and the penalty is penalty.L1.
func (CoordinateDescent) Minimize(p Problem, init mat.Matrix, s Settings) (*Result, error) {
	ls, factors, err := lassoProblem(p)
	if err != nil {
		return nil, err
	}
	xt, ok := ls.columns()
	if !ok {
		return nil, errors.New("solver: coordinate descent needs a dense design")
	}
	rows, cols := ls.Dims()
	theta := mat.NewDense(rows, cols, nil)
	if init != nil {
		theta.Copy(init)
	}
	cd := newCDState(xt, p.Lambda, factors)
	res := &Result{Status: IterationLimit, Residual: math.NaN(), Converged: true}
	var obj float64
	worst, floor, stalled := 0.0, false, false
	for j := 0; j < cols; j++ {
		col := mat.Col(nil, j, theta)
		y := mat.Col(nil, j, ls.y)
		r := cd.column(col, y, p.Lambda, s, res)
		theta.SetCol(j, col)
		obj += r.obj
		worst = math.Max(worst, r.gap)
		if !r.converged {
			res.Converged = false
		}
		if r.atFloor {
			floor = true
		}
		stalled = stalled || r.stalled
	}
	res.Theta, res.Objective, res.Gap = theta, obj, worst
	switch {
	case res.Converged && floor:
		res.Status = GapFloor
	case res.Converged:
		res.Status = GapConverged
	case stalled:
		res.Status = Stalled
	}
	return res, nil
}

// lassoProblem returns the least-squares loss of a problem for coordinate
// descent and the penalty's per-coordinate weights, or the error that says
// why coordinate descent cannot solve it.
func lassoProblem(p Problem) (*LeastSquares, []float64, error) {
	ls, ok := p.Loss.(*LeastSquares)
	if !ok {
		return nil, nil, errors.New("solver: coordinate descent needs a least-squares loss")
	}
	rows, _ := ls.Dims()
	factors, ok := L1Factors(p.Penalty, rows)
	if !ok {
		return nil, nil, errors.New("solver: coordinate descent needs the separable L1 penalty (with or without factors)")
	}
	if p.Lambda == 0 {
		return nil, nil, errors.New("solver: coordinate descent needs λ > 0: its duality gap certifies nothing at λ = 0 (use FISTA or least squares)")
	}
	return ls, factors, nil
}

// cdProblem is lassoProblem for the methods that also run on a separable
// penalty with a per-coordinate prox (cdPenalty): the loss, the factors or
// thresholds, and the prox (nil for the lasso).
func cdProblem(p Problem) (*LeastSquares, []float64, penalty.CoordinateProxer, error) {
	ls, ok := p.Loss.(*LeastSquares)
	if !ok {
		return nil, nil, nil, errors.New("solver: coordinate descent needs a least-squares loss")
	}
	rows, _ := ls.Dims()
	factors, prox, ok := cdPenalty(p.Penalty, rows)
	if !ok {
		return nil, nil, nil, errors.New("solver: coordinate descent needs the separable L1 penalty (with or without factors) or a separable penalty with a per-coordinate prox")
	}
	if p.Lambda == 0 {
		return nil, nil, nil, errors.New("solver: coordinate descent needs λ > 0: its duality gap certifies nothing at λ = 0 (use FISTA or least squares)")
	}
	return ls, factors, prox, nil
}

// L1Factors returns the per-coordinate weights fⱼ of a separable L1
// penalty Σ fⱼ|θⱼ| on p coordinates: ν for penalty.L1, the factors of
// penalty.WeightedL1; false for any other penalty.
func L1Factors(pen penalty.Penalty, p int) ([]float64, bool) {
	switch h := pen.(type) {
	case penalty.L1:
		nu := penalty.EffectiveNu(h.Nu)
		f := make([]float64, p)
		for k := range f {
			f[k] = nu
		}
		return f, true
	case penalty.WeightedL1:
		return h.Factors, len(h.Factors) == p
	}
	return nil, false
}

// cdPenalty returns what coordinate descent needs of pen on p coordinates:
// the lasso's factors fⱼ (prox nil), or for another separable penalty with
// a per-coordinate prox, its thresholds tⱼ (∂hⱼ(0) = [−tⱼ, tⱼ], which
// screen the coordinates that stay at zero) and the prox; false when
// coordinate descent cannot run on pen.
func cdPenalty(pen penalty.Penalty, p int) ([]float64, penalty.CoordinateProxer, bool) {
	if f, ok := L1Factors(pen, p); ok {
		return f, nil, true
	}
	c, ok := pen.(penalty.CoordinateProxer)
	if !ok || !c.Separable(p) {
		return nil, nil, false
	}
	t := make([]float64, p)
	for j := range t {
		t[j] = c.CoordinateThreshold(j)
	}
	return t, c, true
}

// CoordinateWise reports whether coordinate descent runs on pen: the
// lasso, or a separable penalty with a per-coordinate prox
// (penalty.CoordinateProxer).
func CoordinateWise(pen penalty.Penalty) bool {
	if IsSeparableL1(pen) {
		return true
	}
	_, ok := pen.(penalty.CoordinateProxer)
	return ok
}

// IsSeparableL1 reports whether coordinate descent handles pen (the lasso,
// with or without penalty factors).
func IsSeparableL1(pen penalty.Penalty) bool {
	switch pen.(type) {
	case penalty.L1, penalty.WeightedL1:
		return true
	}
	return false
}

// cdState holds the columns of X, contiguous, their squared norms and the
// coordinates' penalty weights.
type cdState struct {
	xt      blas64.General // p×n: row k is column k of X
	norms   []float64
	factors []float64 // f_k: the penalty is λΣ f_k|θ_k|
	lambda  float64
	n       int
}

// columns returns the columns of the loss's dense design as the rows of a
// p×n matrix (see columnsOf), made once per loss: the fits of a path share
// it.
func (ls *LeastSquares) columns() (blas64.General, bool) {
	if ls.xt.Data == nil {
		xt, ok := columnsOf(ls.x)
		if !ok {
			return xt, false
		}
		ls.xt = xt
	}
	return ls.xt, true
}

// columnsOf returns the columns of a dense design as the rows of a p×n
// matrix: a copy for a DenseDesign, XT itself for a ColumnDesign.
func columnsOf(d Design) (blas64.General, bool) {
	switch d := d.(type) {
	case DenseDesign:
		return transpose(d.X), true
	case ColumnDesign:
		raw := d.XT.RawMatrix()
		if raw.Stride != raw.Cols {
			return transpose(mat.DenseCopyOf(d.XT.T())), true
		}
		return raw, true
	}
	return blas64.General{}, false
}

func newCDState(xt blas64.General, lambda float64, factors []float64) *cdState {
	p, n := xt.Rows, xt.Cols
	cd := &cdState{xt: xt, norms: make([]float64, p), factors: factors, lambda: lambda, n: n}
	for k := range cd.norms {
		xk := cd.col(k)
		cd.norms[k] = kernel.Dot(xk.Data, xk.Data)
	}
	return cd
}

func (cd *cdState) col(k int) blas64.Vector {
	return blas64.Vector{N: cd.n, Inc: 1, Data: cd.xt.Data[k*cd.xt.Stride : k*cd.xt.Stride+cd.n]}
}

// update applies the exact coordinate update to θ_k and the residual, and
// returns ‖x_k‖²Δ², the decrease it buys in the quadratic term's scale.
func (cd *cdState) update(theta []float64, k int, r blas64.Vector) float64 {
	if cd.norms[k] == 0 {
		theta[k] = 0
		return 0
	}
	xk := cd.col(k)
	z := kernel.Dot(xk.Data, r.Data) + cd.norms[k]*theta[k]
	next := penalty.SoftThreshold(z, cd.lambda*cd.factors[k]/2) / cd.norms[k]
	delta := next - theta[k]
	if delta == 0 {
		return 0
	}
	kernel.Axpy(-delta, xk.Data, r.Data)
	theta[k] = next
	return cd.norms[k] * delta * delta
}

type cdColumn struct {
	obj, gap           float64
	converged, atFloor bool // atFloor: stopped at the float64 floor of the gap (see GapFloor)
	stalled            bool // stopped for want of progress (see Stalled)
}

// CDStallSweeps is how many sweeps without progress stop coordinate
// descent on a column (status Stalled) when it is not an inner solve.
const CDStallSweeps = 500

// column runs coordinate descent on one response column.
func (cd *cdState) column(theta, y []float64, lambda float64, s Settings, res *Result) cdColumn {
	p := len(theta)
	r := blas64.Vector{N: cd.n, Inc: 1, Data: append([]float64(nil), y...)}
	for k, t := range theta {
		if t != 0 {
			kernel.Axpy(-t, cd.col(k).Data, r.Data)
		}
	}
	yv := blas64.Vector{N: cd.n, Inc: 1, Data: y}
	yy := kernel.Dot(yv.Data, yv.Data)
	var out cdColumn
	screened := make([]bool, p)
	hist := &residuals{}
	ws := cd.startSet(theta, r.Data, lambda)
	pg := NewProgress(s.stallWindow(CDStallSweeps))
	for sweeps := 0; sweeps < s.MaxIter; {
		var big float64
		for _, k := range ws.list {
			if !screened[k] {
				big = math.Max(big, cd.update(theta, k, r))
			}
		}
		sweeps++
		// Settle the active set before paying for a gap.
		for inner := 0; inner < 1000 && sweeps < s.MaxIter && big > 1e-3*s.Tol*yy/float64(p); inner++ {
			big = 0
			for _, k := range ws.list {
				if theta[k] != 0 {
					big = math.Max(big, cd.update(theta, k, r))
				}
			}
			sweeps++
		}
		res.Iterations = max(res.Iterations, sweeps)
		hist.push(r.Data)
		var zeroed bool
		var corr []float64
		out.obj, out.gap, corr, zeroed = cd.certificate(theta, r, yv, yy, lambda, screened, s.Tol, hist.extrapolate)
		if zeroed { // certify the point returned, not the one screened
			hist.reset()
			out.obj, out.gap, corr, _ = cd.certificate(theta, r, yv, yy, lambda, screened, s.Tol, nil)
		}
		if s.Trace {
			res.Trace = append(res.Trace, TraceEntry{Iteration: sweeps, Objective: out.obj, Criterion: out.gap})
		}
		if out.gap <= s.Tol || out.gap*out.obj <= gapFloorRatio*yy {
			out.converged, out.atFloor = true, out.gap > s.Tol
			return out
		}
		if pg.Stalled(sweeps, out.obj, out.gap) {
			out.stalled = true
			return out
		}
		ws.grow(cd.violators(corr, lambda, screened, ws))
	}
	return out
}

// workingSet is the set of coordinates coordinate descent sweeps, in
// index order (cyclic order, as without one).
type workingSet struct {
	in   []bool
	list []int
}

// minWorkingSet is the smallest working set of a wide problem.
const minWorkingSet = 64

// startSet returns every coordinate when p ≤ n. For wide data (p > n) it
// returns the nonzero coefficients and the coordinates whose optimality
// conditions the residual violates most, minWorkingSet or as many as the
// nonzero ones (working sets, as in Celer and skglm): the sweeps then skip
// the many coordinates that stay zero, and each gap evaluation, over all
// coordinates, adds the violators left out (grow). The duality gap of the
// whole problem still decides, so the answer does not depend on the set.
func (cd *cdState) startSet(theta, r []float64, lambda float64) *workingSet {
	p := len(theta)
	ws := &workingSet{in: make([]bool, p)}
	if p <= cd.n {
		for k := range p {
			ws.in[k] = true
			ws.list = append(ws.list, k)
		}
		return ws
	}
	var keep []int
	for k, t := range theta {
		if t != 0 {
			keep = append(keep, k)
		}
	}
	corr := make([]float64, p)
	for k := range corr {
		corr[k] = kernel.Dot(cd.col(k).Data, r)
	}
	ws.grow(keep)
	ws.grow(cd.violators(corr, lambda, make([]bool, p), ws))
	return ws
}

// violators returns the coordinates outside the working set and not
// screened out whose optimality condition the residual's correlations
// violate, 2|x_kᵀr| > λf_k, the most violated first, at most as many as
// the set holds (and minWorkingSet).
func (cd *cdState) violators(corr []float64, lambda float64, screened []bool, ws *workingSet) []int {
	if len(ws.list) == len(ws.in) {
		return nil
	}
	var out []int
	for k, c := range corr {
		if !ws.in[k] && !screened[k] && 2*math.Abs(c) > lambda*cd.factors[k] {
			out = append(out, k)
		}
	}
	score := func(k int) float64 { return math.Abs(corr[k]) / cd.factors[k] }
	slices.SortFunc(out, func(a, b int) int { return cmp.Compare(score(b), score(a)) })
	return out[:min(len(out), max(len(ws.list), minWorkingSet))]
}

// grow adds the coordinates ks to the set.
func (ws *workingSet) grow(ks []int) {
	for _, k := range ks {
		if !ws.in[k] {
			ws.in[k] = true
			ws.list = append(ws.list, k)
		}
	}
	slices.Sort(ws.list)
}

// certificate returns P(θ) and the relative duality gap at the better of
// two dual points (see dualScale): the residual r, and, when the gap there
// exceeds tol and extra is not nil, extra(), an extrapolation of the last
// residuals (nil when there is none). It also returns the residual's
// correlations (see dualPoint), and applies the gap-safe screening rule at
// the chosen point, marking coordinates that are zero at the optimum
// (theta is zero there already or is set so, and the residual updated).
// yy is ‖y‖², the scale of the gap's rounding floor.
func (cd *cdState) certificate(theta []float64, r, y blas64.Vector, yy, lambda float64, screened []bool, tol float64, extra func() []float64) (obj, gap float64, resCorr []float64, zeroed bool) {
	var l1 float64
	for k := range theta {
		l1 += cd.factors[k] * math.Abs(theta[k])
	}
	obj = kernel.Dot(r.Data, r.Data) + lambda*l1
	corr, s, dual := cd.dualPoint(r.Data, y.Data, lambda, screened)
	resCorr = corr
	if extra != nil && obj-dual > tol*obj {
		if u := extra(); u != nil {
			if c, se, d := cd.dualPoint(u, y.Data, lambda, screened); d > dual {
				corr, s, dual = c, se, d
			}
		}
	}
	gap = math.Max(obj-dual, 0)
	for k := range theta {
		if !screened[k] && safeZero(corr[k], s, gap+gapFloorRatio*yy, cd.norms[k], lambda*cd.factors[k]) {
			screened[k] = true
			if theta[k] != 0 {
				kernel.Axpy(theta[k], cd.col(k).Data, r.Data)
				theta[k], zeroed = 0, true
			}
		}
	}
	return obj, RelativeGap(gap, obj), resCorr, zeroed
}

// dualPoint returns, for a vector u of the response's space, its
// correlations c = Xᵀu with the coordinates not screened out (0 for the
// others), the scaling s of dualScale and the dual objective
// D = 2s⟨u, y⟩ − s²‖u‖² at the point 2s·u, feasible for the problem
// restricted to those coordinates. That gap bounds the suboptimality in the
// full problem too: the screened coordinates are zero at every solution and
// in θ, so both problems have the same optimum and the same P(θ). Once most
// coordinates are screened out, a gap costs a fraction of a sweep.
func (cd *cdState) dualPoint(u, y []float64, lambda float64, screened []bool) (corr []float64, s, dual float64) {
	corr = make([]float64, cd.xt.Rows)
	for k := range corr {
		if !screened[k] {
			corr[k] = kernel.Dot(cd.col(k).Data, u)
		}
	}
	uy, uu := kernel.Dot(u, y), kernel.Dot(u, u)
	s = dualScale(uy, uu, lambda/l1DualNorm(corr, cd.factors))
	return corr, s, lsDual(uy, uu, s)
}

// dualScale returns the s ∈ [−top, top] maximising the dual objective
// 2s⟨u, y⟩ − s²‖u‖² along u: ⟨u, y⟩/‖u‖² clamped (top = λ/h*(2Xᵀu) keeps
// 2s·u feasible). For the residual at the optimum it is 1.
func dualScale(uy, uu, top float64) float64 {
	if uu == 0 {
		return 0
	}
	return math.Max(-top, math.Min(top, uy/uu))
}

// residuals keeps the last extrapolationDepth+1 residuals of coordinate
// descent, taken at its gap evaluations, for dual extrapolation.
type residuals struct {
	past [][]float64 // oldest first
}

// extrapolationDepth is K of dual extrapolation.
const extrapolationDepth = 5

func (h *residuals) push(r []float64) {
	var buf []float64
	if len(h.past) == extrapolationDepth+1 {
		buf, h.past = h.past[0], h.past[1:]
	}
	h.past = append(h.past, append(buf[:0], r...))
}

func (h *residuals) reset() { h.past = h.past[:0] }

// extrapolate returns Σ c_k r_k over the last K residuals, with the
// weights c (summing to 1) that cancel the best-fitting linear recurrence
// of their differences (dual extrapolation: M. Massias, A. Gramfort and
// J. Salmon, "Celer: a fast solver for the Lasso with dual extrapolation",
// ICML 2018): c = z/Σz with UᵀU z = 1, U the K successive differences.
// It returns nil until K+1 residuals are known or when UᵀU is singular.
func (h *residuals) extrapolate() []float64 {
	k := extrapolationDepth
	if len(h.past) < k+1 {
		return nil
	}
	n := len(h.past[0])
	diff := make([][]float64, k)
	for i := range diff {
		diff[i] = make([]float64, n)
		copy(diff[i], h.past[i+1])
		kernel.Axpy(-1, h.past[i], diff[i])
	}
	utu := mat.NewSymDense(k, nil)
	for i := range k {
		for j := i; j < k; j++ {
			utu.SetSym(i, j, kernel.Dot(diff[i], diff[j]))
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(utu) {
		return nil
	}
	ones := mat.NewVecDense(k, nil)
	for i := range k {
		ones.SetVec(i, 1)
	}
	var z mat.VecDense
	if err := chol.SolveVecTo(&z, ones); err != nil {
		return nil
	}
	sum := mat.Sum(&z)
	if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return nil
	}
	out := make([]float64, n)
	for i := range k {
		kernel.Axpy(z.AtVec(i)/sum, h.past[i+1], out)
	}
	return out
}

// l1DualNorm returns h*(2c) = max_k 2|c_k|/f_k for the correlations c = Xᵀr
// of one column.
func l1DualNorm(corr, factors []float64) float64 {
	var d float64
	for k, c := range corr {
		d = math.Max(d, 2*math.Abs(c)/factors[k])
	}
	return d
}

// lassoGap returns P(θ) = ‖r‖² + λ·l1 and the absolute duality gap P − D
// at the dual point 2s·r, D = 2s⟨r, y⟩ − s²‖r‖², where s ≤ min(1,
// λ/h*(2Xᵀr)) makes it feasible (DESIGN §3), from ‖r‖² = rr and ⟨r, y⟩ = ry.
func lassoGap(rr, ry, l1, lambda, s float64) (obj, gap float64) {
	obj = rr + lambda*l1
	return obj, math.Max(obj-lsDual(ry, rr, s), 0)
}

// safeZero is the gap-safe rule: the dual objective ⟨θ, y⟩ − ‖θ‖²/4 is
// ½-strongly concave, so the dual optimum lies within 2√gap of the feasible
// point 2s·r, and a coordinate with 2|s·x_kᵀr| + 2√gap·‖x_k‖ < λf_k is zero
// at every solution. gap must include its rounding floor: at an exact
// optimum the computed gap can be 0, and an active coordinate, at
// 2s|x_kᵀr| = λf_k, would then be screened out by the rounding of x_kᵀr.
func safeZero(corr, s, gap, norm2, lf float64) bool {
	return 2*math.Abs(s*corr)+2*math.Sqrt(gap*norm2) < lf
}
