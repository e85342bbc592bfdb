package glm

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// problem is one data set ready for the solver.
type problem struct {
	fam  datafit.Family
	loss *datafit.Loss
	sd   []float64 // column scales (nil without standardisation)
	opts fit.Options
	rows Rows
	n, p int
	null float64
	// ws is the working set of the lasso fits, which hands the gradient
	// at a fit's solution to the next fit of a path.
	ws *solver.WorkingSet
	// noPolish skips polish (fold fits, whose coefficients nobody reads).
	noPolish bool
}

func newProblem(r *Rows, opts *fit.Options) (*problem, error) {
	if r == nil || r.X == nil && r.Design == nil {
		return nil, errors.New("glm: nil design")
	}
	r = r.byColumns()
	x, y := r.X, r.Y
	pb := &problem{ws: &solver.WorkingSet{}, rows: *r}
	if opts != nil {
		pb.opts = *opts
	}
	if pb.opts.Family == nil {
		pb.opts.Family = datafit.Gaussian{}
	}
	pb.fam = pb.opts.Family
	pb.n, pb.p = r.dims()
	d := &datafit.Data{X: x, Design: r.Design, Y: y, Weights: r.Weights, Offset: r.Offset,
		Unpenalized: pb.opts.Unpenalized, NoIntercept: pb.opts.NoIntercept, Constant: r.Constant}
	if c := r.Counts; c != nil {
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
		if x == nil {
			pb.sd = designScales(r.Design, r.Weights)
			d.Design = standardized(r.Design, pb.sd)
		} else {
			pb.sd = columnScales(x, r.Weights)
			d.X = scaleColumns(x, pb.sd)
		}
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
	n := len(d.Y)
	nd := *d
	nd.X, nd.Design, nd.Unpenalized = zeroColumn(n), nil, nil
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

// Fit fits the model of opts to rows r (predictors X, n×p, and responses
// Y) at one λ ≥ 0 with penalty pen acting on the penalised predictors (all but
// opts.Unpenalized, in order). Non-convergence is not an error: see
// Model.Converged.
func Fit(r *Rows, pen penalty.Penalty, lambda float64, opts *fit.Options) (*fit.Model, error) {
	pb, err := newProblem(r, opts)
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

func (pb *problem) fit(pen penalty.Penalty, lambda float64, init *mat.Dense) (*fit.Model, error) {
	if pen == nil {
		return nil, errors.New("glm: nil penalty")
	}
	if err := solver.CheckLambda(lambda); err != nil {
		return nil, fmt.Errorf("glm: %w", err)
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
func (pb *problem) model(pen penalty.Penalty, lambda float64, res *solver.Result) *fit.Model {
	theta, relaxed, note, penDev := res.Theta, false, "", 0.0
	if pb.opts.Relax {
		penDev = pb.loss.Eval(nil, res.Theta)
		theta, relaxed, note = pb.relax(pen, res.Theta)
	}
	dev := pb.loss.Eval(nil, theta)
	free := pb.loss.Free()
	coef := make([]float64, pb.p)
	m := &fit.Model{Family: pb.fam, Penalty: pen, Lambda: lambda, Intercept: []float64{0},
		Penalized: slices.Clone(pb.loss.Penalized()), Deviance: dev, NullDeviance: pb.null,
		Objective: res.Objective, Gap: res.Gap, Iterations: res.Iterations,
		Converged: res.Converged && note == "", Status: res.Status, RoundingLambda: res.RoundingLambda, N: pb.n,
		Relaxed: relaxed, RelaxNote: note, PenalizedDeviance: math.NaN()}
	eng := fit.EngineOf(m)
	eng.Solution, eng.Fitted = res.Theta, theta
	if relaxed {
		m.PenalizedDeviance = penDev
		m.Penalised = mat.DenseCopyOf(res.Theta)
	}
	for a, j := range m.Penalized {
		coef[j] = theta.At(a, 0)
	}
	if !pb.opts.NoIntercept {
		m.Intercept[0], free = free[0], free[1:]
	}
	for a, j := range pb.opts.Unpenalized {
		coef[j] = free[a]
	}
	if pb.sd != nil {
		for j := range coef {
			coef[j] /= pb.sd[j]
		}
	}
	m.Coef = mat.NewDense(pb.p, 1, coef)
	if pb.null > 0 {
		m.DevRatio = 1 - dev/pb.null
		eng.PathRatio = m.DevRatio
		if relaxed {
			eng.PathRatio = 1 - penDev/pb.null
		}
	}
	gaussianR2(m)
	return m
}

// gaussianR2 sets a gaussian model's R2: its deviance ratio.
func gaussianR2(m *fit.Model) {
	if _, ok := m.Family.(datafit.Gaussian); ok {
		m.R2 = []float64{m.DevRatio}
	}
}

// link returns the linear predictor Intercept + X·Coef (+ offset when not
// nil) of a one-response model for new rows, summed over the nonzero
// coefficients in their order.
func link(m *fit.Model, x mat.Matrix, offset []float64) []float64 {
	n, _ := x.Dims()
	eta := make([]float64, n)
	for i := range n {
		e := m.Intercept[0]
		for j := range m.Coef.RawMatrix().Rows {
			if c := m.Coef.At(j, 0); c != 0 {
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

// LambdaMax returns the top of a generated λ grid, with the intercept and
// unpenalised coefficients fitted: for a norm h*(∇F(0)), the smallest λ
// at which every penalised coefficient is zero; for a penalty that is not
// one its own top (penalty.GridTop); false when the penalty knows neither.
func LambdaMax(r *Rows, pen penalty.Penalty, opts *fit.Options) (float64, bool, error) {
	pb, err := newProblem(r, opts)
	if err != nil {
		return 0, false, err
	}
	l, ok := pb.lambdaMax(pen)
	return l, ok, nil
}

// Certify returns the relative duality gap of coefficients coef (one per
// predictor; the intercept and unpenalised coefficients are fitted
// exactly) for the problem at λ: a certificate of any solver's answer,
// e.g. glmnet's.
func Certify(r *Rows, pen penalty.Penalty, lambda float64, coef []float64, opts *fit.Options) (float64, error) {
	pb, err := newProblem(r, opts)
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
