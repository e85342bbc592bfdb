package lsfit

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// prepared holds the data of one fit in the form the solver sees.
type prepared struct {
	x        solver.Design // as given
	y        *mat.Dense
	loss     *solver.LeastSquares
	design   solver.Design // centred and scaled
	mean, sd []float64     // of X (nil when not used)
	ymean    []float64
	opts     fit.Options
	progress *counter // nil unless a path reports progress
	nobs     int      // n, the number of observations
	// tss holds each response's total sum of squares about its mean
	// (about 0 without an intercept), for R² from the statistics.
	tss []float64
	// noResiduals: models take R² from the statistics and carry no
	// residuals (a path in Gram form).
	noResiduals bool
}

// checkInputs checks the shapes of a design and a response and that the
// response's entries are finite; rescale, which every caller runs next,
// checks a dense design's entries in the pass that finds its column sizes.
func checkInputs(x solver.Design, y mat.Matrix) error {
	if err := checkShapes(x, y); err != nil {
		return err
	}
	return finite("response", y, math.Inf(1))
}

// checkShapes checks the shapes of a design and a response.
func checkShapes(x solver.Design, y mat.Matrix) error {
	if x == nil || y == nil {
		return errors.New("lsfit: nil design or response")
	}
	n, p := x.Dims()
	ny, q := y.Dims()
	if ny != n {
		return fmt.Errorf("lsfit: design has %d rows but the response has %d", n, ny)
	}
	if n == 0 || p == 0 || q == 0 {
		return errors.New("lsfit: empty design or response")
	}
	return nil
}

func prepare(x solver.Design, y mat.Matrix, opts *fit.Options) (*prepared, error) {
	return prepareLayout(x, y, opts, false)
}

// prepareLayout is prepare; with columns set, a dense design is centred
// straight into a solver.ColumnDesign (its columns as rows), the layout
// coordinate descent sweeps, instead of a centred copy that the solver
// would transpose again.
func prepareLayout(x solver.Design, y mat.Matrix, opts *fit.Options, columns bool) (*prepared, error) {
	// Fit, FitPath and CrossValidate checked the entries (checkInputs)
	// before rescaling; the bound below checks the response again. A dense
	// design is not read again for it: rescale found its entries finite
	// and left the largest below 2^safeExp, far below maxMagnitude (a pass
	// over X saved: 80 MB at 5000×2000).
	if err := checkShapes(x, y); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	_, q := y.Dims()
	pr := &prepared{x: x, y: mat.DenseCopyOf(y), nobs: n}
	if opts != nil {
		pr.opts = *opts
	}
	if err := finite("response", pr.y, maxMagnitude); err != nil {
		return nil, err
	}
	if pr.opts.Standardize {
		_, dense := x.(solver.DenseDesign)
		if _, gram := x.(solver.Gramer); !dense && !gram {
			return nil, errors.New("lsfit: Standardize needs a dense design or one with a Gram form (solver.Gramer)")
		}
	}
	if !pr.opts.NoIntercept || pr.opts.Standardize {
		pr.mean, pr.sd = columnMoments(x, pr.opts.Standardize)
		if pr.opts.NoIntercept {
			pr.mean = nil
		}
	}
	yc := pr.y
	pr.ymean, pr.tss = make([]float64, q), make([]float64, q)
	if !pr.opts.NoIntercept {
		yc = mat.DenseCopyOf(pr.y)
		for j := 0; j < q; j++ {
			var s float64
			for i := 0; i < n; i++ {
				s += yc.At(i, j)
			}
			pr.ymean[j] = s / float64(n)
			for i := 0; i < n; i++ {
				yc.Set(i, j, yc.At(i, j)-pr.ymean[j])
			}
		}
	}
	for j := range q {
		for i := range n {
			pr.tss[j] += yc.At(i, j) * yc.At(i, j)
		}
	}
	if dd, ok := x.(solver.DenseDesign); ok && columns {
		pr.design = transformColumns(dd.X, pr.mean, pr.sd)
	} else {
		pr.design = transform(x, pr.mean, pr.sd)
	}
	pr.loss = solver.NewLeastSquares(pr.design, yc)
	return pr, nil
}

// maxMagnitude bounds the data a fit works on: sums of n products of such
// values stay finite for any realistic n. Fit, FitPath and CrossValidate
// bring dense data into range first (see rescale), so only data they
// cannot rescale (structured designs) can exceed it.
const maxMagnitude = 1e150

// finite refuses a NaN or infinite entry of m, or one larger than most in
// magnitude.
func finite(what string, m mat.Matrix, most float64) error {
	r, c := m.Dims()
	d, dense := m.(*mat.Dense)
	for i := 0; i < r; i++ {
		if dense && finiteRow(d.RawRowView(i)[:c], most) {
			continue
		}
		for j := 0; j < c; j++ {
			v := m.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("lsfit: %s has a non-finite value %v at row %d, column %d", what, v, i+1, j+1)
			}
			if math.Abs(v) > most {
				return fmt.Errorf("lsfit: %s value %v at row %d, column %d is too large: its square overflows float64 sums; rescale the data", what, v, i+1, j+1)
			}
		}
	}
	return nil
}

// finiteRow reports whether every value of row is finite and at most most
// in magnitude.
func finiteRow(row []float64, most float64) bool {
	for _, v := range row {
		if a := math.Abs(v); !(a <= most) || a > math.MaxFloat64 {
			return false
		}
	}
	return true
}

// Fit fits the model at one λ: it minimises ‖Y − XB − 1b₀ᵀ‖²_F + λ·h(B)
// over B (p×q) and the intercept b₀, with h = pen acting on the columns of
// B. Ridge is solved in closed form; every other penalty by the solver,
// certified by its duality gap where the dual norm is known.
func Fit(x solver.Design, y mat.Matrix, pen penalty.Penalty, lambda float64, opts *fit.Options) (*fit.Model, error) {
	if err := checkInputs(x, y); err != nil {
		return nil, err
	}
	sc, x, y, err := rescale(x, y, pen, opts)
	if err != nil {
		return nil, err
	}
	x = factorLayout(x, pen, opts)
	// A lasso at λ > 0 with the default method runs coordinate descent on
	// the columns of a dense design.
	_, dense := x.(solver.DenseDesign)
	columns := dense && lambda > 0 && solver.IsSeparableL1(pen) && (opts == nil || opts.Method == nil)
	pr, err := prepareLayout(x, y, opts, columns)
	if err != nil {
		return nil, err
	}
	if err := solver.CheckLambda(lambda); err != nil {
		return nil, fmt.Errorf("lsfit: %w", err)
	}
	m, err := pr.fit(pen, sc.lambda(lambda), nil, pr.method(pen, sc.lambda(lambda)))
	if err != nil {
		return nil, err
	}
	if err := sc.model(m); err != nil {
		return nil, err
	}
	m.Lambda = lambda
	return m, nil
}

// fit solves at λ from the warm start init (penalised scale, may be nil).
func (pr *prepared) fit(pen penalty.Penalty, lambda float64, init mat.Matrix, method solver.Method) (*fit.Model, error) {
	if pen == nil {
		return nil, errors.New("lsfit: nil penalty")
	}
	if err := penalty.Validate(pen); err != nil {
		return nil, err
	}
	if err := solver.CheckLambda(lambda); err != nil {
		return nil, fmt.Errorf("lsfit: %w", err)
	}
	_, isRidge := pen.(penalty.Ridge)
	if isRidge || lambda == 0 {
		// Ridge, and every penalty at λ = 0 (least squares), in closed form
		// when XᵀX (or XXᵀ) can be factorised.
		if m, ok := pr.ridge(lambda); ok {
			m.Penalty = pen
			return m, nil
		}
		if lambda == 0 {
			method = solver.DefaultMethod(solver.Problem{Loss: pr.loss, Penalty: pen}, solver.Hints{})
		}
	}
	if m, ok := pr.zeroAbove(pen, lambda); ok {
		return m, nil
	}
	if pr.opts.Method == nil && !solver.IsSeparableL1(pen) {
		// Form XᵀX (when the loss works in Gram form) before the solver
		// asks for it: built lazily inside FISTA's first Lipschitz
		// estimate, the same product cost 6–8 % more CPU per fit
		// (bench/README.md, before/after issue 23).
		pr.gramForm()
	}
	set := pr.opts.Settings
	res, err := solver.Minimize(solver.Problem{Loss: pr.loss, Penalty: pen, Lambda: lambda}, init, &set, method)
	if err != nil {
		return nil, err
	}
	theta, relaxed := res.Theta, false
	if pr.opts.Relax {
		if theta, relaxed, err = pr.relax(pen, res.Theta); err != nil {
			return nil, err
		}
	}
	m := pr.model(pen, lambda, theta)
	eng := fit.EngineOf(m)
	eng.Solution, m.Relaxed = res.Theta, relaxed
	m.Objective, m.Gap, m.Iterations = res.Objective, res.Gap, res.Iterations
	m.Converged, m.Status = res.Converged, res.Status
	switch {
	case relaxed:
		rss := pr.penalizedRSS(res.Theta)
		m.Penalised = mat.DenseCopyOf(res.Theta)
		if _, q := m.Coef.Dims(); q == 1 {
			m.PenalizedDeviance = rss
		}
		eng.PathRatio = 1 - rss/floats.Sum(pr.tss)
	case pr.opts.Relax && m.Converged:
		m.Converged, m.RelaxNote = false, singularRefit
	}
	return m, nil
}

// penalizedRSS is the residual sum of squares of the penalised solution
// theta, intercepts profiled (the objective's): when every coefficient is
// 0 the fit is the intercepts alone, whose RSS is the TSS and R² 0 by
// definition, and the loss's own sum, rounded otherwise, gave an R² of
// −2.2e−16 (printed "-0.000000").
func (pr *prepared) penalizedRSS(theta *mat.Dense) float64 {
	p, q := theta.Dims()
	for i := range p {
		for j := range q {
			if theta.At(i, j) != 0 {
				return pr.loss.Eval(nil, theta)
			}
		}
	}
	return floats.Sum(pr.tss)
}

// singularRefit is the RelaxNote of a refit whose reduced system is
// singular.
const singularRefit = "the least-squares refit on the clusters has no unique solution (its reduced normal equations are singular: more clusters than the data determine); the coefficients are the penalised fit's"

// zeroAbove returns the zero solution, certified, when λ ≥ λ_max =
// h*(2XᵀY): B = 0 is then optimal (DESIGN §3), and the answer needs neither
// XᵀX nor an iteration.
func (pr *prepared) zeroAbove(pen penalty.Penalty, lambda float64) (*fit.Model, bool) {
	var g mat.Dense
	g.Scale(2, pr.loss.Cross())
	lmax, ok := penalty.ZeroLambda(pen, &g)
	if !ok || lambda < lmax || pr.opts.Relax {
		return nil, false
	}
	p, q := pr.loss.Dims()
	zero := mat.NewDense(p, q, nil)
	m := pr.model(pen, lambda, zero)
	if m.Residuals == nil {
		m.Objective = pr.loss.Eval(nil, zero) // ‖Y‖² from the statistics
	} else {
		m.Objective = sq(m.Residuals) // ‖Y − 1ȳᵀ‖²: no XᵀX needed
	}
	m.Gap, m.Converged, m.Status = 0, true, solver.GapConverged
	return m, true
}

// relax refits theta by least squares on its pieces with zero slopes and no
// kink constraints. It reports false, keeping theta, when the reduced
// system is singular (more clusters than the data can determine).
func (pr *prepared) relax(pen penalty.Penalty, theta *mat.Dense) (*mat.Dense, bool, error) {
	p, q := theta.Dims()
	pieces := make([]penalty.Piece, q)
	col := make([]float64, p)
	for j := range pieces {
		mat.Col(col, j, theta)
		cl, ok := penalty.SupportClusters(pen, col, q)
		if !ok {
			return nil, false, fmt.Errorf("lsfit: relaxed fits need a piecewise-linear or separable penalty (cardinality, grouped, lasso, elasticnet), not %T", pen)
		}
		pieces[j] = penalty.Piece{Clusters: cl, Slopes: make([]float64, len(cl))}
	}
	out := mat.NewDense(p, q, nil)
	if !pr.loss.Polish(out, pieces, 0) {
		return theta, false, nil
	}
	return out, true, nil
}

// method returns the solver of a single fit: the one asked for, else
// solver.DefaultMethod's (for the lasso coordinate descent on the columns
// of a dense design, without XᵀX, or on XᵀX when only the statistics are
// known).
func (pr *prepared) method(pen penalty.Penalty, lambda float64) solver.Method {
	if pr.opts.Method != nil {
		return pr.opts.Method
	}
	return solver.DefaultMethod(solver.Problem{Loss: pr.loss, Penalty: pen, Lambda: lambda}, solver.Hints{})
}

// pathMethod returns the solver of a path's fits: the one asked for, else
// solver.DefaultMethod's for a path (there the O(np²) Gram product is paid
// once).
func (pr *prepared) pathMethod(pen penalty.Penalty) solver.Method {
	if pr.opts.Method != nil {
		return pr.opts.Method
	}
	return solver.DefaultMethod(solver.Problem{Loss: pr.loss, Penalty: pen}, solver.Hints{Path: true})
}

// gramForm reports whether the loss works in Gram form (forming XᵀX).
func (pr *prepared) gramForm() bool { return pr.loss.Gram() != nil }

// model maps solver coefficients back to the data's scale and fills the
// summaries.
func (pr *prepared) model(pen penalty.Penalty, lambda float64, theta *mat.Dense) *fit.Model {
	n := pr.nobs
	p, q := theta.Dims()
	coef := mat.DenseCopyOf(theta)
	if pr.sd != nil {
		for i := 0; i < p; i++ {
			for j := 0; j < q; j++ {
				coef.Set(i, j, coef.At(i, j)/pr.sd[i])
			}
		}
	}
	icpt := make([]float64, q)
	if !pr.opts.NoIntercept {
		for j := 0; j < q; j++ {
			s := pr.ymean[j]
			for i := 0; i < p; i++ {
				s -= pr.mean[i] * coef.At(i, j)
			}
			icpt[j] = s
		}
	}
	m := &fit.Model{Family: datafit.Gaussian{}, Penalty: pen, Lambda: lambda, Coef: coef, Intercept: icpt,
		Penalized: fit.AllOf(p), N: n, PenalizedDeviance: math.NaN()}
	eng := fit.EngineOf(m)
	eng.Fitted, eng.Solution, eng.TSS = theta, theta, slices.Clone(pr.tss)
	defer summarise(m)
	if pr.x == nil || pr.noResiduals {
		m.R2 = pr.statsR2(theta)
		return m
	}
	m.Residuals = mat.NewDense(n, q, nil)
	mulDesign(m.Residuals, pr.x, coef)
	m.Residuals.Sub(pr.y, m.Residuals)
	m.R2 = make([]float64, q)
	for j := 0; j < q; j++ {
		var rss, tss float64
		for i := 0; i < n; i++ {
			r := m.Residuals.At(i, j) - icpt[j]
			m.Residuals.Set(i, j, r)
			rss += r * r
			d := pr.y.At(i, j) - pr.ymean[j]
			tss += d * d
		}
		m.R2[j] = 1 - rss/tss
	}
	return m
}

// summarise sets, once R2 is known, the penalised fit's pooled R² that a
// path's stopping rules read, 1 − Σ_j (1 − R²_j)·TSS_j / Σ_j TSS_j, and
// the deviances.
func summarise(m *fit.Model) {
	eng := fit.EngineOf(m)
	var rss, tss float64
	for j, r2 := range m.R2 {
		rss += (1 - r2) * eng.TSS[j]
		tss += eng.TSS[j]
	}
	eng.PathRatio = 1 - rss/tss
	deviances(m)
}

// deviances sets the deviances of a model of one response: the residual
// and total sums of squares, whose ratio is R² (NaN for several responses,
// whose R2 holds each's).
func deviances(m *fit.Model) {
	eng := fit.EngineOf(m)
	m.Deviance, m.NullDeviance, m.DevRatio = math.NaN(), math.NaN(), math.NaN()
	if len(m.R2) == 1 {
		m.DevRatio = m.R2[0]
		m.NullDeviance, m.Deviance = eng.TSS[0], (1-m.R2[0])*eng.TSS[0]
	}
}

// predict returns X·Coef + 1·Interceptᵀ for a design with the model's p
// columns. It panics if the column count differs.
func predict(m *fit.Model, x solver.Design) *mat.Dense {
	n, p := x.Dims()
	if pp, _ := m.Coef.Dims(); pp != p {
		panic(mat.ErrShape)
	}
	_, q := m.Coef.Dims()
	out := mat.NewDense(n, q, nil)
	x.Mul(out, m.Coef)
	for i := 0; i < n; i++ {
		for j := 0; j < q; j++ {
			out.Set(i, j, out.At(i, j)+m.Intercept[j])
		}
	}
	return out
}
