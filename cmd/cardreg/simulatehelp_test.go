package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSimulateHelpSaysPartialRename checks that simulate's help does not
// promise more than outfile.WriteSet keeps: a rename failing after others
// succeeded leaves those files new.
func TestSimulateHelpSaysPartialRename(t *testing.T) {
	res := cardreg(t, "simulate", "--help")
	require.Contains(t, res.stdout+res.stderr, "only if naming them fails part way")
}
