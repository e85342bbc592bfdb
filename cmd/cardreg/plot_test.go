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
