package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// --nu is named as the cause of a failed generated grid only when the
// user's own penalty fails the probe: a streamed cv with two --foldid
// folds and --nu 0.5 said "the automatic lambda fails with --nu 0.5"
// although the cause is the folds.
func TestNuNotBlamedForOtherErrors(t *testing.T) {
	var b strings.Builder
	b.WriteString("f,a,c,y\n")
	for i := range 40 {
		fmt.Fprintf(&b, "%d,%d,%d,%d\n", i%2+1, i%7, (i*3)%5, (i*5)%11)
	}
	data := writeFile(t, t.TempDir(), "two.csv", b.String())
	res := cardreg(t, "cv", "--stream", "--foldid", "f", "--nu", "0.5", "--nlambda", "3", data)
	oneLine(t, res, 1, "2 folds", "at least 3")
	require.NotContains(t, res.stderr, "--nu")
}

// Streamed, predictors whose sizes differ beyond one scale are refused by
// name as in memory (the statistics fitted the small column as constant).
func TestStreamedScaleRefusedByName(t *testing.T) {
	var b strings.Builder
	b.WriteString("big,a,tiny,y\n")
	for i := range 60 {
		fmt.Fprintf(&b, "%g,%d,%g,%d\n", float64(i%7+1)*1e150, i%5, float64(i%3+1)*1e-100, (i*5)%11)
	}
	data := writeFile(t, t.TempDir(), "scales.csv", b.String())
	for _, route := range []string{"--stream=false", "--stream"} {
		oneLine(t, cardreg(t, "fit", route, "--lambda", "1", data), 1, `predictors "tiny"`, `"big"`, "differ in scale", "--standardize")
	}
}

// A float flag of any command refuses a number that rounds to 0 (only
// net's did: path --min-ratio 1e-400 silently became the default grid).
func TestEveryFloatFlagRefusesUnderflow(t *testing.T) {
	for _, args := range [][]string{
		{"path", "--min-ratio", "1e-400", cardinalityData},
		{"cv", "--tol", "1e-400", cardinalityData},
		{"fit", "--lambda", "theory", "--sigma", "1e-400", cardinalityData},
		{"lambda", "--arch", "3,2,1", "--n", "100", "--xnorm", "1e-400"},
		{"net", "--arch", "12,4,1", "--lr", "1e-400", cardinalityData},
	} {
		oneLine(t, cardreg(t, args...), 2, "1e-400", "would be 0")
	}
}

// A weighted gaussian fit reads its data in one pass into the statistics,
// which --progress draws: it was refused as "no steps to show".
func TestProgressOnWeightedFit(t *testing.T) {
	dir := t.TempDir()
	weighted, _ := exampleWith(t, dir)
	res := cardreg(t, "fit", "--lambda", "30", "--weights", "w", "--drop", "fold", "--progress", weighted)
	require.Equal(t, 0, res.code, res.stderr)
	oneLine(t, cardreg(t, "fit", "--lambda", "30", "--drop", "w,fold", "--progress", weighted), 2, "--progress has no steps")
}
