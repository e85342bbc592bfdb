package data

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"
)

// Table is a data file (CSV or Parquet) held column by column: numbers,
// or text for the columns read as labels.
type Table struct {
	// pqWant is how many values a Parquet row holds for the columns read.
	pqWant int
	names  []string
	cols   [][]float64
	// text holds the cells of the columns read as labels (nil for the
	// numeric ones, whose cols entry is then nil).
	text [][]string
	// factor marks the label columns that are factors (Options.Factors),
	// maybe the numeric columns that Options.MayBeFactor names (their
	// "not a number" errors suggest --factor); naLevel reads a factor's
	// missing values as the level "NA".
	factor, maybe []bool
	naLevel       bool
	// dropped counts the rows left out for a missing (empty, NaN or
	// infinite) cell when reading with dropMissing.
	dropped int
	n       int // data rows
	// While streaming, the current row's cells (see Options.row).
	stream  bool
	rowVals []float64
	rowText []string
	// sepHint, when not empty, says the file seems to use another field
	// separator; messages about the columns append it.
	sepHint string
	// places says where the data rows kept in memory start in the file
	// (see notePlace); byRow says they are Parquet rows, not lines.
	places []rowPlace
	byRow  bool
	// The CSV columns whose kind waits for a cell that is not missing
	// (see settle.go): soft ones are read as text, open ones are still
	// undecided, pending holds their missing cells stored before, found
	// is Options.FactorFound; failing, when streaming, is the missing
	// cell the read fails with at its end.
	soft, open []bool
	pending    [][]pendingCell
	// passedMissing marks, when streaming, the open columns whose missing
	// cells were passed (their rows left out or failing).
	passedMissing []bool
	found         func(string) error
	failing       *cellError
}

// rowPlace says that data row row (0-based) starts at line (or Parquet
// row) at of its file, and the rows after it on the following ones, up to
// the next rowPlace.
type rowPlace struct{ row, at int }

// notePlace records that data row i, stored in memory, starts at line (or
// Parquet row) at: only where a run of consecutive rows breaks (blank
// lines, a record over several lines, rows dropped), so that a file's
// places usually take one entry.
func (t *Table) notePlace(i, at int) {
	if k := len(t.places); k > 0 && t.places[k-1].at+i-t.places[k-1].row == at {
		return
	}
	t.places = append(t.places, rowPlace{i, at})
}

// Place names where data row i (0-based) of a table held in memory is in
// the file at path, as messages start: "path:LINE" or "path: row N".
func (t *Table) Place(path string, i int) string { return t.Places(path).Of(i) }

// Places says where the data rows of a table held in memory are in its
// file, without holding the table's columns.
type Places struct {
	path  string
	runs  []rowPlace
	byRow bool
}

// Places returns where the table's rows are in the file at path.
func (t *Table) Places(path string) Places {
	return Places{path: InputName(path), runs: t.places, byRow: t.byRow}
}

// Of names where data row i (0-based) is, as messages start: "path:LINE"
// or "path: row N" (a Parquet row).
func (p Places) Of(i int) string {
	at, ok := p.at(i)
	switch {
	case !ok:
		return fmt.Sprintf("%s: data row %d", p.path, i+1)
	case p.byRow:
		return fmt.Sprintf("%s: row %d", p.path, at)
	}
	return fmt.Sprintf("%s:%d", p.path, at)
}

// Line names where data row i (0-based) is without the file's name, in
// the unit Of uses: "line N", "row N" (a Parquet row) or "data row N".
func (p Places) Line(i int) string {
	at, ok := p.at(i)
	switch {
	case !ok:
		return fmt.Sprintf("data row %d", i+1)
	case p.byRow:
		return fmt.Sprintf("row %d", at)
	}
	return fmt.Sprintf("line %d", at)
}

// at is the line (or Parquet row) data row i starts at, and false when
// the places do not say.
func (p Places) at(i int) (int, bool) {
	k, found := slices.BinarySearchFunc(p.runs, i, func(p rowPlace, i int) int { return p.row - i })
	if !found {
		k--
	}
	if k < 0 {
		return 0, false
	}
	return p.runs[k].at + i - p.runs[k].row, true
}

// Rows is the number of data rows read.
func (t *Table) Rows() int { return t.n }

// Names are the names of the columns read, in the file's order.
func (t *Table) Names() []string { return t.names }

// Cols are the columns' values, nil for the columns read as labels.
func (t *Table) Cols() [][]float64 { return t.cols }

// Col is the values of column j, nil for a column read as labels.
func (t *Table) Col(j int) []float64 { return t.cols[j] }

// Text is the cells of column j read as labels, nil for a numeric column.
func (t *Table) Text(j int) []string { return t.text[j] }

// Dropped counts the rows left out for a missing value (Options.DropMissing).
func (t *Table) Dropped() int { return t.dropped }

// SepHint is "" or, when the header seems to use another field separator,
// a parenthetical saying so, to end messages about the columns.
func (t *Table) SepHint() string { return t.sepHint }

// newTable returns the empty table of the columns o picks from a header of
// distinct names, and the table column of each header column (-1 when
// skipped). Errors name the file.
func newTable(path string, names []string, o Options) (*Table, []int, error) {
	keep := slices.Repeat([]bool{true}, len(names))
	if o.Columns != nil {
		var err error
		if keep, err = o.Columns(names); err != nil {
			return nil, nil, InFile(path, err)
		}
	}
	t := &Table{naLevel: o.NALevel}
	dest := make([]int, len(names))
	for j, name := range names {
		dest[j] = -1
		if !keep[j] {
			continue
		}
		dest[j] = len(t.names)
		t.names = append(t.names, name)
		factor := o.Factors != nil && o.Factors(name)
		t.factor = append(t.factor, factor)
		t.maybe = append(t.maybe, !factor && o.MayBeFactor != nil && o.MayBeFactor(name))
		if factor || o.Labels != nil && o.Labels(name) {
			t.text = append(t.text, []string{})
			t.cols = append(t.cols, nil)
		} else {
			t.text = append(t.text, nil)
			t.cols = append(t.cols, []float64{})
		}
	}
	if o.Row != nil {
		t.stream = true
		t.rowVals, t.rowText = make([]float64, len(t.names)), make([]string, len(t.names))
	}
	return t, dest, nil
}

// store appends a field to column k, or returns why it cannot.
func (t *Table) store(k int, field []byte, line int) *cellError {
	if t.soft != nil && t.soft[k] {
		t.rowText[k] = string(bytes.TrimSpace(field)) // read by settle
		return nil
	}
	if t.text[k] != nil {
		s := strings.TrimSpace(string(field))
		if t.factor[k] && MissingLevel(s) {
			if !t.naLevel {
				return &cellError{line: line, col: k, text: ShortText(s), reason: errMissingLevel}
			}
			s = NALevel
		}
		if s == "" {
			return &cellError{line: line, col: k, reason: errEmptyCell}
		}
		if !utf8.ValidString(s) {
			return &cellError{line: line, col: k, text: ShortText(s), reason: errNotUTF8}
		}
		t.storeText(k, s)
		return nil
	}
	v, err := ParseNumber(field)
	if err != nil {
		return &cellError{line: line, col: k, text: ShortText(bytes.TrimSpace(field)), reason: err}
	}
	if t.stream {
		t.rowVals[k] = v
	} else {
		t.cols[k] = append(t.cols[k], v)
	}
	return nil
}

// truncate drops the cells of a row stored in part (a dropped row).
func (t *Table) truncate(rows int) {
	if t.stream {
		return
	}
	for k := range t.names {
		if t.text[k] != nil {
			t.text[k] = t.text[k][:rows]
		} else {
			t.cols[k] = t.cols[k][:rows]
		}
	}
}

// sizingRows is how many rows are read before the columns are sized from
// the bytes they took (fewer would say little of the rest of the file).
const sizingRows = 256

// sizeColumns gives t's columns room for the rows the rest of the file
// likely holds, estimated from the bytes the first rows took, so that they
// are not regrown (and copied) as they fill: growing by appending alone
// needs up to three times the final size at its peak.
func sizeColumns(t *Table, rows int, rest, used int64) {
	if rest <= 0 || used <= 0 {
		return
	}
	est := rest * int64(rows) / used
	est += est/32 + 64
	// A row takes at least two bytes per column (a digit and a separator
	// or the line end).
	if most := rest/(2*int64(max(len(t.cols), 1))) + 1; est > most {
		est = most
	}
	if est > math.MaxInt32 {
		est = math.MaxInt32
	}
	for j := range t.cols {
		if t.cols[j] != nil {
			t.cols[j] = slices.Grow(t.cols[j], int(est))
		}
	}
}

// Dense returns the numeric columns cols (indices into Names) as an
// n×len(cols) matrix, n the rows read.
func (t *Table) Dense(cols []int) *mat.Dense {
	x := mat.NewDense(t.n, len(cols), nil)
	for k, j := range cols {
		x.SetCol(k, t.cols[j])
	}
	return x
}

// Index returns the column named name, or an error listing the columns.
func (t *Table) Index(name string) (int, error) {
	for j, n := range t.names {
		if n == name {
			return j, nil
		}
	}
	return 0, fmt.Errorf("no column named %q (columns: %s)", name, strings.Join(t.names, ", "))
}
