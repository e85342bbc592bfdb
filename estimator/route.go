package estimator

import (
	"errors"
	"fmt"
	"slices"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/penalty"
)

// route is how a fit runs: the one choice, made in chooseRoute.
type route int

const (
	// lsRows: gaussian rows without weights, by centring and the Gram
	// matrix (any design, several responses).
	lsRows route = iota
	// lsStats: gaussian from sufficient statistics (Stats, or Rows with
	// weights and Stream rows gathered into statistics by one pass).
	lsStats
	// famRows: the family's deviance on rows in memory.
	famRows
	// famStream: the family's deviance from a Stream, passes per Newton
	// step.
	famStream
	// famScans: every family but gaussian from Scans (a database), in
	// rounds.
	famScans
)

// chooseRoute returns the route of data d under penalty pen and options o
// for a CV measure (empty without cross-validation), or the one error
// saying why no route fits the combination. The gaussian family takes its
// fast paths unless predictors are left out of the penalty, the lasso has
// penalty factors (glmnet's path, with its stopping rules, on the family
// route; statistics, which have no other route, fit them too) or the
// measure needs the held-out rows (mae).
func chooseRoute(d Data, pen penalty.Penalty, o *Options, measure string) (route, error) {
	if err := checkForm(d); err != nil {
		return 0, err
	}
	_, gaussian := fit.FamilyOf(o).(datafit.Gaussian)
	_, factors := pen.(penalty.WeightedL1)
	moments := gaussian && len(o.Unpenalized) == 0 && measure != "mae" // what statistics can fit
	plain := moments && !factors
	_, q := d.dims()
	switch v := d.(type) {
	case *Scans:
		if !roundsFit(o, measure) {
			return 0, errors.New("estimator: data known by scans fit models with an intercept, without relax or unpenalised predictors, and score every measure but auc")
		}
		return famScans, nil
	case *Stats:
		if !moments {
			return 0, errors.New("estimator: sufficient statistics fit the gaussian family with every predictor penalised and the deviance (mse) measure; give the rows for this fit")
		}
		return lsStats, nil
	case *Stream:
		if plain {
			return lsStats, nil
		}
		return famStream, nil
	case *Rows:
		if designOf(v.X) != nil {
			break // the family engine, gaussian included: no Gram matrix of a wide sparse design
		}
		if plain {
			if v.Weights != nil {
				return lsStats, nil
			}
			return lsRows, nil
		}
		if denseOf(v.X) == nil {
			return 0, fmt.Errorf("estimator: the %s family needs a dense design (*mat.Dense) or a *design.Matrix", fit.FamilyOf(o).Name())
		}
	}
	if q != 1 {
		return 0, fmt.Errorf("estimator: %d responses: several responses are fitted for the gaussian family with every predictor penalised", q)
	}
	return famRows, nil
}

// checkMeasure returns the CV measure to use (when empty the family's
// default: mse for gaussian, as cv.glmnet, else deviance).
func checkMeasure(fam datafit.Family, m string) (string, error) {
	if m == "" {
		return glm.Measures(fam)[0], nil
	}
	if !slices.Contains(glm.Measures(fam), m) {
		return "", fmt.Errorf("estimator: measure %q is not one of %v for the %s family", m, glm.Measures(fam), fam.Name())
	}
	return m, nil
}
