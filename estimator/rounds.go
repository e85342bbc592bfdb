package estimator

import (
	"errors"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/glmscan"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/suffstat"
)

// RoundsSampleSize is the number of rows a fit in rounds draws and fits
// in memory (all of them when there are fewer).
const RoundsSampleSize = glm.DefaultSampleSize

// inRounds reports whether a streamed fit of o's family and options runs
// in rounds (glm.FitRounds: a few passes for a whole path and its
// cross-validation) rather than by passes per Newton step: binomial and
// Poisson paths with an intercept, without relax, unpenalised predictors
// or auc.
func inRounds(o *Options, measure string) bool {
	return StreamInRounds(fit.FamilyOf(o)) && roundsFit(o, measure)
}

// StreamInRounds reports whether a stream of family fam may be fitted in
// rounds (its path and cross-validation, with the options roundsFit
// accepts): binomial and Poisson. Streams of the other families keep the
// passes they were tested on; data known by scans (a database) have no
// other route (roundsFit).
func StreamInRounds(fam datafit.Family) bool {
	switch fam.(type) {
	case datafit.Binomial, datafit.Poisson:
		return true
	}
	return false
}

// roundsFit reports whether glm.FitRounds fits o's options and measure:
// a path with an intercept, without relax, unpenalised predictors or auc
// (every family; glm's rounds say which data they cannot start from).
func roundsFit(o *Options, measure string) bool {
	return !o.Relax && !o.NoIntercept && len(o.Unpenalized) == 0 && measure != "auc"
}

// streamRounds fits a streamed path, and with cv its cross-validation over
// k folds (fold ids, else suffstat's dealing under seed), in rounds. It
// returns ok false when the data turn out to need the other route
// (glm.ErrRoundsUnfit), which the first pass finds out.
func streamRounds(v *Stream, pen penalty.Penalty, co *CVOptions, cv bool, fold []int, k int, seed uint64) (*glm.Rounds, bool, error) {
	var deal func(i uint64) int
	if cv {
		if fold != nil {
			deal = func(i uint64) int { return fold[min(i, uint64(len(fold)-1))] }
		} else {
			rf := suffstat.NewRowFolder(seed, k)
			deal = rf.Fold
		}
	}
	sc := glmscan.NewRowScanner(v.Source, co.Family, v.P, k, deal, seed)
	r, err := glm.FitRounds(sc, v.P, pen, &glm.RoundsOptions{CVOptions: *co, CV: cv})
	if errors.Is(err, glm.ErrRoundsUnfit) {
		return nil, false, nil
	}
	if err == nil && fold != nil && r.Path != nil && len(fold) != r.Path.Models[0].N {
		return nil, true, errors.New("estimator: the fold ids and the rows differ in number")
	}
	return r, true, err
}

// scansRounds fits a path (its options co), and with cv its
// cross-validation, from scans, in rounds.
func scansRounds(v *Scans, pen penalty.Penalty, co *CVOptions, cv bool) (*glm.Rounds, error) {
	return glm.FitRounds(v.Scanner, v.P, pen, &glm.RoundsOptions{CVOptions: *co, CV: cv})
}

// scansFit is a fit at one λ from scans: a path of that λ, in rounds.
func scansFit(v *Scans, pen penalty.Penalty, lambda float64, o *Options) (*Model, error) {
	po := PathOptions{Options: *o, Lambdas: []float64{lambda}}
	r, err := scansRounds(v, pen, &CVOptions{PathOptions: po}, false)
	if err != nil {
		return nil, err
	}
	m := r.Path.Models[0]
	m.Passes = r.Scans
	return m, nil
}
