package estimator

import (
	"errors"
	"fmt"

	"github.com/cardsparse/cardreg/internal/cvcurve"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/internal/lsfit"
	"github.com/cardsparse/cardreg/penalty"
)

// CrossValidate runs K-fold cross-validation as cv.glmnet does: the grid
// from the full data, each fold fitted on the other folds at λ·(its share
// of the weight), so that every fold solves the problem at the full fit's
// λ_glmnet, the held-out measure weighted by the observation weights, and
// the curve weighted by the folds' total weights (internal/cvcurve), with
// λ_min and λ_1se. Rows are dealt to folds by Folds (or CVOptions.FoldID).
func CrossValidate(d Data, pen penalty.Penalty, opts *CVOptions) (*CV, error) {
	var co CVOptions
	if opts != nil {
		co = *opts
	}
	measure, err := checkMeasure(fit.FamilyOf(&co.Options), co.Measure)
	if err != nil {
		return nil, err
	}
	r, err := chooseRoute(d, pen, &co.Options, measure)
	if err != nil {
		return nil, err
	}
	fold, k, err := foldsFor(d, &co)
	if err != nil {
		return nil, err
	}
	co.Measure = measure
	switch r {
	case lsRows:
		v := d.(*Rows)
		co.FoldID = fold
		return lsfit.CrossValidate(v.X, shifted(v), pen, &co)
	case lsStats:
		s, err := statsOf(d, k, co.Seed, fold)
		if err != nil {
			return nil, err
		}
		co.FoldID = nil
		cv, err := lsfit.CrossValidateStats(s.Folds, s.Q, pen, &co)
		if err == nil {
			cv.Passes = passesOf(d)
		}
		return cv, err
	case famScans:
		r, err := scansRounds(d.(*Scans), pen, &co, true)
		if err != nil {
			return nil, err
		}
		return r.CV, nil
	case famStream:
		return streamCV(d.(*Stream), pen, &co, fold, k)
	}
	v := d.(*Rows)
	co.Folds = k
	if c := compressOf(v, &co.Options, fold, measure); c != nil {
		g := c.glmRows()
		g.Merge = merger(fit.FamilyOf(&co.Options), measure)
		cc := co
		cc.FoldID = c.fold
		if cv, err := glm.CrossValidate(g, pen, &cc); err == nil {
			cv.Folds = fold
			return cv, nil
		}
	}
	co.FoldID = fold
	return glm.CrossValidate(glmRows(v), pen, &co)
}

// streamCV is CrossValidate of a Stream (the measure chosen in
// co.Measure): in rounds when they apply, else by passes.
func streamCV(v *Stream, pen penalty.Penalty, co *CVOptions, fold []int, k int) (*CV, error) {
	co.FoldID, co.Folds = fold, k
	if inRounds(&co.Options, co.Measure) {
		r, ok, err := streamRounds(v, pen, co, true, fold, k, co.Seed)
		if err != nil {
			return nil, err
		}
		if ok {
			return r.CV, nil
		}
	}
	return glm.CrossValidateSource(v.Source, v.P, pen, co)
}

// foldsFor returns the rows' folds and K: the user's fold ids (checked),
// else Folds' assignment for Rows; nil for Stats (their own folds) and a
// Stream without fold ids (dealt as it is read, by the same assignment).
func foldsFor(d Data, co *CVOptions) ([]int, int, error) {
	switch v := d.(type) {
	case *Stats:
		return nil, len(v.Folds.Fold), nil
	case *Scans:
		if co.FoldID != nil {
			return nil, 0, errors.New("estimator: data known by scans deal their rows to their own folds (a fold column or a hash): FoldID is not read")
		}
		return nil, v.Scanner.Folds(), nil
	case *Stream:
		if co.FoldID != nil {
			k, err := cvcurve.CheckIDs(co.FoldID, len(co.FoldID))
			if err != nil {
				return nil, 0, fmt.Errorf("estimator: %w", err)
			}
			return co.FoldID, k, nil
		}
		return nil, foldsOf(co), checkK(foldsOf(co), -1)
	}
	n, _ := d.(*Rows).X.Dims()
	if co.FoldID != nil {
		k, err := cvcurve.CheckIDs(co.FoldID, n)
		if err != nil {
			return nil, 0, fmt.Errorf("estimator: %w", err)
		}
		return co.FoldID, k, nil
	}
	k := foldsOf(co)
	if err := checkK(k, n); err != nil {
		return nil, 0, err
	}
	return Folds(n, k, co.Seed), k, nil
}

// checkK checks a fold count for n rows (n < 0: not known yet).
func checkK(k, n int) error {
	if k < 3 || n >= 0 && k > n {
		return fmt.Errorf("estimator: %d folds for %d observations: cross-validation needs 3 ≤ K ≤ n", k, n)
	}
	return nil
}
