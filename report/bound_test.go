package report

import (
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/stretchr/testify/require"
)

func TestWriteLemmaChecks(t *testing.T) {
	rows := []bounds.LemmaCheck{
		{Kind: "all-pairs", Rows: 2, Cols: 1, P: 2, MG: 0.5, Closed: 0.5, Bound: 1.4, Ratio: 0.35, Holds: true},
		{Kind: "grouped", Rows: 3, Cols: 1, P: 3, Groups: []int{2, 1}, MG: 0.1, Closed: 0.1, Bound: 1, Ratio: 0.1, Holds: true},
	}
	var b strings.Builder
	require.NoError(t, WriteLemmaChecks(&b, rows))
	lines := strings.Split(b.String(), "\n")
	require.Len(t, lines, 6)
	require.Contains(t, lines[1], "all-pairs")
	require.Contains(t, lines[2], "grouped [2 1]")
	require.Equal(t, len(lines[0]), len(lines[1]), "right-aligned columns")
	require.True(t, strings.HasPrefix(lines[4], "all-pairs: bound 2/sqrt(P)"))
}
