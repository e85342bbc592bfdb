package data

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A record longer than Limits.Record is refused while it is read, by its
// first line, on one core and on several (a record longer than a block),
// whether one long line or a quoted field over many lines; one within the
// limit reads as before.
func TestRecordLimit(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("7", 5000)
	quoted := `"` + strings.Repeat("a\n", 2500) + `"`
	files := map[string]string{
		"line":   "x,y\n1,2\n" + long + ",3\n4,5\n",
		"quoted": "x,y\n1,2\n" + quoted + ",3\n4,5\n",
	}
	defer func(procs, block int) { runtime.GOMAXPROCS(procs); blockSize = block }(runtime.GOMAXPROCS(0), blockSize)
	for name, content := range files {
		path := writeFile(t, dir, name+".csv", content)
		for _, procs := range []int{1, 3} {
			runtime.GOMAXPROCS(procs)
			blockSize = 64
			o := Options{Labels: func(n string) bool { return n == "x" }, Limits: Limits{Record: 1000, Budget: "--memory 2000 B"}}
			_, err := Read(path, o)
			require.EqualError(t, err, path+`:3: a record longer than 1000 bytes: reading it takes up to 2 times its length, more than --memory 2000 B allows (a line end missing, or a cell that holds a file?)`, "%s on %d cores", name, procs)
			o.Limits.Record = int64(len(content))
			tab, err := Read(path, o)
			require.NoError(t, err, "%s on %d cores", name, procs)
			require.Equal(t, 3, tab.Rows())
			require.Equal(t, []float64{2, 3, 5}, tab.Col(1))
		}
	}
}

// A header longer than the read buffer is checked as it is read, its
// width refused within FieldsStep columns past the limit, not once it is
// whole (a 25-million-column header was read for minutes before): the
// check of ReadStats, FileSource and ReadRows gets the fewest columns the
// header gives so far.
func TestHeaderWidthChecked(t *testing.T) {
	const cols = 200_000 // more than a megabyte of names
	var b strings.Builder
	for j := range cols {
		fmt.Fprintf(&b, "c%06d,", j)
	}
	b.WriteString("y\n")
	b.WriteString(strings.Repeat("1,", cols) + "2\n")
	path := writeFile(t, t.TempDir(), "wide.csv", b.String())
	tooWide := errors.New("too wide")
	widest := 0
	limit := func(w int) error {
		widest = max(widest, w)
		if w > 3000 {
			return tooWide
		}
		return nil
	}

	_, err := ReadStats(path, Spec{Drop: []string{"c000000"}}, StatsOptions{Check: func(vars, _ int) error { return limit(vars) }})
	require.ErrorIs(t, err, tooWide)
	require.Contains(t, err.Error(), path+":1: the header has 3072 columns so far: too wide")
	require.Less(t, widest, 3000+FieldsStep)

	widest = 0
	src := NewFileSource(path, Spec{})
	src.Check = limit
	_, err = src.Scan()
	require.ErrorIs(t, err, tooWide)
	require.Less(t, widest, 3000+FieldsStep)

	widest = 0
	_, err = ReadRows(path, Spec{}, RowsOptions{Check: func(_, p int) error { return limit(p) }})
	require.ErrorIs(t, err, tooWide)
	require.Less(t, widest, 3000+FieldsStep)

	// Named predictors: the header's width is no bound on theirs.
	st, err := ReadStats(path, Spec{Predictors: []string{"c000001"}}, StatsOptions{Check: func(vars, _ int) error { return limit(vars) }})
	require.NoError(t, err)
	require.Equal(t, []string{"c000001"}, st.Names)
}

// A header whose columns cannot be held within the budget that sets
// Limits.Record is refused while it is read (at the end of the read
// buffer's first megabyte here), whatever the form.
func TestHeaderColumnsOverBudget(t *testing.T) {
	var b strings.Builder
	for j := range 200_000 {
		fmt.Fprintf(&b, "c%06d,", j)
	}
	b.WriteString("y\n1,2\n")
	path := writeFile(t, t.TempDir(), "wide.csv", b.String())
	_, err := Read(path, Options{Limits: Limits{Record: 2 << 20, Budget: "--memory 4 MB"}})
	require.EqualError(t, err, path+":1: the header has 131073 columns so far: reading them takes about 512 bytes each, more than --memory 4 MB allows (drop columns before reading the file)")
}
