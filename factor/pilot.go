package factor

import (
	"fmt"

	"github.com/cardsparse/cardreg/estimator"
)

// Pilot fits the model of design d to rows without penalty (λ = 0) with
// opts: the unpenalised fit that Adaptive weights need (Options.Pilot).
// It is an error when the fit does not converge or is not unique (no more
// observations than coefficients).
func (d *Design) Pilot(rows estimator.Data, opts *estimator.Options) ([]float64, error) {
	pen, _, err := d.Penalty(Options{Numeric: NumericLasso})
	if err != nil {
		return nil, err
	}
	m, err := estimator.Fit(rows, pen, 0, opts)
	if err != nil {
		return nil, err
	}
	if !m.Converged {
		return nil, fmt.Errorf("it did not converge (%s after %d iterations); use count or equal weights", m.Status, m.Iterations)
	}
	if m.N <= len(d.Names) {
		return nil, fmt.Errorf("%d observations for %d coefficients: the unpenalised fit is not unique; use count or equal weights", m.N, len(d.Names))
	}
	return m.Coefficients(0), nil
}

// ModelDF is model m's degrees of freedom for an information criterion
// (estimator.Model.Criterion): with design d, per factor its distinct
// non-zero level effects and the numeric predictors' as their penalty
// numeric counts them (DF); with d nil, the distinct non-zero coefficient
// values plus one per unpenalised predictor.
func ModelDF(d *Design, m *estimator.Model, numeric string) int {
	if d != nil {
		return d.DF(m.Coefficients(0), numeric)
	}
	p, _ := m.Coef.Dims()
	return m.EffectiveParams() + p - len(m.Penalized)
}
