package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
)

// familyFlags are the flags of generalised linear models, shared by fit,
// path and cv.
type familyFlags struct {
	family, offset, penaltyFactor, exclude, typeMeasure string
}

func (g *familyFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&g.family, "family", "gaussian", "response distribution: gaussian (least squares), binomial (logistic; response 0/1), poisson (log-linear; counts) or gamma (log link; positive amounts)")
	fs.StringVar(&g.offset, "offset", "", "column of offsets added to the linear predictor (glmnet's offset; e.g. log exposure for poisson)")
	fs.StringVar(&g.penaltyFactor, "penalty-factor", "", "lasso: one factor >= 0 per predictor (inline, comma separated, or a file with one per line); rescaled to sum to p as glmnet does; 0 leaves a predictor unpenalised")
	fs.StringVar(&g.exclude, "exclude", "", "predictors left out of the penalty (fitted unpenalised, outside the fusion), comma separated")
	fs.StringVar(&g.typeMeasure, "type-measure", "", "cross-validation measure (cv.glmnet's type.measure): deviance, mse, mae, and for binomial class, auc (default: mse for gaussian, deviance otherwise)")
}

// familyFit reports whether the flags ask for a family fit: a
// non-gaussian family, an offset, penalty factors, excluded predictors or
// a measure other than the gaussian MSE. Its rows are read (in memory or
// by passes, never into statistics), checked for the family, and its
// output shows the deviances and the CV measure; estimator chooses the
// route that fits it.
func (f *fitFlags) familyFit() bool {
	g := f.fam
	return g.family != "gaussian" || g.offset != "" || g.penaltyFactor != "" || g.exclude != "" ||
		g.typeMeasure != "" && g.typeMeasure != "mse"
}

// validateFamily checks the family flags and what they combine with.
func (f *fitFlags) validateFamily() error {
	fam, err := datafit.ByName(f.fam.family)
	if err != nil {
		return usagef("unknown --family %q (%s)", f.fam.family, strings.Join(datafit.Names(), ", "))
	}
	if m := f.fam.typeMeasure; m != "" && !slices.Contains(estimator.Measures(fam), m) {
		return usagef("--type-measure %s is not one of %s for --family %s", m, strings.Join(estimator.Measures(fam), ", "), fam.Name())
	}
	if !f.familyFit() {
		return nil
	}
	what := "--family " + fam.Name()
	if fam.Name() == "gaussian" {
		what = "--offset, --penalty-factor, --exclude and --type-measure"
	}
	kind := f.penaltyKind() // known: checked by validatePenalty
	switch {
	case !kind.GLM:
		return usagef("%s: --penalty %s is not supported yet (%s)", what, f.penalty, strings.Join(penalty.Names(func(k penalty.Kind) bool { return k.GLM }), ", "))
	case kind.Needs == penalty.NeedsGroups && f.fam.exclude != "":
		return usagef("--exclude does not combine with --penalty grouped yet: leave the predictors out of --groups' data instead")
	case f.lambda.theory():
		return usagef("%s: --lambda theory is least-squares theory; use cv or a number", what)
	case f.responses != "":
		return usagef("%s: one response at a time (--target)", what)
	}
	return nil
}

// checkFamily validates the response, weights and offsets of the rows in
// memory for the family row by row, naming the file, the data row and the
// column.
func (pr *problem) checkFamily(path string, f *fitFlags, places data.Places) error {
	fam, _ := datafit.ByName(f.fam.family)
	r := pr.data.(*estimator.Rows)
	d := &datafit.Data{X: pr.x, Y: pr.y.RawMatrix().Data, Weights: r.Weights, Offset: r.Offset, NoIntercept: f.noIntercept}
	err := d.Check(fam)
	if err == nil && !f.standardize {
		err = d.CheckScale()
	}
	var ce *datafit.ColumnError
	if errors.As(err, &ce) {
		return fmt.Errorf("%s: column %s: %v", path, data.ShortText(pr.names[ce.Col]), ce.Err)
	}
	var re *datafit.RowError
	if errors.As(err, &re) {
		spec := f.spec()
		var other *datafit.OtherRow
		if errors.As(re.Err, &other) {
			other.Name = places.Line // the prefix names a line: so does the other row
		}
		return fmt.Errorf("%s: %s", places.Of(re.Row), spec.RowErrorText(re, pr.target))
	}
	if err != nil {
		return fmt.Errorf("%s: %v", path, strings.TrimPrefix(err.Error(), "datafit: "))
	}
	return nil
}

// build sets the penalty, the predictors left out of it (--exclude,
// --penalty-factor 0) and the estimator's options.
func (pr *problem) build(f *fitFlags) error {
	fam, _ := datafit.ByName(f.fam.family)
	pr.opts = estimator.Options{Family: fam, NoIntercept: f.noIntercept,
		Standardize: f.standardize, Relax: f.relax, Settings: solver.Settings{Tol: f.tol, MaxIter: f.maxIter}}
	if pr.design != nil {
		return pr.buildFactorPenalty(f)
	}
	if err := f.noFactorFlags(); err != nil {
		return err
	}
	p := len(pr.names)
	free, err := excludedColumns(f.fam.exclude, pr.names)
	if err != nil {
		return err
	}
	if pr.pen, pr.nu, pr.note, err = buildPenalty(f.penaltySpec(), p-len(free)); err != nil {
		return err
	}
	if f.fam.penaltyFactor != "" {
		if pr.pen, free, err = penaltyFactors(pr.pen, f.fam.penaltyFactor, p, free); err != nil {
			return err
		}
		pr.nu = 0
	}
	for _, j := range free {
		pr.excluded = append(pr.excluded, pr.names[j])
	}
	pr.opts.Unpenalized = free
	return nil
}

// excludedColumns returns the indices of the predictors --exclude names,
// sorted (estimator.UnpenalizedColumns).
func excludedColumns(exclude string, names []string) ([]int, error) {
	free, err := estimator.UnpenalizedColumns(names, splitList(exclude))
	if err != nil {
		return nil, usagef("--exclude: %v", err)
	}
	return free, nil
}

// penaltyFactors reads --penalty-factor (inline or a file) for p
// predictors, predictors also in --exclude getting factor 0, and returns
// pen with them (penalty.WithFactors).
func penaltyFactors(pen penalty.Penalty, s string, p int, exclude []int) (penalty.Penalty, []int, error) {
	list, from, err := data.ReadList(s)
	if err != nil {
		return nil, nil, err
	}
	if len(list) != p {
		if _, numErr := strconv.ParseFloat(strings.TrimSpace(s), 64); from == "" && len(list) == 1 && numErr != nil {
			return nil, nil, asUsage(data.NotAFile("--penalty-factor", s, p))
		}
		return nil, nil, usagef("--penalty-factor%s has %d values for %d predictors", from, len(list), p)
	}
	fs := make([]float64, p)
	for j, v := range list {
		if fs[j], err = strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil || !(fs[j] >= 0) || math.IsInf(fs[j], 0) {
			return nil, nil, usagef("--penalty-factor%s: value %d, %s, is not a finite number >= 0", from, j+1, data.ShortText(v))
		}
	}
	for _, j := range exclude {
		fs[j] = 0
	}
	// estimator.PenaltyFactors rescales them (without overflow) and names them
	// as typed in its messages.
	w, free, err := estimator.PenaltyFactors(fs)
	if err != nil {
		return nil, nil, usagef("--penalty-factor: %v", strings.TrimPrefix(err.Error(), "glm: "))
	}
	return penalty.WithFactors(pen, w.Factors), free, nil
}

// foldHint adds the flags to a fold that cannot be fitted (estimator.FoldError,
// estimator.FoldWeightError, estimator.EmptyFoldError): those that choose
// the folds, only --foldid's column when it is given (it refuses --seed
// and --folds).
func foldHint(err error, f *fitFlags) error {
	var fe *estimator.FoldError
	var we *estimator.FoldWeightError
	var ee *estimator.EmptyFoldError
	switch {
	case errors.As(err, &ee) && f.foldid != "":
		return fmt.Errorf("%w: the --foldid column %s numbers the folds 1…%d, each needs rows of positive weight", err, data.ShortText(f.foldid), ee.Folds)
	case errors.As(err, &ee):
		return fmt.Errorf("%w: its rows all weigh 0 (--weights); another --seed deals the rows otherwise", err)
	case !(errors.As(err, &fe) && fe.Rest > 1 || errors.As(err, &we)):
		return err
	case f.foldid != "":
		return fmt.Errorf("%w (the --foldid column %s)", err, data.ShortText(f.foldid))
	}
	return fmt.Errorf("%w (--foldid, --seed or --folds)", err)
}
