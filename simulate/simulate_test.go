package simulate

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/reference"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBoundQuick(t *testing.T) {
	r := checkQuick(t, Bound(), 1, 1, "method")
	exact, interval := boundGrid(true)
	require.Len(t, r.Rows, 2*(len(exact)+len(interval)))
	lo, _ := r.Floats("lower")
	up, _ := r.Floats("upper")
	cf, _ := r.Floats("closed_form")
	pb, _ := r.Floats("paper_bound")
	for i := range lo {
		assert.LessOrEqual(t, lo[i], cf[i]*(1+1e-9))
		assert.GreaterOrEqual(t, up[i], cf[i]*(1-1e-9))
		assert.LessOrEqual(t, up[i], pb[i], "the paper's bound 2/√P")
		if r.Rows[i][2] == "exact" {
			assert.InDelta(t, cf[i], lo[i], 1e-9*cf[i])
		}
	}
}

func TestMemoryTable(t *testing.T) {
	dir := needData(t, "yeast.csv", "concrete_compressive_strength.csv", "ai4i2020_full.csv")
	r, err := Memory().Run(Config{DataDir: dir})
	require.NoError(t, err)
	require.Len(t, r.Rows, len(memorySets))
	packed, _ := r.Floats("packed_bytes")
	dense, _ := r.Floats("dense_float32_bytes")
	for i, s := range memorySets {
		d, err := LoadCSV(filepath.Join(dir, s.File), s.Cols)
		require.NoError(t, err)
		// The accounting recomputed from the data: ⌈log₂ m_j⌉ bits per
		// code (at least one) and 32 bits per distinct value.
		rows, cols := d.X.Dims()
		var bits float64
		for j := range cols {
			seen := map[float64]bool{}
			for i := range rows {
				seen[d.X.At(i, j)] = true
			}
			m := len(seen)
			bits += float64(rows)*math.Max(1, math.Ceil(math.Log2(float64(m)))) + 32*float64(m)
		}
		assert.InDelta(t, bits/8, packed[i], 1e-9, s.Label)
		assert.Equal(t, s.PaperDense, dense[i], "%s: the paper's dense float32 bytes", s.Label)
		assert.Less(t, packed[i], s.PaperSparse, s.Label)
	}
	requireRenders(t, r)
}

func TestAdjustedRand(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n := 2 + rng.IntN(30)
		x, y := make([]int, n), make([]int, n)
		kx, ky := 1+rng.IntN(5), 1+rng.IntN(5)
		for i := range x {
			x[i], y[i] = rng.IntN(kx), rng.IntN(ky)
		}
		// The reference counts pairs in exact integer arithmetic.
		assert.InDelta(t, reference.AdjustedRand(x, y), AdjustedRand(x, y), 1e-12)
	}
	labels := []int{0, 0, 1, 1, 2, 2, 2}
	relabelled := []int{5, 5, 9, 9, 1, 1, 1}
	assert.Equal(t, 1.0, AdjustedRand(labels, relabelled))
	assert.Equal(t, 1.0, AdjustedRand([]int{3, 3, 3}, []int{1, 1, 1}))
}

func TestSummarize(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, math.NaN()}
	s := Summarize(xs)
	assert.Equal(t, 10, s.N)
	assert.InDelta(t, 5.5, s.Mean, 1e-12)
	assert.InDelta(t, math.Sqrt(55.0/6), s.SD, 1e-12)
	// t_{0.975, 9} = 2.262157 from tables.
	assert.InDelta(t, 2.262157*s.SD/math.Sqrt(10), s.High-s.Mean, 1e-5)
	assert.InDelta(t, s.Mean-s.Low, s.High-s.Mean, 1e-12)
	one := Summarize([]float64{3})
	assert.Equal(t, Stat{Mean: 3, Low: 3, High: 3, N: 1}, one)
}

func TestSaveIsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	r, err := Bound().Run(Config{Quick: true})
	require.NoError(t, err)
	require.NoError(t, r.Save(dir))
	before, err := os.ReadFile(filepath.Join(dir, "bound.csv"))
	require.NoError(t, err)
	broken := *r
	broken.Rows = append([][]string{{"1"}}, r.Rows...) // a short row
	require.Error(t, broken.Save(dir))
	broken = *r
	broken.Figure = nil
	require.Error(t, broken.Save(dir))
	after, err := os.ReadFile(filepath.Join(dir, "bound.csv"))
	require.NoError(t, err)
	assert.Equal(t, before, after)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 4, "no temporary files are left")
	for _, e := range entries {
		assert.False(t, strings.HasPrefix(e.Name(), "."), e.Name())
	}
}

// TestSaveLeavesEveryFileWhenOneIsInTheWay: a directory where a figure
// goes fails the save before any file is replaced (the CSV and JSON were
// replaced, then the PNG failed); a symbolic link is followed, not
// replaced.
func TestSaveLeavesEveryFileWhenOneIsInTheWay(t *testing.T) {
	dir := t.TempDir()
	r, err := Bound().Run(Config{Quick: true})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bound.csv"), []byte("old\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "bound.png"), 0o755))
	err = r.Save(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bound.png: is a directory; none of the 4 files was written")
	b, err := os.ReadFile(filepath.Join(dir, "bound.csv"))
	require.NoError(t, err)
	assert.Equal(t, "old\n", string(b))
	assert.NoFileExists(t, filepath.Join(dir, "bound.json"))

	other := t.TempDir()
	target := filepath.Join(other, "kept.csv")
	require.NoError(t, os.Symlink(target, filepath.Join(other, "bound.csv")))
	require.NoError(t, r.Save(other))
	fi, err := os.Lstat(filepath.Join(other, "bound.csv"))
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink, "the link is kept")
	b, err = os.ReadFile(target)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(b), strings.Join(r.Columns, ",")), "the link's target holds the table")
}

func TestLoadCSVErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(path, []byte("a,b,label\n1,2,x\n3,oops,y\n"), 0o644))
	_, err := LoadCSV(path, 2)
	require.Error(t, err)
	assert.Contains(t, err.Error(), path+":3: column 2 (b)")
	d, err := LoadCSV(path, 1)
	require.NoError(t, err)
	assert.Equal(t, []string{"2", "oops"}, d.Labels)
	_, err = LoadCSV(filepath.Join(dir, "missing.csv"), -1)
	assert.ErrorContains(t, err, "--data")
}

func TestFixedExperimentsTakeNoSeeds(t *testing.T) {
	_, err := Bound().Run(Config{Seeds: 3, Quick: true})
	assert.ErrorContains(t, err, "drop --seeds")
	r, err := Bound().Run(Config{Seed: 5, Quick: true})
	require.NoError(t, err)
	assert.Empty(t, r.Seeds)
	assert.Equal(t, uint64(5), r.BaseSeed)
	assert.False(t, Bound().Repeated())
	assert.True(t, Digits().Repeated())
}

func TestLookup(t *testing.T) {
	for _, e := range All() {
		got, err := Lookup(e.Name)
		require.NoError(t, err)
		assert.Equal(t, e.Name, got.Name)
		assert.NotEmpty(t, e.Summary)
		assert.Positive(t, e.DefaultSeeds)
	}
	_, err := Lookup("nope")
	assert.ErrorContains(t, err, "memory")
}

func TestFormat(t *testing.T) {
	assert.Equal(t, "NA", Format(math.NaN()))
	assert.Equal(t, "0.1", Format(0.1))
	x := 1.0 / 3
	back, err := strconv.ParseFloat(Format(x), 64)
	require.NoError(t, err)
	assert.Equal(t, x, back)
	assert.Equal(t, "7", Format(7))
}
