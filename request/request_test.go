package request

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFewerFolds: for 2 observations the advice was "use folds 2 or
// fewer", which Check then refuses (at least 3).
func TestFewerFolds(t *testing.T) {
	r, err := Decode([]byte(`{"folds": 5}`))
	require.NoError(t, err)
	require.NoError(t, r.Validate("cv"))
	require.EqualError(t, r.checkFolds("cv", 2), "2 observations are too few to cross-validate (3 at least, one per fold): fit without folds (path, or fit lambda NUMBER, aic or bic)")
	require.EqualError(t, r.checkFolds("fit", 4), "5 folds for 4 observations: use folds 4 or fewer, or give lambda NUMBER, aic or bic (no folds)")
	r, err = Decode([]byte(`{"folds": 2}`))
	require.NoError(t, err)
	require.ErrorContains(t, r.Validate("cv"), "folds must be at least 3")
}

// TestLambdaForms: the JSON forms of lambda read as the flag's text.
func TestLambdaForms(t *testing.T) {
	for _, c := range []struct {
		cmd, raw, err string
		kind          LambdaKind
		list          []float64
	}{
		{"fit", `{}`, "", CV, nil},
		{"fit", `{"lambda": "aic"}`, "", AIC, nil},
		{"fit", `{"lambda": 0}`, "", Fixed, nil},
		{"fit", `{"lambda": "theory"}`, `lambda must be a finite non-negative number, cv, aic or bic, got "theory"`, 0, nil},
		{"fit", `{"lambda": [1, 2]}`, `lambda must be a finite non-negative number, cv, aic or bic, got "1,2"`, 0, nil},
		{"fit", `{"lambda": 1e-400}`, "below the smallest float64", 0, nil},
		{"path", `{"lambda": [0.5, 2, 1]}`, "", Grid, []float64{2, 1, 0.5}},
		{"path", `{"lambda": 3}`, "", Grid, []float64{3}},
		{"path", `{"lambda": "cv"}`, `lambda must be a list of numbers > 0, got "cv"`, 0, nil},
		{"path", `{"lambda": [1, 1]}`, "values 1 and 2 are the same lambda", 0, nil},
		{"cv", `{"lambda": [1]}`, "cv needs at least two lambda values", 0, nil},
		{"cv", `{"lambda": [1, -1]}`, `value 2, "-1", is not a finite number > 0`, 0, nil},
	} {
		r, err := Decode([]byte(c.raw))
		require.NoError(t, err)
		err = r.Lambda.Parse(c.cmd, r.Given["lambda"], r.Dialect)
		if c.err != "" {
			require.ErrorContains(t, err, c.err, c.raw)
			continue
		}
		require.NoError(t, err, c.raw)
		require.Equal(t, c.kind, r.Lambda.Kind, c.raw)
		require.Equal(t, c.list, r.Lambda.List, c.raw)
	}
}

// TestDialects: one rule, spelt as each caller names its options.
func TestDialects(t *testing.T) {
	for d, want := range map[*Dialect]string{
		&CommandLine: "--folds applies to cross-validation only (cardreg cv, or cardreg fit --lambda cv), not to a fit at one lambda (--lambda 2)",
		&JSON:        "folds applies to cross-validation only (cv, or fit lambda cv), not to a fit at one lambda (lambda 2)",
	} {
		r := &Request{Given: map[string]bool{"folds": true, "lambda": true}, Lambda: Lambda{Text: "2"}, Dialect: *d}
		r.Defaults()
		require.NoError(t, r.Lambda.Parse("fit", true, r.Dialect))
		require.NoError(t, r.Check("fit"))
		require.EqualError(t, r.CheckEffect("fit"), want)
	}
}
