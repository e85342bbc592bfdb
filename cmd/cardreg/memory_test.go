package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/testfiles"

	"github.com/cardsparse/cardreg/cardmat"
	"github.com/stretchr/testify/require"
)

// TestMemoryTable: on the source paper's data sets the compressed size (by
// its rule) is no larger than the paper's and the float32 size is the
// paper's; non-numeric columns are skipped and named.
func TestMemoryTable(t *testing.T) {
	dir := testfiles.SharedData(t, "yeast.csv", "concrete_compressive_strength.csv", "ai4i2020_full.csv") + "/"
	for _, c := range []struct {
		file          string
		float32, max  float64
		skipped, cols int
	}{
		{"yeast.csv", 47488, 9752.5, 1, 8},
		{"concrete_compressive_strength.csv", 37080, 19662.8, 0, 9},
		{"ai4i2020_full.csv", 480000, 125496, 0, 12},
	} {
		res := cardreg(t, "memory", "--format", "json", dir+c.file)
		require.Equal(t, 0, res.code, res.stderr)
		var rep map[string]any
		require.NoError(t, json.Unmarshal([]byte(res.stdout), &rep))
		for _, k := range []string{"rows", "cols", "dense_float32_bytes", "dense_float64_bytes", "compressed_bytes", "distinct_per_column"} {
			require.Contains(t, rep, k)
		}
		require.Equal(t, c.float32, rep["dense_float32_bytes"], c.file)
		require.LessOrEqual(t, rep["compressed_bytes"].(float64), c.max, c.file)
		require.Equal(t, float64(c.cols), rep["cols"])
		if c.skipped > 0 {
			require.Len(t, rep["skipped_columns"], c.skipped)
		}
	}
	bad := cardreg(t, "memory")
	require.Equal(t, 2, bad.code)
}

// A continuous column is reported as not compressible, not a failure.
func TestMemoryNotCompressible(t *testing.T) {
	var b strings.Builder
	b.WriteString("level,cont,label\n")
	for i := range 70000 {
		fmt.Fprintf(&b, "%d,%d.5,t%d\n", i%3, i, i%2)
	}
	path := writeFile(t, t.TempDir(), "cont.csv", b.String())
	res := cardreg(t, "memory", "--format", "json", path)
	require.Equal(t, 0, res.code, res.stderr)
	var rep cardmat.Storage
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &rep))
	require.Equal(t, []string{"level", "cont"}, rep.Columns)
	require.Equal(t, []string{"cont"}, rep.NotCompressible)
	require.Equal(t, []string{"label"}, rep.SkippedColumns)
	require.Equal(t, 3, rep.Distinct[0])
	// cont stays dense: 4 bytes per row in the paper's total, beside the
	// 2-bit codes and 3 float32 values of level.
	require.InDelta(t, 4*70000+70000*2.0/8+3*4, rep.Compressed, 64)
	text := cardreg(t, "memory", path)
	require.Equal(t, 0, text.code)
	require.Contains(t, text.stdout, "not compressible")
}
