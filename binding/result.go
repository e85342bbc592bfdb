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
	"github.com/cardsparse/cardreg/request"
	"gonum.org/v1/gonum/mat"
)

// Result is what a call returns: its models (one for Fit, one per λ for
// Path and CV) and their JSON document, holding no caller memory.
type Result struct {
	models    []*estimator.Model
	lay       *factor.Coded
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
	res := pr.req.Report(pr.built, pr.fit.Opts.Family, pr.in.N, pr.lay.Names, "y")
	m, err := pr.req.Choose(&pr.fit, res)
	if err != nil {
		return nil, err
	}
	return pr.result([]*estimator.Model{m}, pr.fitDoc(res, m))
}

// fitDoc fills res from model m and returns fit's document of it: the
// clusters of the numeric predictors and each factor's level groups.
func (pr *problem) fitDoc(res *report.Fit, m *estimator.Model) any {
	res.FillAll(m, []string{"y"}, pr.req.Standardize)
	if pr.lay.Design != nil {
		res.FillModelFactors(pr.lay.Design, m, pr.rows.Weights, pr.req.PairWeights)
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
	p, err := pr.req.Path(&pr.fit)
	if err != nil {
		return nil, err
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
	cv, err := pr.req.CrossValidate(&pr.fit, "cv")
	if err != nil {
		return nil, err
	}
	d := pr.pathDoc(cv.Path, cv)
	// The models at λ_min and λ_1se as fit with lambda cv reports them,
	// so that a caller's CV estimator and its fixed-λ one read one
	// document (the path's models have no factor groups).
	d.Fits = map[string]any{}
	for _, rule := range []string{"min", "1se"} {
		res := pr.req.Report(pr.built, pr.fit.Opts.Family, pr.in.N, pr.lay.Names, "y")
		d.Fits[rule] = pr.fitDoc(res, pr.req.Chosen(cv, rule, pr.fit.Family, res))
	}
	return pr.result(cv.Path.Models, d)
}

func (pr *problem) pathDoc(p *estimator.Path, cv *estimator.CV) *report.PathDoc {
	return report.NewPathDoc(p, cv, pr.req.Report(pr.built, pr.fit.Opts.Family, pr.in.N, pr.lay.Names, "y"), pr.fit.DF)
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

// Models is the number of models.
func (r *Result) Models() int { return len(r.models) }

// Columns is the number of the design's columns (coefficients per model).
func (r *Result) Columns() int { return len(r.lay.Names) }

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
// numeric columns, the same factors' codes), dense or sparse whichever
// the fit's data were.
func (r *Result) Predict(k int, in *Input, typ string) ([]float64, error) {
	m, err := r.model(k)
	if err != nil {
		return nil, err
	}
	if err := r.checkPredictInput(in); err != nil {
		return nil, err
	}
	x, err := designOf(r.lay, in)
	if err != nil {
		return nil, err
	}
	return datafit.Predictions(m.Family, mat.Col(nil, 0, m.LinkOf(x, in.Offset)), typ)
}

// checkPredictInput checks new rows against the fit's layout.
func (r *Result) checkPredictInput(in *Input) error {
	if in.P != r.lay.P {
		return fmt.Errorf("data: %d numeric columns; the model was fitted on %d", in.P, r.lay.P)
	}
	if err := in.checkShape(len(r.lay.Factors), false); err != nil {
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
	return in.checkFinite(r.lay.Names)
}

// Describe returns, as JSON, request.Describe: the families, the
// penalties and the option names each command accepts.
func Describe() ([]byte, error) { return jsonx.MarshalFinite(request.Describe()) }

// Response returns the predictions typ ("link", "response" or "class")
// of family (a name of datafit's registry, with its parameter) at the
// linear predictors eta: the inverse link, in one home, for the bindings'
// predictions from coefficients they hold (an interpolated λ, a model
// saved and loaded again, a scikit-learn estimator).
func Response(family string, eta []float64, typ string) ([]float64, error) {
	fam, err := datafit.ByName(family)
	if err != nil {
		return nil, err
	}
	return datafit.Predictions(fam, eta, typ)
}
