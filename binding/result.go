package binding

import (
	"errors"
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/internal/jsonx"
	"github.com/cardsparse/cardreg/report"
)

// Result is what a call returns: its models (one for Fit, one per λ for
// Path and CV) and their JSON document, holding no caller memory.
type Result struct {
	models    []*estimator.Model
	lay       *layout
	hasOffset bool
	doc       []byte
}

// Fit fits one model at Options' "lambda": a number, or the λ that
// "cv" (the default, with "rule"), "aic" or "bic" chooses. Its JSON is
// `cardreg fit --format json`'s.
func Fit(in *Input, options []byte) (*Result, error) {
	pr, err := prepare(in, options, "fit")
	if err != nil {
		return nil, err
	}
	res := pr.report()
	var m *estimator.Model
	switch pr.o.lambda.rule {
	case "cv":
		m, err = pr.cvModel(res)
	case "aic", "bic":
		m, err = pr.criterionModel(res)
	default:
		m, err = estimator.Fit(pr.rows, pr.pen, pr.o.lambda.value, &pr.est)
	}
	if err != nil {
		return nil, pr.explain(err)
	}
	return pr.result([]*estimator.Model{m}, pr.fitDoc(res, m))
}

// fitDoc fills res from model m and returns fit's document of it: the
// clusters of the numeric predictors and each factor's level groups.
func (pr *problem) fitDoc(res *report.Fit, m *estimator.Model) any {
	res.FillAll(m, []string{"y"}, pr.o.Standardize)
	if pr.lay.design != nil {
		res.FillModelFactors(pr.lay.design, m, pr.rows.Weights, pr.o.PairWeights)
	}
	return res.JSONValue()
}

// Path fits Options' grid ("lambda" a list, else "nlambda" values down
// to "min-ratio" times λ_max), each fit warm-started at the previous one.
func Path(in *Input, options []byte) (*Result, error) {
	pr, err := prepare(in, options, "path")
	if err != nil {
		return nil, err
	}
	p, err := estimator.FitPath(pr.rows, pr.pen, pr.pathOptions())
	if err != nil {
		return nil, pr.explain(err)
	}
	return pr.result(p.Models, pr.pathDoc(p, nil))
}

// CV cross-validates along the grid of Path as cv.glmnet does ("folds"
// and "seed", or "foldid"; "type-measure"); its models are the full-data
// path.
func CV(in *Input, options []byte) (*Result, error) {
	pr, err := prepare(in, options, "cv")
	if err != nil {
		return nil, err
	}
	cv, err := pr.crossValidate(pr.pathOptions())
	if err != nil {
		return nil, pr.explain(err)
	}
	d := pr.pathDoc(cv.Path, cv)
	// The models at λ_min and λ_1se as fit with lambda cv reports them,
	// so that a caller's CV estimator and its fixed-λ one read one
	// document (the path's models have no factor groups).
	d.Fits = map[string]any{}
	for _, rule := range []string{"min", "1se"} {
		res := pr.report()
		d.Fits[rule] = pr.fitDoc(res, pr.chosen(cv, rule, res))
	}
	return pr.result(cv.Path.Models, d)
}

// prepare reads the options and builds the problem of command cmd.
func prepare(in *Input, options []byte, cmd string) (*problem, error) {
	o, err := parseOptions(options, cmd)
	if err != nil {
		return nil, err
	}
	return newProblem(in, o)
}

// result keeps models and their document, dropping what refers to rows.
func (pr *problem) result(models []*estimator.Model, doc any) (*Result, error) {
	b, err := jsonx.MarshalFinite(doc)
	if err != nil {
		return nil, err
	}
	for _, m := range models {
		m.Residuals = nil
	}
	return &Result{models: models, lay: pr.lay, hasOffset: pr.rows.Offset != nil, doc: b}, nil
}

func (pr *problem) pathOptions() *estimator.PathOptions {
	return &estimator.PathOptions{Options: pr.est, Lambdas: pr.o.lambda.list, NLambda: pr.o.NLambda, MinRatio: pr.o.MinRatio}
}

// crossValidate runs the cross-validation of the options' folds.
func (pr *problem) crossValidate(po *estimator.PathOptions) (*estimator.CV, error) {
	o := pr.o
	co := &estimator.CVOptions{PathOptions: *po, Folds: o.Folds, Seed: *o.Seed, Measure: o.TypeMeasure}
	n, _ := pr.rows.X.Dims()
	if o.FoldID != nil {
		ids, err := foldIDs(o.FoldID, n)
		if err != nil {
			return nil, err
		}
		co.FoldID = ids
	} else if n < o.Folds {
		return nil, fmt.Errorf("options: %d folds for %d observations: %s", o.Folds, n, fewerFolds(n))
	}
	return estimator.CrossValidate(pr.rows, pr.pen, co)
}

// foldIDs reads glmnet's foldid (1…K, one per row) as 0…K−1.
func foldIDs(ids []int, n int) ([]int, error) {
	if len(ids) != n {
		return nil, fmt.Errorf("options: foldid has %d values for n = %d rows", len(ids), n)
	}
	out := make([]int, n)
	used := map[int]bool{}
	for i, f := range ids {
		if f < 1 {
			return nil, fmt.Errorf("options: foldid: row %d has fold %d; folds are numbered from 1", i+1, f)
		}
		out[i], used[f] = f-1, true
	}
	for f := 1; f <= len(used); f++ {
		if !used[f] {
			return nil, fmt.Errorf("options: foldid: fold %d has no rows (the folds must be 1…K, each used)", f)
		}
	}
	return out, nil
}

// cvModel cross-validates and returns the fit at λ_min or λ_1se.
func (pr *problem) cvModel(res *report.Fit) (*estimator.Model, error) {
	cv, err := pr.crossValidate(pr.pathOptions())
	if err != nil {
		return nil, err
	}
	return pr.chosen(cv, pr.o.Rule, res), nil
}

// chosen returns cv's model at λ_min or λ_1se (rule "min" or "1se") and
// notes in res how λ was chosen.
func (pr *problem) chosen(cv *estimator.CV, rule string, res *report.Fit) *estimator.Model {
	k := cv.IndexMin
	if rule == "1se" {
		k = cv.IndexSE
	}
	res.LambdaRule = "cv, lambda_" + rule
	if pr.family {
		res.LambdaRule = "cv (" + cv.Measure + "), lambda_" + rule
	}
	res.CV = report.NewCVSummary(cv, pr.o.Folds)
	return cv.Path.Models[k]
}

// criterionModel fits the generated path and returns its fit of smallest
// AIC or BIC.
func (pr *problem) criterionModel(res *report.Fit) (*estimator.Model, error) {
	which := pr.o.lambda.rule
	if pr.o.Penalty == "ridge" {
		return nil, fmt.Errorf("options: lambda %s counts the distinct non-zero coefficients, which ridge does not make: use cv or a number", which)
	}
	p, err := estimator.FitPath(pr.rows, pr.pen, pr.pathOptions())
	if err != nil {
		return nil, err
	}
	df := func(m *estimator.Model) int { return factor.ModelDF(pr.lay.design, m, pr.o.Penalty) }
	best, ic, err := p.Smallest(which, df)
	if err != nil {
		return nil, err
	}
	m := p.Models[best]
	res.LambdaRule = fmt.Sprintf("%s = %.8g (df %d), the smallest along %d lambda", which, ic, df(m), len(p.Models))
	return m, nil
}

// report is the part of fit's document known before fitting.
func (pr *problem) report() *report.Fit {
	fam := pr.est.Family
	n, _ := pr.rows.X.Dims()
	res := &report.Fit{Family: fam.Name(), Link: fam.Link(), Penalty: pr.o.Penalty, NuNote: pr.nuNote, N: n,
		P: len(pr.lay.names), Names: pr.lay.names, Target: "y", Unpenalized: pr.excluded}
	if pr.nu > 0 {
		nu := pr.nu
		res.Nu = &nu
	}
	return res
}

// Models is the number of models.
func (r *Result) Models() int { return len(r.models) }

// Columns is the number of the design's columns (coefficients per model).
func (r *Result) Columns() int { return len(r.lay.names) }

// JSON is the result's document.
func (r *Result) JSON() []byte { return r.doc }

// model returns model k, or an error when there is none.
func (r *Result) model(k int) (*estimator.Model, error) {
	if k < 0 || k >= len(r.models) {
		return nil, fmt.Errorf("model %d: the result has models 0 to %d", k, len(r.models)-1)
	}
	return r.models[k], nil
}

// Coef returns model k's coefficients (the design's columns) and its
// intercept.
func (r *Result) Coef(k int) ([]float64, float64, error) {
	m, err := r.model(k)
	if err != nil {
		return nil, 0, err
	}
	return m.Coefficients(0), m.Intercept[0], nil
}

// Status returns model k's λ, its relative duality gap (NaN without one)
// and whether it converged.
func (r *Result) Status(k int) (lambda, gap float64, converged bool, err error) {
	m, err := r.model(k)
	if err != nil {
		return 0, 0, false, err
	}
	return m.Lambda, m.Gap, m.Converged, nil
}

// Predict returns model k's predictions typ ("link", "response" or
// "class") for the rows of in, laid out as the fit's data (the same
// numeric columns, the same factors' codes).
func (r *Result) Predict(k int, in *Input, typ string) ([]float64, error) {
	m, err := r.model(k)
	if err != nil {
		return nil, err
	}
	pred, err := predictionOf(m.Family, typ)
	if err != nil {
		return nil, err
	}
	if err := r.checkPredictInput(in); err != nil {
		return nil, err
	}
	x, err := r.lay.matrix(in)
	if err != nil {
		return nil, err
	}
	eta := m.Link(x, in.Offset)
	out := make([]float64, in.N)
	for i := range out {
		out[i] = datafit.Predict(m.Family, eta.At(i, 0), pred)
	}
	return out, nil
}

// checkPredictInput checks new rows against the fit's layout.
func (r *Result) checkPredictInput(in *Input) error {
	if in.P != r.lay.p {
		return fmt.Errorf("data: %d numeric columns; the model was fitted on %d", in.P, r.lay.p)
	}
	if err := in.checkShape(len(r.lay.factors), false); err != nil {
		return err
	}
	switch {
	case r.hasOffset && in.Offset == nil:
		return errors.New("data: the model was fitted with an offset: give the new rows' offset")
	case !r.hasOffset && in.Offset != nil:
		return errors.New("data: the model was fitted without an offset: give none")
	}
	for i, v := range in.Offset {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("data: row %d: offset %v is not a finite number", i+1, v)
		}
	}
	return in.checkFinite(r.lay.names)
}

// factorDF is model m's degrees of freedom (factor.ModelDF).
func factorDF(pr *problem, m *estimator.Model) int {
	return factor.ModelDF(pr.lay.design, m, pr.o.Penalty)
}

// fewerFolds says what to do when n observations are fewer than the
// folds asked: fewer folds, down to estimator.MinFolds, or, below that,
// that the observations are too few to cross-validate.
func fewerFolds(n int) string {
	if k := estimator.MaxFolds(n); k > 0 {
		return fmt.Sprintf("use folds %d or fewer", k)
	}
	return fmt.Sprintf("too few to cross-validate (%d observations at least, one per fold); fit at a given lambda instead", estimator.MinFolds)
}
