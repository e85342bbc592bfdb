package binding

import (
	"errors"
	"fmt"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/request"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// problem is a call's request, data and penalty, built once.
type problem struct {
	in    *Input
	req   *request.Request
	lay   *factor.Coded
	rows  *estimator.Rows
	built *request.Built
	fit   request.Problem
}

// prepare reads the options of command cmd, checks in against them and
// builds the problem (request.Request.Build).
func prepare(in *Input, options []byte, cmd string) (*problem, error) {
	req, err := request.Decode(options)
	if err != nil {
		return nil, err
	}
	req.Offset, req.Weighted = in.Offset != nil, in.Weights != nil
	if err := req.Validate(cmd); err != nil {
		return nil, optionsError(err)
	}
	if err := in.checkShape(len(req.Factors), true); err != nil {
		return nil, err
	}
	pr := &problem{in: in, req: req}
	if pr.lay, err = newLayout(in, req); err != nil {
		return nil, err
	}
	if err := pr.checkMemory(); err != nil {
		return nil, err
	}
	x, err := designOf(pr.lay, in)
	if err != nil {
		return nil, err
	}
	pr.rows = &estimator.Rows{X: x, Y: mat.NewDense(in.N, 1, in.Y), Weights: in.Weights, Offset: in.Offset}
	if err := pr.checkRows(); err != nil {
		return nil, pr.explain(err)
	}
	fit, built, err := req.Setup(pr.rows, in.N, pr.lay.Names, pr.lay.Design, nil)
	if err != nil {
		return nil, pr.explain(optionsError(err))
	}
	pr.fit, pr.built = *fit, built
	pr.fit.Explain = func(err error, _ bool) error { return pr.explain(optionsError(err)) }
	if req.Given["foldid"] {
		pr.fit.FoldID, err = req.FoldIDs(in.N)
	}
	return pr, optionsError(err)
}

// checkMemory refuses a dense design whose copy or Gram matrices would
// not fit the budget (request.CheckMemory). A dense X is read in place
// when row-major without factors. A sparse one is never densified (its
// factors are indicator columns, O(n)) and its fits form no Gram matrix
// (the family engine, every family): neither of CheckMemory's n×p and
// p×p budgets applies to it.
func (pr *problem) checkMemory() error {
	if pr.in.Sparse != nil {
		return nil
	}
	copied := len(pr.lay.Factors) > 0 || pr.in.ColMajor
	if err := pr.req.CheckMemory(pr.in.N, len(pr.lay.Names), copied, "drop columns"); err != nil {
		return fmt.Errorf("data: %v", err)
	}
	return nil
}

// checkRows checks the rows against the request (request.CheckRows,
// or CheckDesignRows for a design held by columns).
func (pr *problem) checkRows() error {
	fam, _ := datafit.ByName(pr.req.Family) // checked by Validate
	r := pr.rows
	if m, ok := r.X.(*design.Matrix); ok {
		return pr.req.CheckDesignRows(fam, m, pr.in.Y, r.Weights, r.Offset, pr.lay.Names)
	}
	return pr.req.CheckRows(fam, r.X.(solver.DenseDesign).X, pr.in.Y, r.Weights, r.Offset, pr.lay.Names)
}

// optionsError prefixes "options: " to a refusal of the request.
func optionsError(err error) error {
	if errors.As(err, new(request.Error)) {
		return fmt.Errorf("options: %v", err)
	}
	return err
}

// explain returns, for a fit's error err, the error that names the row
// and column of a value of X that is not finite, when there is one: X is
// scanned for them only then (the routes check X themselves, and a
// second pass would cost a fit's checks again).
func (pr *problem) explain(err error) error {
	if err == nil {
		return nil
	}
	if e := pr.in.checkFinite(pr.lay.Names[:pr.in.P]); e != nil {
		return e
	}
	return err
}
