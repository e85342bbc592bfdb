package request

import (
	"fmt"
	"slices"

	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
)

// gridError is the input that made the generated grid fail with err, or
// nil: from rows in memory the one whose λ_max overflows float64
// (gridOverflow), else the user's ν when the grid's top alone fails with
// it and fits with the default (nuOverflow).
func (r *Request) gridError(p *Problem, err error) error {
	if rows, ok := p.Data.(*estimator.Rows); ok {
		if p.MultiResponse {
			return nil
		}
		lmax := func(pen penalty.Penalty) float64 {
			v, _, err := estimator.LambdaMax(rows, pen, &p.Opts)
			if err != nil {
				return 0
			}
			return v
		}
		return r.gridOverflow(lmax, p)
	}
	top := func(pen penalty.Penalty) bool {
		_, err := estimator.FitPath(p.Data, pen, &estimator.PathOptions{Options: p.Opts, NLambda: 1})
		return err == nil
	}
	return r.nuOverflow(top, p, err)
}

// gridOverflow explains the failure of a fit on the generated grid: when
// λ_max, as lmax computes it for a penalty, overflows float64 it returns
// an error naming the input that made it overflow
// (penalty.DiagnoseLambdaMax), else nil (the fit's own error stands).
func (r *Request) gridOverflow(lmax func(penalty.Penalty) float64, p *Problem) error {
	const msg = "the automatic lambda overflows float64 (lambda_max, the dual norm of the gradient at the null model, is infinite)"
	d := r.Dialect
	switch penalty.DiagnoseLambdaMax(lmax, p.Pen, func() penalty.Penalty { return r.defaultNuPenalty(p) }) {
	case penalty.Finite:
		return nil
	case penalty.Factors:
		w := p.Pen.(penalty.WeightedL1)
		return refuse("%s because of %s: lambda_max divides each predictor's gradient by its factor, and the smallest positive factor is %.3g times the largest; give factors of comparable size (0 leaves a predictor unpenalised), or %s",
			msg, d.o("penalty-factor"), slices.Min(w.Factors)/slices.Max(w.Factors), d.o("lambda"))
	case penalty.SmallNu:
		return refuse("%s because of %s %v: lambda_max grows like 1/nu; give a larger %s, or %s", msg, d.o("nu"), *r.Nu, d.o("nu"), d.o("lambda"))
	}
	return fmt.Errorf("%s because of the data's scale: rescale the predictors or the response, or give %s", msg, d.o("lambda"))
}

// nuOverflow explains the failure err of a fit on the generated grid
// whose λ_max cannot be computed without the rows: when the grid's top
// alone fails with the user's penalty and fits with the default ν (top
// says whether it fits for a penalty; penalty.DiagnoseGridTop) the user's
// ν is named, λ_max growing like 1/ν. Otherwise, or without a ν given,
// it returns nil (err stands: it has another cause).
func (r *Request) nuOverflow(top func(penalty.Penalty) bool, p *Problem, err error) error {
	if r.Nu == nil || penalty.DiagnoseGridTop(top, p.Pen, func() penalty.Penalty { return r.defaultNuPenalty(p) }) != penalty.SmallNu {
		return nil
	}
	d := r.Dialect
	return refuse("the automatic lambda fails with %s %v and not with the default nu: lambda_max grows like 1/nu (%v); give a larger %s, or %s", d.o("nu"), *r.Nu, err, d.o("nu"), d.o("lambda"))
}

// defaultNuPenalty is the fitted penalty with its default ν, on the
// problem's penalised predictors, when ν was given (nil otherwise, or
// when it cannot be built).
func (r *Request) defaultNuPenalty(p *Problem) penalty.Penalty {
	if r.Nu == nil {
		return nil
	}
	def := *r
	def.Nu = nil
	read := p.Read
	if read == nil {
		read = def.inputs
	}
	pen, _, _, err := def.NamedPenalty(p.Penalised, read)
	if err != nil {
		return nil
	}
	return pen
}
