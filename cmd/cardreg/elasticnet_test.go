package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/modelfile"
	"github.com/cardsparse/cardreg/internal/rtest"
	"github.com/stretchr/testify/require"
)

// TestElasticNetMatchesGlmnet fits a logistic elastic net (α = 0.5, with
// penalty factors, one 0) on the command line and in R's glmnet
// (standardize = FALSE, thresh = 1e-14) at the same λ: the coefficients
// and the intercept agree to 1e-6 of the largest. --alpha with another
// penalty is refused. Skipped without R's glmnet.
func TestElasticNetMatchesGlmnet(t *testing.T) {
	res := cardreg(t, "fit", "--penalty", "lasso", "--alpha", "0.5", "--lambda", "1", "nonexistent.csv")
	require.Equal(t, 2, res.code)
	require.Contains(t, res.stderr, "--alpha applies to the elasticnet penalty only")
	rtest.SkipUnlessAvailable(t)
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(12, 13))
	n, p := 250, 6
	var b strings.Builder
	b.WriteString("x1,x2,x3,x4,x5,x6,y\n")
	for range n {
		eta := -0.2
		for j := range p {
			v := r.NormFloat64()
			eta += []float64{1, -1, 0.5, 0, 0, 0.3}[j] * v
			fmt.Fprintf(&b, "%.17g,", v)
		}
		y := 0
		if r.Float64() < 1/(1+math.Exp(-eta)) {
			y = 1
		}
		fmt.Fprintf(&b, "%d\n", y)
	}
	data := filepath.Join(dir, "enet.csv")
	require.NoError(t, os.WriteFile(data, []byte(b.String()), 0o644))
	const lambda = 12.5 // glmnet's λ = 12.5/(2·250) = 0.025
	res = cardreg(t, "fit", "--penalty", "elasticnet", "--alpha", "0.5", "--family", "binomial", "--penalty-factor", "1,0,1,2,1,0.5",
		"--lambda", strconv.FormatFloat(lambda, 'g', -1, 64), "--tol", "1e-14", "--format", "csv", data)
	require.Equal(t, 0, res.code, res.stderr)
	rows := parseCSV(t, res.stdout)[1:]
	require.Len(t, rows, p+1)
	out, err := rtest.Output("../../bench/glmnet_enet.R", "fit", data, "binomial", "0.5", "FALSE", "-", "-", "1,0,1,2,1,0.5", strconv.FormatFloat(lambda/(2*float64(n)), 'g', -1, 64))
	require.NoError(t, err, "%s", out)
	ref := strings.Fields(string(out))
	require.Len(t, ref, p+1)
	want := make([]float64, p+1)
	scale := 0.0
	for k, s := range ref {
		want[k], err = strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		scale = math.Max(scale, math.Abs(want[k]))
	}
	for k, row := range rows {
		got, err := strconv.ParseFloat(row[2], 64)
		require.NoError(t, err)
		require.InDelta(t, want[k], got, 1e-6*scale, "%s", row[1])
	}
}

// TestElasticNetSavedModel: fit reports α (text and JSON), the saved
// model records it and predict reads it back: its predictions are the
// intercept plus the rows times the coefficients fit reported.
func TestElasticNetSavedModel(t *testing.T) {
	dir := t.TempDir()
	data := "../../examples/cardinality.csv"
	model := filepath.Join(dir, "enet.json")
	res := cardreg(t, "fit", "--penalty", "elasticnet", "--alpha", "0.3", "--lambda", "40", "--format", "json", "--save-model", model, data)
	require.Equal(t, 0, res.code, res.stderr)
	var fit struct {
		Penalty      string
		Alpha        *float64
		Intercept    float64
		Coefficients []float64
		Converged    bool
	}
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &fit))
	require.Equal(t, "elasticnet", fit.Penalty)
	require.NotNil(t, fit.Alpha)
	require.Equal(t, 0.3, *fit.Alpha)
	require.True(t, fit.Converged)
	b, err := os.ReadFile(model)
	require.NoError(t, err)
	saved, err := modelfile.Parse(b)
	require.NoError(t, err)
	require.Equal(t, 0.3, *saved.Alpha)
	require.Equal(t, fit.Coefficients, saved.Coefficients)

	text := cardreg(t, "fit", "--penalty", "elasticnet", "--lambda", "40", data)
	require.Equal(t, 0, text.code, text.stderr)
	require.Regexp(t, `(?m)^alpha\s+1$`, text.stdout) // the default, the lasso

	pred := cardreg(t, "predict", "--model", model, data)
	require.Equal(t, 0, pred.code, pred.stderr)
	lines := strings.Split(strings.TrimSpace(pred.stdout), "\n")
	rows, err := os.ReadFile(data)
	require.NoError(t, err)
	in := strings.Split(strings.TrimSpace(string(rows)), "\n")[1:]
	require.Len(t, lines, len(in)+1)
	for i, line := range in {
		cells := strings.Split(line, ",")
		want := fit.Intercept
		for j, c := range fit.Coefficients {
			v, err := strconv.ParseFloat(cells[j], 64)
			require.NoError(t, err)
			want += c * v
		}
		got, err := strconv.ParseFloat(lines[i+1], 64)
		require.NoError(t, err)
		require.InDelta(t, want, got, 1e-12*(1+math.Abs(want)), "row %d", i+1)
	}
}
