package data

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// NALevel is the level a factor's missing values read as with
// FactorSpec.NALevel (Options.NALevel).
const NALevel = "NA"

// errMissingLevel is a missing value (an empty cell, NA or NaN) in a
// factor.
var errMissingLevel = errors.New("missing value")

// missingHint ends the message of a missing value in a factor: the two
// ways to read such a file.
const missingHint = " (--na-level makes missing values a level \"NA\" of their own; --drop-missing leaves such rows out)"

// MissingLevel reports whether a factor's cell, trimmed, is a missing
// value: empty, or "NA" or "NaN" in any case.
func MissingLevel(s string) bool {
	return s == "" || strings.EqualFold(s, "NA") || strings.EqualFold(s, "NaN")
}

// missing reports the reasons a cell is a missing value, which
// DropMissing leaves out.
func missing(reason error) bool {
	return reason == errEmptyCell || reason == errNotFinite || reason == errMissingLevel
}

// cellHint is what ends the "not a number" message of column k: the
// separator hint, after the factor's for a column that could be one.
func (t *Table) cellHint(k int) string {
	if t.maybe[k] {
		return fmt.Sprintf(" (name it with --factor %s to read it as a factor)%s", ShortText(t.names[k]), t.sepHint)
	}
	return t.sepHint
}

// isText reports whether a CSV cell makes its column a factor: not empty,
// not a missing value, not a number (not even one of another syntax, such
// as 0x10, 1_000 or Inf, which stay errors of a numeric column).
func isText(field []byte) bool {
	s := bytes.TrimSpace(field)
	if MissingLevel(string(s)) {
		return false
	}
	_, err := ParseNumber(s)
	return err == errNotNumber
}

// makeFactor reads numeric column k as a factor, found to hold text
// (MayBeFactor), and tells found.
func (t *Table) makeFactor(k int, found func(string) error) error {
	t.text[k], t.cols[k], t.factor[k], t.maybe[k] = []string{}, nil, true, false
	if found != nil {
		return found(t.names[k])
	}
	return nil
}

// lookAhead is how many bytes detectFactors reads ahead (a variable so
// that tests can leave every kind to settle).
var lookAhead = readBufSize

// detectFactors decides the kind of the columns MayBeFactor names from
// the records read ahead (lookAhead bytes, read again as data): a
// column is a factor when its first cell that is not missing is text, and
// numeric when it is a number (see settle.go). A column whose cells there
// are all missing is left to settle, which decides at its first cell that
// is not missing further on.
func (r *csvReader) detectFactors(t *Table, o Options) error {
	if o.MayBeFactor == nil {
		return nil
	}
	undecided := slices.Clone(t.maybe)
	src, peekErr := r.pending, error(io.EOF)
	if src == nil {
		src, peekErr = r.aheadOne()
	}
	if peekErr == nil { // the whole records only
		end, _ := recordEnd(src, 0)
		src = src[:max(end, 0)]
	}
	// (A copy: the parse unquotes in place, and src is read again as data.)
	pr := &csvReader{path: r.path, mem: bytes.Clone(src), sep: r.sep}
	for slices.Contains(undecided, true) {
		line, err := pr.nextLine()
		if err != nil || pr.parseRecord(line) != nil || len(pr.ends) != r.fields {
			break
		}
		if err := r.decideFrom(t, pr, undecided, o.FactorFound); err != nil {
			return err
		}
	}
	t.setSoft(undecided, o.FactorFound)
	return nil
}

// maxLookAhead is the most detectFactors reads ahead to see one whole
// record (a wide file's first row): a longer one is left to settle, whose
// every column is then soft, rather than held twice.
const maxLookAhead = 16 << 20

// aheadOne returns the bytes ahead in the input, lookAhead of them or, when
// they hold no whole record, up to the end of the first one (at most
// maxLookAhead), which are then read again from memory; and io.EOF when
// they reach the end of the input.
func (r *csvReader) aheadOne() ([]byte, error) {
	src, err := r.br.Peek(lookAhead)
	if err != nil || lookAhead < readBufSize {
		return src, err
	}
	if end, _ := recordEnd(src, 0); end >= 0 {
		return src, nil
	}
	buf := make([]byte, 0, 2*len(src))
	for len(buf) < maxLookAhead {
		k, rerr := r.br.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if end, _ := recordEnd(buf, 0); end >= 0 || rerr != nil {
			err = rerr
			break
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
	r.br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(buf), r.br), readBufSize)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", r.path, err)
	}
	return buf, err
}

// decideFrom decides the undecided columns whose cell in the record pr
// parsed is not missing.
func (r *csvReader) decideFrom(t *Table, pr *csvReader, undecided []bool, found func(string) error) error {
	from := 0
	for j, end := range pr.ends {
		field := pr.rec[from:end]
		from = end
		k := r.dest[j]
		if k < 0 || !undecided[k] || MissingLevel(string(bytes.TrimSpace(field))) {
			continue
		}
		undecided[k] = false
		if isText(field) {
			if err := t.makeFactor(k, found); err != nil {
				return fmt.Errorf("%s: %w", r.path, err)
			}
		}
	}
	return nil
}
