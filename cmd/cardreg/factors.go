package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/internal/outfile"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/report"
)

// factorFlags are the flags of categorical predictors, shared by fit,
// path and cv.
type factorFlags struct {
	nominal     string
	ordinal     []string
	ref         []string
	naLevel     bool
	maxLevels   int
	minCount    int
	pairWeights string
}

func (g *factorFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&g.nominal, "factor", "", "numeric-coded columns to read as nominal factors, comma separated (text columns are factors already)")
	fs.Func("ordinal", "NAME or NAME=l1,l2,...: an ordered factor, in the natural order of its levels (numbers numerically) or the order given; repeat for several", func(s string) error {
		g.ordinal = append(g.ordinal, s)
		return nil
	})
	fs.Func("ref", "NAME=LEVEL: the reference level of a factor, whose effect is 0 (default: the most frequent level of a nominal factor, the first of an ordinal one); repeat for several", func(s string) error {
		g.ref = append(g.ref, s)
		return nil
	})
	fs.BoolVar(&g.naLevel, "na-level", false, "an empty or NA cell in a factor is a level of its own, NA (default: an error)")
	fs.IntVar(&g.maxLevels, "max-levels", data.DefaultMaxLevels, "refuse a factor with more levels (probably an ID column)")
	fs.IntVar(&g.minCount, "min-count", data.DefaultMinCount, "refuse a factor level seen in fewer rows")
	fs.StringVar(&g.pairWeights, "pair-weights", "equal", "weights of a factor's level pairs: equal (1), count (sqrt((n_j + n_k)/n), Bondell and Reich) or adaptive (1/|b_j - b_k| from an unpenalised fit)")
}

// spec is the data package's reading of the factor flags.
func (g *factorFlags) spec() (data.FactorSpec, error) {
	s := data.FactorSpec{Nominal: splitList(g.nominal), NALevel: g.naLevel, MaxLevels: g.maxLevels, MinCount: g.minCount}
	for _, o := range g.ordinal {
		name, order, hasOrder := strings.Cut(o, "=")
		ord := data.Ordering{Name: strings.TrimSpace(name)}
		if hasOrder {
			ord.Order = splitList(order)
			if len(ord.Order) == 0 || slices.Contains(ord.Order, "") {
				return s, usagef("--ordinal %s: the order after = is empty or has an empty level", o)
			}
		}
		if ord.Name == "" {
			return s, usagef("--ordinal %q: give NAME or NAME=l1,l2,...", o)
		}
		s.Ordinal = append(s.Ordinal, ord)
	}
	for _, r := range g.ref {
		name, level, ok := strings.Cut(r, "=")
		if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(level) == "" {
			return s, usagef("--ref %q: give NAME=LEVEL", r)
		}
		if s.Ref == nil {
			s.Ref = map[string]string{}
		}
		s.Ref[strings.TrimSpace(name)] = strings.TrimSpace(level)
	}
	return s, nil
}

// validate checks the factor flags that do not depend on the data.
func (f *fitFlags) validateFactors() error {
	g := &f.factors
	if _, err := g.spec(); err != nil {
		return err
	}
	if _, err := factor.ParsePairWeights(g.pairWeights); err != nil {
		return usagef("--pair-weights: %v", err)
	}
	if g.maxLevels < 2 || g.minCount < 1 {
		return usagef("--max-levels must be at least 2 and --min-count at least 1")
	}
	return nil
}

// penaltyKind is --penalty's entry of the penalty table; none (the
// numeric predictors unpenalised beside factors, whose blocks have a dual
// norm) is a penalty of the table's form with a grid for every family.
func (f *fitFlags) penaltyKind() penalty.Kind {
	if f.penalty == factor.NumericNone {
		return penalty.Kind{Name: factor.NumericNone, Grid: true, GLM: true}
	}
	kind, _ := penalty.Lookup(f.penalty)
	return kind
}

// buildFactorPenalty sets the multi-type penalty of a design with
// factors: each factor its block (nominal: all pairs with the reference
// pinned; ordinal: the chain), the numeric predictors --penalty's.
func (pr *problem) buildFactorPenalty(f *fitFlags) error {
	if err := f.factorCombination(); err != nil {
		return err
	}
	w, _ := factor.ParsePairWeights(f.factors.pairWeights) // checked by validate
	o := factor.Options{Numeric: f.penalty, Nu: f.nu.v, Weights: w}
	if w == factor.Adaptive {
		pilot, err := pr.design.Pilot(pr.data, &pr.opts)
		if err != nil {
			return fmt.Errorf("--pair-weights adaptive: the unpenalised fit failed: %v", err)
		}
		o.Pilot = pilot
	}
	pen, free, err := pr.design.Penalty(o)
	if err != nil {
		return err
	}
	pr.pen, pr.opts.Unpenalized, pr.nu, pr.note, pr.numeric = pen, free, 0, "", f.penalty
	if f.penalty == factor.NumericCardinality && len(pr.design.Numeric()) > 0 {
		pr.nu = penalty.EffectiveNu(f.nu.v)
	}
	for _, j := range free {
		pr.excluded = append(pr.excluded, pr.names[j])
	}
	return nil
}

// factorCombination refuses the flags a fit with factors does not take.
func (f *fitFlags) factorCombination() error {
	switch {
	case !slices.Contains(factor.NumericPenalties, f.penalty):
		return usagef("--penalty %s: with factor predictors --penalty names the numeric predictors' penalty: %s (each factor gets its own)", f.penalty, orList(factor.NumericPenalties))
	case f.fam.exclude != "" || f.fam.penaltyFactor != "":
		return usagef("--exclude and --penalty-factor do not combine with factor predictors: use --penalty none to leave the numeric predictors unpenalised")
	case f.standardize:
		return usagef("--standardize does not combine with factor predictors: a factor's level effects are on its own scale (rescale numeric columns in the file)")
	case f.responses != "":
		return usagef("--responses does not combine with factor predictors yet: fit one response at a time (--target)")
	case f.lambda.theory():
		return usagef("--lambda theory is defined for the cardinality, grouped and lasso penalties, not for factor blocks: use cv, aic, bic or a number")
	}
	return nil
}

// factorOnly are the flags that act on factor predictors alone.
var factorOnly = []string{"pair-weights", "na-level", "max-levels", "min-count"}

// noFactorFlags refuses, for data without factors, the flags that act on
// factors alone (and --penalty none, the numeric predictors' penalty
// beside factors): no flag is silently ignored.
func (f *fitFlags) noFactorFlags() error {
	if f.penalty == factor.NumericNone {
		return usagef("--penalty none names the numeric predictors' penalty beside factor predictors, and the data hold no factor (a text column, --factor or --ordinal)")
	}
	for _, name := range factorOnly {
		if f.given[name] {
			return usagef("--%s acts on factor predictors, and the data hold no factor (a text column, --factor or --ordinal)", name)
		}
	}
	return nil
}

// designOf is the factor design of rows read into memory, nil when they
// hold no factor.
func designOf(r *data.Rows) (*factor.Design, error) {
	if len(r.Factors) == 0 {
		return nil, nil
	}
	return factor.NewDesign(r.Names, r.Factors, r.FactorCols)
}

// fillFactors writes the level groups of model m into res.
func (pr *problem) fillFactors(res *report.Fit, m *estimator.Model, f *fitFlags) {
	if pr.design != nil {
		res.FillModelFactors(pr.design, m, pr.rowWeights(), f.factors.pairWeights)
	}
}

// rowWeights are the rows' weights in memory (nil without weights).
func (pr *problem) rowWeights() []float64 {
	if r, ok := pr.data.(*estimator.Rows); ok {
		return r.Weights
	}
	return nil
}

// writeMerges writes the merges of the factors' level groups along path to
// the file --merges names (nothing when it names none).
func (pr *problem) writeMerges(path *estimator.Path, file string) error {
	if file == "" {
		return nil
	}
	lambdas := make([]float64, len(path.Models))
	coefs := make([][]float64, len(path.Models))
	for k, m := range path.Models {
		lambdas[k], coefs[k] = m.Lambda, m.Coefficients(0)
	}
	csv := report.MergesCSV(pr.design.Merges(lambdas, coefs), pr.n)
	return outfile.Write("--merges", file, nil, func(w io.Writer) error { _, err := io.WriteString(w, csv); return err })
}
