package request

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/penalty"
)

// Error is a request refused for its options (the command line's usage
// error), as opposed to a failure of the work.
type Error struct{ Err error }

func (e Error) Error() string { return e.Err.Error() }

// Unwrap returns the refusal's cause.
func (e Error) Unwrap() error { return e.Err }

// refuse is the Error of a message.
func refuse(format string, a ...any) error { return Error{fmt.Errorf(format, a...)} }

// FamilyFit reports whether the request is a family fit: a non-gaussian
// family, an offset, penalty factors, excluded predictors or a measure
// other than the gaussian MSE. Its rows are checked for the family, its
// output shows the deviances and the CV measure.
func (r *Request) FamilyFit() bool {
	return r.Family != "gaussian" || r.Offset || r.Given["penalty-factor"] || len(r.Exclude) > 0 ||
		r.TypeMeasure != "" && r.TypeMeasure != "mse"
}

// Kind is the penalty table's entry of Penalty; none (the numeric
// predictors unpenalised beside factors, whose blocks have a dual norm)
// is a penalty of the table's form with a grid for every family. Its
// second result is false for an unknown name.
func (r *Request) Kind() (penalty.Kind, bool) {
	if r.Penalty == factor.NumericNone {
		return penalty.Kind{Name: factor.NumericNone, Grid: true, GLM: true}, true
	}
	return penalty.Lookup(r.Penalty)
}

// Check refuses values no option takes in command cmd, before any data
// are read. Lambda must have been parsed.
func (r *Request) Check(cmd Command) error {
	lambda := func() error { return r.checkLambda(cmd) }
	for _, check := range []func() error{r.checkPenalty, lambda, r.checkSettings, r.checkFamily, r.checkFactors} {
		if err := check(); err != nil {
			return Error{err}
		}
	}
	return nil
}

// checkPenalty checks penalty, groups and nu.
func (r *Request) checkPenalty() error {
	d := r.Dialect
	kind, ok := r.Kind()
	if !ok {
		return fmt.Errorf("unknown %s %q (%s)", d.o("penalty"), r.Penalty, strings.Join(penalty.Names(nil), ", "))
	}
	if kind.Needs == penalty.NeedsGroups && !r.Given["groups"] {
		return fmt.Errorf("%s grouped needs %s with one label per predictor", d.o("penalty"), d.o("groups"))
	}
	if err := r.checkAlpha(kind); err != nil {
		return err
	}
	if r.Nu != nil && (!(*r.Nu > 0) || math.IsInf(*r.Nu, 0)) {
		return fmt.Errorf("%s must be a finite number > 0 (h is a norm only for nu > 0), got %v; leave it out for the default", d.o("nu"), *r.Nu)
	}
	for _, v := range r.PenaltyFactor {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: %v is not a finite number >= 0", d.o("penalty-factor"), v)
		}
	}
	return nil
}

// checkAlpha checks α by building a one-predictor penalty of kind with
// it (the penalty's Validate holds α's range). An α beside a penalty
// that takes none is refused by the rules (CheckEffect).
func (r *Request) checkAlpha(kind penalty.Kind) error {
	if r.Alpha == nil || !kind.Alpha || kind.Needs != penalty.NeedsNothing {
		return nil
	}
	if _, err := kind.NewFor(penalty.Inputs{P: 1, Alpha: *r.Alpha}); err != nil {
		return fmt.Errorf("%s: %v", r.Dialect.o("alpha"), strings.TrimPrefix(err.Error(), "penalty: "))
	}
	return nil
}

// checkLambda checks the λ rule and the options of its forms.
func (r *Request) checkLambda(cmd Command) error {
	d, l := r.Dialect, &r.Lambda
	kind, _ := r.Kind()
	if !kind.Grid && l.Kind == Grid {
		return fmt.Errorf("%s needs a lambda grid, which %s %s (no closed-form dual norm) cannot give", cmd, d.o("penalty"), r.Penalty)
	}
	if !kind.Grid && l.Kind != Fixed {
		return fmt.Errorf("%s %s has no closed-form dual norm, so no lambda grid or theory: give %s NUMBER", d.o("penalty"), r.Penalty, d.o("lambda"))
	}
	switch {
	case l.Kind == Theory && (r.Sigma < 0 || !(r.T > 0 && r.T < 1)):
		return fmt.Errorf("%s theory needs %s >= 0 (0: estimate) and 0 < %s < 1", d.o("lambda"), d.o("sigma"), d.o("t"))
	case l.Kind == Theory && !kind.Theory:
		return fmt.Errorf("%s theory is defined for the %s penalties, not %s", d.o("lambda"), theoryNames(), r.Penalty)
	case l.Criterion() != "" && r.quadraticPart(kind):
		return fmt.Errorf("%s %s counts the distinct non-zero coefficients as degrees of freedom, which the quadratic part of %s shrinks without making: use cv or a number", d.o("lambda"), l.Text, r.Penalty)
	case l.OnGrid() && r.Folds < estimator.MinFolds:
		return fmt.Errorf("%s must be at least %d (as cv.glmnet), got %d", d.o("folds"), estimator.MinFolds, r.Folds)
	case r.Rule != "min" && r.Rule != "1se":
		return fmt.Errorf("%s must be min or 1se, got %q", d.o("rule"), r.Rule)
	}
	return nil
}

// checkSettings checks the solver's settings and the generated grid's.
func (r *Request) checkSettings() error {
	d := r.Dialect
	switch {
	case !(r.Tol > 0) || math.IsInf(r.Tol, 0):
		return fmt.Errorf("%s must be a positive number, got %v", d.o("tol"), r.Tol)
	case r.MaxIter < 1:
		return fmt.Errorf("%s must be at least 1, got %d", d.o("max-iter"), r.MaxIter)
	case r.NLambda < 2 || !(r.MinRatio >= 0 && r.MinRatio < 1):
		return fmt.Errorf("%s must be at least 2 and %s in [0, 1)", d.o("nlambda"), d.o("min-ratio"))
	}
	return nil
}

// checkFamily checks the family, the measure and what a family fit
// combines with.
func (r *Request) checkFamily() error {
	d := r.Dialect
	fam, err := datafit.ByName(r.Family)
	if err != nil {
		// datafit's words: an unknown name (listing the names), or a
		// family's parameter missing or out of its range.
		return fmt.Errorf("%s: %s", d.o("family"), strings.TrimPrefix(err.Error(), "datafit: "))
	}
	// The family's own spelling from here on ("Gaussian" is gaussian):
	// the rules and the routes compare names.
	r.Family = fam.Name()
	if m := r.TypeMeasure; m != "" && !slices.Contains(estimator.Measures(fam), m) {
		return fmt.Errorf("%s %s is not one of %s for %s %s", d.o("type-measure"), m, strings.Join(estimator.Measures(fam), ", "), d.o("family"), fam.Name())
	}
	if !r.FamilyFit() {
		return nil
	}
	what := d.o("family") + " " + fam.Name()
	if fam.Name() == "gaussian" {
		what = d.o("offset") + ", " + d.o("penalty-factor") + ", " + d.o("exclude") + " and " + d.o("type-measure")
	}
	kind, _ := r.Kind()
	switch {
	case !kind.GLM:
		return fmt.Errorf("%s: %s %s is not supported yet (%s; glmnet's ridge is elasticnet with %s 0)", what, d.o("penalty"), r.Penalty, strings.Join(penalty.Names(func(k penalty.Kind) bool { return k.GLM }), ", "), d.o("alpha"))
	case kind.Needs == penalty.NeedsGroups && len(r.Exclude) > 0:
		return fmt.Errorf("%s does not combine with %s grouped yet: leave the predictors out of %s' data instead", d.o("exclude"), d.o("penalty"), d.o("groups"))
	case r.Lambda.Kind == Theory:
		return fmt.Errorf("%s: %s theory is least-squares theory; use cv or a number", what, d.o("lambda"))
	}
	return nil
}

// checkFactors checks the options of factor predictors.
func (r *Request) checkFactors() error {
	d := r.Dialect
	if _, err := factor.ParsePairWeights(r.PairWeights); err != nil {
		return fmt.Errorf("%s: %v", d.o("pair-weights"), err)
	}
	if r.MaxLevels < 2 || r.MinCount < 1 {
		return fmt.Errorf("%s must be at least 2 and %s at least 1", d.o("max-levels"), d.o("min-count"))
	}
	return nil
}

// CheckData refuses, once the data are known to hold factors or not,
// the options that act on factors alone, and those a fit with factors
// does not take.
func (r *Request) CheckData(factors bool) error {
	d := r.Dialect
	if factors {
		return r.factorCombination()
	}
	if r.Penalty == factor.NumericNone {
		return refuse("%s none names the numeric predictors' penalty beside factor predictors, and the data hold no factor (%s)", d.o("penalty"), d.FactorSource)
	}
	for _, name := range []string{"pair-weights", "na-level", "max-levels", "min-count"} {
		if r.Given[name] {
			return refuse("%s acts on factor predictors, and the data hold no factor (%s)", d.o(name), d.FactorSource)
		}
	}
	return nil
}

// factorCombination refuses the options a fit with factors does not
// take.
func (r *Request) factorCombination() error {
	d := r.Dialect
	switch {
	case !slices.Contains(factor.NumericPenalties, r.Penalty):
		return refuse("%s %s: with factor predictors %s names the numeric predictors' penalty: %s (each factor gets its own)", d.o("penalty"), r.Penalty, d.o("penalty"), OrList(factor.NumericPenalties))
	case len(r.Exclude) > 0 || r.Given["penalty-factor"]:
		return refuse("%s and %s do not combine with factor predictors: use %s none to leave the numeric predictors unpenalised", d.o("exclude"), d.o("penalty-factor"), d.o("penalty"))
	case r.Lambda.Kind == Theory:
		return refuse("%s theory is defined for the %s penalties, not for factor blocks: use cv, aic, bic or a number", d.o("lambda"), theoryNames())
	}
	return nil
}

// OrList writes names as "a, b or c".
func OrList(names []string) string { return JoinNames(names, "or") }

// JoinNames writes names as "a, b conj c".
func JoinNames(names []string, conj string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

// theoryNames names the penalties Theorem 2's λ is defined for.
func theoryNames() string {
	return JoinNames(penalty.Names(func(k penalty.Kind) bool { return k.Theory }), "and")
}

// quadraticPart reports whether the penalty has a quadratic part (ridge,
// the elastic net at α < 1): aic and bic take the distinct non-zero
// coefficients as the degrees of freedom, which such a penalty shrinks
// without fusing or zeroing them (at α = 0 every λ of the grid would count
// p, and the criterion would pick the grid's end).
func (r *Request) quadraticPart(kind penalty.Kind) bool {
	if kind.Alpha {
		return r.Alpha != nil && *r.Alpha < 1
	}
	return kind.Nu == penalty.NoNu
}
