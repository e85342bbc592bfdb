package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/simulate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSimulateList(t *testing.T) {
	res := cardreg(t, "simulate", "list")
	require.Equal(t, 0, res.code, res.stderr)
	for _, e := range simulate.All() {
		assert.Contains(t, res.stdout, e.Name+" ")
	}
	assert.Equal(t, len(simulate.All()), strings.Count(res.stdout, "\n"))
}

func TestSimulateUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate"}, "expected one experiment name"},
		{[]string{"simulate", "bound"}, "--out DIR is required"},
		{[]string{"simulate", "nope", "--out", "x"}, `unknown experiment "nope"`},
		{[]string{"simulate", "bound", "--out", "x", "--seeds", "-1"}, "--seeds -1"},
		{[]string{"simulate", "bound", "--out", "x", "--bogus"}, "bogus"},
		{[]string{"simulate", "memory", "--out", "x", "--seeds", "3"}, "no repetitions"},
	} {
		res := cardreg(t, c.args...)
		assert.Equal(t, 2, res.code, c.args)
		assert.Contains(t, res.stderr, c.want)
		assert.Equal(t, 1, strings.Count(res.stderr, "\n"), "one line: %q", res.stderr)
	}
}

func TestSimulateWritesAndKeepsOutputs(t *testing.T) {
	dir := t.TempDir()
	res := cardreg(t, "simulate", "bound", "--quick", "--out", dir)
	require.Equal(t, 0, res.code, res.stderr)
	for _, ext := range []string{"csv", "json", "png", "svg"} {
		fi, err := os.Stat(filepath.Join(dir, "bound."+ext))
		require.NoError(t, err)
		assert.Positive(t, fi.Size())
	}
	// A failing run (no data sets) leaves an earlier output untouched.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "memory.csv"), []byte("earlier\n"), 0o644))
	res = cardreg(t, "simulate", "memory", "--out", dir, "--data", filepath.Join(dir, "none"))
	assert.Equal(t, 1, res.code)
	assert.Contains(t, res.stderr, "yeast.csv")
	b, err := os.ReadFile(filepath.Join(dir, "memory.csv"))
	require.NoError(t, err)
	assert.Equal(t, "earlier\n", string(b))
}
