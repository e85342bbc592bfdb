package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStreamedCVInRounds: a streamed binomial or Poisson (with an offset)
// cross-validation runs in rounds, says its passes on stderr (a handful,
// not one per Newton step of every λ and fold), and marks the same λ_min
// and λ_1se as the fit in memory.
func TestStreamedCVInRounds(t *testing.T) {
	for _, c := range [][]string{
		{"--nlambda", "30", "--family", "binomial", "--target", "default", "../../examples/credit.csv"},
		{"--nlambda", "30", "--family", "poisson", "--target", "claims", "--offset", "log_exposure", "--drop", "exposure", "../../examples/claims.csv"},
	} {
		streamed := cardreg(t, append([]string{"cv", "--stream"}, c...)...)
		require.Zero(t, streamed.code, streamed.stderr)
		m := regexp.MustCompile(`in (\d+) passes`).FindStringSubmatch(streamed.stderr)
		require.NotNil(t, m, streamed.stderr)
		passes, _ := strconv.Atoi(m[1])
		require.LessOrEqual(t, passes, 6, streamed.stderr)
		memory := cardreg(t, append([]string{"cv"}, c...)...)
		require.Zero(t, memory.code, memory.stderr)
		require.Equal(t, marks(t, memory.stdout), marks(t, streamed.stdout), c[3])
	}
}

// marks returns the λ of the rows a cv table marks (λ_min and λ_1se), by
// mark.
func marks(t *testing.T, table string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(table), "\n")[1:] {
		f := strings.Split(line, ",")
		if f[len(f)-1] != "" {
			out[f[len(f)-1]] = f[0]
		}
	}
	require.Len(t, out, 2, table)
	return out
}
