package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/testenv"
	"github.com/stretchr/testify/require"
)

const (
	cardinalityData = "../../examples/cardinality.csv"
	creditData      = "../../examples/credit.csv"
	claimsData      = "../../examples/claims.csv"
)

// familyData are the command-line arguments of one example per family.
var familyData = map[string][]string{
	"gaussian": {"--family", "gaussian", cardinalityData},
	"binomial": {"--family", "binomial", creditData},
	"poisson":  {"--family", "poisson", "--drop", "exposure,log_exposure", claimsData},
}

// tableLambdas returns the first column of a path or cv table.
func tableLambdas(t *testing.T, rows [][]string) []float64 {
	t.Helper()
	var out []float64
	for _, r := range rows[1:] {
		v, err := strconv.ParseFloat(r[0], 64)
		require.NoError(t, err)
		out = append(out, v)
	}
	return out
}

// path and cv fit exactly the λ of --lambda, in decreasing order, for every
// family, in memory and streamed; path's coefficients at each λ are fit's.
// The old code ignored --lambda and printed the generated grid.
func TestUserLambdaGrid(t *testing.T) {
	want := []float64{30, 10, 1}
	for fam, data := range familyData {
		for _, stream := range []bool{false, true} {
			base := append([]string{"--tol", "1e-10"}, data...)
			if stream {
				base = append([]string{"--stream"}, base...)
			}
			res := cardreg(t, append([]string{"path", "--lambda", "1,30,10"}, base...)...)
			require.Equal(t, 0, res.code, "%s stream %v: %s", fam, stream, res.stderr)
			rows := parseCSV(t, res.stdout)
			require.Equal(t, want, tableLambdas(t, rows), "%s stream %v", fam, stream)
			first := 4
			if fam != "gaussian" {
				first = 5 // dev_ratio
			}
			for k, lam := range want {
				fit := cardreg(t, append([]string{"fit", "--lambda", strconv.FormatFloat(lam, 'g', -1, 64), "--tol", "1e-10", "--format", "json"}, data...)...)
				require.Equal(t, 0, fit.code, fit.stderr)
				var out glmOut
				require.NoError(t, json.Unmarshal([]byte(fit.stdout), &out))
				for j, c := range out.Coefficients {
					v, err := strconv.ParseFloat(rows[k+1][first+j], 64)
					require.NoError(t, err)
					require.InDelta(t, c, v, 1e-5, "%s stream %v λ %v coefficient %d", fam, stream, lam, j)
				}
			}
			res = cardreg(t, append([]string{"cv", "--lambda", "10,1,30"}, base...)...)
			require.Equal(t, 0, res.code, "%s stream %v: %s", fam, stream, res.stderr)
			require.Equal(t, want, tableLambdas(t, parseCSV(t, res.stdout)), "cv %s stream %v", fam, stream)
		}
	}
}

// A --lambda list that cannot be a grid is refused on one line, exit 2.
func TestUserLambdaGridRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"path", "--lambda", "0,1"}, []string{"--lambda", `value 1, "0"`, "> 0"}},
		{[]string{"path", "--lambda", "1,-2"}, []string{`value 2, "-2"`}},
		{[]string{"path", "--lambda", "1,Inf"}, []string{`"Inf"`, "finite"}},
		{[]string{"cv", "--lambda", "1,NaN"}, []string{`"NaN"`}},
		{[]string{"path", "--lambda", "1,,2"}, []string{"value 2"}},
		{[]string{"path", "--lambda", "cv"}, []string{`"cv"`, "leave --lambda out"}},
		{[]string{"path", "--lambda", "1e-3,2,0.001"}, []string{"values 1 and 3 are the same lambda"}},
		{[]string{"cv", "--lambda", "3"}, []string{"at least two", "cardreg fit --lambda 3"}},
		{[]string{"path", "--lambda", "1,2", "--nlambda", "5"}, []string{"--nlambda", "--lambda LIST"}},
		{[]string{"cv", "--lambda", "1,2", "--min-ratio", "0.1"}, []string{"--min-ratio"}},
		{[]string{"path", "--family", "binomial", "--lambda", "1,1"}, []string{"same lambda"}},
	} {
		oneLine(t, cardreg(t, append(c.args, cardinalityData)...), 2, c.want...)
	}
}

// Every flag that has no effect in the mode of the command line is
// refused on one line (exit 2) instead of being ignored; the same flags
// work where they have an effect.
func TestFlagsWithoutEffect(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "small.csv", "a,b,f,y\n1,2,1,3\n2,1,2,5\n3,3,3,3\n4,0,1,1\n5,5,2,5\n6,1,3,2\n7,2,1,8\n8,3,2,4\n9,1,3,9\n10,4,1,6\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", "--lambda", "3", "--type-measure", "mse"}, "--type-measure applies to cross-validation only"},
		{[]string{"fit", "--lambda", "3", "--family", "binomial", "--type-measure", "class"}, "--type-measure applies"},
		{[]string{"fit", "--lambda", "3", "--folds", "4"}, "--folds applies to cross-validation only"},
		{[]string{"fit", "--lambda", "3", "--seed", "4"}, "--seed applies"},
		{[]string{"fit", "--lambda", "3", "--foldid", "f"}, "--foldid applies"},
		{[]string{"fit", "--lambda", "theory", "--sigma", "1", "--folds", "3"}, "--folds applies"},
		{[]string{"fit", "--lambda", "3", "--rule", "1se"}, "--rule picks"},
		{[]string{"path", "--seed", "3"}, "not to cardreg path"},
		{[]string{"path", "--type-measure", "mae"}, "--type-measure applies"},
		{[]string{"path", "--foldid", "f"}, "--foldid applies"},
		{[]string{"cv", "--folds", "3", "--foldid", "f"}, "--folds does not combine with --foldid"},
		{[]string{"fit", "--seed", "3", "--foldid", "f"}, "--seed does not combine with --foldid"},
		{[]string{"cv", "--rule", "1se"}, "cardreg cv prints both"},
		{[]string{"fit", "--lambda", "1", "--sigma", "2"}, "--sigma applies to cardreg fit --lambda theory only"},
		{[]string{"fit", "--t", "0.1"}, "--t applies"},
		{[]string{"cv", "--sigma", "1"}, "--sigma applies"},
		{[]string{"path", "--save-model", filepath.Join(dir, "m.json")}, "--save-model is for cardreg fit"},
		{[]string{"fit", "--lambda", "1", "--groups", "1,2,3"}, "--groups applies to --penalty grouped only"},
		{[]string{"fit", "--lambda", "1", "--G", data}, "--G applies to --penalty general only"},
		{[]string{"fit", "--lambda", "1", "--penalty", "ridge", "--nu", "2"}, "--nu has no role in the ridge penalty"},
		{[]string{"fit", "--lambda", "1", "--penalty", "lasso", "--penalty-factor", "1,2,3", "--nu", "2"}, "--nu does not combine with --penalty-factor"},
		{[]string{"fit", "--lambda", "1", "--family", "binomial", "--stream", "--relax"}, "--relax"},
	} {
		oneLine(t, cardreg(t, append(c.args, data)...), 2, c.want)
	}
	// --memory is taken with --stream and --db: the O(p²) statistics must
	// fit in it (TestQuadraticMemoryRefused).
	for _, c := range [][]string{{"--stream"}, {"--sep", ";"}, {"--drop-missing"}} {
		args := append([]string{"fit", "--lambda", "1", "--db", "http://127.0.0.1:1/", "--table", "t"}, c...)
		oneLine(t, cardreg(t, args...), 2, c[0]+" ", "--db")
	}
	// Where they have an effect, the same flags are taken.
	for _, args := range [][]string{
		{"fit", "--folds", "3", "--seed", "4", "--rule", "1se"},
		{"fit", "--foldid", "f", "--type-measure", "mae"},
		{"cv", "--foldid", "f", "--nlambda", "5"},
		{"cv", "--folds", "3", "--seed", "2", "--nlambda", "5"},
		{"fit", "--lambda", "theory", "--sigma", "1", "--t", "0.1"},
		{"fit", "--lambda", "1", "--penalty", "grouped", "--groups", "1,1,2"},
		{"path", "--lambda", "1,2", "--relax"},
	} {
		res := cardreg(t, append(args, data)...)
		require.Equal(t, 0, res.code, "%v: %s", args, res.stderr)
	}
}

// A list flag given one value that is not a file says so (it was "has 1
// values for 12 predictors"); a directory is named as one.
func TestListFlagMissingFile(t *testing.T) {
	dir := t.TempDir()
	lasso := []string{"fit", "--family", "binomial", "--penalty", "lasso", "--lambda", "1"}
	oneLine(t, cardreg(t, append(lasso, "--penalty-factor", "no-factors.txt", creditData)...), 2,
		"--penalty-factor", "no-factors.txt", "no such file", "12 predictors")
	oneLine(t, cardreg(t, append(lasso, "--penalty-factor", dir, creditData)...), 2, "is a directory")
	oneLine(t, cardreg(t, append(lasso, "--penalty-factor", "2", creditData)...), 2, "has 1 values for 12 predictors")
	oneLine(t, cardreg(t, "fit", "--penalty", "grouped", "--lambda", "1", "--groups", "labels.txt", cardinalityData), 2,
		"--groups", "labels.txt", "no such file")
	// A file of factors is read.
	factors := writeFile(t, dir, "f.txt", strings.Repeat("1\n", 12))
	res := cardreg(t, append(lasso, "--penalty-factor", factors, creditData)...)
	require.Equal(t, 0, res.code, res.stderr)
}

// A streamed logistic or Poisson fit reads its data once per Newton step:
// from standard input it is refused with the way out (it was "empty
// file"). Errors of a streamed fit name the file once, and no message
// repeats the command's name.
func TestStreamedGLMMessages(t *testing.T) {
	for _, cmd := range [][]string{{"fit", "--lambda", "1"}, {"path"}, {"cv"}} {
		for _, fam := range []string{"binomial", "poisson"} {
			oneLine(t, cardreg(t, append(cmd, "--family", fam, "--stream", "-")...), 2,
				"standard input can be read only once", "write the data to a file")
		}
	}
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.csv", "a,b,y\n1,2,0\n2,1,1\n3,3,2\n1,1,0\n")
	for _, cmd := range [][]string{{"fit", "--lambda", "1"}, {"path"}, {"cv", "--folds", "3"}} {
		res := cardreg(t, append(cmd, "--family", "binomial", "--stream", bad)...)
		oneLine(t, res, 1, "bad.csv:4", "not 0 or 1")
		require.Equal(t, 1, strings.Count(res.stderr, "bad.csv"), res.stderr)
	}
	res := cardreg(t, "cv", "--family", "binomial", "--stream", "--type-measure", "auc", creditData)
	oneLine(t, res, 2, "cardreg cv: --type-measure auc cannot score a streamed cross-validation")
	require.NotContains(t, res.stderr, "cv: cv:")
}

// --plot draws paths and cross-validation curves of every family, in
// memory and streamed, the measure named on the axis.
func TestPlotEveryFamily(t *testing.T) {
	dir := t.TempDir()
	firstPredictor := map[string]string{"gaussian": "x1", "binomial": "income", "poisson": "x1"}
	measure := map[string]string{"gaussian": "mean squared error", "binomial": "binomial deviance", "poisson": "poisson deviance"}
	for fam, data := range familyData {
		for _, stream := range []bool{false, true} {
			if stream && fam != "gaussian" && !testenv.Slow() {
				continue // a streamed family path takes passes per Newton step: CARDREG_SLOW runs them
			}
			extra := []string{"--nlambda", "8"}
			if stream {
				extra = append(extra, "--stream")
			}
			svg := filepath.Join(dir, fam+".svg")
			res := cardreg(t, append(append([]string{"path", "--plot", svg}, extra...), data...)...)
			require.Equal(t, 0, res.code, "%s: %s", fam, res.stderr)
			b, err := os.ReadFile(svg)
			require.NoError(t, err)
			require.Contains(t, string(b), "number of distinct values", fam)
			require.Contains(t, string(b), ">"+firstPredictor[fam]+"<", "legend entry of %s", fam)
			res = cardreg(t, append(append([]string{"cv", "--plot", svg}, extra...), data...)...)
			require.Equal(t, 0, res.code, "%s: %s", fam, res.stderr)
			b, err = os.ReadFile(svg)
			require.NoError(t, err)
			require.Contains(t, string(b), measure[fam]+" (held out)", fam)
		}
	}
	svg := filepath.Join(dir, "class.svg")
	res := cardreg(t, "cv", "--family", "binomial", "--type-measure", "class", "--nlambda", "8", "--plot", svg, creditData)
	require.Equal(t, 0, res.code, res.stderr)
	b, err := os.ReadFile(svg)
	require.NoError(t, err)
	require.Contains(t, string(b), "misclassification error (held out)")
}

// An automatic λ (λ_max, the theory λ) that overflows float64 is reported
// as what it is, naming the input that made it overflow; the old code said
// "λ must be finite" although no λ was given.
func TestAutomaticLambdaOverflow(t *testing.T) {
	factors := "1e308" + strings.Repeat(",1", 11)
	for _, cmd := range []string{"fit", "path", "cv"} {
		for _, fam := range []string{"gaussian", "binomial"} {
			data := cardinalityData
			if fam == "binomial" {
				data = creditData
			}
			// Factors whose ratio passes 1e30 are refused before any λ is
			// computed, naming both.
			res := cardreg(t, cmd, "--family", fam, "--penalty", "lasso", "--penalty-factor", factors, data)
			oneLine(t, res, 2, "--penalty-factor", "1e+308 times factor 2", "1e+30")
			require.NotContains(t, res.stderr, "must be finite")
		}
		oneLine(t, cardreg(t, cmd, "--penalty", "lasso", "--nu", "1e-308", cardinalityData), 2, "automatic lambda overflows", "--nu 1e-308")
	}
	oneLine(t, cardreg(t, "fit", "--family", "poisson", "--penalty", "lasso", "--nu", "1e-308", "--drop", "exposure,log_exposure", claimsData), 2, "--nu 1e-308")
	// Streamed, λ_max is not computed by cmd: --nu is named when the grid's
	// top fits with the default ν.
	for _, args := range [][]string{
		{"path", "--family", "binomial", "--penalty", "lasso", creditData},
		{"cv", "--family", "binomial", creditData},
		{"cv", cardinalityData},
		{"fit", "--penalty", "lasso", cardinalityData},
	} {
		res := cardreg(t, append(args, "--stream", "--nu", "1e-308")...)
		oneLine(t, res, 2, "automatic lambda fails with --nu 1e-308", "larger --nu")
	}
	oneLine(t, cardreg(t, "fit", "--lambda", "theory", "--sigma", "1e307", cardinalityData), 1, "theory lambda", "overflows", "sigma = 1e+307")
	oneLine(t, cardreg(t, "fit", "--lambda", "theory", "--t", "1e-320", cardinalityData), 2, "theory lambda", "--t 1e-320")
	oneLine(t, cardreg(t, "fit", "--lambda", "theory", "--nu", "1e-308", cardinalityData), 2, "theory lambda", "--nu")
	// Huge factors of equal size are factors of equal size: the same fit
	// as factors 1 (their sum overflowed in the old code).
	huge := strings.TrimPrefix(strings.Repeat(",1e308", 12), ",")
	a := glmFitJSON(t, "--family", "binomial", "--penalty", "lasso", "--lambda", "4", "--penalty-factor", huge, creditData)
	b := glmFitJSON(t, "--family", "binomial", "--penalty", "lasso", "--lambda", "4", "--penalty-factor", strings.TrimPrefix(strings.Repeat(",1", 12), ","), creditData)
	require.Equal(t, b.Coefficients, a.Coefficients)
}

// The lambda command's theoretical λ that overflows is an error naming its
// cause (it printed +Inf, and --format json failed on it); a λ given below
// the smallest float64 is refused instead of becoming 0 (least squares).
func TestLambdaOverflowAndUnderflow(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--arch", "64,40,1", "--n", "100", "--xnorm", "1e200"}, 2, "--xnorm"},
		{[]string{"--arch", "64,40,1", "--n", "100", "--xnorm", "1", "--C", "1e308", "--alip", "10"}, 2, "--C 1e+308"},
		{[]string{"--arch", "64,40,40,1", "--n", "100", "--xnorm", "1", "--alip", "1e100"}, 2, "--alip"},
		{[]string{"--arch", "64,40,1", "--n", "100", "--xnorm", "1e200", "--format", "json"}, 2, "--xnorm"},
		{[]string{"--regression", "--data", cardinalityData, "--sigma", "1e307"}, 1, "sigma = 1e+307"},
		{[]string{"--regression", "--data", cardinalityData, "--sigma", "1", "--nu", "1e-308"}, 2, "larger --nu"},
		{[]string{"--regression", "--data", cardinalityData, "--sigma", "1", "--t", "1e-320"}, 2, "--t 1e-320"},
	} {
		oneLine(t, cardreg(t, append([]string{"lambda"}, c.args...)...), c.code, "overflows float64", c.want)
	}
	ok := cardreg(t, "lambda", "--arch", "64,40,1", "--n", "100", "--xnorm", "6.2", "--format", "json")
	require.Equal(t, 0, ok.code, ok.stderr)
	oneLine(t, cardreg(t, "fit", "--lambda", "1e-400", cardinalityData), 2, "--lambda 1e-400", "would be 0")
	oneLine(t, cardreg(t, "path", "--lambda", "1,1e-400", cardinalityData), 2, "value 2", "would be 0")
	res := cardreg(t, "fit", "--lambda", "0e5", "--format", "json", cardinalityData)
	require.Equal(t, 0, res.code, res.stderr)
	require.Equal(t, 0.0, decodeFit(t, res.stdout).Lambda)
}
