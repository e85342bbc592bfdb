package main

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cardsparse/cardreg/internal/testfiles"

	"github.com/cardsparse/cardreg/estimator"
	"github.com/stretchr/testify/require"
)

// ai4iFile is the shared data set on which the lasso's coordinate descent
// spun (in ../shared/data, see testfiles.SharedData).
const ai4iFile = "ai4i2020.csv"

// cardregWithin runs cardreg and fails the test when it has not returned
// within d (the run itself cannot be stopped: it is in process).
func cardregWithin(t *testing.T, d time.Duration, args ...string) cliResult {
	t.Helper()
	done := make(chan cliResult, 1)
	go func() { done <- cardreg(t, args...) }()
	select {
	case res := <-done:
		return res
	case <-time.After(d):
		t.Fatalf("cardreg %s did not return within %v", strings.Join(args, " "), d)
	}
	return cliResult{}
}

// TestLassoAI4I: a binomial lasso fit of ai4i at λ = 10 ran for minutes
// (coordinate descent between the intercept and the temperatures near
// 300 K, nearly parallel to it), with or without --standardize, and
// --max-iter did not stop it. Now it converges in well under a second to
// the streamed fit's answer (proximal Newton), and a small --max-iter
// stops it promptly, reported as not converged.
func TestLassoAI4I(t *testing.T) {
	ai4i := testfiles.SharedFile(t, ai4iFile)
	args := []string{"fit", "--family", "binomial", "--penalty", "lasso", "--lambda", "10", "--drop", "type", "--format", "json", "--tol", "1e-9", ai4i}
	res := cardregWithin(t, 30*time.Second, args...)
	require.Equal(t, 0, res.code, res.stderr)
	got := glmJSON(t, res.stdout)
	require.True(t, got.Converged)
	res = cardregWithin(t, 30*time.Second, append(slices.Clone(args[:1]), append([]string{"--stream"}, args[1:]...)...)...)
	require.Equal(t, 0, res.code, res.stderr)
	ref := glmJSON(t, res.stdout)
	require.InDelta(t, ref.Objective, got.Objective, 1e-7*ref.Objective)
	require.InDelta(t, ref.Intercept, got.Intercept, 1e-4*math.Abs(ref.Intercept))
	for j, c := range ref.Coefficients {
		require.InDelta(t, c, got.Coefficients[j], 1e-4*math.Abs(c), ref.Names[j])
	}
	// --max-iter bounds each weighted model's sweeps and proximal
	// Newton's steps: 100 suffice here (the same answer), 5 do not, said so.
	for _, extra := range [][]string{{"--standardize"}, {"--max-iter", "100"}, {"--max-iter", "5"}} {
		res = cardregWithin(t, 30*time.Second, append(slices.Clone(args[:1]), append(extra, args[1:]...)...)...)
		require.Equal(t, 0, res.code, res.stderr)
		fit := glmJSON(t, res.stdout)
		if len(extra) == 2 && extra[1] == "5" {
			require.False(t, fit.Converged, "%v: %s", extra, res.stderr)
			require.Contains(t, res.stderr, "did not converge")
			continue
		}
		require.True(t, fit.Converged, "%v: %s", extra, res.stderr)
		if extra[0] == "--max-iter" {
			require.InDelta(t, ref.Objective, fit.Objective, 1e-7*ref.Objective)
		}
	}
}

// glmJSON decodes the --format json output of a GLM fit.
func glmJSON(t *testing.T, out string) fitJSON {
	t.Helper()
	var f fitJSON
	require.NoError(t, json.Unmarshal([]byte(out), &f), "output is not JSON:\n%s", out)
	return f
}

// TestFoldWeightMessage: with three rows of weight 1e18 among ones, a fold
// holding two of them leaves the third outweighing its training rows. The
// error named the row by its index among the fold's training rows and not
// the fold as the cause. Now it names the data row (the file's numbering),
// the fold, and the flags that choose other folds, in memory and streamed.
func TestFoldWeightMessage(t *testing.T) {
	const n = 100
	folds := estimator.Folds(n, 5, 1) // --folds 5 --seed 1
	heavy := 8
	var b strings.Builder
	b.WriteString("x1,x2,w,y\n")
	rows := []int{heavy}
	for i := 20; len(rows) < 3; i++ {
		if folds[i] != folds[heavy] && (len(rows) == 1 || folds[i] == folds[rows[1]]) {
			rows = append(rows, i)
		}
	}
	for i := range n {
		w := "1"
		if slices.Contains(rows, i) {
			w = "1e18"
		}
		fmt.Fprintf(&b, "%g,%g,%s,%d\n", math.Sin(float64(i)), math.Cos(float64(3*i)), w, i%4)
	}
	path := writeFile(t, t.TempDir(), "pw.csv", b.String())
	want := fmt.Sprintf("fold %d of 5: in its training rows (the other folds) the weight 1e+18 of data row %d outweighs all the others together", folds[rows[1]]+1, heavy+1)
	for _, extra := range [][]string{nil, {"--stream"}} {
		res := cardreg(t, append(append([]string{"cv", "--folds", "5"}, extra...), "--family", "poisson", "--weights", "w", path)...)
		oneLine(t, res, 1, want, "(--foldid, --seed or --folds)")
	}
}

// TestLassoPathDuplicateColumn: with x1 duplicated as x1b, a logistic
// lasso path left x1b at 1e-16 at some λ, so distinct_values read 4 where
// the coefficients held 3 values to print precision. Now the copy is
// exactly zero along the path (with --standardize too), and each row's
// distinct_values counts its coefficients' values.
func TestLassoPathDuplicateColumn(t *testing.T) {
	var b strings.Builder
	b.WriteString("x1,x1b,x2,y\n")
	for i := range 200 {
		x1, x2 := math.Sin(float64(i)*1.7), math.Cos(float64(i)*0.9)
		y := 0
		if math.Sin(float64(i)*12.9898)*43758.5453-math.Floor(math.Sin(float64(i)*12.9898)*43758.5453) < 1/(1+math.Exp(-(1.5*x1-x2))) {
			y = 1
		}
		fmt.Fprintf(&b, "%v,%v,%v,%d\n", x1, x1, x2, y)
	}
	path := writeFile(t, t.TempDir(), "bcol.csv", b.String())
	for _, extra := range [][]string{nil, {"--standardize"}} {
		res := cardreg(t, append(append([]string{"path", "--family", "binomial", "--penalty", "lasso"}, extra...), path)...)
		require.Equal(t, 0, res.code, res.stderr)
		lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
		head := strings.Split(lines[0], ",")
		copyCol, first := slices.Index(head, "x1b"), slices.Index(head, "x1")
		require.Greater(t, len(lines), 10)
		for _, line := range lines[1:] {
			f := strings.Split(line, ",")
			require.Equal(t, "0", f[copyCol], "%v: %s", extra, line)
			values := map[string]bool{}
			for _, v := range f[first:] {
				values[v] = true
			}
			require.Equal(t, strconv.Itoa(len(values)), f[slices.Index(head, "distinct_values")], line)
		}
	}
}

// TestRelaxedCVLength: cv --relax stopped the path after 5 λ (the
// deviance rule read the relaxed refits, flat between support changes)
// and chose λ_min among them, exit 0. Now its curve is as long as
// without --relax.
func TestRelaxedCVLength(t *testing.T) {
	var b strings.Builder
	for j := range 12 {
		fmt.Fprintf(&b, "x%d,", j+1)
	}
	b.WriteString("y\n")
	for i := range 200 {
		eta := 0.0
		for j := range 12 {
			v := math.Sin(float64(i*(j+3)) + float64(j))
			if j < 3 {
				eta += v
			}
			fmt.Fprintf(&b, "%v,", v)
		}
		u := math.Sin(float64(i)*12.9898) * 43758.5453
		y := 0
		if u-math.Floor(u) < 1/(1+math.Exp(-eta)) {
			y = 1
		}
		fmt.Fprintf(&b, "%d\n", y)
	}
	path := writeFile(t, t.TempDir(), "b.csv", b.String())
	plain := cardreg(t, "cv", "--family", "binomial", "--penalty", "lasso", path)
	relaxed := cardreg(t, "cv", "--family", "binomial", "--penalty", "lasso", "--relax", path)
	require.Equal(t, 0, plain.code, plain.stderr)
	require.Equal(t, 0, relaxed.code, relaxed.stderr)
	n := strings.Count(plain.stdout, "\n")
	require.Greater(t, n, 10)
	require.Equal(t, n, strings.Count(relaxed.stdout, "\n"), relaxed.stderr)
}
