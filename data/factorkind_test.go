package data

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/testfiles"
	"github.com/stretchr/testify/require"
)

// The kind of a column (factor or numeric) is its first cell that is not
// missing, wherever the missing cells are: a text column whose first row
// is empty or NA reads as the same factor as with that row moved down
// (--na-level makes it the level NA; --drop-missing leaves it out;
// without either it is the factor's "missing value" error, not a
// numeric column's). Issue 35 item 5: the first data row alone decided.
func TestFactorKindIgnoresRowOrder(t *testing.T) {
	dir := t.TempDir()
	body := []string{"b,2", "a,3", "b,4", "a,5", "a,6", "b,7"}
	for _, miss := range []string{"", "NA", " nan "} {
		for _, at := range []int{0, 3, len(body)} {
			rows := append(append(append([]string{}, body[:at]...), miss+",1"), body[at:]...)
			path := writeFile(t, dir, fmt.Sprintf("g%d.csv", at), "g,y\n"+strings.Join(rows, "\n")+"\n")
			line := at + 2
			name := fmt.Sprintf("%q at line %d", miss, line)

			r, err := readBothWays(t, path, Spec{Factors: FactorSpec{NALevel: true, MinCount: 1}}, RowsOptions{})
			require.NoError(t, err, name)
			require.Len(t, r.Factors, 1, name)
			f := r.Factors[0]
			require.Equal(t, []string{"a", "b", "NA"}, f.Levels, name)
			require.Equal(t, []float64{3, 3, 1}, f.Counts, name)
			require.Equal(t, int32(2), f.Codes[at], name)

			r, err = readBothWays(t, path, Spec{DropMissing: true}, RowsOptions{})
			require.NoError(t, err, name)
			require.Equal(t, 1, r.Dropped, name)
			require.Equal(t, []string{"a", "b"}, r.Factors[0].Levels, name)
			firstKept := 2
			if at == 0 {
				firstKept = 3
			}
			require.Equal(t, fmt.Sprintf("%s:%d", path, firstKept), r.Places.Of(0), name)
			lastKept := len(body) + 2
			if at == len(body) {
				lastKept--
			}
			require.Equal(t, fmt.Sprintf("%s:%d", path, lastKept), r.Places.Of(len(body)-1), name)

			_, err = readBothWays(t, path, Spec{}, RowsOptions{})
			require.EqualError(t, err, fmt.Sprintf(`%s:%d: column "g": missing value %q%s`, path, line, strings.TrimSpace(miss), missingHint), name)
		}
	}
}

// A numeric column keeps its messages wherever its first missing cell is,
// first row included; --drop-missing leaves such rows out.
func TestNumericKindIgnoresRowOrder(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ cell, msg string }{
		{"", `column "x": empty cell (missing values are not supported)`},
		{"nan", `column "x": "nan" is not a finite number`},
		{"NA", `column "x": cannot parse "NA" as a number (name it with --factor "x" to read it as a factor)`},
	} {
		for _, first := range []bool{true, false} {
			rows := "1,1\n2,2\n3,3\n"
			line := 2
			if first {
				rows = c.cell + ",0\n" + rows
			} else {
				rows += c.cell + ",0\n"
				line = 5
			}
			path := writeFile(t, dir, "x.csv", "x,y\n"+rows)
			_, err := readBothWays(t, path, Spec{}, RowsOptions{})
			require.EqualError(t, err, fmt.Sprintf("%s:%d: %s", path, line, c.msg))
			r, err := readBothWays(t, path, Spec{DropMissing: true}, RowsOptions{})
			if c.cell == "NA" { // not a missing number: an error still
				require.Error(t, err)
				continue
			}
			require.NoError(t, err)
			require.Nil(t, r.Factors)
			require.Equal(t, []float64{1, 2, 3}, r.X.RawMatrix().Data)
			require.Equal(t, 1, r.Dropped)
		}
	}
}

// A column missing in every row says so, whatever the flags.
func TestAllMissingColumn(t *testing.T) {
	path := writeFile(t, t.TempDir(), "e.csv", "x,g,y\n1,,1\n2,NA,2\n3,,3\n")
	want := path + `: column "g": every value is missing (empty, NA, NaN or null): nothing to read (--drop it)`
	for _, spec := range []Spec{{}, {DropMissing: true}, {Factors: FactorSpec{NALevel: true}}, {DropMissing: true, Factors: FactorSpec{NALevel: true}}} {
		_, err := readBothWays(t, path, spec, RowsOptions{})
		require.EqualError(t, err, want, "%+v", spec)
	}
	// Streamed, too.
	_, err := ReadStats(path, Spec{}, StatsOptions{})
	require.EqualError(t, err, want)
}

// The forms that stream the rows refuse a text column as text whatever
// its first rows hold (the in-memory fallback of a weighted fit depends
// on that error), and leave out the rows of a missing number with
// DropMissing, first row included.
func TestStreamFactorKind(t *testing.T) {
	dir := t.TempDir()
	defer func(ahead int) { lookAhead = ahead }(lookAhead)
	for _, ahead := range []int{lookAhead, 1} {
		lookAhead = ahead
		path := writeFile(t, dir, "s.csv", "x,g,y\n1,,1\n2,NA,2\n3,b,3\n4,a,4\n")
		_, err := ReadStats(path, Spec{}, StatsOptions{})
		require.True(t, errors.Is(err, ErrFactorsInMemory), "%v", err)
		// A FileSource takes factors: a missing level is an error, a level
		// NA with NALevel; a column decided past the look-ahead, after
		// missing cells, must be named.
		_, err = NewFileSource(path, Spec{}).Scan()
		if ahead == 1 {
			require.EqualError(t, err, path+`: column "g": its cells are missing up to line 4, which holds text: a stream learns which columns are factors from their first rows; name it with --factor (or --ordinal) to stream it as a factor`)
		} else {
			require.EqualError(t, err, path+`:2: column "g": missing value "" (--na-level makes missing values a level "NA" of their own; --drop-missing leaves such rows out)`)
		}
		na := Spec{Factors: FactorSpec{NALevel: true, MinCount: 1}}
		src := NewFileSource(path, na)
		n, err := src.Scan()
		if ahead == 1 {
			require.ErrorContains(t, err, "name it with --factor")
			na.Factors.Nominal = []string{"g"}
			src = NewFileSource(path, na)
			n, err = src.Scan()
		}
		require.NoError(t, err)
		require.Equal(t, 4, n)
		require.Equal(t, []string{"x", "g=a", "g=b"}, src.Names()) // NA, twice, is the reference

		path = writeFile(t, dir, "n.csv", "x,g,y\n1,,1\n2,NA,2\n3,7,3\n4,8,4\n")
		_, err = ReadStats(path, Spec{}, StatsOptions{})
		require.EqualError(t, err, path+`:2: column "g": empty cell (missing values are not supported)`)
		_, err = NewFileSource(path, Spec{DropMissing: true}).Scan()
		require.EqualError(t, err, path+`:3: column "g": cannot parse "NA" as a number (name it with --factor "g" to read it as a factor)`)
		path = writeFile(t, dir, "d.csv", "x,g,y\n1,,1\n2,nan,2\n3,7,3\n4,8,4\n")
		n, err = NewFileSource(path, Spec{DropMissing: true}).Scan()
		require.NoError(t, err)
		require.Equal(t, 2, n)
	}
}

// A column missing in every one of the records read ahead is decided
// further on, past the look-ahead, by its first value.
func TestFactorDecidedPastLookAhead(t *testing.T) {
	var b strings.Builder
	b.WriteString("g,y\n")
	n := lookAhead/4 + 10
	for i := range n {
		fmt.Fprintf(&b, ",%d\n", i%3)
	}
	for i := range 6 {
		fmt.Fprintf(&b, "%c,%d\n", 'a'+i%2, i)
	}
	path := filepath.Join(t.TempDir(), "late.csv")
	path = writeFile(t, filepath.Dir(path), "late.csv", b.String())
	r, err := ReadRows(path, Spec{Factors: FactorSpec{NALevel: true}}, RowsOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b", "NA"}, r.Factors[0].Levels)
	require.Equal(t, []float64{3, 3, float64(n)}, r.Factors[0].Counts)
}

// A Parquet column of nulls only is refused as such, text or numeric,
// whatever the flags (it was a factor with the single level NA, or the
// error of its first null).
func TestParquetAllNull(t *testing.T) {
	type row struct {
		X float64  `parquet:"x"`
		G *string  `parquet:"g,optional"`
		H *float64 `parquet:"h,optional"`
		Y float64  `parquet:"y"`
	}
	dir := t.TempDir()
	rows := make([]row, 6)
	for i := range rows {
		rows[i] = row{X: float64(i), Y: float64(i % 3)}
	}
	pq := testfiles.WriteParquet(t, dir, "n.parquet", rows)
	for _, spec := range []Spec{{Drop: []string{"h"}}, {Drop: []string{"h"}, DropMissing: true}, {Drop: []string{"h"}, Factors: FactorSpec{NALevel: true}}} {
		_, err := ReadRows(pq, spec, RowsOptions{})
		require.EqualError(t, err, pq+`: column "g": every value is missing (empty, NA, NaN or null): nothing to read (--drop it)`, "%+v", spec)
	}
	_, err := ReadRows(pq, Spec{Drop: []string{"g"}}, RowsOptions{})
	require.EqualError(t, err, pq+`: column "h": every value is missing (empty, NA, NaN or null): nothing to read (--drop it)`)
	_, err = ReadStats(pq, Spec{Drop: []string{"g"}}, StatsOptions{})
	require.EqualError(t, err, pq+`: column "h": every value is missing (empty, NA, NaN or null): nothing to read (--drop it)`)
}
