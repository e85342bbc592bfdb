package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/modelfile"
	"github.com/stretchr/testify/require"
)

// savedExample saves a model of the bundled example and returns its bytes.
func savedExample(t testing.TB, dir string) []byte {
	model := filepath.Join(dir, "model.json")
	var stdout, stderr strings.Builder
	require.Equal(t, 0, run([]string{"fit", "--lambda", "50", "--save-model", model, "../../examples/cardinality.csv"}, &stdout, &stderr), stderr.String())
	b, err := os.ReadFile(model)
	require.NoError(t, err)
	return b
}

// A model that was edited or corrupted is refused, one line naming the
// file and what is wrong.
func TestModelCorruptions(t *testing.T) {
	dir := t.TempDir()
	good := string(savedExample(t, dir))
	data := "../../examples/cardinality.csv"
	var fields map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(good), &fields))
	without := func(key string) string {
		m := map[string]json.RawMessage{}
		for k, v := range fields {
			if k != key {
				m[k] = v
			}
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	with := func(key, value string) string {
		m := map[string]json.RawMessage{}
		for k, v := range fields {
			m[k] = v
		}
		m[key] = json.RawMessage(value)
		b, _ := json.Marshal(m)
		return string(b)
	}
	cases := map[string]struct{ content, want string }{
		"duplicated intercept": {strings.Replace(good, "{", `{"intercept": 0,`, 1), `"intercept" appears twice`},
		"unknown field":        {with("intercpt", "1"), `unknown field "intercpt"`},
		"null intercept":       {with("intercept", "null"), `"intercept" is null`},
		"huge coefficient":     {with("coefficients", "[1e400,1,1,1,1,1,1,1,1,1,1,1]"), "coefficients"},
		"string coefficient":   {with("intercept", `"1"`), "intercept"},
		"repeated name":        {with("names", `["x1","x1","x3","x4","x5","x6","x7","x8","x9","x10","x11","x12"]`), `"x1" is empty or repeated`},
		"too few names":        {with("names", `["x1"]`), "1 predictor names for 12 coefficients"},
		"negative lambda":      {with("lambda", "-1"), "lambda -1"},
		"zero nu":              {with("nu", "0"), "nu 0"},
		"unknown penalty":      {with("penalty", `"elastic"`), "unknown penalty"},
		"version 5":            {with("version", "5"), "model version 5"},
		"unknown family":       {with("family", `"gamma"`), "unknown family"},
		"mismatched link":      {with("link", `"logit"`), "unknown family and link"},
		"offset is predictor":  {with("offset_column", `"x1"`), "offset column"},
		"unknown weights":      {with("weights", `"doubled"`), "unknown weights"},
		"trailing data":        {good + "{}", "after top-level value"},
		"truncated":            {good[:len(good)/2], "is not complete JSON (truncated?)"},
		"not an object":        {"[1,2]", "not a cardreg model"},
		"empty":                {"", "is empty, not JSON"},
	}
	for _, key := range append(modelfile.Required, "converged", "family", "link", "weights") {
		cases["missing "+key] = struct{ content, want string }{without(key), key}
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			path := writeFile(t, dir, "bad.json", c.content)
			oneLine(t, cardreg(t, "predict", "--model", path, data), 1, path, c.want)
		})
	}
	// Version 1 (before converged and duality_gap) and version 2 (before
	// family, link and weights) models still read, as least squares, and
	// version 3 (before factors) as it was written.
	older := func(version string, drop ...string) string {
		m := map[string]json.RawMessage{}
		for k, v := range fields {
			if !slices.Contains(drop, k) {
				m[k] = v
			}
		}
		m["version"] = json.RawMessage(version)
		b, _ := json.Marshal(m)
		return string(b)
	}
	for _, v := range []string{older("1", "converged", "duality_gap", "family", "link", "weights"), older("2", "family", "link", "weights"), older("3")} {
		res := cardreg(t, "predict", "--model", writeFile(t, dir, "old.json", v), data)
		require.Equal(t, 0, res.code, res.stderr)
	}
	// Coefficients that overflow the prediction are an error, not Inf.
	big := with("coefficients", "[1e308,1e308,1e308,1e308,1e308,1e308,1e308,1e308,1e308,1e308,1e308,1e308]")
	oneLine(t, cardreg(t, "predict", "--model", writeFile(t, dir, "big.json", big), data), 1, "overflows")
}

// FuzzModel feeds arbitrary bytes to the saved-model reader: no panic, and
// what it accepts is a consistent model with finite numbers.
func FuzzModel(f *testing.F) {
	dir := f.TempDir()
	good := savedExample(f, dir)
	f.Add(good)
	f.Add([]byte(strings.Replace(string(good), `"version": 2`, `"version": 1`, 1)))
	f.Add([]byte(`{"format":"cardreg-model","version":2}`))
	f.Add([]byte(`{"format":"cardreg-model","version":4,"penalty":"factor","lambda":1,"nu":1,"target":"y","names":["g=b","x"],"coefficients":[1,2],"intercept":0,"relaxed":false,"n":3,"converged":true,"duality_gap":0,"family":"gaussian","link":"identity","weights":"none","factors":[{"column":"g","levels":["a","b"],"reference":"a","ordinal":false,"numeric":false,"na_level":false}],"numeric_penalty":"lasso"}`))
	f.Add([]byte(`{"format":"cardreg-model","format":"x"}`))
	f.Add([]byte(`{"format":"cardreg-model","version":2,"penalty":"lasso","lambda":1,"nu":null,"target":"y","names":["a"],"coefficients":[2],"intercept":1,"relaxed":false,"n":3,"converged":true,"duality_gap":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := modelfile.Parse(b)
		if err != nil {
			require.Nil(t, m)
			require.NotContains(t, err.Error(), "\n")
			return
		}
		require.Equal(t, len(m.Names), len(m.Coefficients))
		_, err = m.Columns()
		require.NoError(t, err, "Parse checked the factors")
		require.NotEmpty(t, m.Names)
		for _, c := range append(m.Coefficients, m.Intercept, m.Lambda) {
			require.False(t, math.IsNaN(c) || math.IsInf(c, 0))
		}
	})
}
