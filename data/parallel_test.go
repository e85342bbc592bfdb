package data

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// streamed reads path with a row callback, in parallel (many small blocks)
// or serially, and returns the rows, the table and the error.
func streamed(t testing.TB, path string, parallel bool, o Options) ([][]float64, []string, *Table, error) {
	old := runtime.GOMAXPROCS(0)
	oldBlock := blockSize
	defer func() { runtime.GOMAXPROCS(old); blockSize = oldBlock }()
	if parallel {
		runtime.GOMAXPROCS(max(old, 3))
		blockSize = 37 // many blocks, cut anywhere
	} else {
		runtime.GOMAXPROCS(1)
	}
	var rows [][]float64
	var labels []string
	o.Row = func(v []float64, text []string) error {
		if len(rows) == 50 && o.DropMissing {
			return fmt.Errorf("row callback stops at row %d", len(rows)+1)
		}
		rows = append(rows, slices.Clone(v))
		if text != nil {
			labels = append(labels, text[0])
		}
		return nil
	}
	tab, err := Read(path, o)
	return rows, labels, tab, err
}

// The parallel reader gives the serial reader's rows, in order, and its
// errors, whatever the cuts between blocks: quoted fields spanning lines,
// CRLF, blank lines, missing values, labels.
func TestParallelEqualsSerial(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(4, 4))
	var b strings.Builder
	b.WriteString("id,a,\"b\nb\",y\r\n")
	for i := range 400 {
		switch i % 7 {
		case 0:
			fmt.Fprintf(&b, "\"r%d\n\",%d,\"%v\",%v\r\n", i, i, rng.NormFloat64(), rng.NormFloat64())
		case 3:
			b.WriteString("\n")
			fmt.Fprintf(&b, "r%d,%d,%v,\n", i, i, rng.NormFloat64())
		default:
			fmt.Fprintf(&b, "\"r\"\"%d\",%d,%v,%v\n", i, i, rng.NormFloat64(), rng.NormFloat64())
		}
	}
	path := writeFile(t, dir, "p.csv", b.String())
	labels := func(name string) bool { return name == "id" }
	for _, drop := range []bool{false, true} {
		o := Options{Labels: labels, DropMissing: drop}
		sr, sl, st, serr := streamed(t, path, false, o)
		pr, pl, pt, perr := streamed(t, path, true, o)
		if serr != nil || perr != nil {
			require.Error(t, serr)
			require.Error(t, perr)
			require.Equal(t, serr.Error(), perr.Error())
			continue
		}
		require.Equal(t, sr, pr)
		require.Equal(t, sl, pl)
		require.Equal(t, st.Rows(), pt.Rows())
		require.Equal(t, st.dropped, pt.dropped)
	}
	// A bad cell far into the file: the same message.
	bad := writeFile(t, dir, "bad.csv", strings.Replace(b.String(), ",200,", ",2x0,", 1))
	_, _, _, serr := streamed(t, bad, false, Options{Labels: labels})
	_, _, _, perr := streamed(t, bad, true, Options{Labels: labels})
	require.Error(t, serr)
	require.Equal(t, serr.Error(), perr.Error())
}

// FuzzReadParallel: on arbitrary bytes the parallel reader (blocks of a
// few bytes) and the serial one agree on rows and errors.
func FuzzReadParallel(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n3,4\n", "a,b\r\n\"1\n\",2\r\n\n3,4", "a\n\"x\"\"y\"\n", "a,b\n1,\n2,3\n", "a,b\n1,2\n3\n"} {
		f.Add([]byte(s), uint8(5), false)
	}
	path := filepath.Join(f.TempDir(), "f.csv")
	f.Add([]byte("1,2\n3,4\n"), uint8(2), false)
	f.Fuzz(func(t *testing.T, data []byte, size uint8, drop bool) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		o := Options{DropMissing: drop}
		sr, _, _, serr := streamed(t, path, false, o)
		old := blockSize
		blockSize = int(size)%64 + 1
		defer func() { blockSize = old }()
		pr, _, _, perr := streamedKeepBlock(t, path, o)
		if serr != nil || perr != nil {
			if serr == nil || perr == nil || serr.Error() != perr.Error() {
				t.Fatalf("serial %v, parallel %v", serr, perr)
			}
		} else {
			require.Equal(t, sr, pr)
		}
		// And into memory, with and without a header.
		readBoth(t, path, Options{DropMissing: drop}, blockSize)
		readBoth(t, path, Options{NoHeader: true}, blockSize)
	})
}

// streamedKeepBlock is streamed in parallel with the block size as set.
func streamedKeepBlock(t testing.TB, path string, o Options) ([][]float64, []string, *Table, error) {
	old := runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 3))
	defer runtime.GOMAXPROCS(old)
	var rows [][]float64
	o.Row = func(v []float64, _ []string) error {
		rows = append(rows, slices.Clone(v))
		return nil
	}
	tab, err := Read(path, o)
	return rows, nil, tab, err
}

// readBoth reads path into memory on one core and in parallel (blocks of
// blockBytes) and requires the same table or the same error.
func readBoth(t *testing.T, path string, o Options, blockBytes int) {
	t.Helper()
	old, oldBlock := runtime.GOMAXPROCS(1), blockSize
	defer func() { runtime.GOMAXPROCS(old); blockSize = oldBlock }()
	serial, serr := Read(path, o)
	runtime.GOMAXPROCS(max(old, 3))
	blockSize = blockBytes
	par, perr := Read(path, o)
	if serr != nil || perr != nil {
		require.Error(t, serr)
		require.Error(t, perr)
		require.Equal(t, serr.Error(), perr.Error())
		return
	}
	require.Equal(t, serial.names, par.names)
	require.Equal(t, serial.cols, par.cols)
	require.Equal(t, serial.text, par.text)
	require.Equal(t, serial.Rows(), par.Rows())
	require.Equal(t, serial.dropped, par.dropped)
}

// In memory too, and without a header (the --G file: its first line is
// read before the blocks start), the parallel read is the serial one.
func TestParallelInMemory(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("id,a,b\n")
	for i := range 300 {
		fmt.Fprintf(&b, "\"r%d\",%d,%d.5\n", i, i, i%7)
		if i%50 == 0 {
			b.WriteString("\n")
		}
	}
	path := writeFile(t, dir, "m.csv", b.String())
	for _, size := range []int{5, 64, 1 << 20} {
		readBoth(t, path, Options{Labels: func(n string) bool { return n == "id" }}, size)
		readBoth(t, path, Options{Columns: func(h []string) ([]bool, error) { return []bool{false, true, true}, nil }}, size)
	}
	g := writeFile(t, dir, "g.csv", "1,-1,0\n0,1,-1\n\n1,0,-1\n")
	for _, size := range []int{1, 3, 1 << 20} {
		readBoth(t, g, Options{NoHeader: true}, size)
	}
	tab, err := Read(g, Options{NoHeader: true})
	require.NoError(t, err)
	require.Equal(t, 3, tab.Rows(), "the first row of a headerless file is data")
	// A first line longer than the read buffer (parsed in place) is read
	// again as data as it was in the file, quoted or not.
	long := "1." + strings.Repeat("0", 1<<21)
	for _, cell := range []string{long, `"` + long + `"`} {
		wide := writeFile(t, dir, "wide.csv", "1,"+cell+"\n2,3\n")
		tab, err = Read(wide, Options{NoHeader: true})
		require.NoError(t, err, "a headerless file whose first line is long")
		require.Equal(t, 2, tab.Rows())
	}
}

// An error early in a long file ends the parallel read with no goroutine
// left running: none may still read the file, the block size or the
// parser's state once the reader has returned (the race detector saw a
// splitter outlive a failed read in FuzzReadParallel).
func TestParallelErrorJoins(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b\n1,2\n3\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "%d,%d\n", i, i)
	}
	path := filepath.Join(t.TempDir(), "bad.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	for range 20 {
		_, _, _, err := streamed(t, path, true, Options{})
		require.ErrorContains(t, err, ":3")
		// The reader's goroutines by their frames (other tests may run
		// goroutines of their own meanwhile). The splitter must be out of
		// split when the read returns; the goroutines signal the wait
		// from a deferred Done, so one may still be returning from its
		// function: allow that a moment, not a goroutine that stays.
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		require.False(t, strings.Contains(stacks, "(*csvReader).split"), "the splitter still reads after the read returned")
		require.Eventually(t, func() bool {
			return !strings.Contains(string(buf[:runtime.Stack(buf, true)]), "(*csvReader).dataParallel.func")
		}, 2*time.Second, time.Millisecond, "a goroutine of the read is left running")
	}
}

// A record much longer than a block is read in time and memory linear in
// its length: the splitter copied the pending bytes and looked for a
// record end in all of them again at each block, so a record of m blocks
// cost m²/2 blocks of copying (here about 256 MB allocated for a 2 MB
// line). The rows around it, and the line numbers after it, are those of
// the serial reader.
func TestParallelLongRecordLinear(t *testing.T) {
	const long = 2 << 20
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,note,y\n1,a,2\n")
	fmt.Fprintf(&b, "3,%s,4\n", strings.Repeat("n", long))
	fmt.Fprintf(&b, "5,\"%s\",6\n", strings.Repeat("q\"\"\n", long/4)) // one record over many lines
	b.WriteString("7,b,8\n")
	path := writeFile(t, dir, "long.csv", b.String())
	skipNote := func(h []string) ([]bool, error) { return []bool{true, false, true}, nil }
	old, oldBlock := runtime.GOMAXPROCS(0), blockSize
	defer func() { runtime.GOMAXPROCS(old); blockSize = oldBlock }()
	runtime.GOMAXPROCS(max(old, 2))
	blockSize = 4 << 10
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tab, err := Read(path, Options{Columns: skipNote})
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.Equal(t, [][]float64{{1, 3, 5, 7}, {2, 4, 6, 8}}, tab.cols)
	file := int64(b.Len())
	alloc := int64(after.TotalAlloc - before.TotalAlloc)
	t.Logf("allocated %d MB for a %d MB file", alloc>>20, file>>20)
	require.Less(t, alloc, 20*file, "allocated %d MB to read a %d MB file", alloc>>20, file>>20)

	// The line of an error after the long records.
	bad := strings.Replace(b.String(), "7,b,8", "7,b,x", 1)
	path = writeFile(t, dir, "bad.csv", bad)
	lines := strings.Count(bad, "\n")
	_, err = Read(path, Options{Columns: skipNote})
	require.EqualError(t, err, fmt.Sprintf(`%s:%d: column "y": cannot parse "x" as a number`, path, lines))
}

// The columns of a file read in memory are sized from enough rows: a first
// block cut short by a long record after it made 30 rows of 15 bytes size
// the columns for the whole file (here two columns of 1.6·10⁶ rows, 25 MB,
// for a file of 64 rows; 4 bytes of columns per byte of a longer line).
func TestParallelSizingLongRecord(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := range 30 {
		fmt.Fprintf(&b, "%d,%d\n", i, 2*i)
	}
	fmt.Fprintf(&b, "1,%s2\n", strings.Repeat(" ", 8<<20))
	for i := range 33 {
		fmt.Fprintf(&b, "%d,%d\n", i, 2*i)
	}
	path := writeFile(t, t.TempDir(), "long.csv", b.String())
	old := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(old)
	runtime.GOMAXPROCS(max(old, 2))
	tab, err := readTable(path, ',')
	require.NoError(t, err)
	require.Equal(t, 64, tab.Rows())
	for _, c := range tab.cols {
		require.Less(t, cap(c), 1024, "columns sized for %d rows", cap(c))
	}
}
