package main

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// floatFlagLine matches a float flag in a command's help: "-sigma float",
// or "-nu value" (an optFloat).
var floatFlagLine = regexp.MustCompile(`(?m)^\s+-(\S+) (float|value)$`)

// Every float flag of every command refuses NaN, Inf and -Inf as a usage
// error naming the flag: NaN passed range checks such as
// --min-ratio < 0 || >= 1 and reached the solvers.
func TestFloatFlagsRefuseNonFinite(t *testing.T) {
	data := writeFile(t, t.TempDir(), "d.csv", small)
	seen := 0
	for cmd := range commands {
		help := cardreg(t, "help", cmd)
		for _, m := range floatFlagLine.FindAllStringSubmatch(help.stdout, -1) {
			if m[2] == "value" && m[1] != "nu" {
				continue // not a float
			}
			seen++
			for _, v := range []string{"NaN", "Inf", "-Inf", "+inf", "nan"} {
				args := []string{cmd, "--" + m[1], v}
				if cmd != "lambda" {
					args = append(args, data)
				}
				res := cardreg(t, args...)
				oneLine(t, res, 2, "--"+m[1]+" must be a finite number")
			}
		}
	}
	require.GreaterOrEqual(t, seen, 20, "float flags found in the help texts")
}

// A refused ratio of penalty factors names them as the user typed them,
// not rescaled (it said "factor 1 (1) is 1e+40 times factor 2 (1e-40)"
// for 1e40,1); factors scaled by one huge or tiny number fit as the
// unscaled ones (only their ratios matter) without overflow.
func TestPenaltyFactorMessageShowsTypedValues(t *testing.T) {
	data := writeFile(t, t.TempDir(), "d.csv", small)
	for _, c := range []struct{ factors, top, low string }{
		{"1e40,1", "factor 1 (1e+40)", "factor 2 (1)"},
		{"1,1e-40", "factor 1 (1)", "factor 2 (1e-40)"},
		{"3e-10,2e+300", "factor 2 (2e+300)", "factor 1 (3e-10)"},
	} {
		res := cardreg(t, "fit", "--penalty", "lasso", "--lambda", "1", "--penalty-factor", c.factors, data)
		oneLine(t, res, 2, c.top, c.low)
	}
	plain := glmFitJSON(t, "--penalty", "lasso", "--lambda", "3", "--penalty-factor", "1,2", data)
	for _, scaled := range []string{"1e300,2e300", "1e-300,2e-300"} {
		got := glmFitJSON(t, "--penalty", "lasso", "--lambda", "3", "--penalty-factor", scaled, data)
		require.InDeltaSlice(t, plain.Coefficients, got.Coefficients, 1e-9, scaled)
	}
}
