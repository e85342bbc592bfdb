package glm

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Options configure a fit. The zero value fits a gaussian model with an
// intercept, unit weights, no offset, every predictor penalised, and stops
// at a relative duality gap of solver.DefaultTol (1e-7).
type Options struct {
	// Family is the response distribution. If nil, datafit.Gaussian.
	Family datafit.Family
	// Weights, Offset, Unpenalized and NoIntercept are as in datafit.Data.
	Weights     []float64
	Offset      []float64
	Unpenalized []int
	NoIntercept bool
	// Relax refits each penalised solution without the penalty on its
	// clusters (one free value per cluster of equal coefficients, the
	// lasso's zeros kept), glmnet's relax = TRUE with γ = 0; cross-
	// validation then scores the refits. Model.Relaxed says whether the
	// refit was used (it is not when it diverges, e.g. on separable data).
	Relax bool
	// Standardize scales each predictor to unit weighted population
	// standard deviation before fitting (glmnet's default) and maps the
	// coefficients back.
	Standardize bool
	// Settings say when the solver stops.
	Settings solver.Settings
	// Counts and Constant describe rows that each aggregate identical
	// observations (the estimator's compression of designs of factors):
	// Counts[i] ≥ 1 observations stand for row i, whose weight is the sum
	// of theirs, and Constant[i] ≥ 0, on the scale of Weights, is what the
	// row's deviance leaves out of theirs, independent of η (datafit.Data's
	// Observations and Constant). The weights are then rescaled to sum to
	// the observations, which are Model.N, the n of the grid's MinRatio and
	// of the folds' λ·n_train/n, and the deviances, the objective and the
	// held-out deviance of cross-validation are the observations'. nil:
	// each row is one observation.
	Counts   []int
	Constant []float64
	// Method is the solver. If nil, solver.DefaultMethod's choice: for
	// the lasso glmnet's algorithm (solver.IRLSCD, on a working set above
	// 64 predictors), proximal Newton for the other penalties when n ≥ p
	// and p ≤ 5000, else FISTA.
	Method solver.Method
}

// Model is a fitted generalised linear model: η = Intercept + X·Coef + offset.
type Model struct {
	// Family is the response distribution.
	Family datafit.Family
	// Penalty and Lambda are what was fitted, on the penalised
	// coefficients only (in the order of Penalized).
	Penalty penalty.Penalty
	Lambda  float64
	// Coef holds one coefficient per predictor, on the data's scale.
	Coef []float64
	// Intercept is b₀ (0 without one).
	Intercept float64
	// Penalized lists the predictors the penalty acts on.
	Penalized []int
	// Deviance is Σ wᵢd(yᵢ, ηᵢ) at the fit (weights summing to n);
	// NullDeviance the same for the intercept-only model (with the
	// offset); DevRatio = 1 − Deviance/NullDeviance (glmnet's dev.ratio).
	Deviance, NullDeviance, DevRatio float64
	// Objective is Deviance + λh(β) on the solver's scale (standardised
	// predictors when Standardize is set); Gap its certified relative
	// duality gap.
	Objective, Gap float64
	// Iterations, Converged and Status report the solver.
	Iterations int
	Converged  bool
	Status     solver.Status
	// RoundingLambda, when Status is solver.Uncertifiable, is the λ above
	// which the gradient's rounding no longer prevents a certificate
	// (solver.Result.RoundingLambda); else 0.
	RoundingLambda float64
	// N is the number of observations.
	N int
	// Relaxed reports whether Coef is the unpenalised refit on the
	// penalised solution's clusters (Options.Relax); Objective, Gap and
	// the convergence fields then describe the penalised fit.
	Relaxed bool
	// RelaxNote, when not empty, says why the refit of Options.Relax was
	// not used although the penalised fit converged: its minimum does not
	// exist (separation: probabilities or rates numerically at 0 or 1 as
	// its coefficients diverge). Converged is then false: the fit asked
	// for has no answer; Coef holds the penalised fit's.
	RelaxNote string
	// PenalizedDeviance is, when Relaxed, the deviance of the penalised
	// fit that chose the clusters (Deviance and DevRatio are the
	// refit's); NaN otherwise.
	PenalizedDeviance float64

	solution *mat.Dense // the solver's β, the next warm start
	fitted   *mat.Dense // β on the penalty's scale: the solution or its relaxed refit
	// penDevRatio is the penalised fit's deviance ratio when Relaxed (the
	// path's stopping rules look at it, as glmnet's do with relax).
	penDevRatio float64
}

// Solution returns the penalised fit's coefficients of the penalised
// predictors (in the order of Penalized) on the scale the penalty acts on
// (standardised with Options.Standardize): Coef's before a relaxed refit.
func (m *Model) Solution() []float64 { return mat.Col(nil, 0, m.solution) }

// pathDevRatio returns the deviance ratio of the penalised fit, the one a
// path's stopping rules look at: DevRatio unless Coef is a relaxed refit.
func (m *Model) pathDevRatio() float64 {
	if m.Relaxed {
		return m.penDevRatio
	}
	return m.DevRatio
}

// problem is one data set ready for the solver.
type problem struct {
	fam  datafit.Family
	loss *datafit.Loss
	sd   []float64 // column scales (nil without standardisation)
	opts Options
	n, p int
	null float64
	// ws is the working set of the lasso fits, which hands the gradient
	// at a fit's solution to the next fit of a path.
	ws *solver.WorkingSet
	// noPolish skips polish (fold fits, whose coefficients nobody reads).
	noPolish bool
}

func newProblem(x *mat.Dense, y []float64, opts *Options) (*problem, error) {
	if x == nil {
		return nil, errors.New("glm: nil design")
	}
	pb := &problem{ws: &solver.WorkingSet{}}
	if opts != nil {
		pb.opts = *opts
	}
	if pb.opts.Family == nil {
		pb.opts.Family = datafit.Gaussian{}
	}
	pb.fam = pb.opts.Family
	pb.n, pb.p = x.Dims()
	d := &datafit.Data{X: x, Y: y, Weights: pb.opts.Weights, Offset: pb.opts.Offset,
		Unpenalized: pb.opts.Unpenalized, NoIntercept: pb.opts.NoIntercept, Constant: pb.opts.Constant}
	if c := pb.opts.Counts; c != nil {
		if len(c) != pb.n {
			return nil, fmt.Errorf("glm: %d counts for %d rows", len(c), pb.n)
		}
		pb.n = observations(c)
		d.Observations = pb.n
	}
	if pb.opts.Standardize {
		if err := d.Check(pb.fam); err != nil { // before the scales
			return nil, err
		}
		pb.sd = columnScales(x, pb.opts.Weights)
		d.X = scaleColumns(x, pb.sd)
	}
	loss, err := datafit.NewLoss(pb.fam, d)
	if err != nil {
		return nil, err
	}
	if !pb.opts.Standardize {
		if err := loss.CheckScale(); err != nil {
			return nil, err
		}
	}
	pb.loss = loss
	pb.null, err = nullDeviance(pb.fam, d)
	return pb, err
}

// observations returns the number of observations rows of counts c stand
// for (rows that are one observation each when c is nil).
func observations(c []int) int {
	n := 0
	for _, k := range c {
		n += k
	}
	return n
}

// nullDeviance returns the deviance of the intercept-only model with the
// data's offset (glmnet's nulldev).
func nullDeviance(fam datafit.Family, d *datafit.Data) (float64, error) {
	n, _ := d.X.Dims()
	nd := *d
	nd.X, nd.Unpenalized = mat.NewDense(n, 1, nil), nil
	l, err := datafit.NewLoss(fam, &nd)
	if err != nil {
		return 0, err
	}
	return l.NullDeviance(), nil
}

// columnScales returns each column's weighted population standard
// deviation (scales: the one formula, three passes over the rows).
func columnScales(x *mat.Dense, w []float64) []float64 {
	n, p := x.Dims()
	sc := newScales(p)
	weight := func(i int) float64 {
		if w == nil {
			return 1
		}
		return w[i]
	}
	for _, pass := range []struct {
		row func([]float64, float64)
		end func()
	}{{sc.magnitudes, sc.startMeans}, {sc.means, sc.startSpreads}, {sc.spreads, func() {}}} {
		for i := range n {
			pass.row(x.RawRowView(i), weight(i))
		}
		pass.end()
	}
	return sc.sd()
}

func scaleColumns(x *mat.Dense, sd []float64) *mat.Dense {
	n, p := x.Dims()
	out := mat.NewDense(n, p, nil)
	for i := range n {
		src, dst := x.RawRowView(i), out.RawRowView(i)
		for j := range p {
			dst[j] = src[j] / sd[j]
		}
	}
	return out
}

// Fit fits the model of opts to predictors x (n×p) and responses y at one
// λ ≥ 0 with penalty pen acting on the penalised predictors (all but
// opts.Unpenalized, in order). Non-convergence is not an error: see
// Model.Converged.
func Fit(x *mat.Dense, y []float64, pen penalty.Penalty, lambda float64, opts *Options) (*Model, error) {
	pb, err := newProblem(x, y, opts)
	if err != nil {
		return nil, err
	}
	return pb.fit(pen, lambda, nil)
}

// method returns the solver of a fit: the one asked for, else
// solver.DefaultMethod's, sharing the problem's working set along a path.
func (pb *problem) method(prob solver.Problem) solver.Method {
	if pb.opts.Method != nil {
		return pb.opts.Method
	}
	return solver.DefaultMethod(prob, solver.Hints{N: pb.n, WorkingSet: pb.ws})
}

func (pb *problem) fit(pen penalty.Penalty, lambda float64, init *mat.Dense) (*Model, error) {
	if pen == nil {
		return nil, errors.New("glm: nil penalty")
	}
	if lambda < 0 || math.IsNaN(lambda) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("glm: λ must be finite and ≥ 0, got %v", lambda)
	}
	var start mat.Matrix
	if init != nil {
		start = init
	}
	if res := pb.zeroFit(pen, lambda, init); res != nil {
		return pb.model(pen, lambda, res), nil
	}
	prob := solver.Problem{Loss: pb.loss, Penalty: pen, Lambda: lambda}
	res, err := solver.Minimize(prob, start, &pb.opts.Settings, pb.method(prob))
	if err != nil {
		return nil, err
	}
	return pb.model(pen, lambda, pb.polish(pen, lambda, res)), nil
}

// kktSlack is the relative rounding allowed in the optimality condition
// of zero, h*(∇f(0)) ≤ λ: the dual norm is computed through the profiled
// intercept, whose last bits depend on where its Newton steps started.
const kktSlack = 1e-12

// zeroFit returns the all-zero solution when it is optimal at λ (the
// dual norm of the gradient at zero is at most λ, as at λ ≥ λ_max) and
// certified, else nil. The solvers would stop near zero with coefficients
// of rounding size (1e-16) where glmnet returns exact zeros. It looks only
// when the warm start init is zero (or nil): along a decreasing path a
// nonzero solution is not followed by a zero one, and the look costs an
// evaluation at zero that moves the profiled intercept away from the warm
// start's.
func (pb *problem) zeroFit(pen penalty.Penalty, lambda float64, init *mat.Dense) *solver.Result {
	if lambda == 0 || init != nil && slices.ContainsFunc(init.RawMatrix().Data, func(v float64) bool { return v != 0 }) {
		return nil
	}
	if err := penalty.Validate(pen); err != nil {
		return nil // the solver reports it
	}
	m, q := pb.loss.Dims()
	zero, grad := mat.NewDense(m, q, nil), mat.NewDense(m, q, nil)
	obj, gap, floor := solver.CertificateGrad(solver.Problem{Loss: pb.loss, Penalty: pen, Lambda: lambda}, zero, grad)
	d, ok := penalty.ZeroLambda(pen, grad)
	if !ok || !(d <= lambda*(1+kktSlack)) {
		return nil
	}
	st := solver.GapStatus(gap, floor, pb.opts.Settings.Tol)
	if st == solver.IterationLimit {
		return nil
	}
	if q == 1 {
		// The working set's next λ starts from this certificate's
		// gradient and the sequential strong rule, as after its own fits.
		pb.ws.Remember(lambda, zero, grad)
	}
	return &solver.Result{Theta: zero, Objective: obj, Gap: gap, Residual: math.NaN(), Converged: true, Status: st}
}

// model maps a solver result back to the data's scale.
func (pb *problem) model(pen penalty.Penalty, lambda float64, res *solver.Result) *Model {
	theta, relaxed, note, penDev := res.Theta, false, "", 0.0
	if pb.opts.Relax {
		penDev = pb.loss.Eval(nil, res.Theta)
		theta, relaxed, note = pb.relax(pen, res.Theta)
	}
	dev := pb.loss.Eval(nil, theta)
	free := pb.loss.Free()
	m := &Model{Family: pb.fam, Penalty: pen, Lambda: lambda, Coef: make([]float64, pb.p),
		Penalized: slices.Clone(pb.loss.Penalized()), Deviance: dev, NullDeviance: pb.null,
		Objective: res.Objective, Gap: res.Gap, Iterations: res.Iterations,
		Converged: res.Converged && note == "", Status: res.Status, RoundingLambda: res.RoundingLambda, N: pb.n, solution: res.Theta, fitted: theta,
		Relaxed: relaxed, RelaxNote: note, PenalizedDeviance: math.NaN()}
	if relaxed {
		m.PenalizedDeviance = penDev
	}
	for a, j := range m.Penalized {
		m.Coef[j] = theta.At(a, 0)
	}
	if !pb.opts.NoIntercept {
		m.Intercept, free = free[0], free[1:]
	}
	for a, j := range pb.opts.Unpenalized {
		m.Coef[j] = free[a]
	}
	if pb.sd != nil {
		for j := range m.Coef {
			m.Coef[j] /= pb.sd[j]
		}
	}
	if pb.null > 0 {
		m.DevRatio, m.penDevRatio = 1-dev/pb.null, 1-penDev/pb.null
	}
	return m
}

// Link returns the linear predictor Intercept + X·Coef (+ offset when not
// nil) for new rows.
func (m *Model) Link(x mat.Matrix, offset []float64) []float64 {
	n, _ := x.Dims()
	eta := make([]float64, n)
	for i := range n {
		e := m.Intercept
		for j, c := range m.Coef {
			if c != 0 {
				e += c * x.At(i, j)
			}
		}
		if offset != nil {
			e += offset[i]
		}
		eta[i] = e
	}
	return eta
}

// Response returns the fitted means g⁻¹(η) for new rows.
func (m *Model) Response(x mat.Matrix, offset []float64) []float64 {
	eta := m.Link(x, offset)
	for i, e := range eta {
		eta[i] = m.Family.Mean(e)
	}
	return eta
}

// LambdaMax returns the smallest λ at which every penalised coefficient is
// zero, h*(∇F(0)) with the intercept and unpenalised coefficients fitted,
// and false when the penalty has no known dual norm.
func LambdaMax(x *mat.Dense, y []float64, pen penalty.Penalty, opts *Options) (float64, bool, error) {
	pb, err := newProblem(x, y, opts)
	if err != nil {
		return 0, false, err
	}
	l, ok := pb.lambdaMax(pen)
	return l, ok, nil
}

// Clusters returns the groups of penalised predictors (indices into Coef)
// that share one value on the scale the penalty acts on (standardised
// with Standardize), by decreasing value, each in increasing order.
func (m *Model) Clusters() [][]int {
	v := mat.Col(nil, 0, m.fitted)
	idx := make([]int, len(v))
	for a := range idx {
		idx[a] = a
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case v[a] > v[b]:
			return -1
		case v[a] < v[b]:
			return 1
		}
		return a - b
	})
	var out [][]int
	for k := 0; k < len(idx); {
		e := k + 1
		for e < len(idx) && v[idx[e]] == v[idx[k]] {
			e++
		}
		cl := make([]int, e-k)
		for c, a := range idx[k:e] {
			cl[c] = m.Penalized[a]
		}
		slices.Sort(cl)
		out = append(out, cl)
		k = e
	}
	return out
}

// DistinctValues returns the sorted distinct values of the penalised
// coefficients on the scale the penalty acts on.
func (m *Model) DistinctValues() []float64 {
	v := mat.Col(nil, 0, m.fitted)
	slices.Sort(v)
	return slices.Compact(v)
}

// Certify returns the relative duality gap of coefficients coef (one per
// predictor; the intercept and unpenalised coefficients are fitted
// exactly) for the problem at λ: a certificate of any solver's answer,
// e.g. glmnet's.
func Certify(x *mat.Dense, y []float64, pen penalty.Penalty, lambda float64, coef []float64, opts *Options) (float64, error) {
	pb, err := newProblem(x, y, opts)
	if err != nil {
		return 0, err
	}
	if len(coef) != pb.p {
		return 0, fmt.Errorf("glm: %d coefficients for %d predictors", len(coef), pb.p)
	}
	pen0 := pb.loss.Penalized()
	theta := mat.NewDense(len(pen0), 1, nil)
	for a, j := range pen0 {
		c := coef[j]
		if pb.sd != nil {
			c *= pb.sd[j]
		}
		theta.Set(a, 0, c)
	}
	return solver.Certificate(solver.Problem{Loss: pb.loss, Penalty: pen, Lambda: lambda}, theta), nil
}
