package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"
)

// pqNum is a row of numbers only, with an optional (nullable) column and a
// dictionary-encoded one.
type pqNum struct {
	A    float64  `parquet:"a"`
	D    float64  `parquet:"d,dict"`
	I    int32    `parquet:"i"`
	L    int64    `parquet:"l,decimal(3:18)"`
	F    float32  `parquet:"f"`
	B    bool     `parquet:"b"`
	Hole *float64 `parquet:"hole,optional"`
	Y    float64  `parquet:"y"`
}

// writePqNum writes n rows in row groups of at most group rows; hole is
// null in the rows where null(i) holds and a is bad(i) there when set.
func writePqNum(t *testing.T, path string, n, group int, null func(int) bool, bad func(int) float64) {
	var rows []pqNum
	for i := range n {
		r := pqNum{A: float64(i%13) / 3, D: float64(i % 3), I: int32(i%7 - 3), L: int64(i * 17 % 1000), F: float32(i%5) / 4,
			B: i%2 == 0, Y: float64(i%11) - 5}
		if null == nil || !null(i) {
			h := float64(i % 4)
			r.Hole = &h
		}
		if bad != nil {
			r.A = bad(i)
		}
		rows = append(rows, r)
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[pqNum](&buf, parquet.MaxRowsPerRowGroup(int64(group)), parquet.PageBufferSize(256))
	_, err := w.Write(rows)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
}

// TestParquetColumnarEqualsRows: reading column by column (plain, dictionary
// and optional pages, several row groups and pages) gives the table, the
// dropped rows, the streamed rows and the errors of the row reader.
func TestParquetColumnarEqualsRows(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		null func(int) bool
		bad  func(int) float64
	}{
		{"plain", nil, nil},
		{"nulls", func(i int) bool { return i%9 == 4 }, nil},
		{"nan", nil, func(i int) float64 {
			if i == 37 {
				return math.NaN()
			}
			return float64(i)
		}},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name+".parquet")
		writePqNum(t, path, 300, 64, c.null, c.bad)
		for _, drop := range []bool{false, true} {
			for _, stream := range []bool{false, true} {
				var rowsA, rowsB [][]float64
				opts := func(dst *[][]float64) readOptions {
					o := readOptions{dropMissing: drop}
					if stream {
						o.row = func(v []float64, _ []string) error {
							*dst = append(*dst, append([]float64(nil), v...))
							return nil
						}
					}
					return o
				}
				a, errA := readParquetBy(path, opts(&rowsA), true)
				b, errB := readParquetBy(path, opts(&rowsB), false)
				if errB != nil {
					require.EqualError(t, errA, errB.Error(), "%s drop=%v stream=%v", c.name, drop, stream)
					continue
				}
				require.NoError(t, errA, "%s drop=%v stream=%v", c.name, drop, stream)
				require.Equal(t, b.names, a.names)
				require.Equal(t, b.cols, a.cols)
				require.Equal(t, b.n, a.n)
				require.Equal(t, b.dropped, a.dropped)
				require.Equal(t, rowsB, rowsA)
				if c.null != nil && drop {
					require.Positive(t, a.dropped)
				}
			}
		}
	}
}
