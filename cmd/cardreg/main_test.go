package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/internal/outfile"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// example is the bundled data set of the README (tests run in the package
// directory).
const example = "../../examples/cardinality.csv"

// exampleNames are its predictors; its response is y, the last column.
var exampleNames = []string{"x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12"}

// groups12 labels the example's predictors for --penalty grouped.
const groups12 = "a,a,a,b,b,b,c,c,c,d,d,d"

type cliResult struct {
	code           int
	stdout, stderr string
}

// cardreg runs the command line in process. A panic fails the test with the
// command and the stack instead of killing the test binary.
func cardreg(t *testing.T, args ...string) (res cliResult) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("cardreg %s panicked: %v\n%s", strings.Join(args, " "), p, debug.Stack())
		}
	}()
	code := run(args, &stdout, &stderr)
	return cliResult{code, stdout.String(), stderr.String()}
}

// writeFile writes content to name in dir and returns the path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

// fitJSON mirrors the --format json output.
type fitJSON struct {
	Penalty        string     `json:"penalty"`
	Lambda         float64    `json:"lambda"`
	LambdaGlmnet   float64    `json:"lambda_glmnet"`
	Nu             *float64   `json:"nu"`
	Objective      float64    `json:"objective"`
	DualityGap     *float64   `json:"duality_gap"`
	Converged      bool       `json:"converged"`
	Iterations     int        `json:"iterations"`
	N              int        `json:"n"`
	P              int        `json:"p"`
	Target         string     `json:"target"`
	Intercept      float64    `json:"intercept"`
	Names          []string   `json:"names"`
	Coefficients   []float64  `json:"coefficients"`
	DistinctValues []float64  `json:"distinct_values"`
	Clusters       [][]string `json:"clusters"`
	ClusterValues  []float64  `json:"cluster_values"`
	ValueScale     string     `json:"value_scale"`
	R2             *float64   `json:"r2"`
	Relaxed        bool       `json:"relaxed"`
	LambdaRule     string     `json:"lambda_rule"`
	CV             *struct {
		Folds     int     `json:"folds"`
		LambdaMin float64 `json:"lambda_min"`
		Lambda1SE float64 `json:"lambda_1se"`
	} `json:"cv"`
}

// decodeFit checks the JSON output key by key (presence and type) and its
// internal consistency, and returns it decoded.
func decodeFit(t *testing.T, out string) fitJSON {
	t.Helper()
	var raw map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &raw), "output is not JSON:\n%s", out)
	isNumber := func(v any) bool { _, ok := v.(float64); return ok }
	isInt := func(v any) bool { f, ok := v.(float64); return ok && f == math.Trunc(f) && f >= 0 }
	isString := func(v any) bool { _, ok := v.(string); return ok }
	isBool := func(v any) bool { _, ok := v.(bool); return ok }
	arrayOf := func(elem func(any) bool) func(any) bool {
		return func(v any) bool {
			a, ok := v.([]any)
			if !ok {
				return false
			}
			for _, e := range a {
				if !elem(e) {
					return false
				}
			}
			return true
		}
	}
	orNull := func(f func(any) bool) func(any) bool { return func(v any) bool { return v == nil || f(v) } }
	want := map[string]func(any) bool{
		"penalty":         isString,
		"lambda":          isNumber,
		"nu":              orNull(isNumber), // null for ridge
		"objective":       isNumber,
		"duality_gap":     orNull(isNumber),
		"converged":       isBool,
		"iterations":      isInt,
		"n":               isInt,
		"p":               isInt,
		"intercept":       isNumber,
		"names":           arrayOf(isString),
		"coefficients":    arrayOf(isNumber),
		"distinct_values": arrayOf(isNumber),
		"clusters":        arrayOf(arrayOf(isString)),
		"r2":              isNumber,
	}
	for key, ok := range want {
		v, present := raw[key]
		require.True(t, present, "key %q missing", key)
		require.True(t, ok(v), "key %q has the wrong type: %#v", key, v)
	}

	var r fitJSON
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	require.Len(t, r.Names, r.P)
	require.Len(t, r.Coefficients, r.P)
	require.InDelta(t, r.Lambda/(2*float64(r.N)), r.LambdaGlmnet, 1e-12*math.Max(1, r.Lambda))
	// The clusters partition the predictors.
	var all []string
	for _, cl := range r.Clusters {
		require.NotEmpty(t, cl)
		all = append(all, cl...)
	}
	slices.Sort(all)
	names := slices.Clone(r.Names)
	slices.Sort(names)
	require.Equal(t, names, all, "clusters do not partition the names")
	require.Len(t, r.ClusterValues, len(r.Clusters))
	require.Len(t, r.DistinctValues, len(r.Clusters))
	require.True(t, slices.IsSorted(r.DistinctValues), "distinct_values not increasing")
	// Clusters come in decreasing order of value, one distinct value each;
	// on the data scale every member's coefficient is that value.
	for c, v := range r.ClusterValues {
		require.Equal(t, r.DistinctValues[len(r.DistinctValues)-1-c], v)
		if r.ValueScale == "data" {
			for _, name := range r.Clusters[c] {
				require.Equal(t, v, r.Coefficients[slices.Index(r.Names, name)], "cluster %d, %s", c, name)
			}
		}
	}
	return r
}

// dataset is a CSV file read independently of readTable.
type dataset struct {
	names []string
	rows  [][]float64
}

func loadCSV(t *testing.T, path string) dataset {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	d := dataset{names: recs[0]}
	for _, rec := range recs[1:] {
		row := make([]float64, len(rec))
		for j, s := range rec {
			row[j], err = strconv.ParseFloat(s, 64)
			require.NoError(t, err)
		}
		d.rows = append(d.rows, row)
	}
	return d
}

func (d dataset) col(t *testing.T, name string) []float64 {
	t.Helper()
	j := slices.Index(d.names, name)
	require.GreaterOrEqual(t, j, 0, "no column %q", name)
	out := make([]float64, len(d.rows))
	for i, row := range d.rows {
		out[i] = row[j]
	}
	return out
}

// predict returns intercept + Σ coef·x and the residual sum of squares.
func (d dataset) rss(t *testing.T, r fitJSON) float64 {
	t.Helper()
	y := d.col(t, r.Target)
	pred := make([]float64, len(y))
	for i := range pred {
		pred[i] = r.Intercept
	}
	for k, name := range r.Names {
		for i, x := range d.col(t, name) {
			pred[i] += r.Coefficients[k] * x
		}
	}
	var rss float64
	for i := range y {
		rss += (y[i] - pred[i]) * (y[i] - pred[i])
	}
	return rss
}

// r2 recomputes R² from the coefficients. Without an intercept the total sum
// of squares is uncentred (the convention of R's lm and of tensorreg).
func (d dataset) r2(t *testing.T, r fitJSON, intercept bool) float64 {
	t.Helper()
	y := d.col(t, r.Target)
	var mean float64
	if intercept {
		for _, v := range y {
			mean += v
		}
		mean /= float64(len(y))
	}
	var tss float64
	for _, v := range y {
		tss += (v - mean) * (v - mean)
	}
	return 1 - d.rss(t, r)/tss
}

// sd is the population standard deviation of a column (glmnet's, and
// tensorreg's, convention for --standardize).
func sd(x []float64) float64 {
	var m, s float64
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return math.Sqrt(s / float64(len(x)))
}

func TestFitExampleText(t *testing.T) {
	res := cardreg(t, "fit", "--penalty", "cardinality", example)
	require.Equal(t, 0, res.code, "stderr: %s", res.stderr)
	require.Empty(t, res.stderr)
	for _, re := range []string{
		`(?m)^penalty +cardinality$`,
		`(?m)^lambda +[0-9.e+-]+ \(cv, lambda_min; glmnet scale [0-9.e+-]+\)$`,
		`(?m)^nu +1\.2$`, // 1/(1 − 2/12)
		`(?m)^objective +[0-9.e+-]+$`,
		`(?m)^duality gap +[0-9.e+-]+ \(relative\)$`,
		`(?m)^converged +true \(`,
		`(?m)^n, p +400, 12$`,
		`(?m)^response +y$`,
		`(?m)^R² +0\.9[0-9]+$`,
		`(?m)^distinct values +[0-9]+$`,
		`(?m)^value +predictors$`,
	} {
		require.Regexp(t, regexp.MustCompile(re), res.stdout)
	}
	// The clusters table lists every predictor exactly once.
	_, table, ok := strings.Cut(res.stdout, "\nvalue ")
	require.True(t, ok)
	lines := strings.Split(strings.TrimSpace(table), "\n")[1:]
	var listed []string
	for _, line := range lines {
		fields := strings.Fields(line)
		require.GreaterOrEqual(t, len(fields), 2, "cluster row %q", line)
		_, err := strconv.ParseFloat(fields[0], 64)
		require.NoError(t, err, "cluster row %q", line)
		listed = append(listed, fields[1:]...)
	}
	slices.Sort(listed)
	want := slices.Clone(exampleNames)
	slices.Sort(want)
	require.Equal(t, want, listed)
	m := regexp.MustCompile(`(?m)^distinct values +([0-9]+)$`).FindStringSubmatch(res.stdout)
	require.Equal(t, strconv.Itoa(len(lines)), m[1])
}

func TestFitJSON(t *testing.T) {
	data := loadCSV(t, example)
	for _, tc := range []struct {
		name  string
		args  []string
		check func(t *testing.T, r fitJSON)
	}{
		{
			name: "readme cardinality cv",
			args: []string{"--penalty", "cardinality"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, "cardinality", r.Penalty)
				require.Equal(t, "cv, lambda_min", r.LambdaRule)
				require.NotNil(t, r.CV)
				require.Equal(t, estimator.DefaultFolds, r.CV.Folds)
				require.Equal(t, r.CV.LambdaMin, r.Lambda)
				require.InDelta(t, 1.2, *r.Nu, 1e-12)
				require.True(t, r.Converged)
				require.Less(t, *r.DualityGap, 1e-7)
				require.Equal(t, 400, r.N)
				require.Equal(t, 12, r.P)
				require.Equal(t, "y", r.Target)
				require.Equal(t, exampleNames, r.Names)
			},
		},
		{
			name: "fixed lambda fuses",
			args: []string{"--lambda", "50"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, 50.0, r.Lambda)
				require.Empty(t, r.LambdaRule)
				require.Nil(t, r.CV)
				require.Less(t, len(r.Clusters), r.P, "λ = 50 should fuse some coefficients")
			},
		},
		{
			name: "lasso",
			args: []string{"--penalty", "lasso", "--lambda", "50"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, "lasso", r.Penalty)
				require.Equal(t, 1.0, *r.Nu)
				require.True(t, r.Converged)
			},
		},
		{
			name: "lasso cv",
			args: []string{"--penalty", "lasso"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, "cv, lambda_min", r.LambdaRule)
			},
		},
		{
			name: "ridge",
			args: []string{"--penalty", "ridge", "--lambda", "50"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, "ridge", r.Penalty)
				require.Nil(t, r.Nu)
			},
		},
		{
			name: "grouped",
			args: []string{"--penalty", "grouped", "--groups", groups12},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, "grouped", r.Penalty)
				require.NotNil(t, r.Nu)
				require.Greater(t, *r.Nu, 1.0)
			},
		},
		{
			name: "grouped fixed lambda",
			args: []string{"--penalty", "grouped", "--groups", groups12, "--lambda", "50"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, 50.0, r.Lambda)
			},
		},
		{
			name: "target names a column",
			args: []string{"--target", "x1", "--lambda", "50"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, "x1", r.Target)
				require.NotContains(t, r.Names, "x1")
				require.Contains(t, r.Names, "y")
				require.Equal(t, 12, r.P)
			},
		},
		{
			name: "target is the last column",
			args: []string{"--target", "y", "--lambda", "50"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, exampleNames, r.Names)
			},
		},
		{
			name: "no intercept",
			args: []string{"--no-intercept", "--lambda", "50"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, 0.0, r.Intercept)
			},
		},
		{
			name: "standardize",
			args: []string{"--standardize", "--lambda", "50"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, "standardized", r.ValueScale)
				// Members of a cluster share coefficient × sd, the value
				// shown for the cluster.
				for c, cl := range r.Clusters {
					for _, name := range cl {
						b := r.Coefficients[slices.Index(r.Names, name)]
						require.InDelta(t, r.ClusterValues[c], b*sd(data.col(t, name)), 1e-9, "cluster %d, %s", c, name)
					}
				}
			},
		},
		{
			name: "rule 1se",
			args: []string{"--rule", "1se"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, "cv, lambda_1se", r.LambdaRule)
				require.Equal(t, r.CV.Lambda1SE, r.Lambda)
				require.GreaterOrEqual(t, r.CV.Lambda1SE, r.CV.LambdaMin)
			},
		},
		{
			name: "folds and seed",
			args: []string{"--folds", "4", "--seed", "99"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, 4, r.CV.Folds)
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{"fit", "--format", "json"}, tc.args...), example)
			res := cardreg(t, args...)
			require.Equal(t, 0, res.code, "stderr: %s", res.stderr)
			require.Empty(t, res.stderr)
			r := decodeFit(t, res.stdout)
			tc.check(t, r)

			// The coefficients reproduce the R² printed.
			intercept := !slices.Contains(tc.args, "--no-intercept")
			require.InDelta(t, data.r2(t, r, intercept), *r.R2, 1e-9)

			// And, on the data scale, the objective ‖y − Xb − b0‖² + λh(b).
			if r.ValueScale == "data" {
				var h float64
				b := r.Coefficients
				switch r.Penalty {
				case "cardinality":
					var sum float64
					for i := range b {
						sum += b[i]
						for j := i + 1; j < len(b); j++ {
							h += math.Abs(b[i] - b[j])
						}
					}
					h += *r.Nu * math.Abs(sum)
				case "lasso":
					for _, v := range b {
						h += *r.Nu * math.Abs(v)
					}
				case "ridge":
					for _, v := range b {
						h += v * v
					}
				default:
					return
				}
				require.InDelta(t, r.Objective, data.rss(t, r)+r.Lambda*h, 1e-9*r.Objective)
			}

			// The text output of the same fit prints the same R².
			text := cardreg(t, append(slices.Clone(args[:1]), args[3:]...)...)
			require.Equal(t, 0, text.code, "stderr: %s", text.stderr)
			require.Regexp(t, regexp.MustCompile(`(?m)^R² +`+regexp.QuoteMeta(fmt.Sprintf("%.6f", *r.R2))+`$`), text.stdout)
		})
	}
}

func TestFitDeterministic(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b []string
	}{
		{"same seed, text", []string{"fit", "--seed", "42", example}, []string{"fit", "--seed", "42", example}},
		{"same seed, json", []string{"fit", "--seed", "7", "--format", "json", example}, []string{"fit", "--seed", "7", "--format", "json", example}},
		{"default seed is 1", []string{"fit", example}, []string{"fit", "--seed", "1", example}},
		{"flags after the file", []string{"fit", "--penalty", "lasso", "--lambda", "50", "--format", "json", example}, []string{"fit", example, "--penalty", "lasso", "--lambda", "50", "--format", "json"}},
		{"flags on both sides", []string{"fit", "--penalty", "lasso", "--rule", "1se", example}, []string{"fit", "--penalty", "lasso", example, "--rule", "1se"}},
		{"double dash", []string{"fit", "--lambda", "50", example}, []string{"fit", "--lambda", "50", "--", example}},
		{"single-dash flags", []string{"fit", "--lambda", "50", example}, []string{"fit", "-lambda=50", example}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := cardreg(t, tc.a...), cardreg(t, tc.b...)
			require.Equal(t, 0, a.code, "stderr: %s", a.stderr)
			require.Equal(t, 0, b.code, "stderr: %s", b.stderr)
			require.NotEmpty(t, a.stdout)
			require.Equal(t, a.stdout, b.stdout)
		})
	}
}

func TestFitSmallFiles(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, data string
		args       []string
		check      func(t *testing.T, r fitJSON)
	}{
		{
			name: "BOM and CRLF",
			data: "\ufeffa,b,y\r\n1,2,3\r\n2,1,5\r\n3,3,3\r\n",
			args: []string{"--lambda", "1"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, []string{"a", "b"}, r.Names)
				require.Equal(t, 3, r.N)
			},
		},
		{
			name: "BOM, target the first column",
			data: "\ufeffa,b,y\n1,2,3\n2,1,5\n3,3,3\n",
			args: []string{"--lambda", "1", "--target", "a"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, "a", r.Target)
			},
		},
		{
			name: "semicolons, quotes and spaces",
			data: "\"a\"; b ;y\n 1 ;\"2\"; 3\n2;1;5\n3;3;3\n",
			args: []string{"--lambda", "1", "--sep", ";"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, []string{"a", "b"}, r.Names)
				require.Equal(t, "y", r.Target)
			},
		},
		{
			name: "tabs",
			data: "a\tb\ty\n1\t2\t3\n2\t1\t5\n3\t3\t3\n",
			args: []string{"--lambda", "1", "--sep", "\t"},
			check: func(t *testing.T, r fitJSON) {
				require.Equal(t, []string{"a", "b"}, r.Names)
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, dir, strings.ReplaceAll(tc.name, " ", "_")+".csv", tc.data)
			res := cardreg(t, append(append([]string{"fit", "--format", "json"}, tc.args...), path)...)
			require.Equal(t, 0, res.code, "stderr: %s", res.stderr)
			tc.check(t, decodeFit(t, res.stdout))
		})
	}

	// A constant response is bad input (issue 3): one line, exit 1.
	path := writeFile(t, dir, "const.csv", "a,b,y\n1,2,3\n2,1,3\n3,3,3\n")
	res := cardreg(t, "fit", "--lambda", "1", "--format", "json", path)
	require.Equal(t, 1, res.code)
	require.Contains(t, res.stderr, `the response "y" is constant`)
	one := writeFile(t, dir, "one.csv", "a,y\n1,2\n")
	res = cardreg(t, "fit", "--lambda", "1", one)
	require.Equal(t, 1, res.code)
	require.Contains(t, res.stderr, "at least 2 are needed")
}

func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"help", []string{"help"}, "cardreg fit [flags] DATA.csv"},
		{"--help", []string{"--help"}, "cardreg fit [flags] DATA.csv"},
		{"help fit", []string{"help", "fit"}, "Usage: cardreg fit [flags] DATA.csv"},
		{"fit -h", []string{"fit", "-h"}, "Usage: cardreg fit [flags] DATA.csv"},
		{"fit --help", []string{"fit", example, "--help"}, "-penalty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := cardreg(t, tc.args...)
			require.Equal(t, 0, res.code)
			require.Contains(t, res.stdout, tc.want)
			require.Empty(t, res.stderr)
		})
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.csv", "a,b,y\n1,2,3\n2,1,5\n3,3,3\n4,0,1\n5,5,5\n6,1,2\n")
	file := func(name, content string) string { return writeFile(t, dir, name, content) }
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string // substrings of the one stderr line
	}{
		// Data errors: exit 1.
		{"missing file", []string{"fit", filepath.Join(dir, "nope.csv")}, 1, []string{"nope.csv", "no such file"}},
		{"directory", []string{"fit", dir}, 1, []string{dir}},
		{"empty file", []string{"fit", file("empty.csv", "")}, 1, []string{"empty.csv", "empty file"}},
		{"blank lines only", []string{"fit", file("blank.csv", "\n\r\n\n")}, 1, []string{"blank.csv", "empty file"}},
		{"header only", []string{"fit", file("header.csv", "a,b,y\n")}, 1, []string{"header.csv", "no data rows"}},
		{"non-numeric cell", []string{"fit", file("text.csv", "a,b,y\n1,2,3\n4,x,6\n")}, 1, []string{`text.csv:3: column "b": cannot parse "x" as a number`}},
		{"non-numeric cell after a multi-line field", []string{"fit", file("multi.csv", "a,b,y\n1,2,3\n\"4\n\",5,six\n")}, 1, []string{`multi.csv:4: column "y": cannot parse "six" as a number`}},
		{"empty cell", []string{"fit", file("hole.csv", "a,b,y\n1,2,3\n4,,6\n")}, 1, []string{`hole.csv:3: column "b": empty cell (missing values are not supported)`}},
		{"NaN cell", []string{"fit", file("nan.csv", "a,b,y\n1,2,3\n4,NaN,6\n")}, 1, []string{`nan.csv:3: column "b": "NaN" is not a finite number`}},
		{"Inf cell", []string{"fit", file("inf.csv", "a,b,y\n1,2,3\n4,5,-Inf\n")}, 1, []string{`inf.csv:3: column "y": "-Inf" is not a finite number`}},
		{"overflowing cell", []string{"fit", file("big.csv", "a,b,y\n1e400,2,3\n")}, 1, []string{`big.csv:2: column "a": "1e400" is not a finite number`}},
		{"ragged row", []string{"fit", file("ragged.csv", "a,b,y\n1,2,3\n4,5\n")}, 1, []string{"ragged.csv:3: expected 3 fields, got 2"}},
		{"long row", []string{"fit", file("long.csv", "a,b,y\n1,2,3,4\n")}, 1, []string{"long.csv:2: expected 3 fields, got 4"}},
		{"bare quote", []string{"fit", file("quote.csv", "a,b,y\n1,2\"x,3\n")}, 1, []string{"quote.csv:2:", `bare "`}},
		{"duplicate header names", []string{"fit", file("dup.csv", "a,b,a\n1,2,3\n")}, 1, []string{"dup.csv:1:", `"a" appears twice`, "columns 1 and 3"}},
		{"duplicate header after blank lines", []string{"fit", file("dup2.csv", "\n\na, a ,y\n1,2,3\n")}, 1, []string{"dup2.csv:3:", `"a" appears twice`}},
		{"empty header name", []string{"fit", file("noname.csv", "a,,y\n1,2,3\n")}, 1, []string{"noname.csv:1:", "column 2: empty name"}},
		{"header name with a line break", []string{"fit", file("nl.csv", "\"a\nb\",y\n1,2\n")}, 1, []string{"nl.csv:1:", "control or invisible character"}},
		{"one column", []string{"fit", "--lambda", "1", file("one.csv", "y\n1\n2\n")}, 1, []string{"one.csv", "predictor"}},
		{"more folds than rows", []string{"fit", file("three.csv", "a,b,y\n1,2,3\n2,1,5\n3,3,3\n")}, 1, []string{"10 folds for 3 observations"}},

		// Usage errors: exit 2.
		{"unknown --target", []string{"fit", "--target", "zzz", good}, 2, []string{"--target", `"zzz"`, "a, b, y"}},
		{"unknown --penalty", []string{"fit", "--penalty", "elastic", good}, 2, []string{"--penalty", `"elastic"`}},
		{"bad --lambda", []string{"fit", "--lambda", "fifty", good}, 2, []string{"--lambda", `"fifty"`}},
		{"negative --lambda", []string{"fit", "--lambda", "-1", good}, 2, []string{"--lambda", `"-1"`}},
		{"NaN --lambda", []string{"fit", "--lambda", "NaN", good}, 2, []string{"--lambda", `"NaN"`}},
		{"infinite --lambda", []string{"fit", "--lambda", "Inf", good}, 2, []string{"--lambda", `"Inf"`}},
		{"negative --nu", []string{"fit", "--nu", "-1", good}, 2, []string{"--nu", "-1"}},
		{"NaN --nu", []string{"fit", "--nu", "NaN", good}, 2, []string{"--nu", "NaN"}},
		{"non-numeric --nu", []string{"fit", "--nu", "abc", good}, 2, []string{"-nu", `"abc"`}},
		{"--groups with the wrong count", []string{"fit", "--penalty", "grouped", "--groups", "g,g,h", good}, 2, []string{"--groups", "3 labels for 2 predictors"}},
		{"grouped without --groups", []string{"fit", "--penalty", "grouped", good}, 2, []string{"--groups"}},
		{"--format bogus", []string{"fit", "--format", "bogus", good}, 2, []string{"--format", `"bogus"`}},
		{"--sep with two characters", []string{"fit", "--sep", ";;", good}, 2, []string{"--sep", `";;"`, "one character"}},
		{"--sep empty", []string{"fit", "--sep", "", good}, 2, []string{"--sep"}},
		{"--sep quote", []string{"fit", "--sep", `"`, good}, 2, []string{"--sep"}},
		{"--rule bogus", []string{"fit", "--rule", "max", good}, 2, []string{"--rule", `"max"`}},
		{"--folds 1", []string{"fit", "--folds", "1", good}, 2, []string{"--folds"}},
		{"--tol 0", []string{"fit", "--tol", "0", good}, 2, []string{"--tol"}},
		{"--max-iter 0", []string{"fit", "--max-iter", "0", good}, 2, []string{"--max-iter"}},
		{"unknown flag", []string{"fit", "--lamda", "5", good}, 2, []string{"-lamda"}},
		{"flag without value", []string{"fit", good, "--lambda"}, 2, []string{"-lambda"}},
		{"no file argument", []string{"fit"}, 2, []string{"one data file", "got 0"}},
		{"no file argument, flags only", []string{"fit", "--lambda", "5"}, 2, []string{"one data file", "got 0"}},
		{"two file arguments", []string{"fit", good, good}, 2, []string{"one data file", "got 2"}},
		{"unknown command", []string{"fti", good}, 2, []string{`unknown command "fti"`}},
		// A usage error is reported before the data is read.
		{"usage error before data error", []string{"fit", "--format", "xml", filepath.Join(dir, "nope.csv")}, 2, []string{"--format"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := cardreg(t, tc.args...)
			require.Equal(t, tc.code, res.code, "stderr: %s", res.stderr)
			require.Empty(t, res.stdout)
			require.True(t, strings.HasPrefix(res.stderr, "cardreg"), "stderr: %q", res.stderr)
			require.Equal(t, 1, strings.Count(res.stderr, "\n"), "want one line on stderr, got %q", res.stderr)
			require.True(t, strings.HasSuffix(res.stderr, "\n"))
			require.NotContains(t, res.stderr, "panic")
			require.NotContains(t, res.stderr, "goroutine")
			for _, w := range tc.want {
				require.Contains(t, res.stderr, w)
			}
		})
	}
}

// listDir returns the names in dir, sorted.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

func TestOutFile(t *testing.T) {
	dataDir := t.TempDir()
	bad := writeFile(t, dataDir, "bad.csv", "a,b,y\n1,2,3\n4,x,6\n")
	const old = "previous result\n"

	for _, tc := range []struct {
		name     string
		args     []string // --out is added
		existing bool     // the output file exists beforehand
		code     int
	}{
		{"new file, text", []string{"--lambda", "50", example}, false, 0},
		{"new file, json", []string{"--lambda", "50", "--format", "json", example}, false, 0},
		{"replaces an existing file", []string{"--lambda", "50", example}, true, 0},
		{"bad --format keeps the file", []string{"--format", "bogus", example}, true, 2},
		{"bad data keeps the file", []string{bad}, true, 1},
		{"missing data keeps the file", []string{filepath.Join(dataDir, "nope.csv")}, true, 1},
		{"bad --lambda keeps the file", []string{"--lambda", "-3", example}, true, 2},
		{"failed fit keeps the file", []string{"--folds", "9", writeFile(t, dataDir, "small.csv", "a,b,y\n1,2,3\n2,1,5\n3,3,3\n")}, true, 1},
		{"bad data, no file created", []string{bad}, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "result.txt")
			if tc.existing {
				require.NoError(t, os.WriteFile(out, []byte(old), 0o640))
				require.NoError(t, os.Chmod(out, 0o640)) // whatever the umask
			}
			args := append([]string{"fit", "--out", out}, tc.args...)
			res := cardreg(t, args...)
			require.Equal(t, tc.code, res.code, "stderr: %s", res.stderr)
			require.Empty(t, res.stdout, "with --out nothing goes to stdout")

			switch {
			case tc.code == 0:
				require.Empty(t, res.stderr)
				got, err := os.ReadFile(out)
				require.NoError(t, err)
				// The same bytes as on stdout without --out.
				plain := cardreg(t, append([]string{"fit"}, tc.args...)...)
				require.Equal(t, 0, plain.code)
				require.Equal(t, plain.stdout, string(got))
				fi, err := os.Stat(out)
				require.NoError(t, err)
				if tc.existing && runtime.GOOS != "windows" {
					require.Equal(t, os.FileMode(0o640), fi.Mode().Perm(), "a replaced file keeps its permissions")
				}
				if !tc.existing && runtime.GOOS != "windows" {
					// Like any new file (0666 less the umask), not
					// os.CreateTemp's 0600.
					ref := writeFile(t, t.TempDir(), "ref", "")
					rfi, err := os.Stat(ref)
					require.NoError(t, err)
					require.Equal(t, rfi.Mode().Perm(), fi.Mode().Perm())
				}
			case tc.existing:
				require.Equal(t, 1, strings.Count(res.stderr, "\n"), "stderr: %q", res.stderr)
				got, err := os.ReadFile(out)
				require.NoError(t, err)
				require.Equal(t, old, string(got), "a failed run changed --out")
			}
			want := []string{"result.txt"}
			if tc.code != 0 && !tc.existing {
				want = nil
			}
			require.Equal(t, want, listDir(t, dir), "stray files left next to --out")
		})
	}

	t.Run("missing directory", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "no", "such", "dir", "r.txt")
		res := cardreg(t, "fit", "--lambda", "50", "--out", out, example)
		require.Equal(t, 1, res.code)
		require.Contains(t, res.stderr, "--out "+out)
		require.Equal(t, 1, strings.Count(res.stderr, "\n"), "stderr: %q", res.stderr)
	})
}

// A writer that fails half way through must leave the existing file alone
// and no temporary file behind.
func TestWriteOutputFailure(t *testing.T) {
	dir := t.TempDir()
	out := writeFile(t, dir, "r.json", "keep me\n")
	boom := errors.New("boom")
	err := outfile.Write("--out", out, io.Discard, func(w io.Writer) error {
		fmt.Fprint(w, "partial output")
		return boom
	})
	require.ErrorIs(t, err, boom)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, "keep me\n", string(got))
	require.Equal(t, []string{"r.json"}, listDir(t, dir))
}

// TestRelax: --relax refits least squares on the clusters. On the bundled
// example (true coefficients in four values) it finds four clusters, the
// JSON says so, and each cluster's value is the least-squares value: the
// residuals are orthogonal to every cluster's summed predictor.
func TestRelax(t *testing.T) {
	res := cardreg(t, "fit", "--relax", "--format", "json", "../../examples/cardinality.csv")
	require.Equal(t, 0, res.code, res.stderr)
	r := decodeFit(t, res.stdout)
	require.True(t, r.Relaxed)
	require.Len(t, r.DistinctValues, 4)
	d := loadCSV(t, "../../examples/cardinality.csv")
	y := d.col(t, "y")
	resid := make([]float64, len(y))
	for i := range y {
		resid[i] = y[i] - r.Intercept
		for j, name := range r.Names {
			resid[i] -= r.Coefficients[j] * d.col(t, name)[i]
		}
	}
	for _, cl := range r.Clusters {
		var dot, scale float64
		for i := range y {
			var z float64
			for _, name := range cl {
				z += d.col(t, name)[i]
			}
			dot += z * resid[i]
			scale += z * z
		}
		require.InDelta(t, 0, dot/math.Sqrt(scale), 1e-6, "cluster %v", cl)
	}
	plain := decodeFit(t, cardreg(t, "fit", "--format", "json", "../../examples/cardinality.csv").stdout)
	require.False(t, plain.Relaxed)
	text := cardreg(t, "fit", "--relax", "../../examples/cardinality.csv")
	require.Contains(t, text.stdout, "relaxed")
}

func TestConstantPredictorsAreNamed(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "cz.csv", "a,c,z,y\n1,5,0,3\n2,5,0,1\n3,5,0,4\n4,5,0,2\n5,5,0,6\n6,5,0,5\n")
	res := cardreg(t, "fit", "--lambda", "2", "--format", "json", path)
	require.Equal(t, 0, res.code, res.stderr)
	var out struct {
		Constant []string `json:"constant_predictors"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &out))
	require.Equal(t, []string{"c", "z"}, out.Constant)
	text := cardreg(t, "fit", "--lambda", "2", path)
	require.Contains(t, text.stdout, "constant predictors (c z)")
}

// TestBound: the LP values equal the closed form and respect 2/√P; bad
// flags are usage errors.
func TestBound(t *testing.T) {
	res := cardreg(t, "bound", "--max-rows", "5", "--cols", "1,3", "--partitions", "2", "--format", "json")
	require.Equal(t, 0, res.code, res.stderr)
	var rows []struct {
		Kind   string  `json:"kind"`
		Rows   int     `json:"rows"`
		P      int     `json:"P"`
		MG     float64 `json:"M_G_lp"`
		Closed float64 `json:"closed_form"`
		Bound  float64 `json:"bound"`
		Holds  bool    `json:"holds"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &rows))
	require.Len(t, rows, 4*2+2)
	for _, r := range rows {
		require.True(t, r.Holds)
		require.InDelta(t, r.Closed, r.MG, 1e-9, "%+v", r)
		if r.Kind == "all-pairs" {
			require.InDelta(t, 2/math.Sqrt(float64(r.P)), r.Bound, 1e-12)
			require.InDelta(t, 2/(float64(r.Rows)*math.Sqrt(float64(r.P))), r.MG, 1e-9)
		}
	}
	text := cardreg(t, "bound", "--max-rows", "3")
	require.Equal(t, 0, text.code)
	require.Contains(t, text.stdout, "M_G (LP)")
	for _, bad := range [][]string{{"--max-rows", "1"}, {"--max-rows", "40"}, {"--cols", "0"}, {"--format", "xml"}, {"extra"}} {
		r := cardreg(t, append([]string{"bound"}, bad...)...)
		require.Equal(t, 2, r.code, "%v", bad)
		require.Equal(t, 1, strings.Count(r.stderr, "\n"), "%v: %q", bad, r.stderr)
	}
}

// TestLambda: the network λ with the keys, the regression λ with
// its Monte-Carlo companion, and usage errors.
func TestLambda(t *testing.T) {
	res := cardreg(t, "lambda", "--arch", "64,40,1", "--n", "1797", "--xnorm", "6.2", "--penalty", "cardinality", "--activation", "relu", "--format", "json")
	require.Equal(t, 0, res.code, res.stderr)
	var out map[string]any
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &out))
	for _, k := range []string{"lambda", "M_G", "P", "L", "a_lip", "xnorm", "n", "nu_min", "C"} {
		require.Contains(t, out, k)
	}
	require.InDelta(t, 32.2467119116, out["lambda"], 1e-9)
	require.InDelta(t, 0.05, out["M_G"], 1e-15)
	require.Equal(t, 2600.0, out["P"])
	require.Equal(t, 1.0, out["C"])
	text := cardreg(t, "lambda", "--arch", "64,40,1", "--n", "1797", "--xnorm", "6.2")
	require.Equal(t, 0, text.code)
	require.Contains(t, text.stdout, "noise constant; default 1")

	reg := cardreg(t, "lambda", "--regression", "--data", "../../examples/cardinality.csv", "--sigma", "1", "--mc", "300", "--format", "json")
	require.Equal(t, 0, reg.code, reg.stderr)
	var r map[string]any
	require.NoError(t, json.Unmarshal([]byte(reg.stdout), &r))
	require.Less(t, r["effective_noise_mc"].(float64), r["lambda"].(float64))
	require.InDelta(t, r["equivalence"].(float64)*r["lambda_t"].(float64), r["lambda"], 1e-9)

	for _, bad := range [][]string{{"--arch", "5"}, {"--arch", "5,x,1"}, {"--activation", "sigmoid", "--arch", "5,4,1", "--n", "3", "--xnorm", "1"},
		{"--arch", "5,4,1"}, {"--regression"}, {"--penalty", "ridge"}, {"--format", "xml"}} {
		r := cardreg(t, append([]string{"lambda"}, bad...)...)
		require.Equal(t, 2, r.code, "%v: %s", bad, r.stderr)
		require.Equal(t, 1, strings.Count(r.stderr, "\n"), "%v", bad)
	}
	two := cardreg(t, "lambda", "--arch", "5,2,1", "--n", "10", "--xnorm", "1")
	require.Equal(t, 1, two.code)
	require.Contains(t, two.stderr, "M_G")
}

func TestLambdaGrouped(t *testing.T) {
	res := cardreg(t, "lambda", "--arch", "4,5,3,1", "--n", "50", "--xnorm", "2", "--penalty", "grouped", "--groups", "0,0,1,1,1;0,1,1;0", "--format", "json")
	require.Equal(t, 0, res.code, res.stderr)
	var out map[string]any
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &out))
	want := math.Max(math.Max(2/(2*math.Sqrt(8)), 2/(3*math.Sqrt(12))), 2/(2*math.Sqrt(10)))
	require.InDelta(t, want, out["M_G"], 1e-12)
	for _, bad := range [][]string{{"--groups", "0,0;0"}, {"--groups", "a;b;c"}, {}} {
		args := append([]string{"lambda", "--arch", "4,5,3,1", "--n", "50", "--xnorm", "2", "--penalty", "grouped"}, bad...)
		r := cardreg(t, args...)
		require.NotEqual(t, 0, r.code, "%v", bad)
		require.Equal(t, 1, strings.Count(r.stderr, "\n"), "%v: %q", bad, r.stderr)
	}
}

// TestLambdaTheory: --lambda theory fits at Theorem 2's λ, computed on the
// centred design; with --sigma the value is reproducible from the bounds
// package, without it σ comes from the least-squares residuals.
func TestLambdaTheory(t *testing.T) {
	path := "../../examples/cardinality.csv"
	res := cardreg(t, "fit", "--lambda", "theory", "--sigma", "1", "--format", "json", path)
	require.Equal(t, 0, res.code, res.stderr)
	var out struct {
		Lambda float64 `json:"lambda"`
		Theory struct {
			Lambda, LambdaT, S, Equivalence, Sigma float64
			SigmaFrom                              string `json:"sigma_from"`
		} `json:"theory"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &out))
	require.Equal(t, out.Theory.Lambda, out.Lambda)
	d := loadCSV(t, path)
	x := mat.NewDense(400, 12, nil)
	for j := 0; j < 12; j++ {
		x.SetCol(j, d.col(t, fmt.Sprintf("x%d", j+1)))
	}
	rc, err := bounds.RegressionLambda(bounds.CentreColumns(x), 1, 1, 0.05, 2.0/12, 1/(1-2.0/12))
	require.NoError(t, err)
	require.InDelta(t, rc.Lambda, out.Lambda, 1e-9*rc.Lambda)

	est := cardreg(t, "fit", "--lambda", "theory", "--format", "json", path)
	require.Equal(t, 0, est.code, est.stderr)
	require.NoError(t, json.Unmarshal([]byte(est.stdout), &out))
	require.Contains(t, out.Theory.SigmaFrom, "least-squares")
	require.InDelta(t, 1, out.Theory.Sigma, 0.1, "the example's noise has σ = 1")

	r := cardreg(t, "fit", "--lambda", "theory", "--penalty", "ridge", path)
	require.Equal(t, 2, r.code)
	r = cardreg(t, "fit", "--lambda", "theory", "--t", "2", path)
	require.Equal(t, 2, r.code)
}
