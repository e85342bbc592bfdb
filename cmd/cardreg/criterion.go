package main

import (
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/report"
)

// criterionModel fits the generated path and returns its fit of smallest
// AIC or BIC (--lambda aic|bic), noting the choice in res.
func (pr *problem) criterionModel(path string, f *fitFlags, res *report.Fit) (*estimator.Model, error) {
	if len(pr.responses) != 1 {
		return nil, usagef("--lambda %s is single-response: use --target", f.lambda.text)
	}
	if f.penalty == "ridge" {
		return nil, usagef("--lambda %s counts the distinct non-zero coefficients, which ridge does not make: use cv or a number", f.lambda.text)
	}
	p, err := estimator.FitPath(pr.data, pr.pen, &estimator.PathOptions{Options: pr.opts})
	if err != nil {
		return nil, pr.explain(path, err, f, true)
	}
	best, bestIC := -1, math.Inf(1)
	for k, m := range p.Models {
		ic, err := m.Criterion(f.lambda.criterion(), pr.df(m))
		if err == nil && ic < bestIC {
			best, bestIC = k, ic
		}
	}
	if best < 0 {
		return nil, fmt.Errorf("%s: no fit of the path has a finite %s", path, f.lambda.criterion())
	}
	m := p.Models[best]
	res.LambdaRule = fmt.Sprintf("%s = %.8g (df %d), the smallest along %d lambda", f.lambda.criterion(), bestIC, pr.df(m), len(p.Models))
	return m, nil
}

// df is the degrees of freedom of model m: per factor its distinct non-zero
// level effects, the numeric predictors' distinct non-zero values (each
// unpenalised predictor one).
func (pr *problem) df(m *estimator.Model) int {
	if pr.design != nil {
		return pr.design.DF(m.Coefficients(0), pr.numeric)
	}
	return m.EffectiveParams() + len(pr.excluded)
}
