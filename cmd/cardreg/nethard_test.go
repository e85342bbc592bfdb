package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/internal/predict"
	"github.com/stretchr/testify/require"
)

// Text class labels: trained on, saved with the model, predicted back.
func TestNetTextLabels(t *testing.T) {
	dir := t.TempDir()
	numeric, err := os.ReadFile(writeClasses(t, dir))
	require.NoError(t, err)
	text := strings.NewReplacer(",7\n", ",cat\n", ",9\n", ",dog\n").Replace(string(numeric))
	data := writeFile(t, dir, "pets.csv", text)
	model := filepath.Join(dir, "net.json")
	res := cardreg(t, "net", "--arch", "3,6,2", "--loss", "xent", "--epochs", "200", "--lr", "0.5", "--save-model", model, data)
	require.Equal(t, 0, res.code, res.stderr)
	var saved map[string]any
	b, err := os.ReadFile(model)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &saved))
	require.Equal(t, []any{"cat", "dog"}, saved["class_labels"])
	pred := cardreg(t, "predict", "--model", model, data)
	require.Equal(t, 0, pred.code, pred.stderr)
	lines := strings.Split(strings.TrimSpace(pred.stdout), "\n")
	require.Equal(t, "prediction", lines[0])
	rows := strings.Split(strings.TrimSpace(text), "\n")[1:]
	require.Len(t, lines[1:], len(rows))
	right := 0
	for i, p := range lines[1:] {
		require.Contains(t, []string{"cat", "dog"}, p)
		if strings.HasSuffix(rows[i], ","+p) {
			right++
		}
	}
	require.Greater(t, right, len(rows)*8/10, "accuracy %d/%d", right, len(rows))
}

// Bad training settings: one line, never a panic, never NaN figures.
func TestNetHardening(t *testing.T) {
	dir := t.TempDir()
	data := writeClasses(t, dir)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--arch", "3,4,1", "--validation", "0.999"}, 1, "no training rows"},
		{[]string{"--arch", "3,4,1", "--validation", "1"}, 2, "--validation"},
		{[]string{"--arch", "3,4,1", "--lr", "0"}, 2, "--lr"},
		{[]string{"--arch", "3,4,1", "--epochs", "0"}, 2, "--epochs"},
		{[]string{"--arch", "3,4,1", "--nu", "0", "--penalty", "cardinality", "--lambda", "0.1"}, 2, "--nu"},
		{[]string{"--arch", "3,100000000,1"}, 2, "GB"},
		{[]string{"--arch", "3,4000000000,4000000000,1"}, 2, "GB"},
		{[]string{"--arch", "3,4,1", "--activation", "identity", "--lr", "1e6", "--epochs", "50"}, 1, "diverged at epoch"},
	} {
		res := cardreg(t, append(append([]string{"net"}, c.args...), data)...)
		oneLine(t, res, c.code, c.want)
		if c.code == 1 {
			require.Contains(t, res.stderr, "classes.csv", "data errors name the file")
		}
	}
}

// A saved network that was edited or corrupted is refused.
func TestNetModelCorruptions(t *testing.T) {
	dir := t.TempDir()
	data := writeClasses(t, dir)
	model := filepath.Join(dir, "net.json")
	require.Equal(t, 0, cardreg(t, "net", "--arch", "3,4,2", "--loss", "xent", "--epochs", "3", "--save-model", model, data).code)
	good, err := os.ReadFile(model)
	require.NoError(t, err)
	var fields map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(good, &fields))
	with := func(key, value string) string {
		m := map[string]json.RawMessage{}
		for k, v := range fields {
			m[k] = v
		}
		if value == "" {
			delete(m, key)
		} else {
			m[key] = json.RawMessage(value)
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	for name, c := range map[string]struct{ content, want string }{
		"duplicated loss":  {strings.Replace(string(good), "{", `{"loss":"squared",`, 1), `"loss" appears twice`},
		"missing weights":  {with("weights", ""), `"weights" is missing`},
		"missing target":   {with("target", ""), `"target" is missing`},
		"unknown field":    {with("wieghts", "1"), "unknown field"},
		"repeated classes": {with("classes", "[7,7]"), "strictly increasing"},
		"too many classes": {with("classes", "[1,2,3]"), "3 classes for 2 outputs"},
		"repeated input":   {with("names", `["a","a","c"]`), "repeated"},
		"unknown loss":     {with("loss", `"hinge"`), "unknown loss"},
		"negative lambda":  {with("lambda", "-1"), "lambda"},
		"huge weight":      {with("weights", "[[[1e400]]]"), "weights"},
		"wrong version":    {with("version", "7"), "version 7"},
	} {
		t.Run(name, func(t *testing.T) {
			path := writeFile(t, dir, "bad.json", c.content)
			oneLine(t, cardreg(t, "predict", "--model", path, data), 1, "bad.json", c.want)
		})
	}
}

// FuzzNetModel feeds arbitrary bytes to the saved-network reader: no
// panic; what it accepts is consistent and predicts finite values or says
// why not.
func FuzzNetModel(f *testing.F) {
	dir := f.TempDir()
	var stdout, stderr strings.Builder
	dataPath := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(dataPath, []byte("a,b,y\n1,2,0\n2,1,1\n3,0,0\n0,3,1\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	for _, args := range [][]string{
		{"net", "--arch", "2,3,2", "--loss", "xent", "--epochs", "2", "--bias", "--standardize"},
		{"net", "--arch", "2,1", "--epochs", "2"},
	} {
		model := filepath.Join(dir, "m.json")
		if run(append(args, "--save-model", model, dataPath), &stdout, &stderr) != 0 {
			f.Fatal(stderr.String())
		}
		b, err := os.ReadFile(model)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	tab, err := data.Read(dataPath, data.Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, _, err := deepreg.ParseSaved(raw)
		if err != nil {
			require.NotContains(t, err.Error(), "\n")
			return
		}
		pred, err := predict.Network(raw, "m.json", tab, dataPath)
		if err != nil {
			require.NotContains(t, err.Error(), "\n")
			return
		}
		require.Len(t, pred, tab.Rows())
		_ = m
	})
}

// --standardize on columns near 1e200 gives the unscaled fit (their scale
// was +Inf, which zeroed every input).
func TestNetStandardizeLarge(t *testing.T) {
	path := scaledCSV(t, t.TempDir(), 1e200, 1, 0, 0)
	want := cardreg(t, "net", "--arch", "12,3,1", "--standardize", "--epochs", "30", "--format", "csv", "../../examples/cardinality.csv")
	got := cardreg(t, "net", "--arch", "12,3,1", "--standardize", "--epochs", "30", "--format", "csv", path)
	require.Equal(t, 0, got.code, got.stderr)
	loss := func(s string) float64 {
		rows := strings.Split(strings.TrimSpace(s), "\n")
		v, err := strconv.ParseFloat(strings.Split(rows[len(rows)-1], ",")[1], 64)
		require.NoError(t, err)
		return v
	}
	require.InEpsilon(t, loss(want.stdout), loss(got.stdout), 1e-9)
}
