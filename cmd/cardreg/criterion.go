package main

import (
	"fmt"

	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
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
	best, bestIC, err := p.Smallest(f.lambda.criterion(), pr.df)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	m := p.Models[best]
	res.LambdaRule = fmt.Sprintf("%s = %.8g (df %d), the smallest along %d lambda", f.lambda.criterion(), bestIC, pr.df(m), len(p.Models))
	return m, nil
}

// df is the degrees of freedom of model m (factor.ModelDF).
func (pr *problem) df(m *estimator.Model) int { return factor.ModelDF(pr.design, m, pr.numeric) }
