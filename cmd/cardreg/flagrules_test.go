package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cardsparse/cardreg/request"
	"github.com/stretchr/testify/require"
)

// parsedFlags parses and validates the command line of fit, path or cv
// as runFit and runPathCV do, up to the flags table, and returns the
// flags and their flag set.
func parsedFlags(t *testing.T, cmd string, args []string) (*fitFlags, *flag.FlagSet) {
	t.Helper()
	var fs *flag.FlagSet
	var f *fitFlags
	var pf *pathFlags
	if cmd == "fit" {
		fs, f = newFitFlags(io.Discard)
		fs.SetOutput(io.Discard)
	} else {
		fs, pf = newPathFlags(cmd, io.Discard)
		f = pf.fitFlags
	}
	pos, err := parseInterleaved(fs, args)
	require.NoError(t, err, args)
	f.Given = givenFlags(fs)
	_, err = f.dataArgs(pos)
	require.NoError(t, err, args)
	if pf != nil {
		require.NoError(t, pf.validateCSV(), args)
	} else {
		require.NoError(t, f.validate(), args)
	}
	return f, fs
}

// TestFlagRulesTable walks the options table (request.Rules): every rule is
// met by a command line of its own, which the command refuses with that
// rule's message, exit status 2, before reading the data (the file does
// not exist) or reaching the server (a --db server that counts its
// requests gets none). --db took --factor and fitted the column as a
// number, exit 0, and --factor nosuch passed.
func TestFlagRulesTable(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	defer srv.Close()
	file := "no-such-file.csv"
	db := []string{"--db", srv.URL, "--table", "t"}
	type tc struct {
		cmd  string
		args []string
	}
	onFile := func(cmd string, args ...string) tc { return tc{cmd, append(args, file)} }
	onDB := func(cmd string, args ...string) tc { return tc{cmd, append(append([]string(nil), db...), args...)} }
	// issue 37: sparse files (svmlight; Matrix Market with its response)
	onSVM := func(cmd string, args ...string) tc { return tc{cmd, append(args, "no-such-file.svm")} }
	onMTX := func(cmd string, args ...string) tc {
		return tc{cmd, append(args, "--response", "y.txt", "no-such-file.mtx")}
	}
	cases := []tc{
		onFile("fit", "--lambda", "1", "--folds", "5"),
		onFile("path", "--seed", "2"),
		onFile("fit", "--lambda", "1", "--foldid", "k"),
		onFile("path", "--type-measure", "mse"),
		onFile("cv", "--foldid", "k", "--folds", "4"),
		onFile("cv", "--foldid", "k", "--seed", "3"),
		onFile("cv", "--rule", "1se"),
		onFile("path", "--lambda", "1,2", "--nlambda", "5"),
		onFile("cv", "--lambda", "1,2", "--min-ratio", "0.1"),
		onFile("fit", "--lambda", "1", "--rule", "1se"),
		onFile("fit", "--lambda", "1", "--sigma", "1"),
		onFile("path", "--t", "0.1"),
		onFile("cv", "--save-model", "m.json"),
		onFile("fit", "--lambda", "1", "--groups", "a,b"),
		onFile("fit", "--lambda", "1", "--penalty", "lasso", "--G", "g.csv"),
		onFile("fit", "--lambda", "1", "--penalty", "ridge", "--nu", "2"),
		onFile("fit", "--lambda", "1", "--penalty", "lasso", "--alpha", "0.5"),
		onFile("fit", "--lambda", "1", "--penalty-factor", "1,1"),
		onFile("fit", "--stream", "--family", "poisson", "--lambda", "1", "--penalty-factor", "1,1"),
		onFile("fit", "--lambda", "theory", "--weights", "w"),
		onFile("fit", "--lambda", "1", "--penalty", "lasso", "--penalty-factor", "1,1", "--nu", "2"),
		onFile("fit", "--table", "t"),
		onFile("cv", "--stream", "--query", "SELECT 1"),
		onFile("path", "--db-timeout", "1s"),
		onFile("fit", "--lambda", "1", "--progress"),
		onFile("cv", "--family", "poisson", "--progress"),
		onFile("fit", "--family", "poisson", "--lambda", "1", "--progress"),
		onFile("fit", "--family", "poisson", "--lambda", "cv", "--progress"),
		onFile("fit", "--family", "poisson", "--lambda", "1", "--relax", "--progress"),
		onFile("fit", "--stream", "--lambda", "theory"),
		onFile("fit", "--stream", "--family", "binomial"),
		onFile("cv", "--stream", "--family", "binomial", "--type-measure", "auc"),
		onFile("fit", "--stream", "--lambda", "1", "--exclude", "a"),
		onFile("fit", "--stream", "--lambda", "1", "--penalty", "lasso", "--penalty-factor", "1,1"),
		onFile("fit", "--stream", "--lambda", "1", "--family", "poisson", "--relax"),
		onFile("fit", "--stream", "--penalty", "none", "--lambda", "1"),
		onDB("fit", "--stream", "--lambda", "1"),
		onDB("cv", "--sep", ";"),
		onDB("path", "--drop-missing"),
		onDB("fit", "--lambda", "theory"),
		onDB("cv", "--offset", "o"),
		onDB("fit", "--penalty", "lasso", "--penalty-factor", "1,1", "--lambda", "1"),
		onDB("cv", "--type-measure", "mae"),
		onDB("cv", "--family", "binomial", "--type-measure", "auc"),
		onDB("fit", "--family", "binomial", "--exclude", "a", "--lambda", "1"),
		onDB("fit", "--family", "poisson", "--relax", "--lambda", "1"),
		onDB("path", "--family", "binomial", "--no-intercept"),
		onDB("fit", "--lambda", "1", "--progress"),
		onDB("cv", "--family", "binomial", "--progress"),
		onDB("fit", "--penalty", "none", "--lambda", "1"),
		onDB("path", "--merges", "m.csv"),
		// issue 35's command lines
		onDB("fit", "--factor", "g", "--lambda", "1"),
		onDB("fit", "--factor", "nosuch", "--lambda", "1"),
		onSVM("fit", "--target", "y"),
		onMTX("cv", "--responses", "a,b"),
		onSVM("path", "--predictors", "x1"),
		onMTX("fit", "--drop", "x1"),
		onSVM("cv", "--weights", "w"),
		onSVM("fit", "--family", "poisson", "--offset", "o"),
		onMTX("cv", "--foldid", "k"),
		onSVM("fit", "--sep", ";"),
		onMTX("path", "--drop-missing"),
		onSVM("cv", "--stream"),
		onSVM("fit", "--lambda", "theory"),
		onFile("fit", "--features", "3"),
		onMTX("fit", "--index-base", "0"),
		onDB("cv", "--input-format", "csv"),
		onSVM("path", "--response", "y.txt"),
	}
	values := map[string]string{"factor": "g", "ordinal": "g", "ref": "g=a", "max-levels": "10", "min-count": "2", "pair-weights": "count"}
	for _, name := range factorFlagNames() {
		fl := []string{"--" + name}
		if v, ok := values[name]; ok {
			fl = append(fl, v)
		}
		cases = append(cases, onDB("cv", fl...), onSVM("path", fl...))
	}
	hit := map[int]bool{}
	var n int
	for _, k := range cases {
		f, _ := parsedFlags(t, k.cmd, k.args)
		rules := f.Rules(k.cmd)
		n = len(rules)
		i := f.Refusal(rules, f.route())
		require.GreaterOrEqual(t, i, 0, "%s %v: no rule refuses it", k.cmd, k.args)
		hit[i] = true
		res := cardreg(t, append([]string{k.cmd}, k.args...)...)
		oneLine(t, res, 2)
		require.Equal(t, fmt.Sprintf("cardreg %s: --%s %s\n", k.cmd, rules[i].Option, rules[i].Why), res.stderr, k.args)
		if strings.Contains(rules[i].Why, "add --stream") {
			// The way out said is one the table then takes.
			g, _ := parsedFlags(t, k.cmd, append([]string{"--stream"}, k.args...))
			require.Negative(t, g.Refusal(g.Rules(k.cmd), request.OnStream), "%s %v: --stream suggested, then refused", k.cmd, k.args)
		}
	}
	require.Zero(t, requests.Load(), "a refused --db command line reached the server")
	for i := range n {
		f, _ := parsedFlags(t, "cv", []string{file})
		r := f.Rules("cv")[i]
		require.True(t, hit[i], "rule %d (--%s on routes %03b) has no command line in this test", i, r.Option, r.On)
	}
}

// TestDBRefusesFactorFlags: cardreg fit --db URL --table t --factor g
// fitted g as a numeric slope, exit 0, and --factor nosuch passed; every
// factor flag is now a usage error before the server is reached.
func TestDBRefusesFactorFlags(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		io.WriteString(w, "g\ty\nFloat64\tFloat64\n")
	}))
	defer srv.Close()
	for _, args := range [][]string{
		{"fit", "--factor", "g", "--lambda", "1"},
		{"fit", "--factor", "nosuch", "--lambda", "1"},
		{"cv", "--ordinal", "g"},
		{"path", "--na-level"},
		{"fit", "--pair-weights", "count", "--lambda", "1"},
	} {
		res := cardreg(t, append(args, "--db", srv.URL, "--table", "t")...)
		oneLine(t, res, 2, "needs the rows of a file", "--db aggregates numeric columns by SQL", "in memory or with --stream")
	}
	require.Zero(t, requests.Load())
}

// TestEveryFlagHasARoute checks that every flag of fit, path and cv is,
// on each route (in memory, --stream, --db), either honoured there (the
// lists below, checked by the route tests: TestEveryRouteSameCV and the
// --db and --stream tests) or named by a rule of the flags table that
// refuses it there: a flag added later fails this test until it is
// placed.
func TestEveryFlagHasARoute(t *testing.T) {
	everywhere := "penalty lambda lambda-glmnet sigma t rule nu target responses groups drop predictors G folds seed tol max-iter " +
		"standardize format weights foldid memory progress out save-model family offset type-measure " +
		"nlambda min-ratio plot relax no-intercept db stream"
	honoured := map[request.Route]string{
		request.InMemory: everywhere + " sep drop-missing penalty-factor exclude merges input-format " + strings.Join(factorFlagNames(), " "),
		request.OnStream: everywhere + " sep drop-missing merges input-format " + strings.Join(factorFlagNames(), " "),
		request.OnDB:     everywhere + " table query db-timeout penalty-factor",
	}
	for _, cmd := range []string{"fit", "path", "cv"} {
		f, fs := parsedFlags(t, cmd, []string{"data.csv"})
		rules := f.Rules(cmd)
		for _, rt := range []request.Route{request.InMemory, request.OnStream, request.OnDB} {
			ok := map[string]bool{}
			for _, name := range strings.Fields(honoured[rt]) {
				ok[name] = true
			}
			for _, r := range rules {
				if r.On&rt != 0 {
					ok[r.Option] = true
				}
			}
			fs.VisitAll(func(fl *flag.Flag) {
				require.True(t, ok[fl.Name], "cardreg %s --%s on route %03b: neither honoured nor refused by the flags table", cmd, fl.Name, rt)
			})
		}
	}
}

// TestAdviceTakesEffect: messages suggested a flag or a value that was
// then refused: fewer --folds than 3 when streamed statistics did not
// fit, --exclude beside --db or --stream, --stream for --progress on a
// fit the stream route refuses, --standardize for a stalled fit with
// factors, "leave out --stream" for --lambda theory where --weights chose
// the statistics.
func TestAdviceTakesEffect(t *testing.T) {
	f := &fitFlags{}
	f.Folds = 3
	require.NotContains(t, streamAdvice(f, 3), "folds")
	f.Folds = 10
	require.Contains(t, streamAdvice(f, 10), "use fewer --folds (3 at least)")
	f.foldid = "k"
	require.Contains(t, streamAdvice(f, 10), "number fewer folds in the --foldid column (3 at least)")
	require.NotContains(t, convergeAdvice(true, false), "(--standardize)")
	require.Contains(t, convergeAdvice(true, true), "(--standardize)")
	require.Contains(t, rescaleAdvice(false), "--standardize does not combine with factor predictors")

	for _, route := range [][]string{{"--stream", "x.csv"}, {"--db", "http://127.0.0.1:1/", "--table", "t"}} {
		res := cardreg(t, append([]string{"fit", "--penalty-factor", "1", "--lambda", "1"}, route...)...)
		oneLine(t, res, 2, "--exclude leaves predictors unpenalised, in memory only (not with --stream or --db)")
	}
	file := writeFile(t, t.TempDir(), "w.csv", "x,w,y\n1,1,2\n2,2,5\n3,1,1\n4,2,4\n5,1,3\n")
	oneLine(t, cardreg(t, "fit", "--weights", "w", "--lambda", "theory", file), 2, "--lambda theory needs the unweighted rows in memory: leave out --weights")
}
