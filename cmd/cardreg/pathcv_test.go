package main

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func parseCSV(t *testing.T, s string) [][]string {
	rows, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	require.NoError(t, err)
	return rows
}

// TestPathCommand: one row per λ, decreasing, with every coefficient; the
// coefficients at a grid λ equal those of fit at that λ.
func TestPathCommand(t *testing.T) {
	data := "../../examples/cardinality.csv"
	res := cardreg(t, "path", "--nlambda", "6", "--tol", "1e-10", data)
	require.Equal(t, 0, res.code, res.stderr)
	rows := parseCSV(t, res.stdout)
	require.Len(t, rows, 7)
	require.Equal(t, []string{"lambda", "objective", "distinct_values", "converged"}, rows[0][:4])
	require.Len(t, rows[0], 4+12)
	prev := 1e300
	for _, r := range rows[1:] {
		lam, err := strconv.ParseFloat(r[0], 64)
		require.NoError(t, err)
		require.Less(t, lam, prev)
		prev = lam
		require.Equal(t, "true", r[3])
	}
	// Refit at the third λ with fit and compare coefficients.
	fit := decodeFit(t, cardreg(t, "fit", "--lambda", rows[3][0], "--tol", "1e-10", "--format", "json", data).stdout)
	for j, name := range rows[0][4:] {
		require.Equal(t, fit.Names[j], name)
		v, err := strconv.ParseFloat(rows[3][4+j], 64)
		require.NoError(t, err)
		require.InDelta(t, fit.Coefficients[j], v, 1e-6)
	}
}

// TestCVCommand: marks for λ_min and λ_1se, λ_1se ≥ λ_min, and the same
// seed gives the same curve.
func TestCVCommand(t *testing.T) {
	data := "../../examples/cardinality.csv"
	res := cardreg(t, "cv", "--nlambda", "10", "--seed", "3", data)
	require.Equal(t, 0, res.code, res.stderr)
	rows := parseCSV(t, res.stdout)
	require.Equal(t, []string{"lambda", "lambda_glmnet", "mean_error", "std_error", "distinct_values", "mark"}, rows[0])
	var lmin, l1se float64
	for _, r := range rows[1:] {
		lam, _ := strconv.ParseFloat(r[0], 64)
		glm, _ := strconv.ParseFloat(r[1], 64)
		require.InEpsilon(t, lam/(2*400), glm, 1e-9, "lambda_glmnet = lambda/(2n), n = 400")
		if strings.Contains(r[5], "lambda_min") {
			lmin = lam
		}
		if strings.Contains(r[5], "lambda_1se") {
			l1se = lam
		}
	}
	// The distinct values at a λ are those of the full-data fit there.
	mid := rows[len(rows)/2]
	fit := decodeFit(t, cardreg(t, "fit", "--lambda", mid[0], "--format", "json", data).stdout)
	require.Equal(t, strconv.Itoa(len(fit.DistinctValues)), mid[4])
	require.Positive(t, lmin)
	require.GreaterOrEqual(t, l1se, lmin)
	again := cardreg(t, "cv", "--nlambda", "10", "--seed", "3", data)
	require.Equal(t, res.stdout, again.stdout)
	for _, bad := range [][]string{{"--nlambda", "1"}, {"--format", "json"}, {"--min-ratio", "2"}, {}, {"--responses", "x1,y"}} {
		args := append([]string{"cv"}, bad...)
		if len(bad) > 0 {
			args = append(args, data)
		}
		r := cardreg(t, args...)
		require.Equal(t, 2, r.code, "%v: %s", bad, r.stderr)
		require.Equal(t, 1, strings.Count(r.stderr, "\n"))
	}
}

func TestPlots(t *testing.T) {
	dir := t.TempDir()
	data := "../../examples/cardinality.csv"
	png := filepath.Join(dir, "path.png")
	require.Equal(t, 0, cardreg(t, "path", "--nlambda", "10", "--plot", png, data).code)
	b, err := os.ReadFile(png)
	require.NoError(t, err)
	require.Equal(t, "\x89PNG", string(b[:4]))
	svg := filepath.Join(dir, "cv.svg")
	r := cardreg(t, "cv", "--nlambda", "10", "--plot", svg, data)
	require.Equal(t, 0, r.code, r.stderr)
	b, err = os.ReadFile(svg)
	require.NoError(t, err)
	require.Contains(t, string(b[:200]), "<svg")
	require.Contains(t, string(b), "λ_min")
	bad := cardreg(t, "path", "--plot", filepath.Join(dir, "x.gif"), data)
	require.Equal(t, 2, bad.code)
	require.Contains(t, bad.stderr, ".png or .svg")
}

// TestProgress: --progress draws a bar on stderr (here a buffer, not a
// terminal) and erases it; without it nothing is drawn.
func TestFitProgress(t *testing.T) {
	data := "../../examples/cardinality.csv"
	quiet := cardreg(t, "cv", "--nlambda", "5", data)
	require.Empty(t, quiet.stderr)
	loud := cardreg(t, "cv", "--nlambda", "5", "--progress", data)
	require.Equal(t, 0, loud.code)
	require.Contains(t, loud.stderr, "fitting the cv [")
	// It says what it does before the first fit, and draws the bar at 0%
	// when the first λ starts (a 10⁴-level factor drew nothing for 120 s).
	require.Contains(t, loud.stderr, "fitting the cv: reading and checking "+data)
	require.Contains(t, loud.stderr, "fitting the cv: preparing (")
	require.Contains(t, loud.stderr, "fitting the cv [                              ]   0%")
	require.Less(t, strings.Index(loud.stderr, "preparing"), strings.Index(loud.stderr, "fitting the cv ["))
	require.True(t, strings.HasSuffix(loud.stderr, "\r"), "the bar is erased at the end")
	require.Equal(t, quiet.stdout, loud.stdout)
}

// TestFitCSV: --format csv has one row per coefficient, the intercept
// first, with each predictor's cluster; values match the JSON.
func TestFitCSV(t *testing.T) {
	data := "../../examples/cardinality.csv"
	res := cardreg(t, "fit", "--relax", "--format", "csv", data)
	require.Equal(t, 0, res.code, res.stderr)
	rows := parseCSV(t, res.stdout)
	require.Equal(t, []string{"response", "predictor", "coefficient", "cluster"}, rows[0])
	require.Len(t, rows, 1+1+12)
	require.Equal(t, "(intercept)", rows[1][1])
	js := decodeFit(t, cardreg(t, "fit", "--relax", "--format", "json", data).stdout)
	clusters := map[string]bool{}
	for j, r := range rows[2:] {
		require.Equal(t, js.Names[j], r[1])
		v, err := strconv.ParseFloat(r[2], 64)
		require.NoError(t, err)
		require.InDelta(t, js.Coefficients[j], v, 1e-9*(1+math.Abs(v)))
		clusters[r[3]] = true
	}
	require.Len(t, clusters, 4, "the relaxed example has four clusters")
}
