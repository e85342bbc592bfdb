package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode"
)

// table is a numeric CSV file held column by column.
type table struct {
	names []string
	cols  [][]float64
}

// utf8BOM is the byte order mark some spreadsheet programs put at the start
// of a UTF-8 file; it is not part of the first column's name.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// readTable reads a CSV file with a header row whose fields all parse as
// finite numbers. A leading UTF-8 byte order mark is skipped and CRLF line
// ends are accepted. Errors name the file, line and column.
func readTable(path string, sep rune) (*table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if head, _ := br.Peek(len(utf8BOM)); bytes.Equal(head, utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	r := csv.NewReader(br)
	r.Comma = sep
	r.ReuseRecord = true
	header, err := r.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file, expected a header row", path)
	}
	if err != nil {
		return nil, csvError(path, err, 0, 0)
	}
	t := &table{names: append([]string(nil), header...), cols: make([][]float64, len(header))}
	seen := map[string]int{}
	for j, name := range t.names {
		line, _ := r.FieldPos(j) // blank lines may precede the header
		t.names[j] = strings.TrimSpace(name)
		if t.names[j] == "" {
			return nil, fmt.Errorf("%s:%d: column %d has an empty name", path, line, j+1)
		}
		if strings.IndexFunc(t.names[j], unicode.IsControl) >= 0 {
			// A quoted name may hold a line break or a tab, which would
			// break the one-line messages and the text output.
			return nil, fmt.Errorf("%s:%d: column %d: name %q holds a control character", path, line, j+1, t.names[j])
		}
		if k, dup := seen[t.names[j]]; dup {
			return nil, fmt.Errorf("%s:%d: column name %q appears twice (columns %d and %d)", path, line, t.names[j], k+1, j+1)
		}
		seen[t.names[j]] = j
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(path, err, len(rec), len(t.names))
		}
		for j, field := range rec {
			line, _ := r.FieldPos(j)
			s := strings.TrimSpace(field)
			if s == "" {
				return nil, fmt.Errorf("%s:%d: column %d (%s): empty cell (missing values are not supported)", path, line, j+1, t.names[j])
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return nil, fmt.Errorf("%s:%d: column %d (%s): %q is not a number", path, line, j+1, t.names[j], field)
			}
			// ParseFloat accepts "NaN", "Inf" and "Infinity", and
			// returns ±Inf with ErrRange for values beyond float64; the
			// fit needs finite data, so say so here, where the line is
			// known.
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s:%d: column %d (%s): %q is not a finite number", path, line, j+1, t.names[j], field)
			}
			t.cols[j] = append(t.cols[j], v)
		}
	}
	if len(t.cols[0]) == 0 {
		return nil, fmt.Errorf("%s: no data rows after the header", path)
	}
	return t, nil
}

// csvError rewrites an encoding/csv error as one line naming the file and
// line; got and want are the record's and the header's field counts (used
// for a field-count error).
func csvError(path string, err error, got, want int) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			return fmt.Errorf("%s:%d: %d fields, but the header has %d", path, pe.Line, got, want)
		}
		// pe.Column is a 1-based byte offset within the line, not a
		// field number.
		return fmt.Errorf("%s:%d: byte %d: %v", path, pe.Line, pe.Column, pe.Err)
	}
	return fmt.Errorf("%s: %v", path, err)
}

func (t *table) index(name string) (int, error) {
	for j, n := range t.names {
		if n == name {
			return j, nil
		}
	}
	return 0, fmt.Errorf("no column named %q (columns: %s)", name, strings.Join(t.names, ", "))
}
