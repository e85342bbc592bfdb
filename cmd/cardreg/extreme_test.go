package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/report"
	"github.com/stretchr/testify/require"
)

// extremeCSV writes n rows of x1, x2, x3, w, c, y: predictors scaled by
// sx, a response y = x1 + x2/2 + noise scaled by sy, counts c in 0..5,
// and weights w whose row i is weight(i). Seeded.
func extremeCSV(t *testing.T, dir, name string, n int, sx, sy float64, weight func(int) float64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	var b strings.Builder
	b.WriteString("x1,x2,x3,w,c,y\n")
	for i := range n {
		x := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		y := x[0] + x[1]/2 + rng.NormFloat64()
		fmt.Fprintf(&b, "%v,%v,%v,%v,%d,%v\n", x[0]*sx, x[1]*sx, x[2]*sx, weight(i), rng.IntN(6), y*sy)
	}
	return writeFile(t, dir, name, b.String())
}

func ones(int) float64 { return 1 }

// TestExtremeWeightsCLI: all-subnormal gaussian weights panicked
// ("suffstat: scale +Inf") and one weight of 1e308 among 199 ones was
// called a constant response (gaussian) or spun for minutes (poisson cv).
// Now the 1e308 is one line naming the weights column and the cause, in
// memory and streamed, for every family; the subnormal weights, refused
// for a while (below 2^-64), fit as the unweighted data (only the
// weights' ratios matter).
func TestExtremeWeightsCLI(t *testing.T) {
	dir := t.TempDir()
	sub := extremeCSV(t, dir, "sub.csv", 200, 1, 1, func(int) float64 { return 1e-320 })
	big := extremeCSV(t, dir, "big.csv", 200, 1, 1, func(i int) float64 {
		if i == 0 {
			return 1e308
		}
		return 1
	})
	for _, stream := range []string{"--stream=false", "--stream"} {
		res, plain := cardreg(t, "fit", stream, "--weights", "w", "--drop", "c", sub), cardreg(t, "fit", stream, "--drop", "c,w", sub)
		require.Equal(t, 0, res.code, res.stderr)
		require.Equal(t, plain.stdout, res.stdout)
		oneLine(t, cardreg(t, "fit", stream, "--weights", "w", "--drop", "c", big), 1, `column "w"`, "(--weights)", "1e+308")
		oneLine(t, cardreg(t, "cv", stream, "--weights", "w", "--drop", "c", "--nlambda", "5", big), 1, `column "w"`, "(--weights)", "1e+308")
	}
	for _, fam := range []string{"poisson", "binomial"} {
		target := []string{"--target", "c", "--drop", "y"}
		if fam == "binomial" {
			bin := strings.Builder{}
			raw, err := os.ReadFile(big)
			require.NoError(t, err)
			for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
				if i > 0 {
					f := strings.Split(line, ",")
					f[4] = fmt.Sprint(i % 2)
					line = strings.Join(f, ",")
				}
				bin.WriteString(line + "\n")
			}
			big = writeFile(t, dir, "bigbin.csv", bin.String())
		}
		for _, args := range [][]string{
			{"cv", "--nlambda", "5"},
			{"fit", "--lambda", "1"},
			{"fit", "--stream", "--lambda", "1"},
			{"cv", "--stream", "--nlambda", "5"},
		} {
			a := append(append(append([]string{}, args...), "--family", fam, "--weights", "w"), target...)
			// The row is named once: by its line in memory, by its
			// number after a streamed pass (it said "data row 1, …
			// the weight 1e+308 of data row 1").
			where := big + ":2: "
			if slices.Contains(args, "--stream") {
				where = big + ": data row 1, "
			}
			res := cardreg(t, append(a, big)...)
			oneLine(t, res, 1, where+`column "w": the weight 1e+308 outweighs`)
			require.NotContains(t, res.stderr, "of data row")
		}
	}
}

// TestExtremeGLMInputsCLI: a streamed poisson count of 1e300 was blamed on
// "separable data?", an offset of 1e300 on "a single binomial class?";
// now the count's and the offset's bounds are named with the column, in
// memory and streamed.
func TestExtremeGLMInputsCLI(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x1,x2,off,y\n")
	for i := range 60 {
		y, off := float64(i%4), 0.0
		if i == 2 {
			y = 1e300
		}
		if i == 5 {
			off = 1e300
		}
		fmt.Fprintf(&b, "%v,%v,%v,%v\n", math.Sin(float64(i)), math.Cos(float64(3*i)), off, y)
	}
	data := writeFile(t, dir, "d.csv", b.String())
	for _, stream := range []string{"--stream=false", "--stream"} {
		oneLine(t, cardreg(t, "fit", stream, "--family", "poisson", "--lambda", "1", "--drop", "off", data), 1, "d.csv", "4", `column "y"`, "1e+300", "2^53")
		clean := strings.Replace(b.String(), "1e+300\n", "2\n", 1)
		cleanFile := writeFile(t, dir, "clean.csv", clean)
		oneLine(t, cardreg(t, "fit", stream, "--family", "poisson", "--lambda", "1", "--offset", "off", cleanFile), 1, "clean.csv", `column "off"`, "1e+300", "709")
	}
}

// TestNonFiniteJSON: a JSON output holding +Inf failed with "json:
// unsupported value: +Inf" (fit on data at 1e200; cardreg lambda --xnorm
// 1e308 is now an error naming the cause, TestLambdaOverflowAndUnderflow);
// now it is written with null in its place (README's contract) and parses.
// --save-model, whose λ predict needs, refuses a λ beyond float64 with the
// cause.
func TestNonFiniteJSON(t *testing.T) {
	data := extremeCSV(t, t.TempDir(), "e200.csv", 100, 1e200, 1e200, ones)
	res := cardreg(t, "fit", "--format", "json", "--drop", "w,c", data)
	require.Equal(t, 0, res.code, res.stderr)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &got))
	require.Contains(t, got, "lambda")
	require.Nil(t, got["lambda"])
	require.Len(t, got["coefficients"], 3)

	var b strings.Builder
	err := (&report.Fit{Lambda: math.Inf(1), Names: []string{"x"}, Coefficients: []float64{1}}).WriteModel(&b)
	require.ErrorContains(t, err, "beyond float64")
	require.Empty(t, b.String())
}

// TestPenaltyFactorRatioCLI: --penalty-factor 1e308,1,1,1 was reported as
// "λ must be finite and ≥ 0, got +Inf" with no λ given; now the factors'
// ratio is the usage error, for every family.
func TestPenaltyFactorRatioCLI(t *testing.T) {
	dir := t.TempDir()
	data := extremeCSV(t, dir, "d.csv", 60, 1, 1, ones)
	for _, fam := range []string{"gaussian", "poisson"} {
		oneLine(t, cardreg(t, "cv", "--family", fam, "--penalty", "lasso", "--target", "c", "--drop", "y,w", "--penalty-factor", "1e308,1,1", "--nlambda", "5", data),
			2, "--penalty-factor", "1e+308", "ratio")
	}
}

// TestExtremeScaleCLI: cv on data at 1e300 printed +Inf in every row with
// λ_min and λ_1se marked, at 1e-200 zeros, exit 0; path the same, and
// fit printed λ +Inf or 0 without a word. Now cv and path are one line
// saying λ is beyond float64 and fit warns, in memory; streamed,
// the column whose squares overflow is named. A streamed response near
// 1e150 had std_error +Inf; it is finite now.
func TestExtremeScaleCLI(t *testing.T) {
	dir := t.TempDir()
	for _, s := range []float64{1e300, 1e-200} {
		data := extremeCSV(t, dir, fmt.Sprintf("d%v.csv", s), 100, s, s, ones)
		for _, cmd := range []string{"cv", "path"} {
			oneLine(t, cardreg(t, cmd, "--drop", "w,c", data), 1, "the λ grid", "beyond float64")
		}
		// fit's coefficients are right; its λ cannot be printed, and
		// it says so
		res := cardreg(t, "fit", "--drop", "w,c", data)
		require.Equal(t, 0, res.code, res.stderr)
		require.Contains(t, res.stderr, "beyond float64")
	}
	big := extremeCSV(t, dir, "big.csv", 100, 1e300, 1e300, ones)
	oneLine(t, cardreg(t, "cv", "--stream", "--drop", "w,c", big), 1, `column "x1"`, "beyond float64")
	// streamed statistics at 1e-200 underflowed: "the response is constant"
	tiny := extremeCSV(t, dir, "tiny.csv", 100, 1e-200, 1e-200, ones)
	oneLine(t, cardreg(t, "cv", "--stream", "--drop", "w,c", tiny), 1, `column "x1"`, "so small")
	// streamed statistics at 1e100 stopped on "the top of the λ grid is
	// +Inf"; now they are rescaled as rows are, with the same curve
	e100 := extremeCSV(t, dir, "e100.csv", 100, 1e100, 1e100, ones)
	rows := cardreg(t, "cv", "--nlambda", "5", "--drop", "w,c", e100)
	require.Equal(t, 0, rows.code, rows.stderr)
	streamed := cardreg(t, "cv", "--stream", "--nlambda", "5", "--drop", "w,c", e100)
	require.Equal(t, 0, streamed.code, streamed.stderr)
	require.Equal(t, strings.Count(rows.stdout, "\n"), strings.Count(streamed.stdout, "\n"))
	markRow := func(out string) int {
		return strings.Count(out[:strings.Index(out, "lambda_min")], "\n")
	}
	require.Contains(t, rows.stdout, "lambda_min")
	require.Equal(t, markRow(rows.stdout), markRow(streamed.stdout))
	mid := extremeCSV(t, dir, "mid.csv", 100, 1e150, 1e150, ones)
	res := cardreg(t, "cv", "--stream", "--penalty", "lasso", "--nlambda", "5", "--drop", "w,c", mid)
	require.Equal(t, 0, res.code, res.stderr)
	require.NotContains(t, res.stdout, "Inf")
	require.Contains(t, res.stdout, "lambda_min")
}

// TestGLMPredictorScaleCLI: poisson on predictors at 1e300 stopped on a
// NaN loss ("badly scaled data?") and at 1e-300 ran for minutes; now both
// are refused up front naming the column, in memory and streamed, and
// --standardize (in memory) fits them.
func TestGLMPredictorScaleCLI(t *testing.T) {
	dir := t.TempDir()
	for _, s := range []float64{1e300, 1e-300} {
		data := extremeCSV(t, dir, fmt.Sprintf("p%v.csv", s), 100, s, 1, ones)
		for _, stream := range []string{"--stream=false", "--stream"} {
			oneLine(t, cardreg(t, "cv", stream, "--family", "poisson", "--nlambda", "5", "--target", "c", "--drop", "w,y", data), 1, `column "x1"`, "largest magnitude")
		}
		res := cardreg(t, "cv", "--family", "poisson", "--standardize", "--nlambda", "5", "--target", "c", "--drop", "w,y", data)
		require.Equal(t, 0, res.code, res.stderr)
		require.Contains(t, res.stdout, "lambda_min")
	}
}

// TestStandardizeScalesCLI: with --standardize a column at 1e-50 was
// refused as "differ in scale" (and by column numbers); now it fits, and
// without --standardize the refusal names the columns.
func TestStandardizeScalesCLI(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("tiny,x2,x3,y\n")
	for i := range 80 {
		x := []float64{math.Sin(float64(i)), math.Cos(float64(2 * i)), math.Sin(float64(3*i) + 1)}
		fmt.Fprintf(&b, "%v,%v,%v,%v\n", x[0]*1e-50, x[1], x[2], x[0]+x[1]/2+0.1*math.Sin(float64(7*i)))
	}
	data := writeFile(t, dir, "d.csv", b.String())
	res := cardreg(t, "fit", "--standardize", "--lambda", "1", "--format", "json", data)
	require.Equal(t, 0, res.code, res.stderr)
	var got struct{ Coefficients []float64 }
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &got))
	require.InEpsilon(t, 1e50, got.Coefficients[0], 0.2, "the tiny column's coefficient is about 1e50")
	oneLine(t, cardreg(t, "fit", "--lambda", "1", data), 1, `"tiny"`, "--standardize", "differ in scale")
}
