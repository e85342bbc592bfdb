package binding

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/internal/membudget"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// problem is a call's data, penalty and estimator options, built once.
type problem struct {
	in       *Input
	o        *Options
	lay      *layout
	rows     *estimator.Rows
	pen      penalty.Penalty
	est      estimator.Options
	nu       float64
	nuNote   string
	excluded []string
	family   bool // a family fit: the deviances and measure named as glmnet's
}

// newProblem checks in and o and builds the fit's problem.
func newProblem(in *Input, o *Options) (*problem, error) {
	if err := in.checkShape(len(o.Factors), true); err != nil {
		return nil, err
	}
	lay, err := newLayout(in, o)
	if err != nil {
		return nil, err
	}
	if err := checkMemory(in, o, lay); err != nil {
		return nil, err
	}
	x, err := lay.matrix(in)
	if err != nil {
		return nil, err
	}
	pr := &problem{in: in, o: o, lay: lay, rows: &estimator.Rows{X: solver.DenseDesign{X: x}, Y: mat.NewDense(in.N, 1, in.Y),
		Weights: in.Weights, Offset: in.Offset}}
	fam, _ := datafit.ByName(o.Family) // checked by parseOptions
	pr.family = o.Family != "gaussian" || in.Offset != nil || o.PenaltyFactor != nil || len(o.Exclude) > 0 ||
		o.TypeMeasure != "" && o.TypeMeasure != "mse"
	pr.est = estimator.Options{Family: fam, NoIntercept: o.NoIntercept, Standardize: o.Standardize, Relax: o.Relax,
		Settings: solver.Settings{Tol: o.Tol, MaxIter: o.MaxIter}}
	if err := pr.checkRows(x, fam); err != nil {
		return nil, pr.explain(err)
	}
	if lay.design != nil {
		err = pr.factorPenalty()
	} else {
		err = pr.namedPenalty()
	}
	return pr, pr.explain(err)
}

// checkMemory refuses, before they are allocated, what the command line
// refuses against the budget ("memory"; default half the machine's memory): the
// design a factor expansion or a column-major layout copies, and the Gram
// matrices of a least-squares fit. Going past the machine's memory would
// end the host process, which no error can report.
func checkMemory(in *Input, o *Options, lay *layout) error {
	b := membudget.Of(o.memory)
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
	if !pr.family {
		// A file's reader refuses a non-finite response or weight before
		// this route sees it; buffers are checked here, before the
		// constancy test, which a NaN or ±Inf would fail with the wrong
		// diagnosis. As the command line: the least-squares route checks
		// the rest.
		if err := checkResponses(fam, y, r.Weights); err != nil {
			return rowError(err)
		}
		if estimator.IsConstant(y) {
			return errors.New("data: the response is constant: there is nothing to fit")
		}
		return nil
	}
	d := &datafit.Data{X: x, Y: y, Weights: r.Weights, Offset: r.Offset, NoIntercept: pr.o.NoIntercept}
	err := d.Check(fam)
	if err == nil && !pr.o.Standardize {
		err = d.CheckScale()
	}
	var ce *datafit.ColumnError
	if errors.As(err, &ce) {
		return fmt.Errorf("data: column %s: %v", data.ShortText(pr.lay.names[ce.Col]), ce.Err)
	}
	return rowError(err)
}

// checkResponses checks each row's response and weight for family fam,
// as datafit checks a family fit's rows (the predictors are checked by
// the fit's route).
func checkResponses(fam datafit.Family, y, weights []float64) error {
	for i, v := range y {
		w := 1.0
		if weights != nil {
			w = weights[i]
		}
		if err := datafit.CheckRow(fam, i, nil, v, w, 0); err != nil {
			return err
		}
	}
	return nil
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

// namedPenalty builds the penalty of a design without factors: the
// penalty table's, with exclude and penalty-factor as the flags.
func (pr *problem) namedPenalty() error {
	o, names := pr.o, pr.lay.names
	if pr.o.Penalty == factor.NumericNone {
		return errors.New("options: penalty none names the numeric predictors' penalty beside factors, and the data hold no factor")
	}
	kind, ok := penalty.Lookup(o.Penalty)
	if !ok {
		return fmt.Errorf("options: unknown penalty %q (%s)", o.Penalty, strings.Join(penalty.Names(nil), ", "))
	}
	if o.PenaltyFactor != nil && !kind.Factors {
		return fmt.Errorf("options: penalty-factor is for the %s penalties; for %s use exclude to leave predictors unpenalised",
			strings.Join(penalty.Names(func(k penalty.Kind) bool { return k.Factors }), " and "), o.Penalty)
	}
	if kind.Nu == penalty.NoNu && o.Nu != nil {
		return fmt.Errorf("options: nu has no role in the %s penalty", o.Penalty)
	}
	if !kind.Alpha && o.Alpha != nil {
		return fmt.Errorf("options: alpha applies to the %s penalty only, not %s", strings.Join(penalty.Names(func(k penalty.Kind) bool { return k.Alpha }), ", "), o.Penalty)
	}
	if pr.family && !kind.GLM {
		return fmt.Errorf("options: family %s (or an offset, penalty factors, exclude): penalty %s is not supported (%s)", o.Family, o.Penalty,
			strings.Join(penalty.Names(func(k penalty.Kind) bool { return k.GLM }), ", "))
	}
	free, err := estimator.UnpenalizedColumns(names, o.Exclude)
	if err != nil {
		return fmt.Errorf("options: exclude: %v", err)
	}
	in := penalty.Inputs{P: len(names) - len(free)}
	if in.Nu = 0; o.Nu != nil {
		in.Nu = *o.Nu
	}
	if in.Alpha = penalty.DefaultAlpha; o.Alpha != nil {
		in.Alpha = *o.Alpha
	}
	if in.Groups, in.G, err = pr.penaltyInputs(kind, in.P, len(free)); err != nil {
		return err
	}
	pen, nu, err := bounds.Build(kind, in, o.Nu != nil)
	if err != nil {
		return fmt.Errorf("options: %v", err)
	}
	pr.pen, pr.nu, pr.nuNote = pen, nu.Value, nu.Note()
	if o.PenaltyFactor != nil {
		if pr.pen, free, err = penaltyFactors(pr.pen, o.PenaltyFactor, free); err != nil {
			return err
		}
		pr.nu = 0
	}
	pr.est.Unpenalized = free
	for _, j := range free {
		pr.excluded = append(pr.excluded, names[j])
	}
	return nil
}

// penaltyInputs reads groups (grouped) or G (general) for p penalised
// predictors.
func (pr *problem) penaltyInputs(kind penalty.Kind, p, nfree int) ([]int, *mat.Dense, error) {
	o := pr.o
	switch kind.Needs {
	case penalty.NeedsGroups:
		if len(o.Groups) != p || nfree > 0 {
			return nil, nil, fmt.Errorf("options: penalty grouped needs groups with one label per predictor (%d), got %d (exclude does not combine with it)", p, len(o.Groups))
		}
		labels := make([]string, p)
		for j, g := range o.Groups {
			labels[j] = fmt.Sprint(g)
		}
		return data.GroupIDs(labels), nil, nil
	case penalty.NeedsG:
		if len(o.G) == 0 {
			return nil, nil, errors.New("options: penalty general needs G, a list of rows")
		}
		g := mat.NewDense(len(o.G), p, nil)
		for r, row := range o.G {
			if len(row) != p {
				return nil, nil, fmt.Errorf("options: G row %d has %d values for %d predictors", r+1, len(row), p)
			}
			g.SetRow(r, row)
		}
		return nil, g, nil
	}
	if o.Groups != nil || o.G != nil {
		return nil, nil, fmt.Errorf("options: groups and G are for the grouped and general penalties, not %s", o.Penalty)
	}
	return nil, nil, nil
}

// penaltyFactors is pen with glmnet's penalty.factor f (penalty.WithFactors),
// the excluded predictors' factors 0.
func penaltyFactors(pen penalty.Penalty, f []float64, free []int) (penalty.Penalty, []int, error) {
	fs := slices.Clone(f)
	for _, j := range free {
		if j < len(fs) {
			fs[j] = 0
		}
	}
	w, free, err := estimator.PenaltyFactors(fs)
	if err != nil {
		return nil, nil, fmt.Errorf("options: penalty-factor: %v", strings.TrimPrefix(err.Error(), "glm: "))
	}
	return penalty.WithFactors(pen, w.Factors), free, nil
}

// factorPenalty builds the penalty of a design with factors: each factor
// its block, the numeric predictors' penalty named by "penalty".
func (pr *problem) factorPenalty() error {
	o := pr.o
	switch {
	case !slices.Contains(factor.NumericPenalties, o.Penalty):
		return fmt.Errorf("options: penalty %s: with factors, penalty names the numeric predictors' penalty: %s (each factor gets its own)", o.Penalty, strings.Join(factor.NumericPenalties, ", "))
	case o.Alpha != nil:
		return errors.New("options: alpha is the elastic net's, which does not combine with factors")
	case o.Exclude != nil || o.PenaltyFactor != nil:
		return errors.New("options: exclude and penalty-factor do not combine with factors: use penalty none to leave the numeric predictors unpenalised")
	case o.Standardize:
		return errors.New("options: standardize does not combine with factors: a factor's level effects are on its own scale")
	}
	w, _ := factor.ParsePairWeights(o.PairWeights) // checked by parseOptions
	fo := factor.Options{Numeric: o.Penalty, Weights: w}
	if o.Nu != nil {
		fo.Nu = *o.Nu
	}
	if w == factor.Adaptive {
		pilot, err := pr.lay.design.Pilot(pr.rows, &pr.est)
		if err != nil {
			return fmt.Errorf("pair-weights adaptive: the unpenalised fit failed: %v", err)
		}
		fo.Pilot = pilot
	}
	pen, free, err := pr.lay.design.Penalty(fo)
	if err != nil {
		return err
	}
	pr.pen, pr.est.Unpenalized = pen, free
	if o.Penalty == factor.NumericCardinality && len(pr.lay.design.Numeric()) > 0 {
		pr.nu = penalty.EffectiveNu(fo.Nu)
	}
	for _, j := range free {
		pr.excluded = append(pr.excluded, pr.lay.names[j])
	}
	return nil
}
