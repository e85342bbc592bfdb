package data

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unsafe"

	"github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/internal/membudget"
)

// Base is the base of the column indices of a sparse file.
type Base int

const (
	// BaseAuto detects the base of an svmlight file: 0-based when an
	// index 0 occurs, else 1-based (scikit-learn's zero_based="auto").
	BaseAuto Base = iota
	// Base1 is 1-based (svmlight's and libsvm's convention, Matrix
	// Market's rule): index 0 is an error.
	Base1
	// Base0 is 0-based.
	Base0
)

// ParseBase reads a base as typed: auto, 0 or 1.
func ParseBase(s string) (Base, error) {
	switch s {
	case "", "auto":
		return BaseAuto, nil
	case "1":
		return Base1, nil
	case "0":
		return Base0, nil
	}
	return 0, fmt.Errorf("must be auto, 0 or 1, got %s", ShortText(s))
}

// SparseOptions say how a sparse file (svmlight, Matrix Market) is read.
type SparseOptions struct {
	// Base is the base of the column indices (svmlight only: a Matrix
	// Market file is 1-based by its format). BaseAuto, the default,
	// detects it.
	Base Base
	// Features is the number of columns p; 0 means the largest index
	// seen (svmlight) or the size the file declares (Matrix Market). Give
	// it so that a training and a test file agree; an index beyond it is
	// an error, and columns past the file's last index are all zero.
	Features int
	// Budget bounds the memory the columns and the non-zeros take,
	// checked before they are allocated; the zero value is
	// membudget.Of(0), half the machine's memory.
	Budget membudget.Budget
}

// Sparse is a sparse file read into memory.
type Sparse struct {
	// X holds the n×p design as sparse columns (design.Matrix), built
	// without a dense copy.
	X *design.Matrix
	// Y holds the labels of an svmlight file, one per row (nil for a
	// Matrix Market file, which holds no response).
	Y []float64
	// Names are the columns' names: x1, …, xp by position (column j is
	// x(j+1) whatever the file's base, so that index k of a 0-based file
	// is x(k+1)).
	Names []string
	// ZeroBased says the file was read as 0-based (given or detected).
	ZeroBased bool
	// Places says on which line each row is (svmlight), for messages.
	Places Places
}

// resolved returns o with its budget known: membudget.Of(0) for the
// zero value, looked up once (it reads the system's files).
func (o SparseOptions) resolved() SparseOptions {
	if o.Budget.Bytes == 0 && !o.Budget.Given {
		o.Budget = membudget.Of(0)
	}
	return o
}

// columnBytes is the memory one column of a design.Matrix takes beside
// its non-zeros: its design.Column and its start in the CSC arrays.
const columnBytes = int(unsafe.Sizeof(design.Column{})) + 8

// entryBytes is the memory one non-zero takes in the design (a row index
// and a value).
const entryBytes = 4 + 8

// checkSparseMemory refuses, before they are allocated, p columns and
// nnz non-zeros (each with extra bytes more while the file is read) that
// pass the budget, the collector's share included. at names where the
// size comes from (a file's place and what it is; "" leaves the message
// starting ": " for a caller to put the place before it, built only
// when something is refused).
func checkSparseMemory(p, nnz, extra int, b membudget.Budget, at string) error {
	need := membudget.GCFactor * (float64(p)*float64(columnBytes) + float64(nnz)*float64(entryBytes+extra))
	if b.Bytes <= 0 || need <= float64(b.Bytes) {
		return nil
	}
	return fmt.Errorf("%s: %d columns and %d non-zeros need about %s (doubled for the garbage collector), more than %s", at, p, nnz, membudget.FormatBytes(need), b)
}

// maxIndex is the largest row or column count a design.Matrix holds: its
// row indices are int32.
const maxIndex = math.MaxInt32

// SparseNames are the names of a sparse file's p columns: x1, …, xp.
func SparseNames(p int) []string {
	names := make([]string, p)
	for j := range names {
		names[j] = "x" + strconv.Itoa(j+1)
	}
	return names
}

// lineReader reads a text file line by line, counting lines, a line of
// any length gathered whole.
type lineReader struct {
	br   *bufio.Reader
	name string
	line int
	buf  []byte
	// max is the longest line taken, in bytes (0: any).
	max int
}

// next returns the next line without its line end (valid until the next
// call), or io.EOF.
func (r *lineReader) next() ([]byte, error) {
	b, err := r.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.buf = append(r.buf[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = r.br.ReadSlice('\n')
			r.buf = append(r.buf, b...)
			if r.max > 0 && len(r.buf) > r.max {
				return nil, fmt.Errorf("%s:%d: a line longer than %d bytes, more than the memory budget allows (a line end missing?)", r.name, r.line+1, r.max)
			}
		}
		b = r.buf
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s:%d: %w", r.name, r.line+1, err)
	}
	if len(b) == 0 && errors.Is(err, io.EOF) {
		return nil, io.EOF
	}
	r.line++
	b = bytes.TrimSuffix(b, []byte{'\n'})
	return bytes.TrimSuffix(b, []byte{'\r'}), nil
}

// lineLimit is the longest line a budget takes: a line is held whole
// while it is read, and up to twice its length while it grows.
func lineLimit(b membudget.Budget) int {
	return int(min(b.Bytes/RecordFactor, math.MaxInt32))
}

// at names column col (1-based, in bytes) of the current line.
func (r *lineReader) at(col int) string { return r.where(place{r.line, col}) }

// place is a line and a column (1-based; line 0: none), noted cheaply
// where a message may need it later.
type place struct{ line, col int }

// where names place p of the file.
func (r *lineReader) where(p place) string { return fmt.Sprintf("%s:%d:%d", r.name, p.line, p.col) }

// fields splits a line at spaces and tabs: the fields and the column
// (1-based byte offset) each starts at.
func fields(line []byte, out []field) []field {
	out = out[:0]
	start := -1
	for i, c := range line {
		blank := c == ' ' || c == '\t'
		switch {
		case blank && start >= 0:
			out = append(out, field{line[start:i], start + 1})
			start = -1
		case !blank && start < 0:
			start = i
		}
	}
	if start >= 0 {
		out = append(out, field{line[start:], start + 1})
	}
	return out
}

// field is one field of a line and its column.
type field struct {
	text []byte
	col  int
}

// number reads a finite decimal number (ParseNumber), refusing one that
// rounds to 0; what names it in the error.
func number(b []byte, what string) (float64, error) {
	v, err := ParseNumber(b)
	switch {
	case errors.Is(err, errNotFinite):
		return 0, fmt.Errorf("%s %s is not finite (NaN and infinite values are refused)", what, ShortText(b))
	case err != nil:
		return 0, fmt.Errorf("%s %s is not a number", what, ShortText(b))
	case v == 0 && Underflows(string(b), v):
		return 0, fmt.Errorf("%s %s is below the smallest float64 and would be 0", what, ShortText(b))
	}
	return v, nil
}

// index reads a column or row index: a whole number in [0, maxIndex].
func index(b []byte, what string) (int, error) {
	if v, ok := smallIndex(b); ok {
		return v, nil
	}
	v, err := strconv.ParseInt(string(b), 10, 64)
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange) && len(b) > 0 && b[0] != '-':
		return 0, fmt.Errorf("%s %s is too large (at most %d)", what, ShortText(b), maxIndex)
	case err != nil && len(b) > 0 && b[0] == '-' && bytes.IndexFunc(b[1:], func(r rune) bool { return r < '0' || r > '9' }) < 0:
		return 0, fmt.Errorf("%s %s is negative", what, ShortText(b))
	case err != nil:
		return 0, fmt.Errorf("%s %s is not a whole number", what, ShortText(b))
	case v < 0:
		return 0, fmt.Errorf("%s %s is negative", what, ShortText(b))
	case v > maxIndex:
		return 0, fmt.Errorf("%s %s is too large (at most %d)", what, ShortText(b), maxIndex)
	}
	return int(v), nil
}

// smallIndex reads the digits b (at most 9 of them: below maxIndex)
// without ParseInt's copy to a string; ok false for anything else.
func smallIndex(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	v := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = 10*v + int(c-'0')
	}
	return v, true
}

// ReadResponse reads a response file: one finite number per line (blank
// lines at the end ignored), n of them; its errors name the file and the
// line. It gives a Matrix Market design its response.
func ReadResponse(path string, n int) ([]float64, error) {
	in, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	if in.parquet {
		return nil, fmt.Errorf("%s: looks like a Parquet file, expected one number per line", in.name)
	}
	lr := &lineReader{br: in.r, name: in.name}
	var y []float64
	blank := 0
	for {
		line, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			blank = lr.line
			continue
		}
		if blank > 0 {
			return nil, fmt.Errorf("%s:%d: blank line among the values (line %d)", in.name, blank, lr.line)
		}
		v, err := number(t, "value")
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", in.name, lr.line, err)
		}
		if len(y) == n {
			return nil, fmt.Errorf("%s:%d: more than the %d values of the design's rows", in.name, lr.line, n)
		}
		y = append(y, v)
	}
	if len(y) != n {
		return nil, fmt.Errorf("%s: %d values for the design's %d rows", in.name, len(y), n)
	}
	return y, nil
}
