package data

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// refReadTable is the reader readTable replaced, on encoding/csv: the
// reference of the differential tests. It returns the table or the line an
// error is on.
func refReadTable(path string, sep rune) (*Table, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if head, _ := br.Peek(len(UTF8BOM)); bytes.Equal(head, UTF8BOM) {
		br.Discard(len(UTF8BOM))
	}
	r := csv.NewReader(br)
	r.Comma = sep
	r.ReuseRecord = true
	lineOf := func(err error) int {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return pe.Line
		}
		return 0
	}
	header, err := r.Read()
	if err != nil {
		return nil, lineOf(err), err
	}
	t := &Table{cols: make([][]float64, len(header))}
	if line, err := refHeader(t, r, header); err != nil {
		return nil, line, err
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, lineOf(err), err
		}
		if line, err := refRecord(t, r, rec); err != nil {
			return nil, line, err
		}
	}
	if len(t.cols[0]) == 0 {
		return nil, 0, errors.New("no data")
	}
	return t, 0, nil
}

// refHeader checks the header's names and stores them in t, or returns
// the line of a bad one.
func refHeader(t *Table, r *csv.Reader, header []string) (int, error) {
	seen := map[string]bool{}
	for j, name := range header {
		line, _ := r.FieldPos(j)
		name = strings.TrimSpace(name)
		if name == "" || !utf8.ValidString(name) || strings.ContainsFunc(name, func(c rune) bool { return c < 0x20 || c >= 0x7f && c < 0xa0 || unicode.Is(unicode.Cf, c) }) || seen[name] {
			return line, errors.New("bad header")
		}
		seen[name] = true
		t.names = append(t.names, name)
	}
	return 0, nil
}

// refRecord parses a record's cells into t's columns, or returns the line
// of a bad one.
func refRecord(t *Table, r *csv.Reader, rec []string) (int, error) {
	for j, field := range rec {
		line, _ := r.FieldPos(j)
		s := strings.TrimSpace(field)
		v, err := strconv.ParseFloat(s, 64)
		if s == "" || err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(v) || math.IsInf(v, 0) || !refDecimal.MatchString(s) {
			return line, fmt.Errorf("bad cell %q", s)
		}
		t.cols[j] = append(t.cols[j], v)
	}
	return 0, nil
}

// refDecimal is a decimal number, the only syntax of a numeric cell
// (strconv.ParseFloat also reads Go's 1_000 and 0x1p3).
var refDecimal = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

var errLine = regexp.MustCompile(`^[^\n]*?\.csv:(\d+): `)

// checkAgainstRef reads data with readTable and with refReadTable: both
// succeed with the same table (bit for bit), or both fail, on the same line
// (but for an unclosed quote, which readTable reports where it opens).
func checkAgainstRef(t *testing.T, path string, data []byte, sep rune) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, data, 0o644))
	got, err := readTable(path, sep)
	want, wantLine, wantErr := refReadTable(path, sep)
	if wantErr != nil {
		require.Error(t, err, "encoding/csv: %v", wantErr)
		msg := err.Error()
		require.NotContains(t, msg, "\n")
		require.True(t, strings.HasPrefix(msg, path), msg)
		if m := errLine.FindStringSubmatch(msg); m != nil && wantLine > 0 && !strings.Contains(msg, "no closing") {
			require.Equal(t, strconv.Itoa(wantLine), m[1], "%s\nencoding/csv: %v", msg, wantErr)
		}
		return
	}
	require.NoError(t, err)
	require.Equal(t, want.names, got.names)
	require.Len(t, got.cols, len(want.cols))
	for j := range want.cols {
		require.Len(t, got.cols[j], len(want.cols[j]))
		for i, v := range want.cols[j] {
			require.Equal(t, math.Float64bits(v), math.Float64bits(got.cols[j][i]), "row %d column %d: %v, want %v", i+1, j+1, got.cols[j][i], v)
		}
	}
}

func TestReadTableMatchesEncodingCSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.csv")
	for _, s := range []string{
		"a,b\n1,2\n",
		"a,b\n-0,+.5\n5.,0.000000000000000000001\n",
		"a\n123456789012345\n1234567890123456\n0.1234567890123456789\n1e22\n1e23\n",
		"a\n0x1p-2\n1_000\n",
		"a,b\n\"1\",\"2\"\"\"\n",
		"a,b\n\"1\"x,2\n",
		"a,b\n1,2\"\n",
		"a,b\n 1 , \t2\u00a0\n",
		"a,b\n1,\"2\n\n3\"\n",
		"a,b\n1,\"2\r\n\r\n3\"\r\n",
		"a,b\n\"1\n\"\n",
		"a,b\n1,2,\"3\n\n",
		"a,b\n1\n\"x\n",
		"a,b\r\n1,2\r",
		"a,b\r1,2\r",
		"a,b\n1,2\n\n\n3,4",
		"a\n0\n\r",
		"a,b\r\n1,2\r\n\r",
		"\r",
		"a,b\n1,\"2\n\r",
		"a,b\nx,2,3\n",
		"a,b\n\"x\n\",2,3\n",
	} {
		t.Run(fmt.Sprintf("%q", s), func(t *testing.T) {
			checkAgainstRef(t, path, []byte(s), ',')
			for _, sep := range []rune{';', '\t', '§', '😀'} {
				checkAgainstRef(t, path, []byte(strings.ReplaceAll(s, ",", string(sep))), sep)
			}
		})
	}
}

// TestParseSimple: the fast path agrees with strconv bit for bit.
func TestParseSimple(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	fast := 0
	check := func(s string) {
		v, ok := parseSimple([]byte(s))
		if !ok {
			return
		}
		fast++
		want, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err, s)
		require.Equal(t, math.Float64bits(want), math.Float64bits(v), "%s: %v, want %v", s, v, want)
	}
	const n = 50000
	for range n {
		x := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
		for _, prec := range []int{1 + rng.IntN(15), 16, 17, 18, 19} {
			check(strconv.FormatFloat(x, 'f', prec, 64))
			check(strconv.FormatFloat(x, 'g', prec, 64))
			check(strconv.FormatFloat(x, 'E', prec-1, 64))
		}
		// All over the exponent range, subnormals included.
		y := math.Float64frombits(rng.Uint64() &^ (1 << 63 >> rng.IntN(2)))
		check(strconv.FormatFloat(y, 'g', -1, 64))
		check(strconv.FormatFloat(y, 'e', 16, 64))
		check(strconv.FormatFloat(y, 'e', 18, 64))
		check(strconv.FormatUint(rng.Uint64()>>rng.IntN(64), 10))
		check(fmt.Sprintf("%de%d", rng.Uint64()>>rng.IntN(64), rng.IntN(700)-350))
	}
	require.Greater(t, fast, 5*n, "the exact fast path is hardly taken")
	for _, s := range []string{"0", "-0", "+1", ".5", "5.", "0e999", "-0e-999", "1e-400", "1e308", "999999999999999", "0.0000000000000000000001",
		"9007199254740993", "9223372036854775807", "18446744073709551615", "1.7976931348623157e308", "4.9406564584124654e-324",
		"2.2250738585072011e-308", "2.2250738585072014e-308", "1e+22", "1E-22", "1e23", "8.98846567431158e307"} {
		check(s)
	}
	for _, s := range []string{"-", ".", "+.", "1.2.3", "0x10", "1_0", "--1", " 1", "1e", "1e+", "e5", ".e5", "1e5x", "inf", "NaN",
		"1e400", "12345678901234567890", "1e99999999999999999999"} {
		_, ok := parseSimple([]byte(s))
		require.False(t, ok, s)
	}
}

func TestBadTable(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ data, want string }{
		{"a,b,y\n1,2,3\n4,5\n", "t.csv:3: expected 3 fields, got 2"},
		{"a,b,y\n1,2,3\n4,x,6,7\n", "t.csv:3: expected 3 fields, got 4"},
		{"a,b,y\n1,2,3\n4,abc,6\n", `t.csv:3: column "b": cannot parse "abc" as a number`},
		{"a,b,y\n1, abc ,3\n", `t.csv:2: column "b": cannot parse "abc" as a number`},
		{"a,\"b \"\"q\"\"\",y\n1,x,3\n", `t.csv:2: column "b \"q\"": cannot parse "x" as a number`},
		{"a,b,y\n1,2,3\n4,NaN,6\n", `t.csv:3: column "b": "NaN" is not a finite number`},
		{"a,b,y\n1,2,+Inf\n", `t.csv:2: column "y": "+Inf" is not a finite number`},
		{"a,b,y\n1,-1e999,3\n", `t.csv:2: column "b": "-1e999" is not a finite number`},
		{"a,b,y\n1,2,3\n4,,6\n", `t.csv:3: column "b": empty cell (missing values are not supported)`},
		{"a,b,y\n1,\"  \",3\n", `t.csv:2: column "b": empty cell (missing values are not supported)`},
		{"a,b,y\n\"1\n\",2,\"\nx\"\n", `t.csv:3: column "y": cannot parse "x" as a number`},
		{"", "t.csv: empty file, expected a header row"},
		{"\n\r\n", "t.csv: empty file, expected a header row"},
		{"a,b\n\n", "t.csv: no data rows after the header"},
		{"a,b,a\n1,2,3\n", `t.csv:1: column 3: name "a" appears twice (columns 1 and 3)`},
		{"\na,,y\n1,2,3\n", "t.csv:2: column 2: empty name"},
		{"\"a\tb\",y\n1,2\n", `t.csv:1: column 1: name "a\tb" holds a control or invisible character`},
		{"a,b\n1,2\"x\n", `t.csv:2: column "b": bare " in non-quoted field (byte 4)`},
		{"a,b\n1,\"2\"x\n", `t.csv:2: column "b": extraneous or missing " in quoted-field (byte 5)`},
		{"a,b\n1,\"2\n3\n", `t.csv:2: column "b": the quoted field that starts here (byte 3) has no closing "`},
		// A bad field count wins over a bad cell before it.
		{"a,b,y\nx,2\n", "t.csv:2: expected 3 fields, got 2"},
		// A bare quote wins over both.
		{"a,b,y\nx,2\"\n", `t.csv:2: column "b": bare " in non-quoted field (byte 4)`},
		// In the header, columns are numbered.
		{"a,\"b\"c,y\n1,2,3\n", `t.csv:1: column 2: extraneous or missing " in quoted-field (byte 5)`},
	} {
		path := writeFile(t, dir, "t.csv", tc.data)
		_, err := readTable(path, ',')
		require.EqualError(t, err, filepath.Join(dir, tc.want), "%q", tc.data)
	}
}

// A line longer than the read buffer.
func TestReadTableLongLine(t *testing.T) {
	const p = readBufSize/8 + 100
	var b bytes.Buffer
	for j := range p {
		fmt.Fprintf(&b, "x%d,", j)
	}
	b.WriteString("y\n")
	for i := range 3 {
		for j := range p {
			fmt.Fprintf(&b, "%d.25,", i*j)
		}
		b.WriteString("\"1\"\r\n")
	}
	path := writeFile(t, t.TempDir(), "long.csv", b.String())
	tab, err := readTable(path, ',')
	require.NoError(t, err)
	require.Len(t, tab.cols, p+1)
	require.Equal(t, []float64{0.25, 7.25, 14.25}, tab.cols[7])
	require.Equal(t, []float64{1, 1, 1}, tab.cols[p])
}

// The columns are sized from the first rows: a file of short rows then long
// ones, or long then short, reads the same.
func TestReadTableSizing(t *testing.T) {
	dir := t.TempDir()
	for _, order := range []string{"short first", "long first"} {
		var b strings.Builder
		b.WriteString("a,b\n")
		var want []float64
		for i := range 5000 {
			short := i < 2500
			if order == "long first" {
				short = !short
			}
			v := float64(i)
			if !short {
				v = float64(i) + 0.123456789012345678
			}
			want = append(want, v)
			fmt.Fprintf(&b, "%s,1\n", strconv.FormatFloat(v, 'g', -1, 64))
		}
		path := writeFile(t, dir, "s.csv", b.String())
		tab, err := readTable(path, ',')
		require.NoError(t, err)
		require.Equal(t, want, tab.cols[0], order)
	}
}

func TestProgress(t *testing.T) {
	path := writeBenchFile(t, t.TempDir(), 5000, 10)
	var out bytes.Buffer
	tab, err := readTableProgress(path, ',', &Progress{w: &out, label: "reading " + path})
	require.NoError(t, err)
	require.Len(t, tab.cols[0], 5000)
	s := out.String()
	require.Contains(t, s, "\rreading "+path+" [")
	require.Contains(t, s, "%")
	// Erased at the end: spaces over the bar, the cursor back at the start.
	require.Regexp(t, `\r +\r$`, s)

	// Not drawn before the delay.
	out.Reset()
	_, err = readTableProgress(path, ',', &Progress{w: &out, label: "reading " + path, delay: time.Hour})
	require.NoError(t, err)
	require.Empty(t, out.String())

	// Erased on an error too.
	out.Reset()
	bad := writeFile(t, t.TempDir(), "bad.csv", "a,b\n"+strings.Repeat("1,2\n", 2000)+"x,1\n")
	_, err = readTableProgress(bad, ',', &Progress{w: &out, label: "reading " + bad})
	require.Error(t, err)
	require.Regexp(t, `\r +\r$`, out.String())
}

// writeBenchFile writes a CSV file of n rows and p columns of Gaussian
// numbers with 17 significant digits, as bench/gendata does.
func writeBenchFile(tb testing.TB, dir string, n, p int) string {
	tb.Helper()
	path := filepath.Join(dir, fmt.Sprintf("bench-%dx%d.csv", n, p))
	f, err := os.Create(path)
	require.NoError(tb, err)
	w := bufio.NewWriter(f)
	for j := 1; j < p; j++ {
		fmt.Fprintf(w, "x%d,", j)
	}
	w.WriteString("y\n")
	rng := rand.New(rand.NewPCG(1, 1))
	var buf []byte
	for range n {
		buf = buf[:0]
		for j := range p {
			buf = strconv.AppendFloat(buf, rng.NormFloat64(), 'g', 17, 64)
			if j < p-1 {
				buf = append(buf, ',')
			}
		}
		buf = append(buf, '\n')
		w.Write(buf)
	}
	require.NoError(tb, w.Flush())
	require.NoError(tb, f.Close())
	return path
}

// BenchmarkReadTable reads a 2·10⁴ × 100 file (about 40 MB); MB/s is the
// figure to watch.
func BenchmarkReadTable(b *testing.B) {
	path := writeBenchFile(b, b.TempDir(), 20000, 100)
	fi, err := os.Stat(path)
	require.NoError(b, err)
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := readTableProgress(path, ',', nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadTableRef is the same file through encoding/csv, the reader
// readTable replaced.
func BenchmarkReadTableRef(b *testing.B) {
	path := writeBenchFile(b, b.TempDir(), 20000, 100)
	fi, err := os.Stat(path)
	require.NoError(b, err)
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := refReadTable(path, ','); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzReadTableRef checks readTable against encoding/csv on arbitrary bytes
// (FuzzReadTable in main_test.go checks the invariants of its results).
func FuzzReadTableRef(f *testing.F) {
	for _, s := range []string{
		"a,b,y\n1,2,3\n4,5,6\n",
		"a,b,y\r\n1,2,3\r\n4,5,6\r\n",
		"\ufeffa,b\n1,2\n",
		"\"a\",\"b,c\"\n\"1\",\" 2 \"\n",
		"a,b\n\"1\n\",2\n",
		"a,b,y\n1,,3\n",
		"a,b\n1e400,0x1p-2\n",
		"a,b\n1,2\"x\n",
		"a,b\n\"1\"x,2\n",
		"a\n\"unterminated\n",
		"a,b\n-0,.5\n",
		"a,b\n1_000,0x1p3\n",
		"a,b\n+1.e-3,0X10\n",
		"a\r,b\n1,2\n",
		"a,b\r1,2\r3,4\r",
		"0\n0\n\r",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	path := filepath.Join(f.TempDir(), "in.csv")
	f.Fuzz(func(t *testing.T, data []byte, multibyte bool) {
		sep := ','
		if multibyte {
			sep = '§'
		}
		checkAgainstRef(t, path, data, sep)
	})
}

// Streaming gives the rows the table would hold, keeps none, and an error
// of the row callback names the file and line.
func TestReadStreaming(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "d.csv", "id,a,b,y\nr1,1,2,3\n\nr2,\"4\",5,6\nr3,7,8,9\n")
	labels := func(name string) bool { return name == "id" }
	want, err := Read(path, Options{Labels: labels})
	require.NoError(t, err)
	var rows [][]float64
	var ids []string
	got, err := Read(path, Options{Labels: labels, Row: func(v []float64, text []string) error {
		rows = append(rows, slices.Clone(v))
		ids = append(ids, text[0])
		return nil
	}})
	require.NoError(t, err)
	require.Equal(t, want.Rows(), got.Rows())
	require.Equal(t, want.text[0], ids)
	for i, r := range rows {
		for j := 1; j < 4; j++ {
			require.Equal(t, want.cols[j][i], r[j])
		}
	}
	for j := 1; j < 4; j++ {
		require.Empty(t, got.cols[j], "a streamed table keeps no cells")
	}
	_, err = Read(path, Options{Labels: labels, Row: func(v []float64, _ []string) error {
		if v[1] == 4 {
			return errors.New("stop here")
		}
		return nil
	}})
	require.EqualError(t, err, path+":4: stop here")
}
