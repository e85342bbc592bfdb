package data

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
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
		return fmt.Sprintf(" (name it with --factor %s to read it as a factor)%s", ShortText([]byte(t.names[k])), t.sepHint)
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

// detectFactors makes factors of the columns MayBeFactor names whose cell
// in the first data record is text. The record is parsed from the bytes
// read ahead (the first megabyte), which are read again as data: a
// record longer than that decides nothing, and its column's text is then
// an error with a hint.
func (r *csvReader) detectFactors(t *Table, o Options) error {
	if o.MayBeFactor == nil {
		return nil
	}
	src, peekErr := r.pending, error(io.EOF)
	if src == nil {
		src, peekErr = r.br.Peek(readBufSize)
	}
	pr := &csvReader{path: r.path, br: bufio.NewReader(bytes.NewReader(src)), sep: r.sep}
	line, err := pr.nextLine()
	if err != nil || pr.parseRecord(line) != nil || len(pr.ends) != r.fields {
		return nil
	}
	if whole := peekErr != nil || pr.n < int64(len(src)) || src[len(src)-1] == '\n'; !whole {
		return nil
	}
	from := 0
	for j, end := range pr.ends {
		field := pr.rec[from:end]
		from = end
		if k := r.dest[j]; k >= 0 && t.maybe[k] && isText(field) {
			if err := t.makeFactor(k, o.FactorFound); err != nil {
				return fmt.Errorf("%s: %w", r.path, err)
			}
		}
	}
	return nil
}
