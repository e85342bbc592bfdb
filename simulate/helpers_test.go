package simulate

import (
	"bytes"
	"image/png"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/cardsparse/cardreg/internal/testfiles"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// needData returns the folder of the real data sets (../shared/data
// beside the repository), skipping t when one of files is not in it.
func needData(t *testing.T, files ...string) string {
	t.Helper()
	return testfiles.SharedData(t, files...)
}

// runQuick runs e in Quick mode from seed with the given repetitions.
func runQuick(t *testing.T, e Experiment, seed uint64, seeds int) *Result {
	t.Helper()
	r, err := e.Run(Config{Seed: seed, Seeds: seeds, Quick: true, DataDir: testfiles.SharedData(t)})
	require.NoError(t, err)
	require.Equal(t, e.Name, r.Name)
	return r
}

// checkQuick runs e in Quick mode and checks what every experiment owes:
// every cell of the columns not named in text is a finite number ("NA"
// only in a wall-time column, for a skipped method), the timing columns
// exist, the same seed gives the same rows, and the files render.
func checkQuick(t *testing.T, e Experiment, seed uint64, seeds int, text ...string) *Result {
	t.Helper()
	r := runQuick(t, e, seed, seeds)
	for _, c := range r.Timing {
		require.Contains(t, r.Columns, c)
	}
	for i, row := range r.Rows {
		require.Len(t, row, len(r.Columns), "row %d", i+1)
		for j, cell := range row {
			col := r.Columns[j]
			if slices.Contains(text, col) || (cell == "NA" && slices.Contains(r.Timing, col)) {
				continue
			}
			v, err := strconv.ParseFloat(cell, 64)
			require.NoError(t, err, "row %d, column %s", i+1, col)
			require.False(t, math.IsNaN(v) || math.IsInf(v, 0), "row %d, column %s: %s", i+1, col, cell)
		}
	}
	again := runQuick(t, e, seed, seeds)
	assert.Equal(t, r.Columns, again.Columns)
	assert.Equal(t, r.Deterministic(), again.Deterministic(), "same seed, different rows")
	requireRenders(t, r)
	return r
}

// requireRenders checks the four output files of r: the CSV has a header
// and one line per row, the JSON names the experiment and has a summary,
// the PNG decodes to a figure of the expected size and the SVG is an SVG
// document.
func requireRenders(t *testing.T, r *Result) {
	t.Helper()
	files, err := r.Files()
	require.NoError(t, err)
	assert.Equal(t, len(r.Rows)+1, bytes.Count(files["csv"], []byte("\n")))
	assert.Contains(t, string(files["json"]), `"name": "`+r.Name+`"`)
	assert.Contains(t, string(files["json"]), `"summary"`)
	img, err := png.Decode(bytes.NewReader(files["png"]))
	require.NoError(t, err)
	b := img.Bounds()
	w, h := r.Figure.PanelWidth, r.Figure.PanelHeight
	if w == 0 {
		w, h = 5*72, 3.5*72
	}
	assert.Equal(t, int(float64(r.Figure.Cols)*float64(w)/72*dpi+0.5), b.Dx())
	assert.Equal(t, int(float64(r.Figure.Rows)*float64(h)/72*dpi+0.5), b.Dy())
	assert.Greater(t, len(files["png"]), 10000, "a PNG this small is blank")
	assert.True(t, bytes.HasPrefix(files["svg"], []byte("<?xml")) || bytes.HasPrefix(files["svg"], []byte("<svg")))
}
