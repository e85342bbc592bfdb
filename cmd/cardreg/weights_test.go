package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/modelfile"
	"github.com/stretchr/testify/require"
)

// exampleWith returns the bundled example with extra columns: a weight
// (0, 1 or 2 by row) and a fold (1…4), and the same rows repeated as
// often as their weight.
func exampleWith(t *testing.T, dir string) (weighted, repeated string) {
	b, err := os.ReadFile("../../examples/cardinality.csv")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var w, r strings.Builder
	w.WriteString("w,fold," + lines[0] + "\n")
	r.WriteString(lines[0] + "\n")
	for i, line := range lines[1:] {
		fmt.Fprintf(&w, "%d,%d,%s\n", i%3, i%4+1, line)
		for range i % 3 {
			r.WriteString(line + "\n")
		}
	}
	return writeFile(t, dir, "weighted.csv", w.String()), writeFile(t, dir, "repeated.csv", r.String())
}

// Weights count rows: weight 2 is the row twice, 0 the row left out. The
// weights are rescaled to sum to the n rows of the file (glmnet's
// convention), so the repeated rows (W of them) are fitted at the same
// λ_glmnet = λ/(2n): at λ·W/n.
func TestWeights(t *testing.T) {
	dir := t.TempDir()
	weighted, repeated := exampleWith(t, dir)
	n, w := 0.0, 0.0
	for i := range 400 {
		n, w = n+1, w+float64(i%3)
	}
	for _, args := range [][]string{{"--lambda", "30"}, {"--lambda", "30", "--standardize", "--penalty", "lasso"}, {"--lambda", "80", "--relax"}} {
		lam, _ := strconv.ParseFloat(args[1], 64)
		rep := append([]string{"--lambda", strconv.FormatFloat(lam*w/n, 'g', -1, 64)}, args[2:]...)
		want := decodeFit(t, cardreg(t, append(append([]string{"fit", "--format", "json", "--tol", "1e-11"}, rep...), repeated)...).stdout)
		res := cardreg(t, append(append([]string{"fit", "--format", "json", "--tol", "1e-11", "--weights", "w", "--drop", "fold"}, args...), weighted)...)
		require.Equal(t, 0, res.code, res.stderr)
		got := decodeFit(t, res.stdout)
		require.Equal(t, want.Names, got.Names)
		require.InDeltaSlice(t, want.Coefficients, got.Coefficients, 1e-8)
		require.InDelta(t, *want.R2, *got.R2, 1e-9)
	}
	bad := writeFile(t, dir, "neg.csv", "w,a,y\n1,1,2\n-1,2,3\n1,3,5\n")
	oneLine(t, cardreg(t, "fit", "--lambda", "1", "--weights", "w", bad), 1, "neg.csv:3", "negative")
	oneLine(t, cardreg(t, "fit", "--lambda", "1", "--weights", "y", bad), 2, "--weights")
	oneLine(t, cardreg(t, "fit", "--lambda", "theory", "--weights", "w", bad), 2, "--lambda theory")
}

// --foldid gives the folds, the same in memory and streamed.
func TestFoldID(t *testing.T) {
	dir := t.TempDir()
	weighted, _ := exampleWith(t, dir)
	mem := cardreg(t, "cv", "--nlambda", "6", "--tol", "1e-11", "--foldid", "fold", "--drop", "w", weighted)
	require.Equal(t, 0, mem.code, mem.stderr)
	str := cardreg(t, "cv", "--nlambda", "6", "--tol", "1e-11", "--foldid", "fold", "--drop", "w", "--stream", weighted)
	require.Equal(t, 0, str.code, str.stderr)
	rm, rs := parseCSV(t, mem.stdout), parseCSV(t, str.stdout)
	for i := range rm {
		require.Equal(t, rm[i][5], rs[i][5], "marks of λ_min and λ_1se")
	}
	// --seed or --folds beside --foldid would have no effect: refused.
	for _, extra := range [][]string{{"--seed", "9"}, {"--folds", "3"}} {
		args := append([]string{"cv", "--nlambda", "6", "--foldid", "fold", "--drop", "w", weighted}, extra...)
		oneLine(t, cardreg(t, args...), 2, extra[0], "does not combine with --foldid")
	}
	bad := writeFile(t, dir, "badfold.csv", "f,a,y\n1,1,2\n2.5,2,3\n1,3,5\n2,4,4\n")
	oneLine(t, cardreg(t, "cv", "--foldid", "f", bad), 1, "badfold.csv", "2.5")
	gap := writeFile(t, dir, "gapfold.csv", "f,a,y\n1,1,2\n3,2,3\n1,3,5\n3,4,4\n")
	oneLine(t, cardreg(t, "cv", "--foldid", "f", gap), 1, "fold 2 of 1…3 has no rows")
}

// A saved weighted model says how its weights entered the fit: rescaled to
// sum to n on every route and for every family (a gaussian model said "as given" though its
// weights had been rescaled).
func TestSavedWeightsLabel(t *testing.T) {
	dir := t.TempDir()
	weighted, _ := exampleWith(t, dir)
	for i, route := range []string{"--stream=false", "--stream"} {
		model := filepath.Join(dir, fmt.Sprintf("m%d.json", i))
		res := cardreg(t, "fit", "--lambda", "30", route, "--weights", "w", "--drop", "fold", "--save-model", model, weighted)
		require.Equal(t, 0, res.code, res.stderr)
		b, err := os.ReadFile(model)
		require.NoError(t, err)
		var m modelfile.Linear
		require.NoError(t, json.Unmarshal(b, &m))
		require.Equal(t, "normalised to sum to n", m.Weights, route)
	}
}
