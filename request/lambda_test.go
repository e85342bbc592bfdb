package request

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// fit's --lambda: cv and theory are forms, a number is read once into
// Value; anything else, a negative or non-finite number and one that
// rounds to 0 are refused.
func TestLambdaFit(t *testing.T) {
	for _, c := range []struct {
		text  string
		kind  LambdaKind
		value float64
	}{
		{"cv", CV, 0},
		{"theory", Theory, 0},
		{"aic", AIC, 0},
		{"2.5", Fixed, 2.5},
		{"0e5", Fixed, 0},
	} {
		l := Lambda{Text: c.text}
		require.NoError(t, l.Parse("fit", true, CommandLine), c.text)
		require.Equal(t, c.kind, l.Kind, c.text)
		require.Equal(t, c.value, l.Value, c.text)
	}
	for text, want := range map[string]string{
		"-1":     "--lambda must be a finite non-negative number, cv, theory, aic or bic",
		"Inf":    "finite non-negative number, cv, theory, aic or bic",
		"NaN":    "finite non-negative number, cv, theory, aic or bic",
		"abc":    "finite non-negative number, cv, theory, aic or bic",
		"1e-400": "would be 0, the unpenalised fit",
	} {
		l := Lambda{Text: text}
		require.ErrorContains(t, l.Parse("fit", true, CommandLine), want, text)
	}
	l := Lambda{Text: "theory"}
	require.ErrorContains(t, l.Parse("fit", true, JSON), "lambda must be a finite non-negative number, cv, aic or bic")
}

// path's and cv's --lambda: always a grid, the user's list read once in
// decreasing order, or nil for the generated one.
func TestLambdaGrid(t *testing.T) {
	l := Lambda{Text: "cv"}
	require.NoError(t, l.Parse("path", false, CommandLine))
	require.True(t, l.OnGrid())
	require.Nil(t, l.List)

	l = Lambda{Text: "1, 30,10"}
	require.NoError(t, l.Parse("cv", true, CommandLine))
	require.Equal(t, []float64{30, 10, 1}, l.List)

	// theory is no form of path's --lambda: it is a bad value.
	l = Lambda{Text: "theory"}
	require.ErrorContains(t, l.Parse("path", true, CommandLine), "value 1, \"theory\", is not a finite number > 0")
	require.NotEqual(t, Theory, l.Kind)
	for text, want := range map[string]string{
		"1,0":      "value 2, \"0\", is not a finite number > 0",
		"1,1e-400": "value 2, \"1e-400\", is below the smallest float64",
		"3,2,3":    "values 1 and 3 are the same lambda",
	} {
		l := Lambda{Text: text}
		require.ErrorContains(t, l.Parse("path", true, CommandLine), want, text)
	}
	l = Lambda{Text: "5"}
	require.ErrorContains(t, l.Parse("cv", true, CommandLine), "cv needs at least two lambda values")
	require.NoError(t, l.Parse("path", true, CommandLine))
	require.Equal(t, []float64{5}, l.List)
}

// TestLambdaGlmnet: lambda-glmnet is λ/(2n), a number or a list, given
// instead of lambda, converted by At.
func TestLambdaGlmnet(t *testing.T) {
	r, err := Decode([]byte(`{"lambda-glmnet": 0.25}`))
	require.NoError(t, err)
	require.NoError(t, r.Validate("fit"))
	v, _ := r.Lambda.At(10)
	require.Equal(t, Fixed, r.Lambda.Kind)
	require.Equal(t, 5.0, v)
	r, err = Decode([]byte(`{"lambda-glmnet": [0.1, 0.2]}`))
	require.NoError(t, err)
	require.NoError(t, r.Validate("cv"))
	_, list := r.Lambda.At(5)
	require.Equal(t, []float64{2, 1}, list)
	for raw, want := range map[string]string{
		`{"lambda-glmnet": 1, "lambda": 2}`: "lambda-glmnet does not combine with lambda",
		`{"lambda-glmnet": "cv"}`:           `lambda-glmnet must be a number on glmnet's scale (lambda/(2n)), got "cv"`,
		`{"lambda-glmnet": -1}`:             `lambda-glmnet must be a finite non-negative number`,
	} {
		r, err := Decode([]byte(raw))
		require.NoError(t, err)
		require.ErrorContains(t, r.Validate("fit"), want, raw)
	}
	r, err = Decode([]byte(`{"lambda-glmnet": 1, "folds": 5}`))
	require.NoError(t, err)
	require.EqualError(t, r.Validate("fit"), "folds applies to cross-validation only (cv, or fit lambda cv), not to a fit at one lambda (lambda-glmnet 1)")
}
