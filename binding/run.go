package binding

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/internal/membudget"
	"github.com/cardsparse/cardreg/request"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// problem is a call's request, data and penalty, built once.
type problem struct {
	in    *Input
	req   *request.Request
	lay   *layout
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
	if err := checkMemory(in, req, pr.lay); err != nil {
		return nil, err
	}
	x, err := pr.lay.matrix(in)
	if err != nil {
		return nil, err
	}
	pr.rows = &estimator.Rows{X: solver.DenseDesign{X: x}, Y: mat.NewDense(in.N, 1, in.Y), Weights: in.Weights, Offset: in.Offset}
	opts, _ := req.Options() // the family is checked by Validate
	if err := pr.checkRows(x, opts.Family); err != nil {
		return nil, pr.explain(err)
	}
	if pr.built, err = req.Build(pr.lay.names, pr.lay.design, pr.rows, &opts, nil); err != nil {
		return nil, pr.explain(optionsError(err))
	}
	opts.Unpenalized = pr.built.Unpenalized
	pr.fit = request.Problem{Data: pr.rows, Pen: pr.built.Pen, Opts: opts, N: in.N, Family: req.FamilyFit(),
		DF:      func(m *estimator.Model) int { return factor.ModelDF(pr.lay.design, m, req.Penalty) },
		Explain: func(err error, _ bool) error { return pr.explain(optionsError(err)) }}
	if req.Given["foldid"] {
		pr.fit.FoldID, err = req.FoldIDs(in.N)
	}
	return pr, optionsError(err)
}

// optionsError prefixes "options: " to a refusal of the request.
func optionsError(err error) error {
	if errors.As(err, new(request.Error)) {
		return fmt.Errorf("options: %v", err)
	}
	return err
}

// checkMemory refuses, before they are allocated, what the command line
// refuses against the budget ("memory"; default half the machine's memory): the
// design a factor expansion or a column-major layout copies, and the Gram
// matrices of a least-squares fit. Going past the machine's memory would
// end the host process, which no error can report.
func checkMemory(in *Input, o *request.Request, lay *layout) error {
	b := membudget.Of(int64(o.Memory))
	n, p := in.N, len(lay.names)
	if len(lay.factors) > 0 || in.ColMajor {
		if err := membudget.CheckRows(n, p, b, "drop columns, or factors with many levels"); err != nil {
			return fmt.Errorf("data: %v", err)
		}
	}
	if o.Family == "gaussian" && n >= p {
		what := fmt.Sprintf("the Gram matrices of %d predictors", p)
		if err := membudget.CheckSquares(what, membudget.GramMatrices, p, b, "drop columns"); err != nil {
			return fmt.Errorf("data: %v", err)
		}
	}
	return nil
}

// checkRows checks the responses, weights and offsets for the family, as
// the command line checks a file's: a family fit's row by row, a
// least-squares fit's response not constant.
func (pr *problem) checkRows(x *mat.Dense, fam datafit.Family) error {
	r := pr.rows
	y := r.Y.(*mat.Dense).RawMatrix().Data
	if !pr.req.FamilyFit() {
		// A file's reader refuses a non-finite response or weight before
		// this route sees it; buffers are checked here, before the
		// constancy test, which a NaN or ±Inf would fail with the wrong
		// diagnosis. As the command line: the least-squares route checks
		// the rest.
		for i, v := range y {
			w := 1.0
			if r.Weights != nil {
				w = r.Weights[i]
			}
			if err := datafit.CheckRow(fam, i, nil, v, w, 0); err != nil {
				return rowError(err)
			}
		}
		if estimator.IsConstant(y) {
			return errors.New("data: the response is constant: there is nothing to fit")
		}
		return nil
	}
	d := &datafit.Data{X: x, Y: y, Weights: r.Weights, Offset: r.Offset, NoIntercept: pr.req.NoIntercept}
	err := d.Check(fam)
	if err == nil && !pr.req.Standardize {
		err = d.CheckScale()
	}
	var ce *datafit.ColumnError
	if errors.As(err, &ce) {
		return fmt.Errorf("data: column %s: %v", data.ShortText(pr.lay.names[ce.Col]), ce.Err)
	}
	return rowError(err)
}

// rowError words a data check's error as the command line does: a row's
// from 1, with the field at fault.
func rowError(err error) error {
	var re *datafit.RowError
	switch {
	case errors.As(err, &re):
		return fmt.Errorf("data: row %d: %s: %v", re.Row+1, re.What, re.Err)
	case err != nil:
		return fmt.Errorf("data: %v", strings.TrimPrefix(err.Error(), "datafit: "))
	}
	return nil
}

// explain returns, for a fit's error err, the error that names the row
// and column of a value of X that is not finite, when there is one: X is
// scanned for them only then (the routes check X themselves, and a
// second pass would cost a fit's checks again).
func (pr *problem) explain(err error) error {
	if err == nil {
		return nil
	}
	if e := pr.in.checkFinite(pr.lay.names[:pr.in.P]); e != nil {
		return e
	}
	return err
}
