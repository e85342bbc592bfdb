package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/request"
	"github.com/stretchr/testify/require"
)

// buildPenalty builds every named penalty with its default ν (or the one
// given), and notes a ν that falls back to 1.
func TestBuildPenaltyDefaults(t *testing.T) {
	for _, c := range []struct {
		spec penaltySpec
		p    int
		nu   float64
		note string
	}{
		{penaltySpec{penalty: "lasso"}, 4, 1, ""},
		{penaltySpec{penalty: "ridge"}, 4, 0, ""},
		{penaltySpec{penalty: "cardinality"}, 4, 2, ""}, // 1/(1 − 2/4)
		{penaltySpec{penalty: "cardinality"}, 2, 1, "M_G = 1: the theory's nu"},
		{penaltySpec{penalty: "cardinality", nu: optFloat{v: 3, set: true}}, 4, 3, ""},
		{penaltySpec{penalty: "grouped", groups: "a,a,a,a"}, 4, 1 / (1 - 2/(4*2.0)), ""}, // one group of 4, weight √4
	} {
		pen, nu, note, err := buildPenalty(c.spec, c.p)
		require.NoError(t, err, c.spec.penalty)
		require.NotNil(t, pen)
		require.InDelta(t, c.nu, nu, 1e-12, c.spec.penalty)
		if c.note == "" {
			require.Empty(t, note)
		} else {
			require.Contains(t, note, c.note)
		}
	}
	_, _, _, err := buildPenalty(penaltySpec{penalty: "slope"}, 3)
	require.EqualError(t, err, `unknown --penalty "slope" (cardinality, grouped, lasso, ridge, elasticnet, general)`)
}

// The lists of names in messages come from the table.
func TestPenaltyNameLists(t *testing.T) {
	require.Equal(t, "cardinality, grouped or lasso", request.OrList(penalty.Names(func(k penalty.Kind) bool { return k.NetworkLambda })))
	require.Equal(t, "a and b", request.JoinNames([]string{"a", "b"}, "and"))
	require.Equal(t, "a", request.OrList([]string{"a"}))
	_, err := lookupPenalty("ridge", "unknown --penalty", func(k penalty.Kind) bool { return k.Theory })
	require.EqualError(t, err, `unknown --penalty "ridge" (cardinality, grouped or lasso)`)
}

// What the table allows per penalty reaches the command line as before
// it: ridge has a grid (fit --lambda cv, path) but no theory and no GLM
// route (general has one now); general has no grid; grouped has no
// network form.
func TestPenaltyTableOnTheCommandLine(t *testing.T) {
	res := cardreg(t, "fit", "--penalty", "ridge", "--lambda", "cv", "--format", "json", cardinalityData)
	require.Equal(t, 0, res.code, res.stderr)
	require.Equal(t, 0, cardreg(t, "path", "--penalty", "ridge", "--nlambda", "3", cardinalityData).code)
	oneLine(t, cardreg(t, "fit", "--penalty", "ridge", "--lambda", "theory", cardinalityData), 2,
		"--lambda theory is defined for the cardinality, grouped and lasso penalties, not ridge")
	oneLine(t, cardreg(t, "fit", "--family", "binomial", "--penalty", "ridge", creditData), 2,
		"--family binomial: --penalty ridge is not supported yet (cardinality, grouped, lasso, elasticnet, general; glmnet's ridge is elasticnet with --alpha 0)")
	oneLine(t, cardreg(t, "fit", "--penalty", "general", "--lambda", "cv", "--G", "x", cardinalityData), 2,
		"--penalty general has no closed-form dual norm, so no lambda grid or theory: give --lambda NUMBER")
	oneLine(t, cardreg(t, "net", "--arch", "12,3,1", "--penalty", "grouped", cardinalityData), 2,
		"--penalty grouped: row groups differ per layer")
	oneLine(t, cardreg(t, "net", "--arch", "12,3,1", "--penalty", "general", cardinalityData), 2,
		`--penalty "general": want cardinality, lasso, ridge or none`)
	oneLine(t, cardreg(t, "lambda", "--regression", "--data", cardinalityData, "--sigma", "1", "--penalty", "grouped"), 2,
		"--regression supports cardinality and lasso")
	oneLine(t, cardreg(t, "fit", "--penalty", "ridge", "--nu", "2", "--lambda", "1", cardinalityData), 2,
		"--nu has no role in the ridge penalty")
	oneLine(t, cardreg(t, "fit", "--groups", "a,b", "--lambda", "1", cardinalityData), 2,
		"--groups applies to --penalty grouped only, not cardinality")
}

// TestGeneralPenaltyEveryFamily: --penalty general fits every family (it
// was refused for all but gaussian): with the all-pairs G it is the
// cardinality penalty, so the two fits agree (binomial on credit.csv,
// Poisson with an offset on claims.csv).
func TestGeneralPenaltyEveryFamily(t *testing.T) {
	dir := t.TempDir()
	allPairs := func(p int) string {
		var b strings.Builder
		for i := range p {
			for j := i + 1; j < p; j++ {
				row := make([]string, p)
				for k := range row {
					row[k] = "0"
				}
				row[i], row[j] = "1", "-1"
				b.WriteString(strings.Join(row, ",") + "\n")
			}
		}
		return writeFile(t, dir, fmt.Sprintf("G%d.csv", p), b.String())
	}
	for _, c := range []struct {
		p    int
		args []string
	}{
		{12, []string{"--family", "binomial", creditData}},
		{10, []string{"--family", "poisson", "--offset", "log_exposure", "--drop", "exposure", "../../examples/claims.csv"}},
	} {
		fit := func(pen ...string) []float64 {
			args := append(append([]string{"fit", "--format", "json", "--lambda", "4", "--nu", "1.2", "--tol", "1e-9"}, pen...), c.args...)
			res := cardreg(t, args...)
			require.Equal(t, 0, res.code, res.stderr)
			var f struct {
				Coefficients []float64
				Converged    bool
			}
			require.NoError(t, json.Unmarshal([]byte(res.stdout), &f))
			require.True(t, f.Converged, "%v", pen)
			return f.Coefficients
		}
		require.InDeltaSlice(t, fit("--penalty", "cardinality"), fit("--penalty", "general", "--G", allPairs(c.p)), 1e-6, c.args[1])
	}
}
