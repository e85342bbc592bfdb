package estimator

import (
	"fmt"

	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/penalty"
)

// LambdaMax returns the top of a generated λ grid for a fit to rows r,
// with the intercept and unpenalised coefficients fitted: for a norm
// h*(∇F(0)), the smallest λ at which every penalised coefficient is zero;
// for a penalty that is not one its own top (penalty.GridTop: glmnet's,
// for the elastic net); false when the penalty knows neither.
func LambdaMax(r *Rows, pen penalty.Penalty, opts *Options) (float64, bool, error) {
	g, err := single(r)
	if err != nil {
		return 0, false, err
	}
	return glm.LambdaMax(g, pen, opts)
}

// Certify returns the relative duality gap of coefficients coef (one per
// predictor; the intercept and unpenalised coefficients are fitted
// exactly) for the problem at λ on rows r: a certificate of any solver's
// answer, e.g. glmnet's.
func Certify(r *Rows, pen penalty.Penalty, lambda float64, coef []float64, opts *Options) (float64, error) {
	g, err := single(r)
	if err != nil {
		return 0, err
	}
	return glm.Certify(g, pen, lambda, coef, opts)
}

// single returns r as the family engine holds them: a dense design and
// one response.
func single(r *Rows) (*glm.Rows, error) {
	if err := checkForm(r); err != nil {
		return nil, err
	}
	if _, q := r.Y.Dims(); denseOf(r.X) == nil && designOf(r.X) == nil || q != 1 {
		return nil, fmt.Errorf("estimator: a certificate of given coefficients needs a dense design or a *design.Matrix, and one response")
	}
	return glmRows(r), nil
}
