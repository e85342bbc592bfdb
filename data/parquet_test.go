package data

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
		tab, err := Read(path, Options{Labels: func(name string) bool { return name == "id" }, DropMissing: at%2 == 0})
		if err != nil {
			require.Contains(t, err.Error(), path)
			require.NotContains(t, err.Error(), "\n")
			return
		}
		for j := range tab.names {
			if tab.text[j] == nil {
				require.Len(t, tab.cols[j], tab.Rows())
			}
		}
	})
}
