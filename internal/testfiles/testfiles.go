// Package testfiles writes the data files that several packages' tests
// read (package data's readers and the command line on top of them): one
// home for the fixtures, so the two test suites read the same bytes.
package testfiles

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

// WriteParquet writes rows as the Parquet file dir/name and returns its
// path.
func WriteParquet[T any](t testing.TB, dir, name string, rows []T) string {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf)
	_, err := w.Write(rows)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

// Row is a row of a Parquet file with every physical type the readers
// take: text, doubles, 32- and 64-bit integers, a decimal, a boolean, a
// float and an optional double.
type Row struct {
	ID    string   `parquet:"id"`
	A     float64  `parquet:"a"`
	B     int32    `parquet:"b"`
	C     int64    `parquet:"c"`
	Price int64    `parquet:"price,decimal(2:18)"`
	Flag  bool     `parquet:"flag"`
	Y     float32  `parquet:"y"`
	Hole  *float64 `parquet:"hole,optional"`
}

// Example writes n Rows as dir/d.parquet and the same values as
// dir/d.csv; hole is null in row nullAt (1-based; 0 for none).
func Example(t testing.TB, dir string, n, nullAt int) (pq, csv string) {
	t.Helper()
	var rows []Row
	var b strings.Builder
	b.WriteString("id,a,b,c,price,flag,y,hole\n")
	for i := 1; i <= n; i++ {
		r := Row{ID: fmt.Sprintf("r%d", i), A: float64(i%7) - 2.5, B: int32(i % 5), C: int64(i*i) % 11, Price: int64(i%9)*100 + 25,
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
	pq = WriteParquet(t, dir, "d.parquet", rows)
	csv = filepath.Join(dir, "d.csv")
	require.NoError(t, os.WriteFile(csv, []byte(b.String()), 0o644))
	return pq, csv
}

// Point is a nested (group) column.
type Point struct {
	X float64 `parquet:"x"`
	Y int32   `parquet:"y"`
}

// Nested is a row with nested, repeated and list columns (tags, pt, vals,
// opt) among flat ones (a, id, y).
type Nested struct {
	A    float64   `parquet:"a"`
	Tags []string  `parquet:"tags,list"`
	Pt   Point     `parquet:"pt"`
	Vals []float64 `parquet:"vals"`
	ID   string    `parquet:"id"`
	Opt  *Point    `parquet:"opt,optional"`
	Y    float64   `parquet:"y"`
}

// NestedFiles writes 40 Nested rows as dir/nested.parquet and their flat
// columns a and y as dir/flat.csv.
func NestedFiles(t testing.TB, dir string) (pq, flat string) {
	t.Helper()
	var rows []Nested
	var csv strings.Builder
	csv.WriteString("a,y\n")
	for i := range 40 {
		r := Nested{A: float64(i%7) - 3, Y: float64(2*(i%7) + i%3), ID: fmt.Sprint("r", i), Pt: Point{float64(i), int32(i)}}
		for range i % 4 { // 0 to 3 elements
			r.Tags = append(r.Tags, "t")
			r.Vals = append(r.Vals, float64(i))
		}
		if i%2 == 0 {
			r.Opt = &Point{1, 2}
		}
		rows = append(rows, r)
		fmt.Fprintf(&csv, "%v,%v\n", r.A, r.Y)
	}
	pq = WriteParquet(t, dir, "nested.parquet", rows)
	flat = filepath.Join(dir, "flat.csv")
	require.NoError(t, os.WriteFile(flat, []byte(csv.String()), 0o644))
	return pq, flat
}
