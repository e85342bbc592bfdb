package request

import (
	"slices"
	"testing"

	"github.com/cardsparse/cardreg/penalty"

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

// TestAlpha: alpha decodes into the request and reaches the penalty
// (the elastic net, with penalty factors too); it is refused outside
// [0, 1] and beside a penalty without α, in both dialects; describe
// lists elasticnet as taking it.
func TestAlpha(t *testing.T) {
	r, err := Decode([]byte(`{"penalty": "elasticnet", "alpha": 0.3, "lambda": 1}`))
	require.NoError(t, err)
	require.NoError(t, r.Validate("fit"))
	pen, _, _, err := r.NamedPenalty(3, nil)
	require.NoError(t, err)
	require.Equal(t, penalty.ElasticNet{Alpha: 0.3}, pen)
	b, err := r.namedPenalty([]string{"a", "b", "c"}, nil)
	require.NoError(t, err)
	require.Equal(t, penalty.ElasticNet{Alpha: 0.3}, b.Pen)

	r, err = Decode([]byte(`{"penalty": "elasticnet", "alpha": 0.3, "lambda": 1, "penalty-factor": [1, 0, 2]}`))
	require.NoError(t, err)
	require.NoError(t, r.Validate("fit"))
	b, err = r.namedPenalty([]string{"a", "b", "c"}, nil)
	require.NoError(t, err)
	en, ok := b.Pen.(penalty.ElasticNet)
	require.True(t, ok, "%T", b.Pen)
	require.Equal(t, 0.3, en.Alpha)
	require.Equal(t, []int{1}, b.Unpenalized)
	require.Len(t, en.Factors, 2)

	r, err = Decode([]byte(`{"penalty": "elasticnet", "lambda": 1}`))
	require.NoError(t, err)
	pen, _, _, err = r.NamedPenalty(2, nil)
	require.NoError(t, err)
	require.Equal(t, penalty.ElasticNet{Alpha: penalty.DefaultAlpha}, pen)

	for raw, want := range map[string]string{
		`{"penalty": "elasticnet", "alpha": 1.5, "lambda": 1}`:              "alpha: elastic net α = 1.5 must be in [0, 1]",
		`{"penalty": "elasticnet", "alpha": -0.1, "lambda": 1}`:             "alpha: elastic net α = -0.1 must be in [0, 1]",
		`{"penalty": "lasso", "alpha": 0.5, "lambda": 1}`:                   "alpha applies to the elasticnet penalty only, not lasso",
		`{"penalty": "cardinality", "penalty-factor": [1, 2], "lambda": 1}`: "penalty-factor is for the lasso or elasticnet; for cardinality use exclude",
	} {
		r, err := Decode([]byte(raw))
		require.NoError(t, err)
		require.ErrorContains(t, r.Validate("fit"), want, raw)
	}
	r = &Request{Penalty: "cardinality", Alpha: new(float64), Given: map[string]bool{"alpha": true, "lambda": true}, Lambda: Lambda{Text: "2"}, Dialect: CommandLine}
	r.Defaults()
	require.EqualError(t, r.Validate("fit"), "--alpha applies to the elasticnet penalty only, not cardinality")

	d := readDescription(t)
	for _, p := range d.Penalties {
		k, _ := penalty.Lookup(p.Name)
		require.Equal(t, k.Alpha, p.Alpha, p.Name)
	}
	require.True(t, slices.ContainsFunc(d.Penalties, func(p penaltyDoc) bool { return p.Name == "elasticnet" && p.Alpha }))
	for _, cmd := range []string{"fit", "path", "cv"} {
		require.Contains(t, d.Options[cmd], "alpha", cmd)
	}
}

// TestCriterionDegreesOfFreedom checks that aic and bic, which count the
// distinct non-zero coefficients as degrees of freedom, are refused for a
// penalty with a quadratic part (ridge, the elastic net at α < 1) and
// accepted for the elastic net at α = 1 (the lasso).
func TestCriterionDegreesOfFreedom(t *testing.T) {
	for raw, refused := range map[string]bool{
		`{"penalty": "elasticnet", "alpha": 0, "lambda": "aic"}`:   true,
		`{"penalty": "elasticnet", "alpha": 0.5, "lambda": "bic"}`: true,
		`{"penalty": "ridge", "lambda": "aic"}`:                    true,
		`{"penalty": "elasticnet", "alpha": 1, "lambda": "aic"}`:   false,
		`{"penalty": "elasticnet", "lambda": "bic"}`:               false,
		`{"penalty": "lasso", "lambda": "aic"}`:                    false,
	} {
		r, err := Decode([]byte(raw))
		require.NoError(t, err)
		err = r.Validate("fit")
		if refused {
			require.ErrorContains(t, err, "counts the distinct non-zero coefficients as degrees of freedom", raw)
		} else {
			require.NoError(t, err, raw)
		}
	}
}

// TestFamilySpelling checks that a family named in another case is the
// family's own spelling after validation: the rules and routes compare
// names.
func TestFamilySpelling(t *testing.T) {
	r, err := Decode([]byte(`{"family": "Tweedie:1.5", "lambda": 1}`))
	require.NoError(t, err)
	require.NoError(t, r.Validate("fit"))
	require.Equal(t, "tweedie:1.5", r.Family)
}
