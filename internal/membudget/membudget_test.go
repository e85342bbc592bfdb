package membudget

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// ParseBytes takes positive whole byte counts with or without a unit and
// refuses the rest.
func TestParseBytes(t *testing.T) {
	for s, want := range map[string]int64{
		"8000000000": 8e9, "8GB": 8e9, "8gb": 8e9, "8G": 8e9, "512MiB": 512 << 20, "4e9": 4e9,
		"1.5GB": 15e8, "10kB": 1e4, "2 TiB": 2 << 40, "100B": 100, "1": 1,
	} {
		got, err := ParseBytes(s)
		require.NoError(t, err, s)
		require.Equal(t, want, got, s)
	}
	for _, s := range []string{"-5", "0", "-1GB", "abc", "", "1.5", "0.0005kB", "GB", "NaN", "Inf", "1e30", "9.3e18", "12XB"} {
		_, err := ParseBytes(s)
		require.Error(t, err, s)
	}
}

// A budget is named for messages by where it comes from; CheckSquares
// refuses what passes it, saying what is needed, and checks nothing
// without a budget.
func TestCheckSquares(t *testing.T) {
	b := Of(1e6)
	require.Equal(t, "--memory 1 MB", b.String())
	require.NoError(t, CheckSquares("x", 1, 100, b, "advice"))        // 160 kB
	err := CheckSquares("the statistics", 2, 1000, b, "drop columns") // 32 MB
	require.EqualError(t, err, "the statistics need about 32 MB (2 matrices of 1000 × 1000 float64, doubled for the garbage collector), more than --memory 1 MB; drop columns")
	require.NoError(t, CheckSquares("x", 2, 1000, Budget{}, ""))
	require.True(t, Budget{}.OrAssumed().Assumed)
	require.Equal(t, 12, StreamMatrices(6))
	require.Equal(t, 7, StreamMatrices(1))
}
