package request

import (
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
	"github.com/cardsparse/cardreg/report"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Built is a request's penalty on a design.
type Built struct {
	// Pen is the penalty of the penalised predictors.
	Pen penalty.Penalty
	// Unpenalized are the predictors left out of it (exclude, a
	// penalty factor 0, a factor design's unpenalised columns), sorted;
	// Excluded their names.
	Unpenalized []int
	Excluded    []string
	// Nu is the ν used (0 for none), NuNote how a default ν was found.
	Nu     float64
	NuNote string
}

// InputsFunc returns the groups (NeedsGroups) or the matrix G (NeedsG)
// of penalty kind on p penalised predictors. The command line reads them
// from the files its flags name; nil reads the request's Groups and G.
type InputsFunc func(kind penalty.Kind, p int) ([]int, *mat.Dense, error)

// Build builds the request's penalty on the predictors names: with a
// factor design (nil without factors) each factor its block and the
// numeric predictors Penalty's (factor.Design.Penalty), else the penalty
// table's (bounds.Build), with exclude and penalty-factor. rows and opts
// are the data and options of the unpenalised pilot fit of adaptive pair
// weights; read reads the penalty's inputs (nil: Groups and G). It
// checks the request against the data first (CheckData).
func (r *Request) Build(names []string, design *factor.Design, rows estimator.Data, opts *estimator.Options, read InputsFunc) (*Built, error) {
	if err := r.CheckData(design != nil); err != nil {
		return nil, err
	}
	var b *Built
	var err error
	if design != nil {
		b, err = r.factorPenalty(design, rows, opts)
	} else {
		b, err = r.namedPenalty(names, read)
	}
	if err != nil {
		return nil, err
	}
	for _, j := range b.Unpenalized {
		b.Excluded = append(b.Excluded, names[j])
	}
	return b, nil
}

// namedPenalty builds the penalty table's penalty of a design without
// factors, with exclude and penalty-factor.
func (r *Request) namedPenalty(names []string, read InputsFunc) (*Built, error) {
	d := r.Dialect
	free, err := estimator.UnpenalizedColumns(names, r.Exclude)
	if err != nil {
		return nil, refuse("%s: %v", d.o("exclude"), err)
	}
	if read == nil {
		read = r.inputs
	}
	pen, nu, note, err := r.NamedPenalty(len(names)-len(free), read)
	if err != nil {
		return nil, err
	}
	b := &Built{Pen: pen, Unpenalized: free, Nu: nu, NuNote: note}
	if r.Given["penalty-factor"] {
		if b.Pen, b.Unpenalized, err = r.penaltyFactors(pen, len(names), free); err != nil {
			return nil, err
		}
		b.Nu = 0
	}
	return b, nil
}

// NamedPenalty returns the penalty table's penalty named by the request
// on p predictors (its inputs read by read), the ν used (0 for none) and
// a note when the default ν had to fall back or rests on an upper bound
// of M_G.
func (r *Request) NamedPenalty(p int, read InputsFunc) (penalty.Penalty, float64, string, error) {
	kind, ok := penalty.Lookup(r.Penalty)
	if !ok {
		return nil, 0, "", refuse("unknown %s %q (%s)", r.Dialect.o("penalty"), r.Penalty, strings.Join(penalty.Names(nil), ", "))
	}
	in := penalty.Inputs{P: p, Alpha: penalty.DefaultAlpha}
	if r.Nu != nil {
		in.Nu = *r.Nu
	}
	if r.Alpha != nil {
		in.Alpha = *r.Alpha
	}
	var err error
	if kind.Needs != penalty.NeedsNothing {
		if in.Groups, in.G, err = read(kind, p); err != nil {
			return nil, 0, "", err
		}
	}
	pen, nu, err := bounds.Build(kind, in, r.Nu != nil)
	if err != nil {
		return nil, 0, "", err
	}
	return pen, nu.Value, nu.Note(), nil
}

// alphaUsed is the α of the request's penalty (Alpha, or its default)
// when its kind takes one, else nil.
func (r *Request) alphaUsed() *float64 {
	if kind, ok := r.Kind(); !ok || !kind.Alpha {
		return nil
	}
	a := penalty.DefaultAlpha
	if r.Alpha != nil {
		a = *r.Alpha
	}
	return &a
}

// inputs reads Groups (grouped) or G (general) for p penalised
// predictors.
func (r *Request) inputs(kind penalty.Kind, p int) ([]int, *mat.Dense, error) {
	d := r.Dialect
	if kind.Needs == penalty.NeedsGroups {
		if len(r.Groups) != p {
			return nil, nil, refuse("%s grouped needs %s with one label per predictor (%d), got %d (%s does not combine with it)", d.o("penalty"), d.o("groups"), p, len(r.Groups), d.o("exclude"))
		}
		return data.GroupIDs(r.Groups), nil, nil
	}
	if len(r.G) == 0 {
		return nil, nil, refuse("%s general needs %s, a list of rows", d.o("penalty"), d.o("G"))
	}
	g := mat.NewDense(len(r.G), p, nil)
	for k, row := range r.G {
		if len(row) != p {
			return nil, nil, refuse("%s row %d has %d values for %d predictors", d.o("G"), k+1, len(row), p)
		}
		g.SetRow(k, row)
	}
	return nil, g, nil
}

// penaltyFactors is pen with glmnet's penalty.factor (one per predictor
// of p; penalty.WithFactors: the lasso's are the weighted lasso), the
// excluded predictors' factors 0.
func (r *Request) penaltyFactors(pen penalty.Penalty, p int, free []int) (penalty.Penalty, []int, error) {
	d := r.Dialect
	if len(r.PenaltyFactor) != p {
		return nil, nil, refuse("%s has %d values for %d predictors", d.o("penalty-factor"), len(r.PenaltyFactor), p)
	}
	fs := slices.Clone(r.PenaltyFactor)
	for _, j := range free {
		fs[j] = 0
	}
	// estimator.PenaltyFactors rescales them (without overflow) and names
	// them as typed in its messages.
	w, free, err := estimator.PenaltyFactors(fs)
	if err != nil {
		return nil, nil, refuse("%s: %v", d.o("penalty-factor"), strings.TrimPrefix(err.Error(), "glm: "))
	}
	return penalty.WithFactors(pen, w.Factors), free, nil
}

// factorPenalty builds the penalty of a design with factors: each factor
// its block (nominal: all pairs with the reference pinned; ordinal: the
// chain), the numeric predictors Penalty's.
func (r *Request) factorPenalty(design *factor.Design, rows estimator.Data, opts *estimator.Options) (*Built, error) {
	w, _ := factor.ParsePairWeights(r.PairWeights) // checked by Check
	fo := factor.Options{Numeric: r.Penalty, Weights: w}
	if r.Nu != nil {
		fo.Nu = *r.Nu
	}
	if w == factor.Adaptive {
		pilot, err := design.Pilot(rows, opts)
		if err != nil {
			return nil, fmt.Errorf("%s adaptive: the unpenalised fit failed: %v", r.Dialect.o("pair-weights"), err)
		}
		fo.Pilot = pilot
	}
	pen, free, err := design.Penalty(fo)
	if err != nil {
		return nil, err
	}
	b := &Built{Pen: pen, Unpenalized: free}
	if r.Penalty == factor.NumericCardinality && len(design.Numeric()) > 0 {
		b.Nu = penalty.EffectiveNu(fo.Nu)
	}
	return b, nil
}

// Options returns the estimator's options of the request (the penalty's
// unpenalised predictors are Build's).
func (r *Request) Options() (estimator.Options, error) {
	fam, err := datafit.ByName(r.Family)
	if err != nil {
		return estimator.Options{}, err
	}
	return estimator.Options{Family: fam, NoIntercept: r.NoIntercept, Standardize: r.Standardize, Relax: r.Relax,
		Settings: solver.Settings{Tol: r.Tol, MaxIter: r.MaxIter}}, nil
}

// CheckMemory refuses, before they are allocated, what would not fit in
// the budget (Memory; default half the machine's memory): the n×p design
// held in memory when copied (read from a file, expanded from factors),
// and the Gram matrices of a least-squares fit (formed when n ≥ p). drop
// says which columns to drop. Going past the machine's memory would end
// the process, which no error can report.
func (r *Request) CheckMemory(n, p int, copied bool, drop string) error {
	b := membudget.Of(int64(r.Memory))
	if copied {
		if err := membudget.CheckRows(n, p, b, drop+", or factors with many levels"); err != nil {
			return err
		}
	}
	if r.FamilyFit() || n < p {
		return nil
	}
	what := fmt.Sprintf("the Gram matrices of %d predictors", p)
	return membudget.CheckSquares(what, membudget.GramMatrices, p, b, drop)
}

// Report is the part of fit's report known before fitting: the family
// fam, the penalty as built (b) on n rows of the columns names, the
// response target.
func (r *Request) Report(b *Built, fam datafit.Family, n int, names []string, target string) *report.Fit {
	res := &report.Fit{Family: fam.Name(), Link: fam.Link(), Penalty: r.Penalty, NuNote: b.NuNote, N: n, P: len(names), Names: names,
		Target: target, Unpenalized: b.Excluded}
	if b.Nu > 0 {
		nu := b.Nu
		res.Nu = &nu
	}
	res.Alpha = r.alphaUsed()
	return res
}
