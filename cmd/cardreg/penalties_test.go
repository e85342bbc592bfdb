package main

import (
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
)

// buildPenalty builds every named penalty with its default ν (or the one
// given), and notes a ν that falls back to 1.
func TestBuildPenaltyDefaults(t *testing.T) {
	for _, c := range []struct {
		spec penaltySpec
		p    int
		nu   float64
		note string
	}{
		{penaltySpec{penalty: "lasso"}, 4, 1, ""},
		{penaltySpec{penalty: "ridge"}, 4, 0, ""},
		{penaltySpec{penalty: "cardinality"}, 4, 2, ""}, // 1/(1 − 2/4)
		{penaltySpec{penalty: "cardinality"}, 2, 1, "M_G = 1: the theory's nu"},
		{penaltySpec{penalty: "cardinality", nu: optFloat{v: 3, set: true}}, 4, 3, ""},
		{penaltySpec{penalty: "grouped", groups: "a,a,a,a"}, 4, 1 / (1 - 2/(4*2.0)), ""}, // one group of 4, weight √4
	} {
		pen, nu, note, err := buildPenalty(c.spec, c.p)
		require.NoError(t, err, c.spec.penalty)
		require.NotNil(t, pen)
		require.InDelta(t, c.nu, nu, 1e-12, c.spec.penalty)
		if c.note == "" {
			require.Empty(t, note)
		} else {
			require.Contains(t, note, c.note)
		}
	}
	_, _, _, err := buildPenalty(penaltySpec{penalty: "slope"}, 3)
	require.EqualError(t, err, `unknown --penalty "slope" (cardinality, grouped, lasso, ridge or general)`)
}

// The lists of names in messages come from the table.
func TestPenaltyNameLists(t *testing.T) {
	require.Equal(t, "cardinality, grouped or lasso", orList(penalty.Names(func(k penalty.Kind) bool { return k.NetworkLambda })))
	require.Equal(t, "a and b", joinNames([]string{"a", "b"}, "and"))
	require.Equal(t, "a", orList([]string{"a"}))
	_, err := lookupPenalty("ridge", "unknown --penalty", func(k penalty.Kind) bool { return k.Theory })
	require.EqualError(t, err, `unknown --penalty "ridge" (cardinality, grouped or lasso)`)
}
