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

	"github.com/cardsparse/cardreg/internal/testfiles"

	"github.com/cardsparse/cardreg/data"
	"github.com/stretchr/testify/require"
)

// Text that is not UTF-8 (a Latin-1 file) is refused from the command
// line: one line, exit 1, and nothing saved (data.TestNotUTF8 checks the
// readers' messages).
func TestNotUTF8(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "latin1.csv", "x1,p\xe8re,y\n1,2,3\n2,1,5\n3,3,3\n4,0,1\n")
	model := filepath.Join(dir, "m.json")
	oneLine(t, cardreg(t, "fit", "--lambda", "1", "--save-model", model, path), 1,
		"latin1.csv:1: column 2: name", "is not UTF-8", "iconv -f latin1 -t utf-8")
	require.NoFileExists(t, model)

}

// Nested, repeated and list columns are columns of the header: left out
// (--drop, or not among --predictors) they are not read and the file is;
// kept, they are refused by name.
func TestParquetNestedDropped(t *testing.T) {
	dir := t.TempDir()
	pq, want := testfiles.NestedFiles(t, dir)
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
	pq, _ := testfiles.Example(t, dir, 60, 0)
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
			require.Equal(t, want.stdout, strings.ReplaceAll(got.stdout, data.StdinName, "d.parquet"))
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
		oneLine(t, cardreg(t, append(args, "-")...), 1, data.StdinName+": ", "Parquet")
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
	pq, _ := testfiles.Example(t, dir, 30, 7)
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
		{"Parquet text", []string{"fit", "--target", "y", "--drop-missing", pq}, `: column "id" has a level of its own in every row (29 levels): probably an ID column; --drop it`},
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
	pq, csv := testfiles.Example(t, dir, 40, 0)
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

// A Parquet file fits as its CSV twin does, in memory and streamed.
func TestParquetInput(t *testing.T) {
	dir := t.TempDir()
	pq, csv := testfiles.Example(t, dir, 60, 0)
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
	pq, _ := testfiles.Example(t, dir, 30, 7)
	oneLine(t, cardreg(t, "fit", "--lambda", "1", "--drop", "id", "--target", "y", pq), 1, "d.parquet: row 7", `column "hole": null`)
	ok := cardreg(t, "fit", "--lambda", "1", "--drop", "id", "--target", "y", "--drop-missing", "--format", "json", pq)
	require.Equal(t, 0, ok.code, ok.stderr)
	require.Equal(t, 29, decodeFit(t, ok.stdout).N)
	// A text column is a factor: an identifier is refused as one.
	oneLine(t, cardreg(t, "fit", "--lambda", "1", "--target", "y", "--drop", "hole", pq), 1, "d.parquet: ", `column "id"`, "probably an ID column; --drop it")
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

// The --G file has no header: its first line is data.
func TestReadMatrixHeaderless(t *testing.T) {
	g := writeFile(t, t.TempDir(), "g.csv", "1,-1,0\n0,1,-1\n\n1,0,-1\n")
	m, err := readMatrix(g, 3)
	require.NoError(t, err)
	r, _ := m.Dims()
	require.Equal(t, 3, r, "the first row of a headerless file is data")
}

// A record longer than --memory allows reading (twice its length) is
// refused by its line while it is read, in memory and streamed (issue 35:
// a gigabyte record took 5 to 7 times its size before any message).
func TestRecordOverMemory(t *testing.T) {
	path := writeFile(t, t.TempDir(), "long.csv", "x,y\n1,2\n"+strings.Repeat("3", 5000)+",4\n5,6\n7,9\n")
	for _, stream := range []bool{false, true} {
		args := []string{"fit", "--memory", "4KB", "--lambda", "1", path}
		if stream {
			args = append([]string{"fit", "--stream"}, args[1:]...)
		}
		res := cardreg(t, args...)
		require.Equal(t, 1, res.code, res.stderr)
		lines := strings.Split(strings.TrimSpace(res.stderr), "\n")
		last := lines[len(lines)-1] // (after the note that the file is streamed, when it is not asked)
		require.Contains(t, last, path+":3: a record longer than 2000 bytes")
		require.Contains(t, last, "more than --memory 4 kB allows")
	}
}
