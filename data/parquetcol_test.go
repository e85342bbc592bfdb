package data

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
				opts := func(dst *[][]float64) Options {
					o := Options{DropMissing: drop}
					if stream {
						o.Row = func(v []float64, _ []string) error {
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

// FuzzParquetColumnar reads mutated numeric Parquet files both ways: the
// columnar reader must fail where the row reader fails (one line naming the
// file) and otherwise give the same table, never panic or hang.
func FuzzParquetColumnar(f *testing.F) {
	dir := f.TempDir()
	seed := filepath.Join(dir, "seed.parquet")
	writePqNumF(f, seed)
	good, err := os.ReadFile(seed)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, uint16(0), byte(0))
	f.Add(good, uint16(300), byte(0x40))
	path := filepath.Join(dir, "fuzz.parquet")
	f.Fuzz(func(t *testing.T, data []byte, at uint16, b byte) {
		require.NoError(t, os.WriteFile(path, flipByte(data, at, b), 0o644))
		o := Options{DropMissing: at%2 == 0}
		a, errA := readParquetBy(path, o, true)
		r, errR := readParquetBy(path, o, false)
		for _, err := range []error{errA, errR} {
			if err != nil {
				require.Contains(t, err.Error(), path)
				require.NotContains(t, err.Error(), "\n")
			}
		}
		if errR != nil || errA != nil {
			require.Equal(t, errR != nil, errA != nil, "row reader: %v; columnar: %v", errR, errA)
			return
		}
		require.Equal(t, r.names, a.names)
		require.Equal(t, r.n, a.n)
		require.Equal(t, r.dropped, a.dropped)
		for k := range r.cols {
			require.Equal(t, len(r.cols[k]), len(a.cols[k]))
			for i, v := range r.cols[k] {
				require.True(t, v == a.cols[k][i] || v != v && a.cols[k][i] != a.cols[k][i], "column %d row %d", k, i)
			}
		}
	})
}

// writePqNumF is writePqNum's small file for the fuzzer's seed: two row
// groups, a null.
func writePqNumF(f *testing.F, path string) {
	var rows []pqNum
	for i := range 40 {
		h := float64(i % 3)
		r := pqNum{A: float64(i) / 7, D: float64(i % 2), I: int32(i), L: int64(i * 3), F: float32(i) / 2, B: i%3 == 0, Y: float64(i % 5), Hole: &h}
		if i == 11 {
			r.Hole = nil
		}
		rows = append(rows, r)
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[pqNum](&buf, parquet.MaxRowsPerRowGroup(25))
	if _, err := w.Write(rows); err != nil {
		f.Fatal(err)
	}
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		f.Fatal(err)
	}
}

// Unsigned integer columns are read as unsigned by both readers: a uint32
// of 3e9 and a uint64 of 2⁶³ + 2¹¹ used to come back negative, with no
// error.
func TestParquetUnsigned(t *testing.T) {
	type row struct {
		U32 uint32  `parquet:"u32"`
		U64 uint64  `parquet:"u64"`
		Y   float64 `parquet:"y"`
	}
	rows := []row{{3000000000, 1<<63 + 1<<11, 1}, {7, 9, 2}, {math.MaxUint32, math.MaxUint64, 3}}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[row](&buf)
	_, err := w.Write(rows)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	path := filepath.Join(t.TempDir(), "u.parquet")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	for _, columnar := range []bool{false, true} {
		tab, err := readParquetBy(path, Options{}, columnar)
		require.NoError(t, err)
		require.Equal(t, []float64{3e9, 7, math.MaxUint32}, tab.cols[0], "columnar %v", columnar)
		require.Equal(t, []float64{1<<63 + 1<<11, 9, math.MaxUint64}, tab.cols[1], "columnar %v", columnar)
	}
}
