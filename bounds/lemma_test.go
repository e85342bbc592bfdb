package bounds

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// LemmaChecks reports every check's programs: one tick per check, counts
// rising to the total, 2^(n−1) programs for a matrix on n rows.
func TestLemmaChecksTicks(t *testing.T) {
	type tick struct{ done, total int }
	var ticks []tick
	rows, err := LemmaChecks(5, []int{1, 4}, 2, 1, func(done, total int) { ticks = append(ticks, tick{done, total}) })
	require.NoError(t, err)
	require.Len(t, ticks, len(rows))
	want := 0
	for k, r := range rows {
		want += 1 << (r.Rows - 1)
		require.Equal(t, want, ticks[k].done, "check %d (%s, %d rows)", k, r.Kind, r.Rows)
	}
	for _, tk := range ticks {
		require.Equal(t, want, tk.total)
	}
	quiet, err := LemmaChecks(5, []int{1, 4}, 2, 1, nil)
	require.NoError(t, err)
	require.Equal(t, rows, quiet)
}

// Every check of small sizes holds, its ratio is M_G over its bound, and
// the all-pairs closed form 2/(n√P) is what the linear programs find.
func TestLemmaChecksHold(t *testing.T) {
	rows, err := LemmaChecks(5, []int{1, 3}, 3, 2, nil)
	require.NoError(t, err)
	for _, r := range rows {
		require.True(t, r.Holds, "%s n=%d cols=%d", r.Kind, r.Rows, r.Cols)
		require.InDelta(t, r.MG/r.Bound, r.Ratio, 1e-15)
		if r.Kind == "all-pairs" {
			require.InDelta(t, r.Closed, r.MG, 1e-9)
		}
	}
}
