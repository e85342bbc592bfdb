package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// table is a numeric CSV file held column by column.
type table struct {
	names []string
	cols  [][]float64
}

// readTable reads a CSV file with a header row whose fields all parse as
// numbers. Errors name the file, line and column.
func readTable(path string, sep rune) (*table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = sep
	r.ReuseRecord = true
	header, err := r.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file, expected a header row", path)
	}
	if err != nil {
		return nil, csvError(path, err)
	}
	t := &table{names: append([]string(nil), header...), cols: make([][]float64, len(header))}
	seen := map[string]int{}
	for j, name := range t.names {
		t.names[j] = strings.TrimSpace(name)
		if t.names[j] == "" {
			return nil, fmt.Errorf("%s:1: column %d has an empty name", path, j+1)
		}
		if k, dup := seen[t.names[j]]; dup {
			return nil, fmt.Errorf("%s:1: column name %q appears twice (columns %d and %d)", path, t.names[j], k+1, j+1)
		}
		seen[t.names[j]] = j
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(path, err)
		}
		line, _ := r.FieldPos(0)
		for j, field := range rec {
			v, err := strconv.ParseFloat(strings.TrimSpace(field), 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: column %d (%s): %q is not a number", path, line, j+1, t.names[j], field)
			}
			t.cols[j] = append(t.cols[j], v)
		}
	}
	if len(t.cols[0]) == 0 {
		return nil, fmt.Errorf("%s: no data rows after the header", path)
	}
	return t, nil
}

func csvError(path string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			return fmt.Errorf("%s:%d: wrong number of fields (the header has a different count)", path, pe.Line)
		}
		return fmt.Errorf("%s:%d: column %d: %v", path, pe.Line, pe.Column, pe.Err)
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
