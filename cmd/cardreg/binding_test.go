package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/binding"
	"github.com/cardsparse/cardreg/request"
	"github.com/stretchr/testify/require"
)

// csvInput reads a bundled example with encoding/csv, not the data
// package: its numeric predictors as a row-major matrix, its text columns
// as factors (levels sorted byte-wise, as the command line orders text),
// the response target, and the columns drop leaves out.
func csvInput(t *testing.T, path, target string, drop ...string) (*binding.Input, map[string]any, map[string][]float64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head, rows := recs[0], recs[1:]
	in := &binding.Input{N: len(rows)}
	var names []string
	var factors []request.FactorInfo
	cols := map[string][]float64{}
	for j, name := range head {
		if _, err := strconv.ParseFloat(rows[0][j], 64); err != nil {
			levels := map[string]int32{}
			var list []string
			for _, r := range rows {
				if _, ok := levels[r[j]]; !ok {
					levels[r[j]] = 0
					list = append(list, r[j])
				}
			}
			slices.Sort(list)
			for c, l := range list {
				levels[l] = int32(c)
			}
			for _, r := range rows {
				in.Codes = append(in.Codes, levels[r[j]])
			}
			factors = append(factors, request.FactorInfo{Name: name, Levels: list})
			continue
		}
		for _, r := range rows {
			v, err := strconv.ParseFloat(r[j], 64)
			if err != nil {
				t.Fatal(err)
			}
			cols[name] = append(cols[name], v)
		}
		if name != target && !slices.Contains(drop, name) {
			names = append(names, name)
		}
	}
	in.P, in.Y = len(names), cols[target]
	for i := range in.N {
		for _, name := range names {
			in.X = append(in.X, cols[name][i])
		}
	}
	return in, map[string]any{"names": names, "factors": factors}, cols
}

// TestBindingMatchesCommandLine fits the bundled examples through the
// bindings' layer and through the command line: the same coefficients,
// by name, the same intercept and λ, to 1e-12 relative.
func TestBindingMatchesCommandLine(t *testing.T) {
	cases := []struct {
		file, target string
		drop         []string
		offset       string
		args         []string
		opts         map[string]any
	}{
		{file: "cardinality.csv", target: "y", args: []string{"--lambda", "5"}, opts: map[string]any{"lambda": 5}},
		{file: "cardinality.csv", target: "y", args: []string{"--relax", "--folds", "5"}, opts: map[string]any{"relax": true, "folds": 5}},
		{file: "credit.csv", target: "default", args: []string{"--family", "binomial", "--rule", "1se", "--folds", "3"}, opts: map[string]any{"family": "binomial", "rule": "1se", "folds": 3}},
		{file: "claims.csv", target: "claims", drop: []string{"exposure", "log_exposure"}, offset: "log_exposure",
			args: []string{"--family", "poisson", "--offset", "log_exposure", "--drop", "exposure", "--lambda", "20"}, opts: map[string]any{"family": "poisson", "lambda": 20}},
		{file: "policies.csv", target: "claims", drop: []string{"exposure", "log_exposure"}, offset: "log_exposure",
			args: []string{"--family", "poisson", "--offset", "log_exposure", "--drop", "exposure", "--lambda", "aic"}, opts: map[string]any{"family": "poisson", "lambda": "aic"}},
		{file: "policies.csv", target: "claims", drop: []string{"log_exposure"},
			args: []string{"--drop", "log_exposure", "--lambda", "30", "--pair-weights", "count"}, opts: map[string]any{"lambda": 30, "pair-weights": "count"}},
	}
	for _, c := range cases {
		t.Run(c.file+" "+strings.Join(c.args, " "), func(t *testing.T) {
			path := "../../examples/" + c.file
			res := cardreg(t, append(append([]string{"fit", "--format", "json", "--target", c.target}, c.args...), path)...)
			if res.code != 0 {
				t.Fatalf("cardreg fit: %s", res.stderr)
			}
			var cli map[string]any
			if err := json.Unmarshal([]byte(res.stdout), &cli); err != nil {
				t.Fatal(err)
			}
			in, opts, cols := csvInput(t, path, c.target, c.drop...)
			if c.offset != "" {
				in.Offset = cols[c.offset]
			}
			for k, v := range c.opts {
				opts[k] = v
			}
			raw, _ := json.Marshal(opts)
			r, err := binding.Fit(in, raw)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal(r.JSON(), &got); err != nil {
				t.Fatal(err)
			}
			compareFits(t, cli, got)
		})
	}
}

// compareFits compares two fit documents: λ, intercept, and each
// coefficient by its column's name.
func compareFits(t *testing.T, want, got map[string]any) {
	t.Helper()
	close := func(what string, a, b float64) {
		if math.Abs(a-b) > 1e-12*math.Max(1, math.Max(math.Abs(a), math.Abs(b))) {
			t.Errorf("%s: command line %v, binding %v", what, a, b)
		}
	}
	close("lambda", want["lambda"].(float64), got["lambda"].(float64))
	close("intercept", want["intercept"].(float64), got["intercept"].(float64))
	coef := map[string]float64{}
	for k, name := range got["names"].([]any) {
		coef[name.(string)] = got["coefficients"].([]any)[k].(float64)
	}
	names := want["names"].([]any)
	if len(names) != len(coef) {
		t.Fatalf("%d columns on the command line, %d through the binding", len(names), len(coef))
	}
	for k, name := range names {
		v, ok := coef[name.(string)]
		if !ok {
			t.Fatalf("column %s missing from the binding's fit", name)
		}
		close(name.(string), want["coefficients"].([]any)[k].(float64), v)
	}
	for _, key := range []string{"lambda_rule", "converged", "family", "penalty"} {
		if want[key] != got[key] {
			t.Errorf("%s: command line %v, binding %v", key, want[key], got[key])
		}
	}
	wf, _ := want["factors"].([]any)
	gf, _ := got["factors"].([]any)
	if len(wf) != len(gf) {
		t.Fatalf("%d factors on the command line, %d through the binding", len(wf), len(gf))
	}
	for f := range wf {
		wg, gg := wf[f].(map[string]any)["groups"].([]any), gf[f].(map[string]any)["groups"].([]any)
		if len(wg) != len(gg) {
			t.Fatalf("factor %d: %d level groups on the command line, %d through the binding", f, len(wg), len(gg))
		}
		for g := range wg {
			a, b := wg[g].(map[string]any), gg[g].(map[string]any)
			la, _ := json.Marshal(a["levels"])
			lb, _ := json.Marshal(b["levels"])
			if string(la) != string(lb) {
				t.Errorf("factor %d group %d: levels %s and %s", f, g, la, lb)
			}
			close("effect", a["effect"].(float64), b["effect"].(float64))
		}
	}
}

// TestOneRefusal: the command line and the bindings refuse an option
// without effect by the same rule of one table (request.Request.Rules),
// with the same message, the options spelt as each caller names them
// (--folds and cardreg cv on the command line, folds and cv in JSON).
func TestOneRefusal(t *testing.T) {
	xs := make([]float64, 40)
	y := make([]float64, 20)
	for i := range xs {
		xs[i] = float64(i*7%11) - 5
	}
	for i := range y {
		y[i] = float64(i % 5)
	}
	in := &binding.Input{X: xs, N: 20, P: 2, Y: y}
	for _, c := range []struct {
		cmd  string
		args []string
		opts string
	}{
		{"fit", []string{"--lambda", "1", "--folds", "5"}, `{"lambda": 1, "folds": 5}`},
		{"fit", []string{"--lambda", "1", "--rule", "1se"}, `{"lambda": 1, "rule": "1se"}`},
		{"cv", []string{"--rule", "1se"}, `{"rule": "1se"}`},
		{"path", []string{"--type-measure", "mse"}, `{"type-measure": "mse"}`},
		{"cv", []string{"--foldid", "k", "--seed", "3"}, `{"foldid": [1, 2], "seed": 3}`},
		{"path", []string{"--lambda", "1,2", "--nlambda", "5"}, `{"lambda": [1, 2], "nlambda": 5}`},
		{"fit", []string{"--lambda", "1", "--penalty", "ridge", "--nu", "2"}, `{"lambda": 1, "penalty": "ridge", "nu": 2}`},
		{"fit", []string{"--lambda", "1", "--penalty-factor", "1,1"}, `{"lambda": 1, "penalty-factor": [1, 1]}`},
		{"fit", []string{"--lambda", "1", "--penalty", "lasso", "--penalty-factor", "1,1", "--nu", "2"}, `{"lambda": 1, "penalty": "lasso", "penalty-factor": [1, 1], "nu": 2}`},
		{"fit", []string{"--lambda", "1", "--groups", "a,b"}, `{"lambda": 1, "groups": ["a", "b"]}`},
		{"cv", []string{"--lambda", "5"}, `{"lambda": 5}`},
		{"fit", []string{"--rule", "2se"}, `{"rule": "2se"}`},
		{"cv", []string{"--folds", "2"}, `{"folds": 2}`},
	} {
		res := cardreg(t, append(append([]string{c.cmd}, c.args...), "no-such-file.csv")...)
		require.Equal(t, 2, res.code, "%s %v: %s", c.cmd, c.args, res.stderr)
		cli := strings.TrimSuffix(strings.TrimPrefix(res.stderr, "cardreg "+c.cmd+": "), "\n")
		cli = strings.ReplaceAll(strings.ReplaceAll(cli, "cardreg ", ""), "--", "")
		call := map[string]func(*binding.Input, []byte) (*binding.Result, error){"fit": binding.Fit, "path": binding.Path, "cv": binding.CV}[c.cmd]
		_, err := call(in, []byte(c.opts))
		require.Error(t, err, c.opts)
		require.Equal(t, cli, strings.TrimPrefix(err.Error(), "options: "), "%s %v / %s", c.cmd, c.args, c.opts)
	}
}

// TestLambdaGlmnetScale: --lambda-glmnet g fits at λ = 2n·g, as --lambda
// 2n·g, on the command line and through the bindings (n = 400 rows).
func TestLambdaGlmnetScale(t *testing.T) {
	path := "../../examples/cardinality.csv"
	fit := func(args ...string) map[string]any {
		res := cardreg(t, append(append([]string{"fit", "--format", "json"}, args...), path)...)
		require.Equal(t, 0, res.code, res.stderr)
		var d map[string]any
		require.NoError(t, json.Unmarshal([]byte(res.stdout), &d))
		return d
	}
	byGlmnet, byLambda := fit("--lambda-glmnet", "0.0125"), fit("--lambda", "10")
	require.Equal(t, 10.0, byGlmnet["lambda"])
	require.Equal(t, byLambda["coefficients"], byGlmnet["coefficients"])
	in, opts, _ := csvInput(t, path, "y")
	opts["lambda-glmnet"] = 0.0125
	raw, _ := json.Marshal(opts)
	r, err := binding.Fit(in, raw)
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(r.JSON(), &got))
	require.Equal(t, byLambda["coefficients"], got["coefficients"])
}
