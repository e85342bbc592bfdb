package request

import (
	"errors"
	"fmt"

	dsg "github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/report"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Problem is what a λ rule fits on: the data, the penalty and the
// estimator's options, with the caller's ways to word and draw the work.
type Problem struct {
	Data estimator.Data
	Pen  penalty.Penalty
	Opts estimator.Options
	// N is the number of observations.
	N int
	// FoldID holds the rows' folds (0…K−1), or nil for Folds and Seed.
	FoldID []int
	// DF is a model's degrees of freedom (AIC and BIC).
	DF func(*estimator.Model) int
	// Family reports a family fit: the rule's note names the CV measure.
	Family bool
	// Progress draws the folds and λ of a cross-validation (nil: none).
	Progress func(done, total int)
	// Explain words the error of a fit (generated: on the generated
	// grid); nil leaves it as it is.
	Explain func(err error, generated bool) error
	// Warn says what is wrong but does not stop the fit (nil: nothing).
	Warn func(error)
	// Penalised is the number of penalised predictors, Read what reads
	// the penalty's inputs (Build's): a failed generated grid is
	// diagnosed with the penalty of the default ν.
	Penalised int
	Read      InputsFunc
	// MultiResponse reports several responses (no diagnosis of λ_max).
	MultiResponse bool
	// X and Y are the rows in memory (Theorem 2's λ), nil otherwise; Nu
	// is the penalty's ν (Built.Nu).
	X, Y *mat.Dense
	Nu   float64
	// Scales, when not nil, are the scales the columns of Data were
	// divided by (standardising the numeric predictors beside factors:
	// Setup): the fits' coefficients are reported divided by them, on the
	// data's scale.
	Scales []float64
	// SD holds, in a fit with factors of rows in memory, each column's
	// standard deviation, 1 for the factors' dummy columns
	// (factor.Design.NumericScales, whether or not they are divided by
	// them); nil otherwise.
	SD []float64
}

// unscale reports a model fitted on p's scaled columns on the data's
// scale (nothing without Scales).
func (p *Problem) unscale(m *estimator.Model) {
	if p.Scales != nil {
		estimator.UnscaleModel(m, p.Scales)
	}
}

// unscalePath is unscale of every model of path.
func (p *Problem) unscalePath(path *estimator.Path) {
	if p.Scales != nil {
		estimator.UnscalePath(path, p.Scales)
	}
}

// explain words err, the error of a fit (generated: on the generated
// grid, whose failure is explained by the input that made it fail),
// then p.Explain.
func (r *Request) explain(p *Problem, err error, generated bool) error {
	if err == nil {
		return nil
	}
	if generated {
		if e := r.gridError(p, err); e != nil {
			err, generated = e, false
		}
	}
	if p.Explain == nil {
		return err
	}
	return p.Explain(err, generated)
}

// PathOptions are the path's options of the request on problem p: its
// grid.
func (r *Request) PathOptions(p *Problem) *estimator.PathOptions {
	_, list := r.Lambda.At(p.N)
	return &estimator.PathOptions{Options: p.Opts, Lambdas: list, NLambda: r.NLambda, MinRatio: r.MinRatio}
}

// Choose fits the model fit's λ rule asks for: at the given λ, at
// λ_min or λ_1se (Rule) of cross-validation, at the smallest AIC or BIC
// along the generated path, or at Theorem 2's λ (the rows p.X, p.Y in
// memory); res notes the choice.
func (r *Request) Choose(p *Problem, res *report.Fit) (*estimator.Model, error) {
	switch r.Lambda.Kind {
	case CV:
		cv, err := r.CrossValidate(p, "fit")
		if err != nil {
			return nil, err
		}
		if cv.OutOfRange != nil && p.Warn != nil {
			p.Warn(cv.OutOfRange)
		}
		return r.Chosen(cv, r.Rule, p.Family, res), nil
	case AIC, BIC:
		return r.criterion(p, res)
	case Theory:
		return r.theory(p, res)
	case Fixed:
		lambda, _ := r.Lambda.At(p.N)
		m, err := estimator.Fit(p.Data, p.Pen, lambda, &p.Opts)
		if err == nil {
			p.unscale(m)
		}
		return m, r.explain(p, err, false)
	}
	return nil, errors.New("request: lambda " + r.Lambda.Text + " has no rule")
}

// Path fits the request's grid.
func (r *Request) Path(p *Problem) (*estimator.Path, error) {
	po := r.PathOptions(p)
	po.Progress = p.Progress
	path, err := estimator.FitPath(p.Data, p.Pen, po)
	if err == nil {
		p.unscalePath(path)
		err = path.OutOfRange // the grid cannot be reported
	}
	return path, r.explain(p, err, po.Lambdas == nil)
}

// CrossValidate runs cv.glmnet's cross-validation of command cmd (fit
// or cv) along the request's grid, with the folds of FoldID, or of Folds
// and Seed.
func (r *Request) CrossValidate(p *Problem, cmd Command) (*estimator.CV, error) {
	if !r.Given["foldid"] {
		if err := r.checkFolds(cmd, p.N); err != nil {
			return nil, r.explain(p, err, false)
		}
	}
	co := &estimator.CVOptions{PathOptions: *r.PathOptions(p), Folds: r.Folds, Seed: r.Seed, FoldID: p.FoldID, Measure: r.TypeMeasure}
	co.Progress = p.Progress
	cv, err := estimator.CrossValidate(p.Data, p.Pen, co)
	if err == nil {
		p.unscalePath(cv.Path)
	}
	return cv, r.explain(p, err, r.Lambda.List == nil)
}

// checkFolds refuses more folds than the n rows of command cmd, with a
// way out that works: fewer folds (estimator.MaxFolds, never below
// estimator.MinFolds), else a fit at one λ, which needs no folds.
func (r *Request) checkFolds(cmd Command, n int) error {
	if n >= r.Folds {
		return nil
	}
	d := r.Dialect
	other := "give " + d.o("lambda") + " NUMBER, aic or bic (no folds)"
	if cmd != "fit" {
		other = "fit without folds (" + d.c("path") + ", or " + d.c("fit") + " " + d.o("lambda") + " NUMBER, aic or bic)"
	}
	if k := estimator.MaxFolds(n); k > 0 {
		return fmt.Errorf("%d folds for %d observations: use %s %d or fewer, or %s", r.Folds, n, d.o("folds"), k, other)
	}
	return fmt.Errorf("%d observations are too few to cross-validate (%d at least, one per fold): %s", n, estimator.MinFolds, other)
}

// Chosen returns cv's model at λ_min or λ_1se (rule "min" or "1se") and
// notes in res how λ was chosen (family: with the CV measure).
func (r *Request) Chosen(cv *estimator.CV, rule string, family bool, res *report.Fit) *estimator.Model {
	k := cv.IndexMin
	if rule == "1se" {
		k = cv.IndexSE
	}
	res.LambdaRule = "cv, lambda_" + rule
	if family {
		res.LambdaRule = "cv (" + cv.Measure + "), lambda_" + rule
	}
	res.CV = report.NewCVSummary(cv, r.Folds)
	return cv.Path.Models[k]
}

// criterion fits the generated path and returns its fit of smallest AIC
// or BIC, noting the choice in res.
func (r *Request) criterion(p *Problem, res *report.Fit) (*estimator.Model, error) {
	which := r.Lambda.Criterion()
	path, err := estimator.FitPath(p.Data, p.Pen, r.PathOptions(p))
	if err != nil {
		return nil, r.explain(p, err, true)
	}
	p.unscalePath(path)
	best, ic, err := path.Smallest(which, p.DF)
	if err != nil {
		return nil, r.explain(p, err, false)
	}
	m := path.Models[best]
	res.LambdaRule = fmt.Sprintf("%s = %.8g (df %d), the smallest along %d lambda", which, ic, p.DF(m), len(path.Models))
	return m, nil
}

// FoldIDs reads glmnet's foldid (1…K, one per row of n) as 0…K−1.
func (r *Request) FoldIDs(n int) ([]int, error) {
	ids, d := r.FoldID, r.Dialect
	if len(ids) != n {
		return nil, refuse("%s has %d values for n = %d rows", d.o("foldid"), len(ids), n)
	}
	out := make([]int, n)
	used := map[int]bool{}
	for i, f := range ids {
		if f < 1 {
			return nil, refuse("%s: row %d has fold %d; folds are numbered from 1", d.o("foldid"), i+1, f)
		}
		out[i], used[f] = f-1, true
	}
	for f := 1; f <= len(used); f++ {
		if !used[f] {
			return nil, refuse("%s: fold %d has no rows (the folds must be 1…K, each used)", d.o("foldid"), f)
		}
	}
	return out, nil
}

// Setup builds the problem of the request on data of n observations: the
// estimator's options and the penalty (Build) on the predictors names
// (design: the factor design, nil without; read: Build's).
func (r *Request) Setup(data estimator.Data, n int, names []string, design *factor.Design, read InputsFunc) (*Problem, *Built, error) {
	opts, err := r.Options()
	if err != nil {
		return nil, nil, Error{err}
	}
	var sd, scales []float64
	if design != nil {
		if sd, err = r.numericScales(data, design); err != nil {
			return nil, nil, err
		}
	}
	if sd != nil && r.Standardize {
		scales = sd
		opts.Standardize = false // the numeric columns are, the dummy columns stay
	}
	b, err := r.Build(names, design, data, &opts, read)
	if err != nil {
		return nil, nil, err
	}
	opts.Unpenalized = b.Unpenalized
	return &Problem{Data: data, Pen: b.Pen, Opts: opts, N: n, Family: r.FamilyFit(), Penalised: len(names) - len(b.Unpenalized), Read: read, Nu: b.Nu,
		DF: func(m *estimator.Model) int { return factor.ModelDF(design, m, r.Penalty) }, Scales: scales, SD: sd}, b, nil
}

// numericScales returns the scales of the numeric predictors beside
// factors (factor.Design.NumericScales: their standard deviations, 1 for
// the factors' dummy columns) of rows in memory, nil for other data. With
// Standardize it divides the columns by them, so that a fit without
// Standardize penalises the numeric coefficients per standard deviation,
// as Standardize would, and the factors' effects as they are; the scales
// are then the full data's for every fold of a cross-validation (glmnet
// recomputes them per fold: here the penalty is one across folds). A
// dense X is divided in place, the caller's copy (the command line's and
// the bindings' are theirs, built from factors); a design.Matrix is
// replaced by its scaled view (implicit column scales, no copy).
func (r *Request) numericScales(d estimator.Data, design *factor.Design) ([]float64, error) {
	rows, _ := d.(*estimator.Rows)
	n, col := columnsOf(rows)
	switch {
	case col == nil && r.Standardize:
		return nil, refuse("%s with factor predictors standardises the numeric columns of rows held in memory: read the data in memory (not streamed)", r.Dialect.o("standardize"))
	case col == nil:
		return nil, nil
	}
	s := design.NumericScales(n, col, rows.Weights)
	if !r.Standardize {
		return s, nil
	}
	return s, estimator.DivideColumns(rows, s)
}

// columnsOf returns the number of rows and a reader of the columns of
// rows' design, dense or a design.Matrix; nil for other rows.
func columnsOf(rows *estimator.Rows) (int, func(j int, dst []float64) []float64) {
	if rows == nil {
		return 0, nil
	}
	if x := denseX(rows); x != nil {
		n, _ := x.Dims()
		return n, func(j int, dst []float64) []float64 { return mat.Col(dst, j, x) }
	}
	if m, ok := rows.X.(*dsg.Matrix); ok {
		n, _ := m.Dims()
		return n, func(j int, dst []float64) []float64 { return m.Col(j).Values(dst) }
	}
	return 0, nil
}

// denseX is the dense matrix of rows' design, or nil.
func denseX(r *estimator.Rows) *mat.Dense {
	switch x := r.X.(type) {
	case solver.DenseDesign:
		return x.X
	case *solver.DenseDesign:
		return x.X
	}
	return nil
}
