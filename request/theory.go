package request

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/report"
	"github.com/cardsparse/cardreg/tensorreg"
)

// theory fits at Theorem 2's λ (tensorreg.TheoryLambda with Sigma and
// T) on the rows in memory p.X, p.Y, noting it in res.
func (r *Request) theory(p *Problem, res *report.Fit) (*estimator.Model, error) {
	if p.X == nil || p.Y == nil {
		return nil, refuse("%s theory needs the rows in memory", r.Dialect.o("lambda"))
	}
	th, err := r.theoryLambda(p)
	if err == nil {
		_, q := p.Y.Dims()
		_, np := p.X.Dims()
		err = TheoryOverflow(th, np, q, r.Dialect)
	}
	if err != nil {
		return nil, r.explain(p, err, false)
	}
	res.LambdaRule, res.Theory = "theory (Theorem 2)", th
	m, err := estimator.Fit(p.Data, p.Pen, th.Lambda, &p.Opts)
	return m, r.explain(p, err, false)
}

// theoryLambda is tensorreg.TheoryLambda with the request's σ and t.
func (r *Request) theoryLambda(p *Problem) (*report.Theory, error) {
	d := r.Dialect
	th, err := tensorreg.TheoryLambda(p.X, p.Y, p.Pen, p.Nu, r.Sigma, r.T, r.NoIntercept)
	if errors.Is(err, tensorreg.ErrNoSigma) {
		return nil, refuse("%s theory: %s; give %s", d.o("lambda"), strings.TrimPrefix(err.Error(), "tensorreg: "), d.o("sigma"))
	}
	if err != nil {
		return nil, err
	}
	from := th.SigmaFrom
	if from == "given" {
		from = d.o("sigma")
	}
	return &report.Theory{Lambda: th.Lambda, LambdaT: th.LambdaT, S: th.S, Equivalence: th.Equivalence, MG: th.MG,
		Sigma: th.Sigma, SigmaFrom: from, T: th.T}, nil
}

// TheoryOverflow explains a Theorem 2 λ of p predictors and q responses
// that overflows float64 by the ingredient bounds blames, or returns nil
// when th.Lambda is finite. d spells the options.
func TheoryOverflow(th *report.Theory, p, q int, d Dialect) error {
	rc := bounds.RegressionConstants{Lambda: th.Lambda, LambdaT: th.LambdaT, S: th.S, Equivalence: th.Equivalence}
	factor, over := rc.Overflowing(th.Sigma, th.T, p, q)
	if !over {
		return nil
	}
	const msg = "the theory lambda (Theorem 2) overflows float64 because of "
	switch factor {
	case bounds.Confidence:
		return refuse(msg+"%s %g: log(p q / t) overflows; give a larger %s", d.o("t"), th.T, d.o("t"))
	case bounds.Equivalence:
		return refuse(msg+"nu: max(M_G, 1/nu) = %.3g; give a larger %s", th.Equivalence, d.o("nu"))
	case bounds.Noise:
		return fmt.Errorf(msg+"sigma = %.3g (%s): rescale the response, or give a smaller %s", th.Sigma, th.SigmaFrom, d.o("sigma"))
	}
	return fmt.Errorf(msg+"the predictors' scale: s = 2 max_j ||x_j||^2 / N = %.3g; rescale the predictors", th.S)
}
