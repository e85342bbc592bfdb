package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"
)

// pqRow is a row of a Parquet file with every physical type cardreg reads.
type pqRow struct {
	ID    string   `parquet:"id"`
	A     float64  `parquet:"a"`
	B     int32    `parquet:"b"`
	C     int64    `parquet:"c"`
	Price int64    `parquet:"price,decimal(2:18)"`
	Flag  bool     `parquet:"flag"`
	Y     float32  `parquet:"y"`
	Hole  *float64 `parquet:"hole,optional"`
}

// pqExample writes n rows as Parquet and as the equivalent CSV; hole is
// null in row nullAt (1-based; 0 for none).
func pqExample(t testing.TB, dir string, n, nullAt int) (pq, csv string) {
	var rows []pqRow
	var b strings.Builder
	b.WriteString("id,a,b,c,price,flag,y,hole\n")
	for i := 1; i <= n; i++ {
		r := pqRow{ID: fmt.Sprintf("r%d", i), A: float64(i%7) - 2.5, B: int32(i % 5), C: int64(i*i) % 11, Price: int64(i%9)*100 + 25,
			Flag: i%3 == 0, Y: float32(3*(i%7) - 2*(i%5) + (i%11)/4)}
		h := float64(i % 4)
		if i != nullAt {
			r.Hole = &h
		}
		rows = append(rows, r)
		flag := 0
		if r.Flag {
			flag = 1
		}
		fmt.Fprintf(&b, "%s,%v,%d,%d,%v,%d,%v,%v\n", r.ID, r.A, r.B, r.C, float64(r.Price)/100, flag, r.Y, h)
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[pqRow](&buf)
	_, err := w.Write(rows)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	pq = filepath.Join(dir, "d.parquet")
	require.NoError(t, os.WriteFile(pq, buf.Bytes(), 0o644))
	csv = filepath.Join(dir, "d.csv")
	require.NoError(t, os.WriteFile(csv, []byte(b.String()), 0o644))
	return pq, csv
}

// A Parquet file fits as its CSV twin does, in memory and streamed.
func TestParquetInput(t *testing.T) {
	dir := t.TempDir()
	pq, csv := pqExample(t, dir, 60, 0)
	args := []string{"fit", "--lambda", "3", "--format", "json", "--drop", "id", "--target", "y"}
	want := cardreg(t, append(args, csv)...)
	require.Equal(t, 0, want.code, want.stderr)
	got := cardreg(t, append(args, pq)...)
	require.Equal(t, 0, got.code, got.stderr)
	require.Equal(t, want.stdout, got.stdout)
	streamed := cardreg(t, append(append(args, "--stream"), pq)...)
	require.Equal(t, 0, streamed.code, streamed.stderr)
	a, b := decodeFit(t, want.stdout), decodeFit(t, streamed.stdout)
	require.InDeltaSlice(t, a.Coefficients, b.Coefficients, 1e-9)
	require.InDelta(t, a.Intercept, b.Intercept, 1e-9)
	// Predict reads Parquet too.
	model := filepath.Join(dir, "m.json")
	require.Equal(t, 0, cardreg(t, append(args, "--save-model", model, csv)...).code)
	pc, pp := cardreg(t, "predict", "--model", model, csv), cardreg(t, "predict", "--model", model, pq)
	require.Equal(t, 0, pp.code, pp.stderr)
	require.Equal(t, pc.stdout, pp.stdout)
}

func TestParquetErrors(t *testing.T) {
	dir := t.TempDir()
	pq, _ := pqExample(t, dir, 30, 7)
	oneLine(t, cardreg(t, "fit", "--lambda", "1", "--drop", "id", "--target", "y", pq), 1, "d.parquet: row 7", `column "hole": null`)
	ok := cardreg(t, "fit", "--lambda", "1", "--drop", "id", "--target", "y", "--drop-missing", "--format", "json", pq)
	require.Equal(t, 0, ok.code, ok.stderr)
	require.Equal(t, 29, decodeFit(t, ok.stdout).N)
	oneLine(t, cardreg(t, "fit", "--lambda", "1", "--target", "y", pq), 1, "d.parquet: row 1", `column "id"`, "--drop")
	b, err := os.ReadFile(pq)
	require.NoError(t, err)
	for _, cut := range []int{8, len(b) / 2, len(b) - 9} {
		bad := writeFile(t, dir, "cut.parquet", string(b[:cut]))
		res := cardreg(t, "fit", "--lambda", "1", bad)
		require.Equal(t, 1, res.code, res.stderr)
		require.Equal(t, 1, strings.Count(res.stderr, "\n"), res.stderr)
		require.Contains(t, res.stderr, "cut.parquet")
	}
}

// flipByte returns a copy of data with byte at (mod its length) XORed by b:
// the Parquet fuzzers' mutation on top of the engine's own.
func flipByte(data []byte, at uint16, b byte) []byte {
	if len(data) == 0 {
		return data
	}
	data = bytes.Clone(data)
	data[int(at)%len(data)] ^= b
	return data
}

// FuzzParquet mutates a valid Parquet file: no panic, one-line errors
// naming the file, and finite numbers in any table read.
func FuzzParquet(f *testing.F) {
	dir := f.TempDir()
	pq, _ := pqExample(f, dir, 20, 3)
	good, err := os.ReadFile(pq)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, uint16(0), byte(0))
	f.Add(good, uint16(100), byte(0xff))
	path := filepath.Join(dir, "fuzz.parquet")
	f.Fuzz(func(t *testing.T, data []byte, at uint16, b byte) {
		require.NoError(t, os.WriteFile(path, flipByte(data, at, b), 0o644))
		tab, err := readTableWith(path, readOptions{labels: func(name string) bool { return name == "id" }, dropMissing: at%2 == 0})
		if err != nil {
			require.Contains(t, err.Error(), path)
			require.NotContains(t, err.Error(), "\n")
			return
		}
		for j := range tab.names {
			if tab.text[j] == nil {
				require.Len(t, tab.cols[j], tab.rows())
			}
		}
	})
}
