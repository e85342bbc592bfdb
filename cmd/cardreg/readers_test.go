package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"
)

// writeParquet writes rows as a Parquet file in dir and returns its path.
func writeParquet[T any](t *testing.T, dir, name string, rows []T) string {
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
			_, _, _, err := streamed(t, path, parallel, readOptions{labels: func(n string) bool { return n == "id" }})
			require.EqualError(t, err, filepath.Join(dir, tc.want), "%q", tc.data)
		}
	}
	// From the command line: one line, exit 1, and nothing saved.
	path := writeFile(t, dir, "latin1.csv", "x1,p\xe8re,y\n1,2,3\n2,1,5\n3,3,3\n4,0,1\n")
	model := filepath.Join(dir, "m.json")
	oneLine(t, cardreg(t, "fit", "--lambda", "1", "--save-model", model, path), 1,
		"latin1.csv:1: column 2: name", "is not UTF-8", "iconv -f latin1 -t utf-8")
	require.NoFileExists(t, model)

	type named struct {
		A float64 `parquet:"caf\xe9"`
		Y float64 `parquet:"y"`
	}
	pq := writeParquet(t, dir, "n.parquet", []named{{1, 2}, {3, 4}})
	_, err := readParquet(pq, readOptions{})
	require.EqualError(t, err, pq+`: column 1: name "caf\xe9" is not UTF-8 `+latin1Hint)
	type label struct {
		ID string  `parquet:"id"`
		Y  float64 `parquet:"y"`
	}
	pq = writeParquet(t, dir, "l.parquet", []label{{"ok", 2}, {"na\xefve", 4}})
	_, err = readParquet(pq, readOptions{labels: func(n string) bool { return n == "id" }})
	require.EqualError(t, err, pq+`: row 2: column "id": label "na\xefve" is not UTF-8 `+latin1Hint)
}

// pqPoint is a nested (group) column.
type pqPoint struct {
	X float64 `parquet:"x"`
	Y int32   `parquet:"y"`
}

// pqNested has nested, repeated and list columns among flat ones.
type pqNested struct {
	A    float64   `parquet:"a"`
	Tags []string  `parquet:"tags,list"`
	Pt   pqPoint   `parquet:"pt"`
	Vals []float64 `parquet:"vals"`
	ID   string    `parquet:"id"`
	Opt  *pqPoint  `parquet:"opt,optional"`
	Y    float64   `parquet:"y"`
}

// Nested, repeated and list columns are columns of the header: left out
// (--drop, or not among --predictors) they are not read and the file is;
// kept, they are refused by name.
func TestParquetNestedDropped(t *testing.T) {
	dir := t.TempDir()
	var rows []pqNested
	var csv strings.Builder
	csv.WriteString("a,y\n")
	for i := range 40 {
		r := pqNested{A: float64(i%7) - 3, Y: float64(2*(i%7) + i%3), ID: fmt.Sprint("r", i), Pt: pqPoint{float64(i), int32(i)}}
		for range i % 4 { // 0 to 3 elements
			r.Tags = append(r.Tags, "t")
			r.Vals = append(r.Vals, float64(i))
		}
		if i%2 == 0 {
			r.Opt = &pqPoint{1, 2}
		}
		rows = append(rows, r)
		fmt.Fprintf(&csv, "%v,%v\n", r.A, r.Y)
	}
	pq := writeParquet(t, dir, "nested.parquet", rows)
	want := writeFile(t, dir, "flat.csv", csv.String())
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
		tab, err := readParquetBy(pq, readOptions{columns: drop(false)}, columnar)
		require.NoError(t, err)
		require.Equal(t, []string{"a", "y"}, tab.names)
		require.Equal(t, ref.cols, tab.cols)
		// With a label column, read row by row.
		tab, err = readParquetBy(pq, readOptions{columns: drop(true), labels: func(n string) bool { return n == "id" }}, columnar)
		require.NoError(t, err)
		require.Equal(t, "r39", tab.text[1][39])
		require.Equal(t, ref.cols[1], tab.cols[2])
	}
	args := []string{"fit", "--lambda", "1", "--format", "json", "--target", "y"}
	a := cardreg(t, append(args, want)...)
	require.Equal(t, 0, a.code, a.stderr)
	for _, how := range [][]string{{"--drop", "tags,pt,vals,id,opt"}, {"--predictors", "a"}} {
		b := cardreg(t, append(append(args, how...), pq)...)
		require.Equal(t, 0, b.code, b.stderr)
		require.Equal(t, a.stdout, b.stdout)
	}
	for _, kept := range []string{"tags", "pt", "vals", "opt"} {
		others := strings.Join(slicesWithout([]string{"tags", "pt", "vals", "id", "opt"}, kept), ",")
		oneLine(t, cardreg(t, append(append(args, "--drop", others), pq)...), 1,
			fmt.Sprintf(`nested.parquet: column %q is nested or repeated; only flat columns are read (leave it out with --drop)`, kept))
	}
}

// slicesWithout returns s without x.
func slicesWithout(s []string, x string) []string {
	var out []string
	for _, v := range s {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}

// A model file that an editor saved with a UTF-8 byte order mark predicts
// as the file without it (it was refused: "invalid character 'ï'"), for a
// fitted model and a network; a BOM elsewhere is still an error.
func TestModelWithBOM(t *testing.T) {
	dir := t.TempDir()
	data := "../../examples/cardinality.csv"
	fitted := filepath.Join(dir, "fit.json")
	require.NoError(t, os.WriteFile(fitted, savedExample(t, dir), 0o644))
	net := filepath.Join(dir, "net.json")
	res := cardreg(t, "net", "--arch", "3,4,1", "--epochs", "5", "--lr", "0.01", "--save-model", net, writeClasses(t, dir))
	require.Equal(t, 0, res.code, res.stderr)
	for _, model := range []string{fitted, net} {
		dataFile := data
		if model == net {
			dataFile = writeClasses(t, dir)
		}
		want := cardreg(t, "predict", "--model", model, dataFile)
		require.Equal(t, 0, want.code, want.stderr)
		b, err := os.ReadFile(model)
		require.NoError(t, err)
		bom := filepath.Join(dir, "bom.json")
		require.NoError(t, os.WriteFile(bom, append([]byte("\ufeff"), b...), 0o644))
		got := cardreg(t, "predict", "--model", bom, dataFile)
		require.Equal(t, 0, got.code, got.stderr)
		require.Equal(t, want.stdout, got.stdout)
		require.NoError(t, os.WriteFile(bom, append([]byte(" \ufeff"), b...), 0o644))
		res := cardreg(t, "predict", "--model", bom, dataFile)
		require.Equal(t, 1, res.code, res.stderr)
	}
}

// Parquet data are read from standard input and inside gzip as from a
// file (they were refused as "looks like a Parquet file, expected CSV
// text"), through a temporary file that is removed afterwards, also when
// the data are corrupt; messages name <stdin>.
func TestParquetStream(t *testing.T) {
	dir := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	pq, _ := pqExample(t, dir, 60, 0)
	args := []string{"fit", "--lambda", "3", "--format", "json", "--drop", "id", "--target", "y"}
	want := cardreg(t, append(args, pq)...)
	require.Equal(t, 0, want.code, want.stderr)
	b, err := os.ReadFile(pq)
	require.NoError(t, err)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(b)
	require.NoError(t, zw.Close())
	gzPath := writeFile(t, dir, "d.parquet.gz", gz.String())
	got := cardreg(t, append(args, gzPath)...)
	require.Equal(t, 0, got.code, got.stderr)
	require.Equal(t, want.stdout, strings.ReplaceAll(got.stdout, "d.parquet.gz", "d.parquet"))
	for _, src := range []string{pq, gzPath} {
		withStdin(t, src, func() {
			got := cardreg(t, append(args, "-")...)
			require.Equal(t, 0, got.code, got.stderr)
			require.Equal(t, want.stdout, strings.ReplaceAll(got.stdout, stdinName, "d.parquet"))
		})
	}
	model := filepath.Join(dir, "m.json")
	require.Equal(t, 0, cardreg(t, append(args, "--save-model", model, pq)...).code)
	withStdin(t, pq, func() {
		got := cardreg(t, "predict", "--model", model, "-")
		require.Equal(t, 0, got.code, got.stderr)
		require.Equal(t, cardreg(t, "predict", "--model", model, pq).stdout, got.stdout)
	})
	cut := writeFile(t, dir, "cut.parquet", string(b[:len(b)/2]))
	withStdin(t, cut, func() {
		oneLine(t, cardreg(t, append(args, "-")...), 1, stdinName+": ", "Parquet")
	})
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	require.Empty(t, left, "temporary files left")
}

// One format for the readers' messages, on every route: FILE:LINE (or
// FILE: row N for Parquet), then `column "NAME"` (or its number) when there
// is one, then why; no prefix twice (it was "gzip: gzip: invalid
// checksum", "widep.csv: widep.csv:2: …" from a streamed binomial fit, and
// "f.csv: line 6, column …" with a line that did not count blank lines).
func TestReaderMessageFormat(t *testing.T) {
	dir := t.TempDir()
	gz := func(name, text string, mangle func([]byte) []byte) string {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(text))
		zw.Close()
		return writeFile(t, dir, name, string(mangle(b.Bytes())))
	}
	same := func(b []byte) []byte { return b }
	crc := func(b []byte) []byte { b = bytes.Clone(b); b[len(b)-6] ^= 0xff; return b }
	cut := func(b []byte) []byte { return b[:len(b)-12] }
	pq, _ := pqExample(t, dir, 30, 7)
	pqBytes, err := os.ReadFile(pq)
	require.NoError(t, err)
	lines := "a,b,y\n1,2,1\n\n2,1,0\n\"3\n\",3,1\n4,,0\n\n5,5,2\n6,1,0\n"
	bin := []string{"fit", "--family", "binomial", "--lambda", "1"}
	for _, tc := range []struct {
		name string
		args []string
		want string // the message after "cardreg CMD: FILE"
	}{
		{"gzip checksum", []string{"fit", gz("crc.csv.gz", small, crc)}, ": gzip: invalid checksum"},
		{"gzip truncated", []string{"fit", gz("cut.csv.gz", small, cut)}, ": gzip: unexpected EOF"},
		{"short row", []string{"fit", writeFile(t, dir, "short.csv", "a,b,y\n1,2,3\n2,1\n")}, ":3: expected 3 fields, got 2"},
		{"bad number", []string{"cv", writeFile(t, dir, "bad.csv", "a,b,y\n1,2,3\n\n2,x,1\n")}, `:4: column "b": cannot parse "x" as a number`},
		{"bad number in gzip", []string{"path", gz("bad.csv.gz", "a,b,y\n1,2,3\n2,x,1\n", same)}, `:3: column "b": cannot parse "x" as a number`},
		{"bare quote", []string{"fit", writeFile(t, dir, "q.csv", "a,b,y\n1,2\"x,3\n")}, `:2: column "b": bare " in non-quoted field (byte 4)`},
		{"unclosed quote", []string{"fit", writeFile(t, dir, "u.csv", "a,b,y\n1,\"2,3\n")}, `:2: column "b": the quoted field that starts here (byte 3) has no closing "`},
		{"empty name", []string{"fit", writeFile(t, dir, "e.csv", "a,,y\n1,2,3\n")}, ":1: column 2: empty name"},
		{"duplicate name", []string{"fit", writeFile(t, dir, "d.csv", "a,b,a\n1,2,3\n")}, `:1: column 3: name "a" appears twice (columns 1 and 3)`},
		{"Parquet null", []string{"fit", "--drop", "id", "--target", "y", pq}, `: row 7: column "hole": null (missing values are not supported)`},
		{"Parquet text", []string{"fit", "--target", "y", pq}, `: row 1: column "id": "r1" holds text, not numbers (leave it out with --drop)`},
		{"Parquet truncated", []string{"fit", writeFile(t, dir, "cut.parquet", string(pqBytes[:len(pqBytes)-9]))}, ": corrupt Parquet file"},
		{"binomial response", append(slices.Clone(bin), writeFile(t, dir, "lines.csv", strings.Replace(lines, "4,,0", "4,1,0", 1))), `:9: column "y": binomial response 2 is not 0 or 1`},
		{"Poisson response, Parquet", []string{"fit", "--family", "poisson", "--lambda", "1", "--drop", "id", "--target", "y", "--drop-missing", pq}, `: row 8: column "y": poisson response -1 is not a finite count`},
		{"binomial response, rows dropped", append(slices.Clone(bin), "--drop-missing", writeFile(t, dir, "lines2.csv", lines)), `:9: column "y": binomial response 2 is not 0 or 1`},
		{"binomial streamed", append(slices.Clone(bin), "--stream", writeFile(t, dir, "widep.csv", "a,b,y\n1,2,0.5\n2,1,0\n")), `:2: column "y": binomial response 0.5 is not 0 or 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := cardreg(t, tc.args...)
			file := tc.args[len(tc.args)-1]
			oneLine(t, res, 1)
			msg := strings.TrimSuffix(res.stderr, "\n")
			require.True(t, strings.HasPrefix(msg, "cardreg "+tc.args[0]+": "+file+tc.want), "%s\nwant %s", msg, tc.want)
			require.Regexp(t, `^cardreg \w+: [^ :]+(:\d+| row \d+)?: (column ("[^"]*"|\d+): )?[^:]`, msg)
			require.Equal(t, 1, strings.Count(msg, filepath.Base(file)), "the file named twice: %s", msg)
			parts := strings.Split(msg, ": ")
			for i := 1; i < len(parts); i++ {
				require.False(t, strings.HasPrefix(parts[i], parts[i-1]), "prefix %q twice: %s", parts[i-1], msg)
			}
		})
	}
}

// pipePath returns a path that reads content through a pipe (as bash's
// <(…) gives), or skips the test where there is no /dev/fd.
func pipePath(t *testing.T, content []byte) string {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	path := fmt.Sprintf("/dev/fd/%d", r.Fd())
	if _, err := os.Stat(path); err != nil {
		w.Close()
		t.Skip("no /dev/fd")
	}
	go func() {
		w.Write(content)
		w.Close()
	}()
	return path
}

// A data file that is a pipe is read from its first byte: the Parquet
// check read (and lost) its first four bytes, so that `fit <(cat d.csv)`
// failed with "expected 1 fields, got 3" (or read a wrong header).
func TestReadPipe(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", t.TempDir())
	pq, csv := pqExample(t, dir, 40, 0)
	for _, file := range []string{csv, pq} {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		args := []string{"fit", "--lambda", "3", "--format", "json", "--drop", "id", "--target", "y"}
		want := cardreg(t, append(args, file)...)
		require.Equal(t, 0, want.code, want.stderr)
		pipe := pipePath(t, b)
		got := cardreg(t, append(args, pipe)...)
		require.Equal(t, 0, got.code, got.stderr)
		require.Equal(t, want.stdout, strings.ReplaceAll(got.stdout, pipe, file))
	}
}
