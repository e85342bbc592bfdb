package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// cardreg bound draws a progress bar on stderr (forced here: a buffer is
// no terminal), moving with the linear programs solved, and erases it; its
// results on stdout are those of the run without the bar, text or JSON.
func TestBoundProgress(t *testing.T) {
	for _, args := range [][]string{
		{"bound", "--max-rows", "6", "--cols", "1,4", "--partitions", "2"},
		{"bound", "--max-rows", "5", "--cols", "2", "--partitions", "0", "--format", "json"},
	} {
		quiet := cardreg(t, args...)
		require.Equal(t, 0, quiet.code, quiet.stderr)
		require.Empty(t, quiet.stderr, "no bar when stderr is not a terminal")
		loud := cardreg(t, append(args, "--progress")...)
		require.Equal(t, 0, loud.code, loud.stderr)
		require.Contains(t, loud.stderr, "\rsolving the linear programs [")
		require.Contains(t, loud.stderr, "%")
		require.True(t, strings.HasSuffix(loud.stderr, "\r"), "the bar is erased at the end")
		require.NotContains(t, loud.stderr, "\n")
		require.Equal(t, quiet.stdout, loud.stdout)
	}
}
