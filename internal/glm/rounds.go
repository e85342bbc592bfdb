package glm

import (
	"errors"
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/glmscan"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// DefaultSampleSize is the number of rows a fit in rounds draws by its
// first scan (all of them when there are fewer).
const DefaultSampleSize = 20000

// DefaultMaxScans bounds the scans of a fit in rounds.
const DefaultMaxScans = 12

// ErrRoundsUnfit wraps FitRounds' errors for data the rounds cannot fit
// but passes per Newton step can (or explain row by row): binomial data
// with offsets (whose intercept-only model has no closed form from the
// totals), predictors collinear with the intercept, a training set with
// one class or no counts.
var ErrRoundsUnfit = errors.New("glm: not a fit in rounds")

// unfit wraps err as ErrRoundsUnfit.
func unfit(err error) error { return fmt.Errorf("%w: %w", ErrRoundsUnfit, err) }

// RoundsOptions configure FitRounds.
type RoundsOptions struct {
	// CVOptions give the family, standardisation, tolerance, grid and
	// measure. Folds, Seed and FoldID are not read: the scanner deals the
	// rows to its folds (and gives their weights and offsets).
	// Unpenalized, Relax and NoIntercept are not supported.
	fit.CVOptions
	// CV asks for the cross-validation over the scanner's folds.
	CV bool
	// SampleSize is the sample's size (0: DefaultSampleSize).
	SampleSize int
	// MaxScans bounds the scans (0: DefaultMaxScans); models not
	// certified by then are reported as not converged.
	MaxScans int
}

// Rounds is a path, and with RoundsOptions.CV a cross-validation, fitted
// in rounds.
type Rounds struct {
	Path *fit.Path
	CV   *fit.CV
	// Scans counts the scans over the full data; SampleRows is the size of
	// the sample fitted in memory.
	Scans, SampleRows int
}

// FitRounds fits a lasso or cardinality path (and its cross-validation)
// of a binomial or Poisson model to data known only through sc's scans,
// in rounds:
//
//  1. one scan for per-fold totals (counts, weights, the null models, the
//     column scales, λ_max and the Gram matrix, exactly) and a uniform
//     sample;
//  2. in memory, every λ of the path and of every fold fitted on the
//     sample, its loss scaled to the full data's;
//  3. scans that return the full-data gradient and deviance of every
//     model at once, each followed in memory by a proximal Newton step
//     per model with the full gradient and the sample's Hessian at the
//     iterate (the surrogate of Jordan, Lee and Yang 2019, to second
//     order), and that also return the dual objective of each previous
//     iterate at an exactly feasible dual point: its derivatives less a
//     linear function of the row, solved through the Gram matrix so that
//     the dual gradient is the last model's prediction of the gradient (a
//     subgradient of the penalty), which makes the gap second order in
//     the iterate's error. The relative duality gap on the full data
//     certifies a model once at most the tolerance.
//
// With a sample of m rows each round divides the error by about √(m/p),
// so a path with cross-validation takes about five scans. Models not
// certified after MaxScans scans are reported as not converged.
func FitRounds(sc glmscan.Scanner, p int, pen penalty.Penalty, ro *RoundsOptions) (*Rounds, error) {
	var o RoundsOptions
	if ro != nil {
		o = *ro
	}
	r, err := newRounds(sc, p, pen, &o)
	if err != nil {
		return nil, err
	}
	if err := r.start(); err != nil {
		return nil, err
	}
	if err := r.run(); err != nil {
		return nil, err
	}
	return r.result()
}

// rounds is a fit in rounds under way.
type rounds struct {
	sc    glmscan.Scanner
	fam   datafit.Family
	pen   penalty.Penalty
	o     *RoundsOptions
	p     int
	tol   float64
	tot   *glmscan.Totals
	smp   *glmscan.Sample
	sets  []*trainSet // the full data, then each fold's training rows
	grid  []float64
	gen   bool
	score func(y, eta float64) float64
}

func newRounds(sc glmscan.Scanner, p int, pen penalty.Penalty, o *RoundsOptions) (*rounds, error) {
	fam := o.Family
	if fam == nil {
		return nil, errors.New("glm: a fit in rounds needs a family")
	}
	if len(o.Unpenalized) > 0 || o.Relax || o.NoIntercept {
		return nil, errors.New("glm: a fit in rounds supports neither unpenalised predictors, relax nor a model without intercept")
	}
	if err := penalty.Validate(pen); err != nil {
		return nil, err
	}
	if o.Measure == "" {
		o.Measure = Measures(fam)[0]
	}
	if o.Measure == "auc" {
		return nil, errors.New("glm: a fit in rounds cannot score auc (it needs every held-out prediction at once)")
	}
	tol := o.Settings.Tol
	if tol == 0 {
		tol = solver.DefaultTol
	}
	return &rounds{sc: sc, fam: fam, pen: pen, o: o, p: p, tol: tol, score: UnitScore(o.Measure, fam)}, nil
}

// UnitScore returns the held-out measure of one row with response y and
// linear predictor η (cross-validation's score, unweighted).
func UnitScore(measure string, fam datafit.Family) func(y, eta float64) float64 {
	return func(y, eta float64) float64 {
		return score(measure, fam, []float64{y}, []float64{eta}, []float64{1}, 0)
	}
}

// famName names family f, nil meaning the gaussian.
func famName(f datafit.Family) string {
	if f == nil {
		return datafit.Gaussian{}.Name()
	}
	return f.Name()
}

// trainSet is the full data or one fold's training rows, with its models.
type trainSet struct {
	hold    int     // the fold held out (−1: none)
	n       int     // rows
	w       float64 // Σ w
	a       float64 // n/Σw: the weights rescaled to sum to n
	sd      []float64
	wx      []float64 // Σ w x over the rows, on the data's scale
	null    glmscan.Point
	nullDev float64
	grad0   []float64 // the gradient at the null model, standardised and rescaled
	models  []*roundModel
	// sample lists the sample's rows in the set; hscale is n/Σw over them.
	sample []int
	hscale float64
	// gram factors Σ w z zᵀ over the set's rows, z = (1, x − shift): the
	// dual points' corrections solve with it.
	gram  *mat.Cholesky
	shift []float64
}

// start makes the first scan, sets up the training sets and the grid, and
// fits the sample.
func (r *rounds) start() error {
	m := r.o.SampleSize
	if m <= 0 {
		m = DefaultSampleSize
	}
	tot, smp, err := r.sc.First(m)
	if err != nil {
		return err
	}
	r.tot, r.smp = tot, smp
	k := r.sc.Folds()
	if r.o.CV && k < 2 {
		return fmt.Errorf("glm: cross-validation needs at least 2 folds, the data have %d", k)
	}
	all := make([]int, k)
	for f := range all {
		all[f] = f
	}
	if err := r.addSet(all, -1); err != nil {
		return err
	}
	if err := r.makeGrid(); err != nil {
		return err
	}
	if r.o.CV {
		for f := range k {
			train := make([]int, 0, k-1)
			for g := range k {
				if g != f {
					train = append(train, g)
				}
			}
			if err := r.addSet(train, f); err != nil {
				return fmt.Errorf("glm: fold %d: %w", f+1, err)
			}
		}
	}
	n := r.sets[0].n
	for _, s := range r.sets {
		if err := r.sampleFit(s, foldGrid(r.grid, s.n, n)); err != nil {
			return err
		}
	}
	return nil
}

// addSet adds the training set of the folds in train (holding out hold).
func (r *rounds) addSet(train []int, hold int) error {
	t := r.tot.Over(train)
	s := &trainSet{hold: hold, n: t.N[0], w: t.W[0], sd: make([]float64, r.p), wx: make([]float64, r.p)}
	if s.n < 2 || !(s.w > 0) || math.IsInf(s.w, 0) {
		return unfit(fmt.Errorf("%d rows with total weight %v", s.n, s.w))
	}
	s.a = float64(s.n) / s.w
	for j := range r.p {
		s.wx[j] = t.Sum(0, j) + t.Shift[j]*s.w
		s.sd[j] = 1
		if r.o.Standardize {
			mean := t.Sum(0, j) / s.w
			s.sd[j] = math.Sqrt(math.Max(t.Square(0, j)/s.w-mean*mean, 0))
			if !(s.sd[j] > 0) {
				return fmt.Errorf("glm: predictor %d is constant: it cannot be standardised", j+1)
			}
		}
	}
	if err := r.nullModel(s, t); err != nil {
		return err
	}
	s.shift, s.gram = t.Shift, &mat.Cholesky{}
	if !s.gram.Factorize(t.Sym(0)) {
		return unfit(errors.New("the predictors are collinear with the intercept"))
	}
	r.sets = append(r.sets, s)
	return nil
}

// nullModel sets the intercept-only model of s from its totals t, exactly,
// and the gradient there. Without offsets the intercept is the link of
// the mean response (every family's score Σw·∂d/∂η vanishes where μ = ȳ)
// and, ∂d/∂η being affine in y at a fixed η (A + B·y), the gradient is
// A·Σw(x − shift) + B·Σw(x − shift)y. With offsets, the families of
// glmscan.OffsetPower's power a, whose deviance's terms are y·μ^(a−1)
// and μ^a (Poisson, gamma, Tweedie: datafit.AggregatePower): with
// m = e^b₀ = Σw·y·e^((a−1)o) / Σw·e^(a·o) the gradient is
// 2m^(a−1)(m·WXE − WXY) (glmscan.Totals); for the others an offset has
// no closed form here (unfit).
func (r *rounds) nullModel(s *trainSet, t *glmscan.Totals) error {
	wy, w := t.WY[0], t.W[0]
	power := datafit.AggregationOf(r.fam).Kind == datafit.AggregatePower
	switch {
	case t.Offset && !power:
		return unfit(fmt.Errorf("%s data with offsets (the family's intercept-only fit with offsets has no closed form in the totals of a scan)", famName(r.fam)))
	case !(wy > 0):
		return unfit(fmt.Errorf("every %s response is zero", famName(r.fam)))
	}
	s.grad0 = make([]float64, r.p)
	var b0 float64
	if t.Offset {
		a := glmscan.OffsetPower(r.fam)
		b0 = math.Log(wy / t.WE[0])
		m := math.Exp(b0)
		for j := range r.p {
			s.grad0[j] = s.a * 2 * math.Pow(m, a-1) * (m*t.WXE[0][j] - t.WXY[0][j]) / s.sd[j]
		}
	} else {
		b0 = r.fam.Eta(wy / w)
		if math.IsInf(b0, 0) || math.IsNaN(b0) { // binomial: one class
			return unfit(fmt.Errorf("the %s response holds one value only", famName(r.fam)))
		}
		d0, _ := r.fam.Derivs(0, b0)
		d1, _ := r.fam.Derivs(1, b0)
		for j := range r.p {
			s.grad0[j] = s.a * (d0*t.Sum(0, j) + (d1-d0)*t.WXY[0][j]) / s.sd[j]
		}
	}
	s.null = glmscan.Point{B0: b0, Beta: make([]float64, r.p), Holdout: s.hold}
	return nil
}

// makeGrid sets the full data's grid: the options' λ, else the generated
// one from λ_max.
func (r *rounds) makeGrid() error {
	var err error
	if r.o.Lambdas != nil {
		r.grid, r.gen, err = checkGrid(r.o.Lambdas)
		return err
	}
	lmax, ok := penalty.GridTop(r.pen, mat.NewDense(r.p, 1, r.sets[0].grad0))
	if !ok {
		return errors.New("glm: the penalty has no dual norm, so λ_max is unknown: give the grid")
	}
	r.grid, r.gen, err = logGrid(lmax, r.sets[0].n, r.p, &r.o.PathOptions)
	return err
}
