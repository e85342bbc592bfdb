package main

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/rtest"
	"github.com/stretchr/testify/require"
)

const severityData = "../../examples/severity.csv"

// TestGammaCLI fits the bundled gamma example from the command line: the
// lasso in memory matches R glmnet(family = Gamma(link = "log")) at the
// same λ (λ_glmnet = λ/(2n)) to 1e-7 when R is there, the streamed fit is the
// in-memory one, and the saved model predicts e^η (its link).
func TestGammaCLI(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	out := glmFitJSON(t, "--family", "gamma", "--penalty", "lasso", "--lambda", "20", "--tol", "1e-13", "--save-model", model, severityData)
	require.Equal(t, "gamma", out.Family)
	require.Equal(t, "log", out.Link)
	require.LessOrEqual(t, out.Gap, 1e-13)
	require.InDelta(t, 1 - *out.Deviance / *out.NullDeviance, *out.DevRatio, 1e-12)
	got := append([]float64{out.Intercept}, out.Coefficients...)

	streamed := glmFitJSON(t, "--family", "gamma", "--penalty", "lasso", "--lambda", "20", "--stream", severityData)
	require.InEpsilon(t, out.Objective, streamed.Objective, 1e-9)
	require.InDeltaSlice(t, got, append([]float64{streamed.Intercept}, streamed.Coefficients...), 1e-5)

	mu, eta := predictColumn(t, "response", model, severityData), predictColumn(t, "link", model, severityData)
	require.Len(t, mu, 400)
	for i := range mu {
		require.InEpsilon(t, math.Exp(eta[i]), mu[i], 1e-12)
	}

	if !rtest.Available() {
		t.Skip("R's glmnet is not available: not compared with glmnet")
	}
	// glmfamily.R reads the response from a column y.
	rows := readExample(t, severityData)
	var b strings.Builder
	b.WriteString("x1,x2,x3,x4,x5,x6,x7,x8,y\n")
	for _, r := range rows {
		b.WriteString(strings.Join(r, ",") + "\n")
	}
	data := writeFile(t, dir, "severity.csv", b.String())
	ref, err := rtest.Output("../../bench/glmfamily.R", "fit", data, "gamma", strconv.FormatFloat(20.0/800, 'g', -1, 64))
	require.NoError(t, err, "%s", ref)
	want := strings.Fields(string(ref))
	require.Len(t, want, 9)
	for j, s := range want {
		v, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		require.InDelta(t, v, got[j], 1e-7, "coefficient %d", j)
	}
}

// predictColumn returns the predictions of type typ of the saved model on
// the rows of data.
func predictColumn(t *testing.T, typ, model, data string) []float64 {
	t.Helper()
	res := cardreg(t, "predict", "--type", typ, "--model", model, data)
	require.Equal(t, 0, res.code, res.stderr)
	rows := parseCSV(t, res.stdout)[1:]
	v := make([]float64, len(rows))
	for i, r := range rows {
		v[i], _ = strconv.ParseFloat(r[0], 64)
	}
	return v
}
