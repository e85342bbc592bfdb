package main

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/data"
)

// lambdaSpec is --lambda as the command line gives it and as it is read,
// once: fit takes cv (cross-validation on the generated grid), theory
// (Theorem 2) or a number; path and cv take a list of values, or nothing
// for the generated grid. The flag sets text (a string flag, so that the
// help reads as before); the predicates read the form from it, and
// parseFit or parseGrid read the numbers (value, list) and check them.
type lambdaSpec struct {
	text  string
	grid  bool      // path and cv: always a grid
	value float64   // fit --lambda NUMBER, set by parse
	list  []float64 // path and cv --lambda LIST, decreasing, set by parse; nil for the generated grid
}

// onGrid reports a λ chosen on a grid: fit --lambda cv, and every path
// and cv.
func (l *lambdaSpec) onGrid() bool { return l.grid || l.text == "cv" }

// theory reports fit --lambda theory.
func (l *lambdaSpec) theory() bool { return !l.grid && l.text == "theory" }

// criterion returns fit's --lambda aic or bic, "" for the other forms.
func (l *lambdaSpec) criterion() string {
	if !l.grid && (l.text == "aic" || l.text == "bic") {
		return l.text
	}
	return ""
}

// fixed reports fit --lambda NUMBER.
func (l *lambdaSpec) fixed() bool { return !l.onGrid() && !l.theory() && l.criterion() == "" }

// parseFit reads fit's --lambda NUMBER into value (cv and theory have no
// number): a finite number ≥ 0 that does not round to 0 from a
// non-zero text.
func (l *lambdaSpec) parseFit() error {
	if !l.fixed() {
		return nil
	}
	v, err := strconv.ParseFloat(l.text, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return usagef("--lambda must be a finite non-negative number, cv, theory, aic or bic, got %q", l.text)
	}
	if data.Underflows(l.text, v) {
		return usagef("--lambda %s is below the smallest float64 (about 5e-324) and would be 0, the unpenalised fit; give --lambda 0 for that", l.text)
	}
	l.value = v
	return nil
}

// parseGrid makes l the --lambda of path and cv (cmd): a grid, the
// user's list when one was given (the flag was set). The list holds λ values on the paper
// scale, comma separated, each finite and > 0, none twice; it is kept in
// decreasing order, the order glmnet fits a user's lambda in.
func (l *lambdaSpec) parseGrid(cmd string, given bool) error {
	l.grid = true
	if !given {
		return nil
	}
	parts := strings.Split(l.text, ",")
	grid := make([]float64, 0, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err == nil && data.Underflows(p, v) {
			return usagef("--lambda: value %d, %s, is below the smallest float64 (about 5e-324) and would be 0", i+1, data.ShortText(p))
		}
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return usagef("--lambda: value %d, %s, is not a finite number > 0 (%s takes lambda values on the paper scale, comma separated; leave --lambda out for the generated grid)",
				i+1, data.ShortText(p), cmd)
		}
		if k := slices.Index(grid, v); k >= 0 {
			return usagef("--lambda: values %d and %d are the same lambda, %v", k+1, i+1, v)
		}
		grid = append(grid, v)
	}
	if cmd == "cv" && len(grid) < 2 {
		return usagef("--lambda: cv needs at least two lambda values (as cv.glmnet); for one lambda use cardreg fit --lambda %s", l.text)
	}
	slices.Sort(grid)
	slices.Reverse(grid)
	l.list = grid
	return nil
}
