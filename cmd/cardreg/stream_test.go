package main

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// --stream keeps only the statistics, and gives the fit, the path and the
// CV curve of the rows in memory.
func TestStreamEqualsMemory(t *testing.T) {
	data := "../../examples/cardinality.csv"
	close := func(t *testing.T, a, b float64) {
		t.Helper()
		require.InDelta(t, a, b, 1e-9*(math.Abs(a)+1e-3))
	}
	for _, args := range [][]string{
		{"--penalty", "cardinality"},
		{"--penalty", "cardinality", "--relax", "--rule", "1se"},
		{"--penalty", "lasso", "--standardize"},
		{"--penalty", "cardinality", "--lambda", "30", "--no-intercept"},
		{"--penalty", "grouped", "--groups", "a,a,a,a,b,b,b,b,c,c,c,c", "--lambda", "20"},
		{"--penalty", "ridge", "--lambda", "5"},
		{"--penalty", "lasso", "--drop", "x3", "--lambda", "40"},
	} {
		t.Run(args[1], func(t *testing.T) {
			base := append(append([]string{"fit", "--format", "json", "--tol", "1e-11"}, args...), data)
			mem := cardreg(t, base...)
			require.Equal(t, 0, mem.code, mem.stderr)
			str := cardreg(t, append([]string{"fit", "--stream"}, base[1:]...)...)
			require.Equal(t, 0, str.code, str.stderr)
			a, b := decodeFit(t, mem.stdout), decodeFit(t, str.stdout)
			close(t, a.Lambda, b.Lambda)
			close(t, a.Intercept, b.Intercept)
			close(t, *a.R2, *b.R2)
			close(t, a.Objective, b.Objective)
			require.Equal(t, a.Names, b.Names)
			for j := range a.Coefficients {
				close(t, a.Coefficients[j], b.Coefficients[j])
			}
			require.Equal(t, len(a.DistinctValues), len(b.DistinctValues))
		})
	}
	for _, cmd := range []string{"path", "cv"} {
		t.Run(cmd, func(t *testing.T) {
			mem := cardreg(t, cmd, "--nlambda", "6", "--tol", "1e-11", data)
			str := cardreg(t, cmd, "--stream", "--nlambda", "6", "--tol", "1e-11", data)
			require.Equal(t, 0, str.code, str.stderr)
			rm, rs := parseCSV(t, mem.stdout), parseCSV(t, str.stdout)
			require.Equal(t, len(rm), len(rs))
			require.Equal(t, rm[0], rs[0])
			for i := 1; i < len(rm); i++ {
				for j := range rm[i] {
					a, errA := strconv.ParseFloat(rm[i][j], 64)
					b, errB := strconv.ParseFloat(rs[i][j], 64)
					if errA != nil || errB != nil {
						require.Equal(t, rm[i][j], rs[i][j])
						continue
					}
					close(t, a, b)
				}
			}
		})
	}
	res := cardreg(t, "fit", "--stream", "--lambda", "theory", data)
	oneLine(t, res, 2, "--lambda theory")
}

// A fold column streamed with a family fit (read in a pass of its own) is
// refused as the rows in memory refuse it: a fold id that is not one
// (naming the line), text, and an empty fold; and a good one gives the
// in-memory curve.
func TestStreamFoldIDErrors(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("../../examples/credit.csv")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	with := func(name string, fold func(i int) string) string {
		out := []string{"fold," + lines[0]}
		for i, l := range lines[1:] {
			out = append(out, fold(i)+","+l)
		}
		return writeFile(t, dir, name, strings.Join(out, "\n")+"\n")
	}
	good := func(i int) string { return strconv.Itoa(1 + i%4) }
	files := map[string]string{
		"zero": with("zero.csv", func(i int) string { return map[bool]string{true: "0", false: good(i)}[i == 3] }),
		"text": with("text.csv", func(i int) string { return map[bool]string{true: "x", false: good(i)}[i == 3] }),
		"gap":  with("gap.csv", func(i int) string { return map[bool]string{true: "4", false: good(i)}[good(i) == "3"] }),
	}
	want := map[string]string{"zero": "zero.csv:5: column \"fold\": fold ids must be integers", "text": "text.csv:5: column \"fold\"", "gap": "column \"fold\": fold 3 of 1…4 has no rows (--foldid)"}
	for name, file := range files {
		args := []string{"cv", "--family", "binomial", "--penalty", "lasso", "--nlambda", "5", "--foldid", "fold", file}
		mem := cardreg(t, args...)
		str := cardreg(t, append(args, "--stream")...)
		oneLine(t, mem, 1, want[name])
		require.Equal(t, mem, str, name)
	}
	file := with("good.csv", good)
	args := []string{"cv", "--family", "binomial", "--penalty", "lasso", "--nlambda", "8", "--foldid", "fold", file}
	mem, str := cardreg(t, args...), cardreg(t, append(args, "--stream")...)
	require.Equal(t, 0, str.code, str.stderr)
	sameCV(t, "stream --foldid", parseCSV(t, mem.stdout), parseCSV(t, str.stdout))
}
