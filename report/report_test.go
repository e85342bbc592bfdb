package report

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// gaussianRows draws n rows of y = 3 + Xβ* + noise, β* = (2, 2, 2, −1, −1, −1).
func gaussianRows(n int) *estimator.Rows {
	rng := rand.New(rand.NewPCG(1, 2))
	beta := []float64{2, 2, 2, -1, -1, -1}
	x := mat.NewDense(n, len(beta), nil)
	y := make([]float64, n)
	for i := range y {
		s := 3.0
		for j, b := range beta {
			v := rng.NormFloat64()
			x.Set(i, j, v)
			s += b * v
		}
		y[i] = s + 0.5*rng.NormFloat64()
	}
	return estimator.NewRows(x, y)
}

var names = []string{"a", "b", "c", "d", "e", "f,g"}

func fitted(t *testing.T) (*Fit, *estimator.Model) {
	t.Helper()
	m, err := estimator.Fit(gaussianRows(200), penalty.Cardinality{Nu: 1}, 12, nil)
	require.NoError(t, err)
	r := &Fit{Family: "gaussian", Link: "identity", Penalty: "cardinality", N: 200, P: 6, Names: names, Target: "y"}
	r.FillAll(m, []string{"y"}, false)
	return r, m
}

// Fill copies the model's numbers and names its clusters, largest value
// first, on the data's scale.
func TestFill(t *testing.T) {
	r, m := fitted(t)
	require.Equal(t, m.Lambda, r.Lambda)
	require.InDelta(t, m.Lambda/400, r.LambdaGlmnet, 1e-15)
	require.Equal(t, m.Coefficients(0), r.Coefficients)
	require.Equal(t, [][]string{{"a", "b", "c"}, {"d", "e", "f,g"}}, r.Clusters)
	require.Greater(t, r.ClusterValues[0], r.ClusterValues[1])
	require.Equal(t, "data", r.ValueScale)
	require.NotNil(t, r.R2)
	require.InDelta(t, m.DevRatio, *r.DevRatio, 1e-15)
	require.True(t, r.Converged)
	require.Nil(t, r.PerResponse)
}

// The three formats print the same fit: text names the clusters, CSV
// gives each coefficient its cluster (quoting a name with a comma), JSON
// parses and holds the coefficients.
func TestWriteFormats(t *testing.T) {
	r, _ := fitted(t)
	var text, csv, js strings.Builder
	require.NoError(t, r.Write(&text, "text"))
	require.Contains(t, text.String(), "penalty          cardinality\n")
	require.Contains(t, text.String(), "a b c\n")
	require.NotContains(t, text.String(), "family")
	require.NoError(t, r.Write(&csv, "csv"))
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	require.Len(t, lines, 8)
	require.Equal(t, "response,predictor,coefficient,cluster", lines[0])
	require.True(t, strings.HasPrefix(lines[1], "y,(intercept),"))
	require.True(t, strings.HasPrefix(lines[7], `y,"f,g",`) && strings.HasSuffix(lines[7], ",2"), lines[7])
	require.NoError(t, r.Write(&js, "json"))
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(js.String()), &got))
	require.Len(t, got["coefficients"], 6)
	require.Equal(t, "y", got["target"])
	require.Error(t, r.Write(&js, "xml"))
}

// A multi-response fit's JSON has per-response arrays and "responses"
// instead of "target"; its text one table per response.
func TestMultiResponse(t *testing.T) {
	a := &Fit{Target: "y1", Intercept: 1, Coefficients: []float64{1}, Names: []string{"x"}}
	b := &Fit{Target: "y2", Intercept: 2, Coefficients: []float64{3}, Names: []string{"x"}}
	r := &Fit{Target: "y1", Names: []string{"x"}, PerResponse: []*Fit{a, b}}
	var js strings.Builder
	require.NoError(t, r.Write(&js, "json"))
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(js.String()), &got))
	require.NotContains(t, got, "target")
	require.Equal(t, []any{"y1", "y2"}, got["responses"])
	require.Equal(t, []any{1.0, 2.0}, got["intercept"])
	var text strings.Builder
	require.NoError(t, r.Write(&text, "text"))
	require.Contains(t, text.String(), "== response y2 (2 of 2) ==")
}

// A saved model needs a finite λ.
func TestWriteModel(t *testing.T) {
	var b strings.Builder
	require.ErrorContains(t, (&Fit{Lambda: math.Inf(1)}).WriteModel(&b), "beyond float64")
	require.Empty(t, b.String())
	r, _ := fitted(t)
	require.NoError(t, r.WriteModel(&b))
	require.Contains(t, b.String(), `"weights": "none"`)
}

// The path table has a row per λ and a column per predictor; the cv table
// marks λ_min and λ_1se.
func TestTables(t *testing.T) {
	d := gaussianRows(100)
	path, err := estimator.FitPath(d, penalty.Cardinality{Nu: 1}, &estimator.PathOptions{NLambda: 5})
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(PathCSV(path, names, true)), "\n")
	require.Equal(t, `lambda,objective,distinct_values,converged,dev_ratio,a,b,c,d,e,"f,g"`, lines[0])
	require.Len(t, lines, 1+len(path.Models))
	require.Len(t, strings.Split(lines[1], ","), 11)

	cv, err := estimator.CrossValidate(d, penalty.Cardinality{Nu: 1}, &estimator.CVOptions{PathOptions: estimator.PathOptions{NLambda: 5}, Folds: 3, Seed: 1})
	require.NoError(t, err)
	table := CVCSV(cv, 100)
	require.Equal(t, 1, strings.Count(table, "lambda_min"))
	require.Equal(t, 1, strings.Count(table, "lambda_1se"))
	require.Equal(t, len(cv.Lambdas)+1, strings.Count(table, "\n"))
	s := NewCVSummary(cv, 3)
	require.Equal(t, 3, s.Folds)
	require.Equal(t, cv.LambdaMin, s.LambdaMin)
}

func TestMarkAndNames(t *testing.T) {
	require.Equal(t, "lambda_min lambda_1se", Mark(2, 2, 2))
	require.Equal(t, "lambda_min", Mark(2, 2, 1))
	require.Equal(t, "lambda_1se", Mark(1, 2, 1))
	require.Equal(t, "", Mark(0, 2, 1))
	require.Equal(t, []string{"x", `"a,b"`, `"say ""hi"""`, `""`, `" pad "`, "\"a\rb\"", "g=NA", "a b"},
		CSVNames([]string{"x", "a,b", `say "hi"`, "", " pad ", "a\rb", "g=NA", "a b"}))
	require.Equal(t, []string{"x", `"a b"`, `""`, `" pad"`, `"two\nlines"`, `"say \"hi\""`, "é", "g=NA", "g="},
		textNames([]string{"x", "a b", "", " pad", "two\nlines", `say "hi"`, "é", "g=NA", "g="}))
	require.Equal(t, "0.1", Num(0.1))
}
