package data

import (
	"path/filepath"
	"testing"

	"github.com/cardsparse/cardreg/internal/testfiles"

	"github.com/stretchr/testify/require"
)

// Text that is not UTF-8 (a Latin-1 file) is refused where a name or a
// label is read, with the column's number or name and a hint: fit stored
// such a name with U+FFFD in its place, so that predict on the same file
// could not find its column.
func TestNotUTF8(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ data, want string }{
		{"a,caf\xe9,y\n1,2,3\n", `t.csv:1: column 2: name "caf\xe9" is not UTF-8 ` + latin1Hint},
		{"\xe9t\xe9,b,y\n1,2,3\n", `t.csv:1: column 1: name "\xe9t\xe9" is not UTF-8 ` + latin1Hint},
		{"a,\"b\n\xff\",y\n1,2,3\n", `t.csv:1: column 2: name "b\n\xff" is not UTF-8 ` + latin1Hint},
		{"id,a,y\nr1,1,2\nna\xefve,1,2\n", `t.csv:3: column "id": label "na\xefve" is not UTF-8 ` + latin1Hint},
	} {
		path := writeFile(t, dir, "t.csv", tc.data)
		for _, parallel := range []bool{false, true} {
			_, _, _, err := streamed(t, path, parallel, Options{Labels: func(n string) bool { return n == "id" }})
			require.EqualError(t, err, filepath.Join(dir, tc.want), "%q", tc.data)
		}
	}
	type named struct {
		A float64 `parquet:"caf\xe9"`
		Y float64 `parquet:"y"`
	}
	pq := testfiles.WriteParquet(t, dir, "n.parquet", []named{{1, 2}, {3, 4}})
	_, err := readParquet(pq, Options{})
	require.EqualError(t, err, pq+`: column 1: name "caf\xe9" is not UTF-8 `+latin1Hint)
	type label struct {
		ID string  `parquet:"id"`
		Y  float64 `parquet:"y"`
	}
	pq = testfiles.WriteParquet(t, dir, "l.parquet", []label{{"ok", 2}, {"na\xefve", 4}})
	_, err = readParquet(pq, Options{Labels: func(n string) bool { return n == "id" }})
	require.EqualError(t, err, pq+`: row 2: column "id": label "na\xefve" is not UTF-8 `+latin1Hint)
}

// Nested, repeated and list columns are columns of the header: left out
// (--drop, or not among --predictors) they are not read and the file is;
// kept, they are refused by name.
func TestParquetNestedDropped(t *testing.T) {
	dir := t.TempDir()
	pq, want := testfiles.NestedFiles(t, dir)
	drop := func(id bool) func(h []string) ([]bool, error) {
		return func(h []string) ([]bool, error) {
			keep := make([]bool, len(h))
			for j, n := range h {
				keep[j] = n == "a" || n == "y" || id && n == "id"
			}
			return keep, nil
		}
	}
	ref, err := readTable(want, ',')
	require.NoError(t, err)
	for _, columnar := range []bool{true, false} {
		tab, err := readParquetBy(pq, Options{Columns: drop(false)}, columnar)
		require.NoError(t, err)
		require.Equal(t, []string{"a", "y"}, tab.names)
		require.Equal(t, ref.cols, tab.cols)
		// With a label column, read row by row.
		tab, err = readParquetBy(pq, Options{Columns: drop(true), Labels: func(n string) bool { return n == "id" }}, columnar)
		require.NoError(t, err)
		require.Equal(t, "r39", tab.text[1][39])
		require.Equal(t, ref.cols[1], tab.cols[2])
	}
}
