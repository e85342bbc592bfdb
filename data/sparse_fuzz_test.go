package data

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/membudget"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// fuzzBudget bounds what a fuzzed file may allocate: an index of a
// billion is refused by the budget, not allocated.
var fuzzBudget = membudget.Budget{Bytes: 64 << 20, Given: true}

// svmSeeds are the bad and good files the fuzzers start from.
var svmSeeds = []string{
	"1 1:1 3:2\n0 5:1 2:1\n", "1 1:1 1:2\n", "1 1:1\n0 0:1 2:1\n", "1 -3:1\n", "1 99999999999:1\n",
	"1 a:1\n", "1 1:nan\n", "1 1:1e999\n", "1 1:1e-999\n", "yes 1:1\n", "1,3 1:1\n", "1:1 2:2\n",
	"1 qid:3 1:1\n", "1 1:1 7\n", "# c\n\n+1 2:0 3:1e-3\r\n-1\r\n2.5e1 1:-0 4:+7 # 9:9\r\n",
	"1 2000000000:1\n", "0 0:1 5:2\n1 3:4\n", "1\n0\n", "\x1f\x8b",
}

// FuzzSVMLight: no file makes the reader panic; read once (a pipe) and
// twice (a file) it gives the same design or the same error; a file it
// reads is consistent (one label per row, finite values, the base's columns) and
// reads back the same once written again.
func FuzzSVMLight(f *testing.F) {
	for _, s := range svmSeeds {
		f.Add([]byte(s), uint8(0), uint16(0))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte, base uint8, features uint16) {
		path := filepath.Join(dir, "f.svm")
		require.NoError(t, os.WriteFile(path, b, 0o644))
		o := SparseOptions{Base: Base(base % 3), Features: int(features % 50), Budget: fuzzBudget}
		s, err := ReadSVMLight(path, o)
		once, errOnce := readSVMLight(path, o, false)
		if err != nil {
			require.Error(t, errOnce)
			require.Equal(t, err.Error(), errOnce.Error(), "read once and twice")
		} else {
			require.NoError(t, errOnce)
			require.Equal(t, s.X.Columns(), once.X.Columns(), "read once and twice")
			require.Equal(t, s.Y, once.Y)
		}
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), path), "error without the file's name: %v", err)
			return
		}
		n, p := s.X.Dims()
		require.Len(t, s.Y, n)
		require.Len(t, s.Names, p)
		if o.Features > 0 {
			require.Equal(t, o.Features, p)
		}
		if float64(n)*float64(p) > 1e6 {
			return
		}
		x := s.X.Dense()
		checkFinite(t, x, s.Y)
		base1 := 1
		if s.ZeroBased {
			base1 = 0
		}
		again := writeFile(t, dir, "again.svm", svmText(x, s.Y, base1, false))
		o.Base = map[bool]Base{true: Base0, false: Base1}[s.ZeroBased]
		o.Features = p
		s2, err := ReadSVMLight(again, o)
		require.NoError(t, err)
		require.True(t, mat.Equal(x, s2.X.Dense()))
		require.Equal(t, s.Y, s2.Y)
	})
}

// checkFinite fails on a value of x or y that is not finite.
func checkFinite(t *testing.T, x *mat.Dense, y []float64) {
	t.Helper()
	for _, v := range append(append([]float64(nil), x.RawMatrix().Data...), y...) {
		require.False(t, math.IsNaN(v) || math.IsInf(v, 0), "value %v", v)
	}
}

// FuzzMatrixMarket: no file makes the reader panic; a file it reads is
// consistent and reads back the same once written again.
func FuzzMatrixMarket(f *testing.F) {
	const h = "%%MatrixMarket matrix coordinate real general\n"
	for _, s := range []string{
		h + "3 2 3\n2 1 1\n% c\n1 2 1\n2 1 5\n", h + "2 2 1\n3 1 1\n", h + "2 2 1\n1 1 nan\n", h + "1000 2000000000 1\n",
		h + "2 2 1\n1 1 1\n2 2 1\n", h + "2 2 3\n1 1 1\n2 2 1\n", h + "3 3\n", "%%MatrixMarket matrix coordinate real\n",
		"%%MatrixMarket matrix coordinate real symmetric\n", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
		"%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n2 2\n", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n",
		h + "2 3 2\n2 3 -1e-3\n1 1 4\n",
	} {
		f.Add([]byte(s), uint16(0))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte, features uint16) {
		path := filepath.Join(dir, "f.mtx")
		require.NoError(t, os.WriteFile(path, b, 0o644))
		o := SparseOptions{Features: int(features % 50), Budget: fuzzBudget}
		s, err := ReadMatrixMarket(path, o)
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), path), "error without the file's name: %v", err)
			return
		}
		n, p := s.X.Dims()
		require.Len(t, s.Names, p)
		if float64(n)*float64(p) > 1e6 {
			return
		}
		x := s.X.Dense()
		checkFinite(t, x, nil)
		var text strings.Builder
		var k int
		for j := range p {
			for i := range n {
				if v := x.At(i, j); v != 0 {
					fmt.Fprintf(&text, "%d %d %s\n", i+1, j+1, strconv.FormatFloat(v, 'g', -1, 64))
					k++
				}
			}
		}
		again := writeFile(t, dir, "again.mtx", fmt.Sprintf("%s%d %d %d\n%s", h, n, p, k, text.String()))
		s2, err := ReadMatrixMarket(again, SparseOptions{})
		require.NoError(t, err)
		require.True(t, mat.Equal(x, s2.X.Dense()))
	})
}
