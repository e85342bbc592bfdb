package estimator

import (
	"errors"
	"fmt"

	"github.com/cardsparse/cardreg/internal/cvcurve"
	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/internal/lsfit"
	"github.com/cardsparse/cardreg/penalty"
)

// CV is a cross-validation curve along the full-data grid.
type CV struct {
	// Measure is what Mean holds (cv.glmnet's type.measure).
	Measure string
	// Lambdas is the grid, from the full data and shared by the folds.
	Lambdas []float64
	// Mean and SE are the curve and its standard errors (cv.glmnet's cvm
	// and cvsd).
	Mean, SE []float64
	// IndexMin and IndexSE are the indices of λ_min and λ_1se (glmnet's
	// rule: the largest λ within one standard error of the minimum).
	IndexMin, IndexSE int
	// LambdaMin and LambdaSE are their λ.
	LambdaMin, LambdaSE float64
	// Path is the full-data path along Lambdas.
	Path *Path
	// Folds holds each row's fold (0…K−1; nil for Stats, whose folds are
	// their own).
	Folds []int
	// Unconverged counts fold fits that did not converge.
	Unconverged int
	// OutOfRange is non-nil when λ or the curve are beyond float64 on the
	// data's scale (the selection, made on rescaled data, is right).
	OutOfRange error
	// Passes counts the passes over a Stream's rows, or the scans of Scans.
	Passes int
}

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
	measure, err := checkMeasure(co.family(), co.Measure)
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
	switch r {
	case lsRows:
		v := d.(*Rows)
		cv, err := lsfit.CrossValidate(v.X, shifted(v), pen, lsCVOptions(&co, fold))
		return wrapLSCV(cv, err, measure)
	case lsStats:
		s, err := statsOf(d, k, co.Seed, fold)
		if err != nil {
			return nil, err
		}
		cv, err := lsfit.CrossValidateStats(s.Folds, s.Q, pen, lsCVOptions(&co, nil))
		out, err := wrapLSCV(cv, err, measure)
		if err == nil {
			out.Passes = passesOf(d)
		}
		return out, err
	case famScans:
		r, err := scansRounds(d.(*Scans), pen, famCVOptions(&co, nil, nil, k, measure), true)
		if err != nil {
			return nil, err
		}
		return fromGLMCV(r.CV, r.Scans), nil
	case famStream:
		v := d.(*Stream)
		if inRounds(&co.Options, measure) {
			r, ok, err := streamRounds(v, pen, famCVOptions(&co, nil, fold, k, measure), true, fold, k, co.Seed)
			if err != nil {
				return nil, err
			}
			if ok {
				return fromGLMCV(r.CV, r.Scans), nil
			}
		}
		sc, err := glm.CrossValidateSource(v.Source, v.P, pen, famCVOptions(&co, nil, fold, k, measure))
		if err != nil {
			return nil, err
		}
		return fromGLMCV(sc.CV, sc.Passes), nil
	}
	v := d.(*Rows)
	if c := compressOf(v, &co.Options, fold, measure); c != nil {
		g := famCVOptions(&co, c.rows, c.fold, k, measure)
		g.Counts, g.Constant = c.counts, c.constant
		g.Merge = merger(co.family(), measure)
		if cv, err := glm.CrossValidate(denseOf(c.rows.X), colOf(c.rows), pen, g); err == nil {
			out := fromGLMCV(cv, 0)
			out.Folds = fold
			return out, nil
		}
	}
	cv, err := glm.CrossValidate(denseOf(v.X), colOf(v), pen, famCVOptions(&co, v, fold, k, measure))
	if err != nil {
		return nil, err
	}
	return fromGLMCV(cv, 0), nil
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
		return nil, co.folds(), checkK(co.folds(), -1)
	}
	n, _ := d.(*Rows).X.Dims()
	if co.FoldID != nil {
		k, err := cvcurve.CheckIDs(co.FoldID, n)
		if err != nil {
			return nil, 0, fmt.Errorf("estimator: %w", err)
		}
		return co.FoldID, k, nil
	}
	k := co.folds()
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

func lsCVOptions(co *CVOptions, fold []int) *lsfit.CVOptions {
	return &lsfit.CVOptions{PathOptions: *lsPathOptions(&co.PathOptions), FoldID: fold}
}

func famCVOptions(co *CVOptions, r *Rows, fold []int, k int, measure string) *glm.CVOptions {
	return &glm.CVOptions{PathOptions: *famPathOptions(&co.PathOptions, r), Folds: k,
		Seed: co.Seed, FoldID: fold, Measure: measure}
}

func wrapLSCV(t *lsfit.CV, err error, measure string) (*CV, error) {
	if err != nil {
		return nil, err
	}
	path, _ := wrapLSPath(t.Path, nil)
	return &CV{Measure: measure, Lambdas: t.Lambdas, Mean: t.MeanError, SE: t.StdError,
		IndexMin: t.IndexMin, IndexSE: t.IndexSE, LambdaMin: t.LambdaMin, LambdaSE: t.LambdaSE,
		Path: path, Folds: t.Folds, Unconverged: t.Unconverged, OutOfRange: t.OutOfRange}, nil
}

func fromGLMCV(g *glm.CV, passes int) *CV {
	return &CV{Measure: g.Measure, Lambdas: g.Lambdas, Mean: g.Mean, SE: g.SE,
		IndexMin: g.IndexMin, IndexSE: g.IndexSE, LambdaMin: g.LambdaMin, LambdaSE: g.LambdaSE,
		Path: fromGLMPath(g.Path, 0), Folds: g.Folds, Unconverged: g.Unconverged, Passes: passes}
}
