package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/rtest"
	"github.com/stretchr/testify/require"
)

// stdNumeric are the numeric predictors of stdData, on very different
// scales.
var stdNumeric = []string{"driver_age", "bonus", "density"}

// stdData writes the policies example with two more numeric predictors
// (bonus about 50–150, density about 100–5000) into dir, and the same
// file with every numeric predictor divided by its weighted population
// standard deviation (weights: the column weight, nil: 1), and returns
// both paths and the standard deviations, computed here as a reference
// independent of cardreg's.
func stdData(t *testing.T, dir, weight string) (string, string, map[string]float64) {
	t.Helper()
	d := loadTextCSV(t, policies)
	header := []string{"region", "vehicle_age", "fuel", "driver_age", "bonus", "density", "exposure", "log_exposure", "claims"}
	rows := make([][]string, len(d.rows))
	for i, r := range d.rows {
		bonus := strconv.Itoa(50 + (i*37)%101)
		density := strconv.FormatFloat(100*math.Exp(float64((i*13)%40)/10), 'g', 6, 64)
		rows[i] = []string{r[d.index["region"]], r[d.index["vehicle_age"]], r[d.index["fuel"]], r[d.index["driver_age"]],
			bonus, density, r[d.index["exposure"]], r[d.index["log_exposure"]], r[d.index["claims"]]}
	}
	col := func(name string) []float64 {
		j := slices.Index(header, name)
		out := make([]float64, len(rows))
		for i, r := range rows {
			v, err := strconv.ParseFloat(r[j], 64)
			require.NoError(t, err)
			out[i] = v
		}
		return out
	}
	w := make([]float64, len(rows))
	for i := range w {
		w[i] = 1
	}
	if weight != "" {
		w = col(weight)
	}
	sd := map[string]float64{}
	scaled := make([][]string, len(rows))
	for i := range rows {
		scaled[i] = slices.Clone(rows[i])
	}
	for _, name := range stdNumeric {
		x := col(name)
		var sw, m, ss float64
		for i, v := range x {
			sw += w[i]
			m += w[i] * v
		}
		m /= sw
		for i, v := range x {
			ss += w[i] * (v - m) * (v - m)
		}
		sd[name] = math.Sqrt(ss / sw)
		j := slices.Index(header, name)
		for i, v := range x {
			scaled[i][j] = strconv.FormatFloat(v/sd[name], 'g', -1, 64)
		}
	}
	write := func(name string, rows [][]string) string {
		var b strings.Builder
		b.WriteString(strings.Join(header, ",") + "\n")
		for _, r := range rows {
			b.WriteString(strings.Join(r, ",") + "\n")
		}
		return writeFile(t, dir, name, b.String())
	}
	return write("data.csv", rows), write("scaled.csv", scaled), sd
}

// stdJSON is what the test reads of a fit with numeric predictors.
type stdJSON struct {
	factorJSON
	NumericPredictors []struct {
		Name         string   `json:"name"`
		Penalty      string   `json:"penalty"`
		FusedWith    []string `json:"fused_with"`
		SD           float64  `json:"sd"`
		Standardized bool     `json:"standardized"`
		Coefficient  float64  `json:"coefficient"`
		PerSD        float64  `json:"coefficient_per_sd"`
	} `json:"numeric_predictors"`
}

func fitStd(t *testing.T, args ...string) (stdJSON, string) {
	t.Helper()
	res := cardreg(t, append([]string{"fit", "--format", "json"}, args...)...)
	require.Equal(t, 0, res.code, res.stderr)
	var out stdJSON
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &out), res.stdout)
	return out, res.stderr
}

// closeTo requires |got − want| ≤ tol·(1 + |want|).
func closeTo(t *testing.T, want, got, tol float64, what string, args ...any) {
	t.Helper()
	require.InDelta(t, want, got, tol*(1+math.Abs(want)), append([]any{what}, args...)...)
}

// --standardize with factors equals, to 1e-10, the fit without it on the
// numeric columns divided by their standard deviations by hand, its
// numeric coefficients divided by them (glmnet's unscaling), its dummy
// columns' and intercept as they are: fits with the lasso, the
// cardinality block, --relax, weights and the gaussian family. The
// report's numeric_predictors give the standard deviations and both
// scales; the note on stderr says the dummy columns are not standardised.
func TestStandardizeFactorsByHand(t *testing.T) {
	poisson := []string{"--family", "poisson", "--offset", "log_exposure", "--drop", "exposure", "--ordinal", policiesOrder}
	cases := []struct {
		name, weight string
		args         []string
	}{
		{"poisson lasso", "", append(slices.Clone(poisson), "--penalty", "lasso", "--lambda", "6")},
		{"poisson cardinality", "", append(slices.Clone(poisson), "--lambda", "6")},
		{"poisson relax", "", append(slices.Clone(poisson), "--penalty", "lasso", "--relax", "--lambda", "10")},
		{"poisson weighted", "exposure", []string{"--family", "poisson", "--offset", "log_exposure", "--weights", "exposure", "--penalty", "lasso", "--lambda", "6"}},
		{"gaussian lasso", "", []string{"--drop", "exposure,log_exposure", "--penalty", "lasso", "--lambda", "30"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, scaled, sd := stdData(t, t.TempDir(), c.weight)
			std, note := fitStd(t, append(slices.Clone(c.args), "--standardize", data)...)
			ref, _ := fitStd(t, append(slices.Clone(c.args), scaled)...)
			require.Contains(t, note, "the factors' dummy columns are not standardised")
			require.Equal(t, ref.Names, std.Names)
			closeTo(t, ref.Intercept, std.Intercept, 1e-10, "intercept")
			for j, name := range std.Names {
				want := ref.Coefficients[j]
				if s, ok := sd[name]; ok {
					want /= s
				}
				closeTo(t, want, std.Coefficients[j], 1e-10, "%s", name)
			}
			require.Len(t, std.NumericPredictors, len(stdNumeric))
			for k, p := range std.NumericPredictors {
				require.Equal(t, stdNumeric[k], p.Name)
				require.True(t, p.Standardized)
				require.InEpsilon(t, sd[p.Name], p.SD, 1e-12, p.Name)
				require.Equal(t, std.coef(t, p.Name), p.Coefficient)
				require.InEpsilon(t, p.Coefficient*p.SD+1e-300, p.PerSD+1e-300, 1e-15)
			}
		})
	}
}

// path and cv with --standardize and factors equal the runs on the file
// scaled by hand (the coefficients unscaled), λ grid and CV curve
// included; predict from a saved standardised model gives the linear
// predictor of its coefficients on the data's scale.
func TestStandardizeFactorsPathCVPredict(t *testing.T) {
	dir := t.TempDir()
	data, scaled, sd := stdData(t, dir, "")
	args := []string{"--family", "poisson", "--offset", "log_exposure", "--drop", "exposure", "--ordinal", policiesOrder, "--penalty", "lasso", "--nlambda", "8"}
	for _, cmd := range []string{"path", "cv"} {
		a := append([]string{cmd}, args...)
		if cmd == "cv" {
			a = append(a, "--folds", "3")
		}
		got := cardreg(t, append(slices.Clone(a), "--standardize", data)...)
		require.Equal(t, 0, got.code, got.stderr)
		require.Contains(t, got.stderr, "cardreg "+cmd+": note: numeric predictors beside the factors: driver_age (sd ")
		want := cardreg(t, append(slices.Clone(a), scaled)...)
		require.Equal(t, 0, want.code, want.stderr)
		g, w := parseCSV(t, got.stdout), parseCSV(t, want.stdout)
		require.Equal(t, w[0], g[0])
		require.Len(t, g, len(w))
		for i := 1; i < len(w); i++ {
			for j, cell := range w[i] {
				wv, err1 := strconv.ParseFloat(cell, 64)
				gv, err2 := strconv.ParseFloat(g[i][j], 64)
				if err1 != nil || err2 != nil {
					require.Equal(t, cell, g[i][j], "%s row %d column %s", cmd, i, w[0][j])
					continue
				}
				if s, ok := sd[w[0][j]]; ok && cmd == "path" {
					wv /= s
				}
				closeTo(t, wv, gv, 1e-10, "%s row %d column %s", cmd, i, w[0][j])
			}
		}
	}
	model := filepath.Join(dir, "model.json")
	res := cardreg(t, append([]string{"fit", "--lambda", "6", "--standardize", "--save-model", model}, append(args[:len(args)-2], data)...)...)
	require.Equal(t, 0, res.code, res.stderr)
	pred := cardreg(t, "predict", "--model", model, "--type", "link", data)
	require.Equal(t, 0, pred.code, pred.stderr)
	requireClose(t, linkByHand(t, model, data, identityCell), predictions(t, pred.stdout))
	raw, err := os.ReadFile(model)
	require.NoError(t, err)
	require.NotContains(t, string(raw), "standardi", "the saved model holds coefficients on the data's scale, nothing to undo")
}

// Without --standardize the note names the numeric predictors' scales and
// says that --standardize would penalise them per standard deviation.
func TestNumericNoteUnstandardised(t *testing.T) {
	data, _, sd := stdData(t, t.TempDir(), "")
	r, note := fitStd(t, "--family", "poisson", "--offset", "log_exposure", "--drop", "exposure", "--lambda", "6", data)
	require.Contains(t, note, "one cardinality block fuses their coefficients, per unit of each column, whose scales differ: --standardize")
	for _, p := range r.NumericPredictors {
		require.False(t, p.Standardized)
		require.Equal(t, "cardinality", p.Penalty)
		require.Len(t, p.FusedWith, len(stdNumeric)-1)
		require.InEpsilon(t, sd[p.Name], p.SD, 1e-12)
	}
}

// --standardize beside factors matches R glmnet on the same model written
// as a lasso: the ordinal factor's fused chain is the lasso on its
// split-coded columns, a two-level factor's block the lasso on its dummy,
// the numeric predictors scaled by their standard deviations in R and
// fitted with standardize = FALSE (testdata/glmnet_factors_std.R says
// why), at λ_glmnet = λ/(2n). Skipped without R or glmnet.
func TestStandardizeFactorsMatchGlmnet(t *testing.T) {
	rtest.SkipUnlessAvailable(t)
	data, _, _ := stdData(t, t.TempDir(), "")
	for _, lambda := range []float64{2, 12, 40} {
		r, _ := fitStd(t, "--family", "poisson", "--offset", "log_exposure", "--drop", "exposure,region",
			"--ordinal", policiesOrder, "--ref", "fuel=Diesel", "--penalty", "lasso", "--standardize",
			"--tol", "1e-12", "--lambda", strconv.FormatFloat(lambda, 'g', -1, 64), data)
		out, err := rtest.Output("testdata/glmnet_factors_std.R", data, strings.Join(stdNumeric, ","),
			strconv.FormatFloat(lambda/float64(2*r.N), 'g', -1, 64))
		require.NoError(t, err, "%s", out)
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		require.Len(t, lines, len(r.Names)+1, "%s", out)
		for _, l := range lines {
			name, value, _ := strings.Cut(l, " ")
			want, err := strconv.ParseFloat(value, 64)
			require.NoError(t, err, l)
			got := r.Intercept
			if name != "intercept" {
				got = r.coef(t, name)
			}
			closeTo(t, want, got, 1e-7, "λ %v: %s", lambda, name)
		}
	}
}
