package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/request"
)

// familyFlags are the flags of generalised linear models, shared by fit,
// path and cv, that name columns or files: the others decode into the
// request.
type familyFlags struct {
	offset, penaltyFactor string
}

func (g *familyFlags) register(fs *flag.FlagSet, r *request.Request) {
	fs.StringVar(&r.Family, "family", "gaussian", "response distribution: gaussian (least squares), binomial (logistic; response 0/1), poisson (log-linear; counts), gamma (log link; positive amounts), tweedie:P (log link, variance power 1 < P < 2; amounts >= 0 with exact zeros, e.g. pure premiums) or negbin:THETA (log link, variance mu + mu^2/THETA; overdispersed counts)")
	fs.StringVar(&g.offset, "offset", "", "column of offsets added to the linear predictor (glmnet's offset; e.g. log exposure for poisson)")
	fs.StringVar(&g.penaltyFactor, "penalty-factor", "", "lasso: one factor >= 0 per predictor (inline, comma separated, or a file with one per line); rescaled to sum to p as glmnet does; 0 leaves a predictor unpenalised")
	fs.Func("exclude", "predictors left out of the penalty (fitted unpenalised, outside the fusion), comma separated", func(s string) error {
		r.Exclude = splitList(s)
		return nil
	})
	fs.StringVar(&r.TypeMeasure, "type-measure", "", "cross-validation measure (cv.glmnet's type.measure): deviance, mse, mae, and for binomial class, auc (default: mse for gaussian, deviance otherwise)")
}

// checkFamily validates the response, weights and offsets of the rows in
// memory for the family row by row, naming the file, the data row and the
// column.
func (pr *problem) checkFamily(path string, f *fitFlags, places data.Places) error {
	fam, _ := datafit.ByName(f.Family)
	r := pr.data.(*estimator.Rows)
	d := &datafit.Data{X: pr.x, Design: pr.cols, Y: pr.y.RawMatrix().Data, Weights: r.Weights, Offset: r.Offset, NoIntercept: f.NoIntercept}
	err := d.Check(fam)
	if err == nil && !f.Standardize {
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

// build sets the estimator's options and the penalty (request.Request.Build),
// with the predictors left out of it (--exclude, --penalty-factor 0).
func (pr *problem) build(f *fitFlags) error {
	if pr.design != nil && f.responses != "" {
		return usagef("--responses does not combine with factor predictors yet: fit one response at a time (--target)")
	}
	if f.fam.penaltyFactor != "" && pr.design == nil {
		var err error
		if f.PenaltyFactor, err = penaltyFactors(f.fam.penaltyFactor, len(pr.names)); err != nil {
			return err
		}
	}
	var err error
	pr.fit, pr.built, err = f.Setup(pr.data, pr.n, pr.names, pr.design, f.penaltySpec().read)
	return err
}

// penaltyFactors reads --penalty-factor (inline or a file) for p
// predictors.
func penaltyFactors(s string, p int) ([]float64, error) {
	list, from, err := data.ReadList(s)
	if err != nil {
		return nil, err
	}
	if len(list) != p {
		if _, numErr := strconv.ParseFloat(strings.TrimSpace(s), 64); from == "" && len(list) == 1 && numErr != nil {
			return nil, asUsage(data.NotAFile("--penalty-factor", s, p))
		}
		return nil, usagef("--penalty-factor%s has %d values for %d predictors", from, len(list), p)
	}
	fs := make([]float64, p)
	for j, v := range list {
		if fs[j], err = strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil || !(fs[j] >= 0) || math.IsInf(fs[j], 0) {
			return nil, usagef("--penalty-factor%s: value %d, %s, is not a finite number >= 0", from, j+1, data.ShortText(v))
		}
	}
	return fs, nil
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
