package main

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// fit's --lambda: cv and theory are forms, a number is read once into
// value; anything else, a negative or non-finite number and one that
// rounds to 0 are usage errors.
func TestLambdaSpecFit(t *testing.T) {
	for _, c := range []struct {
		text                 string
		onGrid, theory, fixd bool
		value                float64
	}{
		{"cv", true, false, false, 0},
		{"theory", false, true, false, 0},
		{"2.5", false, false, true, 2.5},
		{"0e5", false, false, true, 0},
	} {
		l := lambdaSpec{text: c.text}
		require.NoError(t, l.parseFit(), c.text)
		require.Equal(t, []bool{c.onGrid, c.theory, c.fixd}, []bool{l.onGrid(), l.theory(), l.fixed()}, c.text)
		require.Equal(t, c.value, l.value, c.text)
	}
	for text, want := range map[string]string{
		"-1":     "finite non-negative number, cv, theory, aic or bic",
		"Inf":    "finite non-negative number, cv, theory, aic or bic",
		"NaN":    "finite non-negative number, cv, theory, aic or bic",
		"abc":    "finite non-negative number, cv, theory, aic or bic",
		"1e-400": "would be 0, the unpenalised fit",
	} {
		l := lambdaSpec{text: text}
		err := l.parseFit()
		require.ErrorContains(t, err, want, text)
		require.True(t, errors.As(err, new(usageError)), text)
	}
}

// path's and cv's --lambda: always a grid, the user's list read once in
// decreasing order, or nil for the generated one.
func TestLambdaSpecGrid(t *testing.T) {
	l := lambdaSpec{text: "cv"}
	require.NoError(t, l.parseGrid("path", false))
	require.True(t, l.onGrid())
	require.False(t, l.theory() || l.fixed())
	require.Nil(t, l.list)

	l = lambdaSpec{text: "1, 30,10"}
	require.NoError(t, l.parseGrid("cv", true))
	require.Equal(t, []float64{30, 10, 1}, l.list)

	// theory is no form of path's --lambda: it is a bad value.
	l = lambdaSpec{text: "theory"}
	require.ErrorContains(t, l.parseGrid("path", true), "value 1, \"theory\", is not a finite number > 0")
	require.False(t, l.theory())
	for text, want := range map[string]string{
		"1,0":      "value 2, \"0\", is not a finite number > 0",
		"1,1e-400": "value 2, \"1e-400\", is below the smallest float64",
		"3,2,3":    "values 1 and 3 are the same lambda",
	} {
		l := lambdaSpec{text: text}
		require.ErrorContains(t, l.parseGrid("path", true), want, text)
	}
	l = lambdaSpec{text: "5"}
	require.ErrorContains(t, l.parseGrid("cv", true), "cv needs at least two lambda values")
	require.NoError(t, l.parseGrid("path", true))
	require.Equal(t, []float64{5}, l.list)
}
