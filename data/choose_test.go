package data

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Choose keeps the responses and the special columns, the predictors or
// every column but Drop, and refuses an unknown name or a column with two
// roles, naming each choice by its flag or else its role.
func TestChoose(t *testing.T) {
	h := []string{"a", "b", "w", "c", "y"}
	for _, tc := range []struct {
		spec Spec
		keep []bool
		err  string
	}{
		{Spec{}, []bool{true, true, true, true, true}, ""},
		{Spec{Drop: []string{"b"}, Weights: "w"}, []bool{true, false, true, true, true}, ""},
		{Spec{Predictors: []string{"c"}, Responses: []string{"a"}, Weights: "w"}, []bool{true, false, true, true, false}, ""},
		{Spec{Responses: []string{"z"}}, nil, `responses: no column named "z" (columns: a, b, w, c, y)`},
		{Spec{Weights: "y"}, nil, `weights names the column "y", which has another role`},
		{Spec{Weights: "w", FoldID: "w", Flags: Flags{FoldID: "--foldid"}}, nil, `--foldid names the column "w", which has another role`},
		{Spec{Drop: []string{"y"}, Flags: Flags{Drop: "--drop", Target: "--target"}}, nil, `--drop leaves out "y", the response (name it with --target) or weights, offset or foldid`},
		{Spec{Predictors: []string{"a", "y"}}, nil, `predictors names "y", the response or weights, offset or foldid`},
	} {
		keep, err := tc.spec.Choose(h)
		if tc.err != "" {
			require.EqualError(t, err, tc.err)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tc.keep, keep, "%+v", tc.spec)
	}
}
