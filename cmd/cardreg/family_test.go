package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"

	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/rtest"
	"github.com/stretchr/testify/require"
)

// glmOut is the part of fit's JSON the family tests read.
type glmOut struct {
	Family       string    `json:"family"`
	Link         string    `json:"link"`
	Lambda       float64   `json:"lambda"`
	Objective    float64   `json:"objective"`
	Deviance     *float64  `json:"deviance"`
	NullDeviance *float64  `json:"null_deviance"`
	DevRatio     *float64  `json:"dev_ratio"`
	Gap          float64   `json:"duality_gap"`
	Intercept    float64   `json:"intercept"`
	Coefficients []float64 `json:"coefficients"`
	Unpenalized  []string  `json:"unpenalized"`
	Offset       string    `json:"offset_column"`
	Passes       int       `json:"passes"`
}

func glmFitJSON(t *testing.T, args ...string) glmOut {
	t.Helper()
	res := cardreg(t, append([]string{"fit", "--format", "json"}, args...)...)
	require.Equal(t, 0, res.code, res.stderr)
	var out glmOut
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &out))
	return out
}

// TestFamilyFitMatchesGlmnet runs cardreg fit on the bundled logistic and
// Poisson examples with weights, an offset and penalty factors, and checks
// the coefficients against R glmnet at the same λ (λ_glmnet = λ/(2n)):
// the plumbing from flags to the fit is glmnet's model.
func TestFamilyFitMatchesGlmnet(t *testing.T) {
	rtest.SkipUnlessAvailable(t)
	dir := t.TempDir()
	// claims.csv with a weight column: x1..x10, w, off, claims.
	claims := readExample(t, "../../examples/claims.csv")
	var b strings.Builder
	b.WriteString("x1,x2,x3,x4,x5,x6,x7,x8,x9,x10,w,off,y\n")
	for i, row := range claims {
		b.WriteString(strings.Join(row[:10], ",") + "," + strconv.FormatFloat(0.5+float64(i%3)/2, 'g', -1, 64) + "," + row[11] + "," + row[12] + "\n")
	}
	data := writeFile(t, dir, "claims.csv", b.String())
	factors := "1,1,0,2,1,1,1,0.5,1,1"
	out := glmFitJSON(t, "--family", "poisson", "--penalty", "lasso", "--lambda", "20", "--weights", "w", "--offset", "off",
		"--penalty-factor", factors, "--tol", "1e-13", data)
	require.Equal(t, "log", out.Link)
	require.Equal(t, []string{"x3"}, out.Unpenalized)
	ref, err := rtest.Output("../../bench/glmfamily.R", "fit", data, "poisson", strconv.FormatFloat(20.0/2000, 'g', -1, 64), "w", "off", factors)
	require.NoError(t, err, "%s", ref)
	want := strings.Fields(string(ref))
	require.Len(t, want, 11)
	got := append([]float64{out.Intercept}, out.Coefficients...)
	for j, s := range want {
		v, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		require.InDelta(t, v, got[j], 1e-5, "coefficient %d", j)
	}
}

func readExample(t *testing.T, path string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return parseCSV(t, string(b))[1:]
}

// TestFamilyOutputs checks the keys and consistency of a logistic fit's
// output: dev_ratio = 1 − deviance/null, objective ≥ deviance, the saved
// model predicts probabilities whose logit is the link, and classes.
func TestFamilyOutputs(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	out := glmFitJSON(t, "--family", "binomial", "--lambda", "4", "--save-model", model, "--exclude", "income", "../../examples/credit.csv")
	require.Equal(t, "binomial", out.Family)
	require.Equal(t, "logit", out.Link)
	require.InDelta(t, 1 - *out.Deviance / *out.NullDeviance, *out.DevRatio, 1e-12)
	require.GreaterOrEqual(t, out.Objective, *out.Deviance)
	require.LessOrEqual(t, out.Gap, 1e-7)
	require.Equal(t, []string{"income"}, out.Unpenalized)
	pred := func(typ string) []float64 {
		res := cardreg(t, "predict", "--type", typ, "--model", model, "../../examples/credit.csv")
		require.Equal(t, 0, res.code, res.stderr)
		rows := parseCSV(t, res.stdout)[1:]
		v := make([]float64, len(rows))
		for i, r := range rows {
			v[i], _ = strconv.ParseFloat(r[0], 64)
		}
		return v
	}
	prob, link, class := pred("response"), pred("link"), pred("class")
	require.Len(t, prob, 1000)
	for i := range prob {
		require.InDelta(t, link[i], math.Log(prob[i]/(1-prob[i])), 1e-9)
		require.Equal(t, float64(map[bool]int{true: 1, false: 0}[prob[i] > 0.5]), class[i])
	}
	// A gaussian fit's JSON has the family keys too, and dev_ratio = r2.
	g := cardreg(t, "fit", "--format", "json", "--lambda", "5", "../../examples/cardinality.csv")
	require.Contains(t, g.stdout, `"family": "gaussian"`)
	require.Contains(t, g.stdout, `"dev_ratio"`)
}

// TestFamilyBadInput: one line on stderr naming the file, line and column,
// and the exit status: 1 for bad data, 2 for a bad command line.
func TestFamilyBadInput(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", "a,b,w,off,f,y\n1,2,1,0,1,0\n2,1,1,0,2,1\n3,3,1,0,3,2\n4,0,-1,0,1,1\n5,5,1,0,2,0\n6,1,1,0,3,1\n")
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"--family", "binomial", "--drop", "w,off,f"}, 1, []string{data + ":4: column \"y\"", "not 0 or 1"}},
		{[]string{"--family", "poisson", "--weights", "w", "--drop", "off,f"}, 1, []string{":5: column \"w\"", "-1"}},
		{[]string{"--family", "gamma", "--drop", "w,off,f"}, 1, []string{data + ":2: column \"y\"", "not a finite number > 0"}},
		{[]string{"--family", "weibull"}, 2, []string{"--family: unknown family \"weibull\"", "tweedie, negbin"}},
		{[]string{"--family", "tweedie"}, 2, []string{"--family: the tweedie family needs its parameter", "tweedie:1.5"}},
		{[]string{"--family", "tweedie:2.5"}, 2, []string{"1 < p < 2"}},
		{[]string{"--family", "negbin:0"}, 2, []string{"θ = 0 is not a finite number > 0"}},
		{[]string{"--family", "poisson", "--type-measure", "auc"}, 2, []string{"--type-measure auc"}},
		{[]string{"--family", "binomial", "--penalty-factor", "1,1"}, 2, []string{"--penalty-factor is for the lasso"}},
		{[]string{"--family", "poisson", "--penalty", "lasso", "--penalty-factor", "1,1,1", "--drop", "w,off,f"}, 2, []string{"3 values for 2 predictors"}},
		{[]string{"--family", "poisson", "--offset", "nosuch"}, 2, []string{"--offset", "nosuch"}},
		{[]string{"--family", "poisson", "--exclude", "nosuch", "--drop", "w,off,f"}, 2, []string{"--exclude", "nosuch"}},
		{[]string{"--family", "poisson", "--lambda", "theory"}, 2, []string{"theory"}},
		{[]string{"--family", "poisson", "--stream", "--exclude", "a"}, 2, []string{"streamed", "--exclude"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			args := append(append([]string{"fit", "--lambda", "1"}, c.args...), data)
			if hasArg(c.args, "theory") {
				args = append(append([]string{"fit"}, c.args...), data)
			}
			oneLine(t, cardreg(t, args...), c.code, c.want...)
		})
	}
	// Fold ids with two folds.
	twoFolds := writeFile(t, dir, "two.csv", "a,b,f,y\n1,2,1,0\n2,1,2,1\n3,3,1,1\n4,0,2,0\n5,5,1,1\n6,1,2,0\n")
	oneLine(t, cardreg(t, "fit", "--family", "binomial", "--foldid", "f", twoFolds), 1, "at least 3")
}

func hasArg(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestWeightedStatsEqualRows: a weighted gaussian fit from the statistics
// of one pass over the file (data.ReadStats) and from the rows in memory
// (read so when an offset is given, here all zero) are the same fit: one
// objective convention, the weights rescaled to sum to n on both forms.
// (It replaces TestGaussianRoutesAgree, which kept two regression stacks
// in step; there is one estimator now, and this checks two of its forms.)
func TestWeightedStatsEqualRows(t *testing.T) {
	dir := t.TempDir()
	weighted, _ := exampleWith(t, dir)
	b, err := os.ReadFile(weighted)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for i := range lines {
		if i == 0 {
			lines[i] = "zero," + lines[i]
		} else {
			lines[i] = "0," + lines[i]
		}
	}
	data := writeFile(t, dir, "zero.csv", strings.Join(lines, "\n")+"\n")
	for _, pen := range []string{"cardinality", "lasso"} {
		a := glmFitJSON(t, "--penalty", pen, "--lambda", "30", "--tol", "1e-12", "--weights", "w", "--drop", "fold,zero", data)
		g := glmFitJSON(t, "--penalty", pen, "--lambda", "30", "--tol", "1e-12", "--weights", "w", "--drop", "fold", "--offset", "zero", data)
		require.Equal(t, "zero", g.Offset)
		require.InDeltaSlice(t, a.Coefficients, g.Coefficients, 1e-7, pen)
		require.InDelta(t, a.Intercept, g.Intercept, 1e-7, pen)
		require.InEpsilon(t, a.Objective, g.Objective, 1e-9, pen)
		require.InDelta(t, *a.DevRatio, *g.DevRatio, 1e-9, pen)
	}
}

// TestFamilyStream: a logistic fit streamed from the file (--stream) is the
// in-memory fit, and bad data while streaming name the file, line and
// column.
func TestFamilyStream(t *testing.T) {
	mem := glmFitJSON(t, "--family", "binomial", "--lambda", "4", "--tol", "1e-10", "../../examples/credit.csv")
	str := glmFitJSON(t, "--family", "binomial", "--lambda", "4", "--tol", "1e-10", "--stream", "../../examples/credit.csv")
	require.InDeltaSlice(t, mem.Coefficients, str.Coefficients, 1e-6)
	require.InDelta(t, mem.Intercept, str.Intercept, 1e-6)
	require.InEpsilon(t, mem.Objective, str.Objective, 1e-9)
	require.InEpsilon(t, *mem.NullDeviance, *str.NullDeviance, 1e-12)
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.csv", "a,b,y\n1,2,0\n2,1,1\n3,3,2\n4,0,1\n")
	oneLine(t, cardreg(t, "fit", "--family", "binomial", "--lambda", "1", "--stream", bad), 1, "bad.csv:4", `column "y"`, "not 0 or 1")
	// A gaussian fit with an offset streams when asked (it used to run in
	// memory without a word), and gives the in-memory fit.
	var b strings.Builder
	b.WriteString("a,b,off,y\n")
	for i := range 60 {
		a, c := math.Sin(float64(i)), math.Cos(float64(3*i))
		fmt.Fprintf(&b, "%v,%v,%v,%v\n", a, c, 0.1*float64(i%5-2), 1+2*a-c+0.3*math.Sin(float64(7*i)))
	}
	g := writeFile(t, dir, "g.csv", b.String())
	gm := glmFitJSON(t, "--offset", "off", "--lambda", "2", "--tol", "1e-10", g)
	gs := glmFitJSON(t, "--offset", "off", "--lambda", "2", "--tol", "1e-10", "--stream", g)
	require.Zero(t, gm.Passes)
	require.Positive(t, gs.Passes)
	require.InEpsilon(t, gm.Objective, gs.Objective, 1e-9)
	require.InDeltaSlice(t, gm.Coefficients, gs.Coefficients, 1e-6)
	oneLine(t, cardreg(t, "fit", "--family", "binomial", "--stream", bad), 2, "--lambda NUMBER")
	oneLine(t, cardreg(t, "cv", "--family", "binomial", "--stream", "--folds", "3", bad), 1, "bad.csv:4", `column "y"`, "not 0 or 1")
	oneLine(t, cardreg(t, "cv", "--family", "binomial", "--stream", "--type-measure", "auc", bad), 2, "auc")
	oneLine(t, cardreg(t, "path", "--family", "binomial", "--stream", bad), 1, "bad.csv:4", `column "y"`, "not 0 or 1")
}

// TestFamilyStreamPath: a Poisson path and a logistic cross-validation
// streamed from the file are the in-memory ones: the same λ, the same
// stopping point, the same fits and curve.
func TestFamilyStreamPath(t *testing.T) {
	streamEqualsMemory(t, "path", "--family", "poisson", "--nlambda", "15", "--tol", "1e-8", "../../examples/claims.csv")
	streamEqualsMemory(t, "cv", "--family", "binomial", "--nlambda", "10", "--tol", "1e-8", "--type-measure", "class", "../../examples/credit.csv")
}

func streamEqualsMemory(t *testing.T, args ...string) {
	mem := cardreg(t, args...)
	require.Equal(t, 0, mem.code, mem.stderr)
	str := cardreg(t, append(args, "--stream")...)
	require.Equal(t, 0, str.code, str.stderr)
	require.Contains(t, str.stderr, "passes")
	a, b := parseCSV(t, mem.stdout), parseCSV(t, str.stdout)
	require.Equal(t, len(a), len(b))
	require.Equal(t, a[0], b[0])
	for i := 1; i < len(a); i++ {
		for j := range a[i] {
			x, err1 := strconv.ParseFloat(a[i][j], 64)
			y, err2 := strconv.ParseFloat(b[i][j], 64)
			if err1 != nil || err2 != nil {
				require.Equal(t, a[i][j], b[i][j], "row %d column %s", i, a[0][j])
				continue
			}
			tol := 1e-5 // coefficients and curves
			if a[0][j] == "lambda" || a[0][j] == "objective" || a[0][j] == "lambda_glmnet" {
				tol = 1e-9 * math.Abs(x)
			}
			require.InDelta(t, x, y, tol, "row %d column %s", i, a[0][j])
		}
	}
}
