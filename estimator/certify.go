package estimator

import (
	"fmt"

	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// LambdaMax returns the smallest λ at which every penalised coefficient of
// a fit to rows r is zero, h*(∇F(0)) with the intercept and unpenalised
// coefficients fitted, and false when the penalty has no known dual norm.
func LambdaMax(r *Rows, pen penalty.Penalty, opts *Options) (float64, bool, error) {
	o := orDefault(opts)
	x, y, err := single(r)
	if err != nil {
		return 0, false, err
	}
	return glm.LambdaMax(x, y, pen, famOptions(&o, r))
}

// Certify returns the relative duality gap of coefficients coef (one per
// predictor; the intercept and unpenalised coefficients are fitted
// exactly) for the problem at λ on rows r: a certificate of any solver's
// answer, e.g. glmnet's.
func Certify(r *Rows, pen penalty.Penalty, lambda float64, coef []float64, opts *Options) (float64, error) {
	o := orDefault(opts)
	x, y, err := single(r)
	if err != nil {
		return 0, err
	}
	return glm.Certify(x, y, pen, lambda, coef, famOptions(&o, r))
}

// single returns the dense design and the one response of r.
func single(r *Rows) (*mat.Dense, []float64, error) {
	if err := checkForm(r); err != nil {
		return nil, nil, err
	}
	x := denseOf(r.X)
	if _, q := r.Y.Dims(); x == nil || q != 1 {
		return nil, nil, fmt.Errorf("estimator: a certificate of given coefficients needs a dense design and one response")
	}
	return x, colOf(r), nil
}
