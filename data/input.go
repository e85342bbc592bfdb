package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/cardsparse/cardreg/internal/names"
)

// StdinName is how messages name standard input, read when a data file is
// given as "-".
const StdinName = "<stdin>"

// InputName is how messages name the input given as path: "-" is
// StdinName.
func InputName(path string) string {
	if path == "-" {
		return StdinName
	}
	return path
}

// input is an opened data file: its text (decompressed when the file is
// gzip), the name messages use, and its size in bytes when known (0 for
// standard input and compressed files, whose text size is unknown).
type input struct {
	r    *bufio.Reader
	name string
	size int64
	c    io.Closer
	// parquet says the text is Parquet data, from standard input or
	// inside gzip (a Parquet file is opened by readParquet).
	parquet bool
}

// Close closes the file (not standard input).
func (in *input) Close() error { return in.c.Close() }

// sniffSize is how much of a file's start is looked at to tell text from
// other formats.
const sniffSize = 4096

// openInput opens a data file for reading: "-" is standard input, a gzip
// stream (by its magic bytes, whatever the name) is decompressed, Parquet
// data are marked (see spoolParquet), and a file that is not text —
// another compression format, a ZIP file (a spreadsheet), UTF-16 text or
// binary data — is refused with a message saying what it looks like.
func openInput(path string) (*input, error) {
	in := &input{name: path}
	var f *os.File
	if path == "-" {
		f, in.name = os.Stdin, StdinName
		in.c = io.NopCloser(nil)
	} else {
		var err error
		if f, err = os.Open(path); err != nil {
			return nil, err
		}
		in.c = f
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		if fi.IsDir() {
			f.Close()
			return nil, fmt.Errorf("%s: is a directory, expected a data file", path)
		}
		if fi.Mode().IsRegular() {
			in.size = fi.Size()
		}
	}
	in.r = bufio.NewReaderSize(f, readBufSize)
	if head, _ := in.r.Peek(2); bytes.Equal(head, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(in.r)
		if err != nil {
			in.Close()
			return nil, fmt.Errorf("%s: looks like gzip but cannot be decompressed: %v", in.name, err)
		}
		in.r = bufio.NewReaderSize(&gzipErrors{zr: zr}, readBufSize)
		in.size = 0
	}
	head, _ := in.r.Peek(sniffSize)
	if bytes.HasPrefix(head, []byte(parquetMagic)) {
		in.parquet = true
		return in, nil
	}
	if what := NotText(head); what != "" {
		in.Close()
		return nil, fmt.Errorf("%s: %s, expected CSV text", in.name, what)
	}
	return in, nil
}

// gzipErrors says "gzip" in the errors of a gzip stream (the readers
// add the file's name), once: compress/gzip's own errors say it already.
type gzipErrors struct {
	zr *gzip.Reader
}

// Read reads decompressed bytes.
func (g *gzipErrors) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	if err != nil && err != io.EOF && !strings.HasPrefix(err.Error(), "gzip: ") {
		err = fmt.Errorf("gzip: %w", err)
	}
	return n, err
}

// fileError is an error of a data file's reader, whose message names the
// file (and the line) already.
type fileError struct{ err error }

// Error is the reader's message.
func (e fileError) Error() string { return e.err.Error() }

// Unwrap returns the reader's error.
func (e fileError) Unwrap() error { return e.err }

// InFile names the file in err, unless err is a reader's error (passed on
// by a fit that reads the file as it goes) or otherwise begins with the
// file's name ("-" is named StdinName), which names it already. It is the
// one place that adds a data file's name to an error.
func InFile(path string, err error) error {
	if err == nil || errors.As(err, new(fileError)) {
		return err
	}
	name := InputName(path)
	if strings.HasPrefix(err.Error(), name+":") {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// magics are the starts of formats users mistake for CSV.
var magics = []struct {
	prefix, what string
}{
	{"PAR1", "looks like a Parquet file"},
	{"PK\x03\x04", "looks like a ZIP archive (a spreadsheet such as .xlsx? export it as CSV)"},
	{"\xd0\xcf\x11\xe0", "looks like an old Office document (.xls? export it as CSV)"},
	{"BZh", "looks like bzip2-compressed data (decompress it first: bunzip2)"},
	{"\xfd7zXZ\x00", "looks like xz-compressed data (decompress it first: unxz)"},
	{"\x28\xb5\x2f\xfd", "looks like zstd-compressed data (decompress it first: unzstd)"},
	{"\xff\xfe", "looks like UTF-16 text (convert it to UTF-8, e.g. iconv -f UTF-16 -t UTF-8)"},
	{"\xfe\xff", "looks like UTF-16 text (convert it to UTF-8, e.g. iconv -f UTF-16 -t UTF-8)"},
}

// NotText says what the start of a file looks like when it is not text
// (CSV), or "" when it may be; it looks at the first few kilobytes only. A
// NUL byte never occurs in text; in UTF-16 without a byte order mark every
// other byte of ASCII text is one.
func NotText(head []byte) string {
	head = head[:min(len(head), sniffSize)]
	for _, m := range magics {
		if bytes.HasPrefix(head, []byte(m.prefix)) {
			return m.what
		}
	}
	i := bytes.IndexByte(head, 0)
	if i < 0 {
		return ""
	}
	if len(head) >= 4 && (head[1] == 0 && head[3] == 0 || head[0] == 0 && head[2] == 0) {
		return "looks like UTF-16 text (convert it to UTF-8, e.g. iconv -f UTF-16 -t UTF-8)"
	}
	return fmt.Sprintf("looks like binary data (a NUL byte at byte %d)", i+1)
}

// ShortText is text for a message: at most a short prefix of a cell, so
// that a huge cell is never echoed whole (names.Short). Pass a string as
// it is: a conversion to bytes would copy it whole.
func ShortText[T ~string | ~[]byte](b T) string { return names.Short(b) }

// ParseSep reads a field separator as typed: one character, or `\t` or
// "tab" for a tab (a shell passes '\t' as a backslash and a t). Its errors
// read after the option's name ("--sep must be …").
func ParseSep(s string) (rune, error) {
	switch s {
	case `\t`, "tab", "TAB":
		return '\t', nil
	}
	if utf8.RuneCountInString(s) != 1 {
		return 0, fmt.Errorf(`must be one character (or \t for a tab), got %q`, s)
	}
	r, _ := utf8.DecodeRuneInString(s)
	if r == '"' || r == '\r' || r == '\n' || r == utf8.RuneError {
		return 0, fmt.Errorf("cannot be %q", s)
	}
	return r, nil
}

// spoolParquet reads Parquet data that come as a stream (standard input,
// a pipe, or inside gzip): the format needs random access (its footer is
// at the end), so they are copied to a temporary file, which takes their
// size on disk ($TMPDIR) while they are read. Its name is removed at once
// where the system allows it (the open file is read), so that not even a
// killed process leaves it behind, else once read.
func spoolParquet(in *input, o Options) (*Table, error) {
	f, err := os.CreateTemp("", "cardreg-*.parquet")
	if err != nil {
		return nil, fmt.Errorf("%s: Parquet data need a temporary file: %v", in.name, err)
	}
	defer f.Close()
	if os.Remove(f.Name()) != nil {
		defer os.Remove(f.Name())
	}
	if _, err = io.Copy(f, in.r); err != nil {
		return nil, fmt.Errorf("%s: copying the Parquet data to a temporary file: %v", in.name, err)
	}
	return readParquetFile(in.name, f, o, true)
}
