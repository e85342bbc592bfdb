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
	"github.com/cardsparse/cardreg/report"
	"github.com/cardsparse/cardreg/request"
)

// factorFlags are the flags of categorical predictors, shared by fit,
// path and cv, that say how to read them: the others decode into the
// request.
type factorFlags struct {
	nominal string
	ordinal []string
	ref     []string
	bin     []string
	naLevel bool
	r       *request.Request
}

func (g *factorFlags) register(fs *flag.FlagSet, r *request.Request) {
	g.r = r
	fs.StringVar(&g.nominal, "factor", "", "numeric-coded columns to read as nominal factors, comma separated (text columns are factors already)")
	fs.Func("ordinal", "NAME or NAME=l1,l2,...: an ordered factor, in the natural order of its levels (numbers numerically) or the order given; repeat for several", func(s string) error {
		g.ordinal = append(g.ordinal, s)
		return nil
	})
	fs.Func("ref", "NAME=LEVEL: the reference level of a factor, whose effect is 0 (default: the most frequent level of a nominal factor, the first of an ordinal one); repeat for several", func(s string) error {
		g.ref = append(g.ref, s)
		return nil
	})
	fs.Func("bin", "NAME=K or NAME=e1,e2,...: bin the numeric column NAME into an ordinal factor of K bands at its unweighted quantiles (R's type 1: each cut point a value of the column, tied values never split, so there may be fewer bands, said on stderr) or of the bands between the cut points given (one cut point: write it with a decimal point, 30.0); bands are right-closed, named (-Inf,e1], (e1,e2], ..., (em,Inf); fused as ordinal factors are, the first band the reference unless --ref; predict bins new rows at the same cut points; repeat for several", func(s string) error {
		g.bin = append(g.bin, s)
		return nil
	})
	fs.BoolVar(&g.naLevel, "na-level", false, "an empty or NA cell in a factor is a level of its own, NA (default: an error)")
	fs.IntVar(&r.MaxLevels, "max-levels", data.DefaultMaxLevels, "refuse a factor with more levels (probably an ID column)")
	fs.IntVar(&r.MinCount, "min-count", data.DefaultMinCount, "refuse a factor level seen in fewer rows")
	fs.StringVar(&r.PairWeights, "pair-weights", "equal", "weights of a factor's level pairs: equal (1), count (sqrt((n_j + n_k)/n), Bondell and Reich) or adaptive (1/|b_j - b_k| from an unpenalised fit)")
}

// spec is the data package's reading of the factor flags.
func (g *factorFlags) spec() (data.FactorSpec, error) {
	s := data.FactorSpec{Nominal: splitList(g.nominal), NALevel: g.naLevel, MaxLevels: g.r.MaxLevels, MinCount: g.r.MinCount}
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
	for _, b := range g.bin {
		bin, err := data.ParseBinning(b)
		if err != nil {
			return s, usageError{err}
		}
		s.Bins = append(s.Bins, bin)
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

// validateFactors checks the factor flags that do not depend on the
// data and are not the request's.
func (f *fitFlags) validateFactors() error {
	_, err := f.factors.spec()
	return err
}

// designOf is the factor design of rows read into memory, nil when they
// hold no factor.
func designOf(r *data.Rows) (*factor.Design, error) {
	if len(r.Factors) == 0 {
		return nil, nil
	}
	return factor.NewDesign(r.Names, r.Factors, r.FactorCols)
}

// fillFactors writes the level groups of model m into res, and its
// numeric predictors' penalty, scale and coefficients.
func (pr *problem) fillFactors(res *report.Fit, m *estimator.Model, f *fitFlags) {
	if pr.design != nil {
		res.FillModelFactors(pr.design, m, pr.rowWeights(), f.PairWeights)
		res.NumericPredictors = pr.numeric(f, m.Coefficients(0))
	}
}

// numeric describes the numeric predictors beside factors (none without
// factors) with coefficients coef (nil: 0).
func (pr *problem) numeric(f *fitFlags, coef []float64) []factor.NumericPredictor {
	if pr.design == nil || pr.fit == nil {
		return nil
	}
	return pr.design.NumericPredictors(f.Penalty, pr.fit.SD, pr.fit.Scales != nil, coef)
}

// noteNumeric says on stderr how the numeric predictors beside factors are
// penalised and on what scale (factor.NumericNote), when there are some.
func (pr *problem) noteNumeric(f *fitFlags) {
	if note := factor.NumericNote(pr.numeric(f, nil)); note != "" {
		fmt.Fprintf(f.stderr, "cardreg %s: note: %s\n", f.cmd, note)
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
