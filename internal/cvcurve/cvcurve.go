// Package cvcurve holds what every cross-validation shares: the assignment
// of rows to folds, the check of a user's fold ids, and the error curve with
// its standard errors, λ_min and λ_1se, all as cv.glmnet computes them.
package cvcurve

import (
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/suffstat"
)

// DefaultFolds is K when none is given: cv.glmnet's 10, for every fit,
// form and caller (estimator.DefaultFolds, the command line's --folds).
const DefaultFolds = 10

// MinFolds is the fewest folds a cross-validation takes, cv.glmnet's 3
// (two folds leave no spread of held-out errors to speak of), for every
// fit, form and caller.
const MinFolds = 3

// MaxFolds returns the most folds n observations can be cross-validated
// on (every fold holds one at least): n, or 0 when n < MinFolds, too few
// observations to cross-validate at all. Messages that suggest a number
// of folds take it from here, so that they never suggest one below
// MinFolds.
func MaxFolds(n int) int {
	if n < MinFolds {
		return 0
	}
	return n
}

// Assign returns each of n rows' fold (0…k−1) under seed: row i goes to
// suffstat.RowFold(i, seed, k), the assignment a streamed pass deals the
// same rows by, so rows in memory and the same rows streamed get the same
// folds. It is the one fold assignment of every fit (SQL tables, which have
// no stable row order, hash key columns instead: package sqlstats).
func Assign(n, k int, seed uint64) []int {
	f := suffstat.NewRowFolder(seed, k)
	folds := make([]int, n)
	for i := range folds {
		folds[i] = f.Fold(uint64(i))
	}
	return folds
}

// CheckIDs returns the number of folds of a user's fold assignment (0…K−1,
// every fold non-empty, at least 3 folds as cv.glmnet requires).
func CheckIDs(id []int, n int) (int, error) {
	if len(id) != n {
		return 0, fmt.Errorf("%d fold ids for %d observations", len(id), n)
	}
	k := 0
	for _, f := range id {
		if f < 0 {
			return 0, fmt.Errorf("negative fold id %d", f)
		}
		k = max(k, f+1)
	}
	seen := make([]bool, k)
	for _, f := range id {
		seen[f] = true
	}
	for f, ok := range seen {
		if !ok {
			return 0, fmt.Errorf("fold %d of 0…%d has no rows", f, k-1)
		}
	}
	if k < MinFolds {
		return 0, fmt.Errorf("%d folds: cross-validation needs at least %d", k, MinFolds)
	}
	return k, nil
}

// Curve is a cross-validation curve along a decreasing λ grid.
type Curve struct {
	// Mean is the fold errors' mean weighted by the folds' weights, SE its
	// standard error √(Σ w (e − mean)² / Σw / (K − 1)).
	Mean, SE []float64
	// IndexMin is the index of the best mean (the largest λ attaining it),
	// IndexSE that of the largest λ whose mean is within one standard error
	// of it (glmnet's λ_1se rule).
	IndexMin, IndexSE int
}

// Summarise computes the curve from errs[fold][λ] and the folds' weights w
// (rows, or Σw). When larger is better (AUC) the best mean is the largest.
func Summarise(errs [][]float64, w []float64, largerBetter bool) Curve {
	k := float64(len(errs))
	var wsum float64
	for _, v := range w {
		wsum += v
	}
	nl := len(errs[0])
	c := Curve{Mean: make([]float64, nl), SE: make([]float64, nl)}
	for l := range nl {
		var s, ss float64
		for f := range errs {
			s += w[f] * errs[f][l]
		}
		mean := s / wsum
		// The deviations relative to the largest, so that squares of
		// errors near 1e300 (a response near 1e150) do not overflow.
		var top float64
		for f := range errs {
			top = math.Max(top, math.Abs(errs[f][l]-mean))
		}
		for f := range errs {
			if top > 0 && !math.IsInf(top, 0) {
				d := (errs[f][l] - mean) / top
				ss += w[f] * d * d
			}
		}
		c.Mean[l] = mean
		c.SE[l] = top * math.Sqrt(ss/wsum/(k-1))
		if math.IsInf(top, 0) {
			c.SE[l] = top
		}
	}
	sign := 1.0
	if largerBetter {
		sign = -1
	}
	best := 0
	for l, e := range c.Mean {
		if sign*e < sign*c.Mean[best] {
			best = l
		}
	}
	bound := sign*c.Mean[best] + c.SE[best]
	se := best
	for l := 0; l < best; l++ { // the grid decreases: the largest λ comes first
		if sign*c.Mean[l] <= bound {
			se = l
			break
		}
	}
	c.IndexMin, c.IndexSE = best, se
	return c
}
