package main

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden pins every output format on the bundled example: a change in
// what the commands print shows up as a diff of testdata/golden (regenerate
// with go test ./cmd/cardreg -run Golden -update, and read the diff).
func TestGolden(t *testing.T) {
	data := "../../examples/cardinality.csv"
	dir := t.TempDir()
	model := filepath.Join(dir, "model.json")
	require.Equal(t, 0, cardreg(t, "fit", "--lambda", "50", "--save-model", model, data).code)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"fit.txt", []string{"fit", data}},
		{"fit.json", []string{"fit", "--format", "json", data}},
		{"fit-relax.txt", []string{"fit", "--relax", data}},
		{"fit-relax.csv", []string{"fit", "--relax", "--format", "csv", data}},
		{"fit-lasso-lambda.json", []string{"fit", "--penalty", "lasso", "--lambda", "50", "--format", "json", data}},
		{"path.csv", []string{"path", "--nlambda", "8", data}},
		{"cv.csv", []string{"cv", "--nlambda", "8", data}},
		{"predict.csv", []string{"predict", "--model", model, data}},
		{"lambda.txt", []string{"lambda", "--arch", "64,40,1", "--n", "1797", "--xnorm", "6.2"}},
		{"bound.txt", []string{"bound", "--max-rows", "5", "--cols", "1,4", "--partitions", "2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := cardreg(t, c.args...)
			require.Equal(t, 0, res.code, res.stderr)
			// The example's path appears in some outputs; keep it stable.
			got := strings.ReplaceAll(res.stdout, data, "examples/cardinality.csv")
			file := filepath.Join("testdata", "golden", c.name)
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o755))
				require.NoError(t, os.WriteFile(file, []byte(got), 0o644))
			}
			want, err := os.ReadFile(file)
			require.NoError(t, err, "run with -update to create it")
			sameOutput(t, string(want), got)
		})
	}
}

// solverDetail matches what a golden file must not pin: iteration counts
// and duality gaps, which move with any change of rounding or algorithm
// while the answer stays (the gap is checked against the tolerance by the
// tests of the solver and of fit).
var solverDetail = regexp.MustCompile(`("duality_gap": |duality gap +|"iterations": |, )[-+0-9.e]+( iterations)?`)

// number matches a decimal number in an output.
var number = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?`)

// sameOutput compares an output with its golden file: the same text once
// iteration counts and gaps are masked, and the same numbers to 1e-6
// relative (the goldens pin what is printed, not the last bits of each
// float).
func sameOutput(t *testing.T, want, got string) {
	t.Helper()
	mask := func(s string) string { return solverDetail.ReplaceAllString(s, "${1}…${2}") }
	want, got = mask(want), mask(got)
	wantText, gotText := number.ReplaceAllString(want, "#"), number.ReplaceAllString(got, "#")
	require.Equal(t, wantText, gotText)
	wn, gn := number.FindAllString(want, -1), number.FindAllString(got, -1)
	require.Len(t, gn, len(wn))
	for i := range wn {
		a, errA := strconv.ParseFloat(wn[i], 64)
		b, errB := strconv.ParseFloat(gn[i], 64)
		require.NoError(t, errA)
		require.NoError(t, errB)
		require.InDelta(t, a, b, 1e-6*math.Abs(a)+1e-9, "number %d: %s against %s", i, wn[i], gn[i])
	}
}
