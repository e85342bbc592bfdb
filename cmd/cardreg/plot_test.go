package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The path plot: every predictor in a legend beside the data, distinct
// styles, and the number of distinct values along the top.
func TestPathPlot(t *testing.T) {
	dir := t.TempDir()
	data := "../../examples/cardinality.csv"
	svg := filepath.Join(dir, "path.svg")
	res := cardreg(t, "path", "--nlambda", "12", "--plot", svg, data)
	require.Equal(t, 0, res.code, res.stderr)
	b, err := os.ReadFile(svg)
	require.NoError(t, err)
	s := string(b)
	for j := 1; j <= 12; j++ {
		require.Contains(t, s, fmt.Sprintf(">x%d<", j), "legend entry x%d", j)
	}
	require.Contains(t, s, "number of distinct values")
	require.Contains(t, s, ">12<", "the top axis counts 12 distinct values at small λ")
	require.Contains(t, s, ">1<", "and 1 at the top of the grid")
	png := filepath.Join(dir, "path.png")
	require.Equal(t, 0, cardreg(t, "path", "--nlambda", "12", "--plot", png, data).code)
	b, err = os.ReadFile(png)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(b), "\x89PNG"))
}

// With factors, path --plot FILE.png also draws FILE-factors.png (one
// panel per factor, the levels coloured by their groups), and FILE.svg
// FILE-factors.svg; without factors there is no factor plot.
func TestFactorPathPlot(t *testing.T) {
	dir := t.TempDir()
	args := []string{"path", "--family", "poisson", "--offset", "log_exposure", "--drop", "exposure",
		"--ordinal", policiesOrder, "--nlambda", "20", "--out", filepath.Join(dir, "path.csv")}
	png := filepath.Join(dir, "p.png")
	res := cardreg(t, append(args, "--plot", png, policies)...)
	require.Equal(t, 0, res.code, res.stderr)
	for _, name := range []string{png, filepath.Join(dir, "p-factors.png")} {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(string(b), "\x89PNG\r\n\x1a\n"), "%s is not a PNG", name)
	}
	svg := filepath.Join(dir, "p.svg")
	res = cardreg(t, append(args, "--plot", svg, policies)...)
	require.Equal(t, 0, res.code, res.stderr)
	b, err := os.ReadFile(filepath.Join(dir, "p-factors.svg"))
	require.NoError(t, err)
	for _, want := range []string{"region (nominal, reference R01)", "vehicle_age (ordinal, reference 0-2)", "fuel (nominal, reference Diesel)", "groups at λ = "} {
		require.Contains(t, string(b), want)
	}
	// 19 levels: one line each, plus a legend thumbnail per group.
	require.Greater(t, strings.Count(string(b), "stroke-width:1.4\""), 19)

	plain := filepath.Join(dir, "plain.svg")
	require.Equal(t, 0, cardreg(t, "path", "--nlambda", "5", "--plot", plain, "../../examples/cardinality.csv").code)
	_, err = os.Stat(filepath.Join(dir, "plain-factors.svg"))
	require.True(t, os.IsNotExist(err), "a factor plot without factors: %v", err)
}
