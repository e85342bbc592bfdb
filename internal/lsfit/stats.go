package lsfit

import (
	"errors"
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/internal/cvcurve"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
	"gonum.org/v1/gonum/mat"
)

// A fit from sufficient statistics sees the data only through a
// suffstat.Moments of the rows z = (x₁, …, x_p, y₁, …, y_q) with weights w:
// it minimises Σᵢ wᵢ‖yᵢ − b₀ − Bᵀxᵢ‖² + λ·h(B), which for unit weights is
// the objective of Fit on the same rows. The solver works in Gram form on
// the centred co-moments (XᵀWX, XᵀWY and YᵀWY about the weighted means),
// so any number of rows costs O((p+q)²) memory. Residuals are not
// available (Model.Residuals is nil); R² comes from the statistics.

// FitStats fits the model at one λ from the statistics m of the rows
// (x, y) with q responses (the last q variables of m). fit.Options.Standardize
// scales by the weighted population standard deviations, and NoIntercept
// refits about zero (from the raw moments W·z̄z̄ᵀ + C).
func FitStats(m *suffstat.Moments, q int, pen penalty.Penalty, lambda float64, opts *fit.Options) (*fit.Model, error) {
	sc, err := statsScaling(m, q, pen, opts)
	if err != nil {
		return nil, err
	}
	pr, err := prepareStats(sc.moments(m, q), q, opts)
	if err != nil {
		return nil, err
	}
	model, err := pr.fit(pen, sc.lambda(lambda), nil, pr.method(pen, sc.lambda(lambda)))
	if err != nil {
		return nil, err
	}
	return model, sc.model(model)
}

// FitPathStats is FitPath from the statistics m (see FitStats).
func FitPathStats(m *suffstat.Moments, q int, pen penalty.Penalty, opts *fit.PathOptions) (*fit.Path, error) {
	var po fit.PathOptions
	if opts != nil {
		po = *opts
	}
	sc, err := statsScaling(m, q, pen, &po.Options)
	if err != nil {
		return nil, err
	}
	po.Lambdas = sc.scaledLambdas(po.Lambdas)
	pr, err := prepareStats(sc.moments(m, q), q, &po.Options)
	if err != nil {
		return nil, err
	}
	path, err := pr.gridPath(pen, &po)
	if err != nil {
		return nil, err
	}
	return path.Path, sc.path(path)
}

// EmptyFoldError reports a fold of the statistics with no weight: no
// rows, or rows of weight 0 only. Folds dealt by a seed are never empty
// when there are as many rows as folds; a fold column can leave one out.
type EmptyFoldError struct {
	// Fold is the fold (1…K) and Folds is K.
	Fold, Folds int
}

// Error names the fold.
func (e *EmptyFoldError) Error() string {
	return fmt.Sprintf("lsfit: fold %d of %d has no rows, or only rows of weight 0", e.Fold, e.Folds)
}

// CrossValidateStats is CrossValidate from per-fold statistics: the grid
// comes from all folds together, fold k is fitted on the merge of the
// others (suffstat.Folds.Train) and scored on its own statistics by the
// weighted mean squared error Σ w‖y − ŷ‖² / (W_k·q), which for unit
// weights is CrossValidate's held-out error. Options.Folds and Seed are
// not used: the folds are those of f.
func CrossValidateStats(f *suffstat.Folds, q int, pen penalty.Penalty, opts *fit.CVOptions) (*fit.CV, error) {
	var co fit.CVOptions
	if opts != nil {
		co = *opts
	}
	k := len(f.Fold)
	if k < cvcurve.MinFolds { // as CrossValidate's folds and cv.glmnet
		return nil, fmt.Errorf("lsfit: %d folds: cross-validation needs at least %d", k, cvcurve.MinFolds)
	}
	for i, m := range f.Fold {
		if m.W == 0 {
			return nil, &EmptyFoldError{Fold: i + 1, Folds: k}
		}
	}
	all := f.All()
	sc, err := statsScaling(all, q, pen, &co.Options)
	if err != nil {
		return nil, err
	}
	if !sc.identity() {
		scaled := &suffstat.Folds{}
		for _, m := range f.Fold {
			scaled.Fold = append(scaled.Fold, sc.moments(m, q))
		}
		f = scaled
	}
	co.Lambdas = sc.scaledLambdas(co.Lambdas)
	full, err := prepareStats(sc.moments(all, q), q, &co.Options) // scaling commutes with merging
	if err != nil {
		return nil, err
	}
	path, err := full.grid(pen, &co.PathOptions)
	if err != nil {
		return nil, err
	}
	progress := newCounter(co.Progress, (k+1)*len(path.Lambdas))
	full.progress = progress
	// The full-data path first (see CrossValidate).
	if path, err = full.runPath(pen, path); err != nil {
		return nil, err
	}
	grid := path.Lambdas
	progress.resize((k + 1) * len(grid))
	errs := make([][]float64, k)
	cv := &fit.CV{Measure: co.Measure, Lambdas: grid}
	for fold := range k {
		train := f.Train(fold)
		pr, err := prepareStats(train, q, &co.Options)
		if err != nil {
			return nil, err
		}
		pr.progress = progress
		fp, err := pr.runPath(pen, &pathRun{Path: &fit.Path{Lambdas: fit.FoldGrid(grid, train.W/(train.W+f.Fold[fold].W))}})
		if err != nil {
			return nil, err
		}
		errs[fold] = make([]float64, len(grid))
		for l, m := range fp.Models {
			if !m.Converged && m.RelaxNote == "" {
				cv.Unconverged++
			}
			errs[fold][l] = heldOut(f.Fold[fold], q, m)
		}
	}
	sizes := make([]float64, k)
	for i, m := range f.Fold {
		sizes[i] = m.W
	}
	curve(cv, errs, sizes)
	cv.Path = path.Path
	return cv, sc.cv(cv, path)
}

// statsScaling is rescale's choice for statistics: powers of two bringing
// the predictors' and the responses' root mean squares (standing for their
// magnitudes) near 1, per column when standardised. Statistics already
// beyond float64 cannot be saved (suffstat.Moments.Check says so); within
// it, λ and the Gram products are computed at unit scale, as in memory.
func statsScaling(m *suffstat.Moments, q int, pen penalty.Penalty, opts *fit.Options) (scaling, error) {
	_, ridge := pen.(penalty.Ridge)
	sc := scaling{sx: 1, sy: 1, std: opts != nil && opts.Standardize, ridge: ridge}
	if m == nil || q < 1 || m.Dim()-q < 1 || !(m.W > 0) {
		return sc, nil // prepareStats says what is wrong
	}
	d := m.Dim()
	rms := make([]float64, d)
	for j := range d {
		if m.W > 0 {
			rms[j] = math.Hypot(math.Sqrt(m.C[j*d+j]/m.W), m.Mean[j])
		}
	}
	var top, ytop float64
	for j, v := range rms {
		if j < d-q {
			top = math.Max(top, v)
		} else {
			ytop = math.Max(ytop, v)
		}
	}
	sc.sy = unitScale(ytop)
	if !sc.std {
		sc.sx = unitScale(top)
		return sc, statsScaleError(m, rms[:d-q], top, opts == nil || !opts.NoIntercept)
	}
	cols := make([]float64, d-q)
	for j := range cols {
		cols[j] = unitScale(rms[j])
		if cols[j] != 1 {
			sc.cols = cols
		}
	}
	return sc, nil
}

// statsScaleError is rescale's refusal on statistics: a predictor whose
// size (root mean square, rms), scaled as the data by unitScale(top),
// leaves float64's range for its squares, next to one at top; columns
// constant with an intercept are left out, as rescale leaves them out.
func statsScaleError(m *suffstat.Moments, rms []float64, top float64, intercept bool) error {
	d := m.Dim()
	small, big := -1, 0
	for j, v := range rms {
		if v == top {
			big = j
		}
		if v > 0 && !(intercept && m.C[j*d+j] == 0) && (small < 0 || v < rms[small]) {
			small = j
		}
	}
	if small >= 0 && scaledExp(rms[small], top) < -safeExp {
		return &ScaleError{Small: small, SmallMax: rms[small], Big: big, BigMax: top, RMS: true}
	}
	return nil
}

// moments returns m with its variables scaled as sc scales x and y (m
// itself when sc is the identity): means by the factor, co-moments by
// both (multiplied in turn: their product may leave float64's range).
func (sc scaling) moments(m *suffstat.Moments, q int) *suffstat.Moments {
	if sc.identity() {
		return m
	}
	out := m.Clone()
	d := m.Dim()
	f := func(j int) float64 {
		if j >= d-q {
			return sc.sy
		}
		return sc.colScale(j)
	}
	for i := range d {
		out.Mean[i] *= f(i)
		for j := range d {
			out.C[i*d+j] = out.C[i*d+j] * f(i) * f(j)
		}
	}
	return out
}

// heldOut is the weighted mean squared error of model m on the rows
// summarised by s: with r = y − b₀ − Bᵀx, Σw r² = Cyy − 2βᵀCxy + βᵀCxxβ +
// W·r̄² per response, r̄ the weighted mean residual.
func heldOut(s *suffstat.Moments, q int, m *fit.Model) float64 {
	d := s.Dim()
	p := d - q
	var total float64
	for j := range q {
		yj := p + j
		rbar := s.Mean[yj] - m.Intercept[j]
		quad := s.C[yj*d+yj]
		for a := range p {
			ba := m.Coef.At(a, j)
			rbar -= s.Mean[a] * ba
			quad -= 2 * ba * comoment(s, a, yj)
			for b := range p {
				quad += ba * comoment(s, a, b) * m.Coef.At(b, j)
			}
		}
		total += math.Max(quad, 0) + s.W*rbar*rbar
	}
	return total / (s.W * float64(q))
}

// comoment returns C[a][b] from the upper triangle.
func comoment(s *suffstat.Moments, a, b int) float64 {
	if a > b {
		a, b = b, a
	}
	return s.C[a*s.Dim()+b]
}

// prepareStats builds the problem the solver sees from statistics.
func prepareStats(m *suffstat.Moments, q int, opts *fit.Options) (*prepared, error) {
	p, err := checkStats(m, q)
	if err != nil {
		return nil, err
	}
	pr := &prepared{nobs: int(m.N)}
	if opts != nil {
		pr.opts = *opts
	}
	if pr.opts.Standardize {
		pr.sd = statsSD(m, p)
	}
	h, cross, yy := pr.statsGram(m, p, q)
	pr.ymean = make([]float64, q)
	if !pr.opts.NoIntercept {
		pr.mean = append([]float64(nil), m.Mean[:p]...)
		copy(pr.ymean, m.Mean[p:])
	}
	pr.loss = solver.NewGramLeastSquares(h, cross, yy)
	return pr, nil
}

// checkStats returns the number of predictors of statistics of q
// responses, or an error for statistics prepareStats cannot fit: none,
// no predictor, fewer than 2 rows or no positive finite weight, a
// non-finite value.
func checkStats(m *suffstat.Moments, q int) (p int, err error) {
	if m == nil {
		return 0, errors.New("lsfit: nil statistics")
	}
	d := m.Dim()
	p = d - q
	if q < 1 || p < 1 {
		return 0, fmt.Errorf("lsfit: %d variables for %d responses: need at least one predictor", d, q)
	}
	if !(m.W > 0) || math.IsInf(m.W, 0) || m.N < 2 {
		return 0, fmt.Errorf("lsfit: statistics of %d rows with total weight %v: need at least 2 rows and a positive weight", m.N, m.W)
	}
	for _, v := range append(append([]float64(nil), m.Mean...), m.C...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, errors.New("lsfit: the statistics hold a non-finite value (the data overflow float64)")
		}
	}
	return p, nil
}

// statsSD returns the weighted standard deviations of the p predictors,
// 1 for a predictor whose spread is negligible.
func statsSD(m *suffstat.Moments, p int) []float64 {
	sd := make([]float64, p)
	for a := range p {
		sd[a] = math.Sqrt(comoment(m, a, a) / m.W)
		if NegligibleSpread(sd[a], math.Sqrt(comoment(m, a, a)/m.W+m.Mean[a]*m.Mean[a])) {
			sd[a] = 1
		}
	}
	return sd
}

// statsGram returns the Gram form of the least-squares loss from the
// statistics, the predictors scaled by pr.sd when set: H = XᵀX, the
// cross-products Xᵀy and ‖y‖², about the means or, without an intercept,
// about 0. It sets pr.tss.
func (pr *prepared) statsGram(m *suffstat.Moments, p, q int) (h *mat.SymDense, cross *mat.Dense, yy float64) {
	c := func(a, b int) float64 {
		v := comoment(m, a, b)
		if pr.opts.NoIntercept {
			v += m.W * m.Mean[a] * m.Mean[b]
		}
		return v
	}
	scale := func(a int) float64 {
		if pr.sd == nil {
			return 1
		}
		return pr.sd[a]
	}
	h = mat.NewSymDense(p, nil)
	for a := range p {
		for b := a; b < p; b++ {
			h.SetSym(a, b, c(a, b)/(scale(a)*scale(b)))
		}
	}
	cross = mat.NewDense(p, q, nil)
	pr.tss = make([]float64, q)
	for j := range q {
		for a := range p {
			cross.Set(a, j, c(a, p+j)/scale(a))
		}
		pr.tss[j] = c(p+j, p+j)
		yy += pr.tss[j]
	}
	return h, cross, yy
}

// statsR2 returns each response's R² = 1 − RSS/TSS, RSS from the Gram
// form: ‖y‖² − 2θᵀc + θᵀHθ.
func (pr *prepared) statsR2(theta *mat.Dense) []float64 {
	h, c := pr.loss.Gram().RawSymmetric(), pr.loss.Cross()
	p, q := theta.Dims()
	out := make([]float64, q)
	active := make([]int, 0, p)
	for j := range q {
		// rss = tss − 2θᵀc + θᵀHθ over the nonzero θ_a only (H upper).
		rss := pr.tss[j]
		active = active[:0]
		for a := range p {
			if t := theta.At(a, j); t != 0 {
				active = append(active, a)
				rss -= 2 * t * c.At(a, j)
			}
		}
		for i, a := range active {
			ta, row := theta.At(a, j), h.Data[a*h.Stride:]
			var s float64
			for _, b := range active[i+1:] {
				s += row[b] * theta.At(b, j)
			}
			rss += ta * (row[a]*ta + 2*s)
		}
		out[j] = 1 - math.Max(rss, 0)/pr.tss[j]
	}
	return out
}

// statsRidgeCertificate is ridgeCertificate in Gram form: with R = Y − XΘ,
// ‖R‖² = f(Θ), ⟨R, Y⟩ = ‖Y‖² − ⟨Θ, C⟩ and XᵀR = C − HΘ.
func (pr *prepared) statsRidgeCertificate(theta *mat.Dense, lambda float64) (obj, gap float64) {
	rr := pr.loss.Eval(nil, theta)
	obj = rr + lambda*sq(theta)
	var yy float64
	for _, t := range pr.tss {
		yy += t
	}
	var xtr mat.Dense
	xtr.Mul(pr.loss.Gram(), theta)
	xtr.Sub(pr.loss.Cross(), &xtr)
	dual := 2*(yy-mat.Sum(elem(theta, pr.loss.Cross()))) - rr
	if lambda > 0 {
		dual -= sq(&xtr) / lambda
	}
	if obj == 0 {
		return 0, 0
	}
	return obj, solver.RelativeGap(math.Max(obj-dual, 0), obj)
}
