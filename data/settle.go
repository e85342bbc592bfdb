package data

import (
	"fmt"
	"math"
	"slices"
	"unicode/utf8"
)

// A CSV column that MayBeFactor names is a factor when its first cell that
// is not missing (empty, "NA", "NaN") is text, a numeric column when it is
// a number: missing cells decide nothing, so the kind does not depend on
// where in the file they are. detectFactors decides from the records read
// ahead; a column whose cells there are all missing is "soft": its cells
// are kept as text (Table.rowText) and settle decides the kind at its first
// cell that is not missing, in file order. Its missing cells before that
// are held (pending) and read at the end (finish) as the kind decided
// says: a factor's as the level NA (--na-level) or an error, a numeric
// column's as an error, or their rows left out with DropMissing. A column
// missing in every row is refused as such.

// pendingCell is a missing cell of a soft column stored before the column's
// kind was known: the row (0-based, among the rows kept), the line and the
// cell.
type pendingCell struct {
	row, line int
	text      string
}

// rowFate says what becomes of a row once its soft cells are read.
type rowFate int

const (
	keepRow rowFate = iota
	dropRow         // left out for a missing value (DropMissing)
	skipRow         // not handed on: the read fails at its end (Table.failing)
)

// setSoft makes the columns of soft columns whose kind the first records
// did not decide; found is Options.FactorFound.
func (t *Table) setSoft(soft []bool, found func(string) error) {
	if !slices.Contains(soft, true) {
		return
	}
	t.soft, t.open, t.found = soft, slices.Clone(soft), found
	t.pending = make([][]pendingCell, len(soft))
	t.passedMissing = make([]bool, len(soft))
	if t.rowVals == nil {
		t.rowVals, t.rowText = make([]float64, len(t.names)), make([]string, len(t.names))
	}
}

// settle reads the soft cells of a row whose other cells are stored
// (text holds them trimmed; vals, when streaming, the row's values): it
// decides the kind of an open column at its first cell that is not
// missing, and returns what becomes of the row and its first bad soft cell
// (an error unless DropMissing left the row out for it). A kept row's soft
// cells are stored (in vals and text when streaming).
func (t *Table) settle(vals []float64, text []string, line int, dropMissing bool) (rowFate, *cellError, error) {
	fate := keepRow
	for k, soft := range t.soft {
		if !soft {
			continue
		}
		s := text[k]
		if t.open[k] {
			if MissingLevel(s) {
				fate = max(fate, t.holdMissing(k, s, line, dropMissing))
				continue
			}
			if err := t.decide(k, isText(cellBytes(s)), line); err != nil {
				return 0, nil, err
			}
		}
		if _, bad := t.softValue(k, s, line); bad != nil {
			if !dropMissing || !missing(bad.reason) {
				return 0, bad, nil
			}
			fate = max(fate, dropRow)
		}
	}
	if fate == keepRow && t.failing != nil {
		fate = skipRow
	}
	if fate != keepRow {
		return fate, nil, nil
	}
	for k, soft := range t.soft {
		if soft {
			t.storeSoft(k, vals, text, line)
		}
	}
	return keepRow, nil, nil
}

// holdMissing takes a missing cell s of the open column k: held for the
// end in memory; when streaming, its row is left out when DropMissing
// would leave it out of a numeric column, else the read fails at the end
// with it, unless the column turns out to hold text (a factor, which a
// streamed read refuses with its own error).
func (t *Table) holdMissing(k int, s string, line int, dropMissing bool) rowFate {
	if !t.stream {
		return keepRow
	}
	t.passedMissing[k] = true
	reason := missingReason(s)
	if dropMissing && missing(reason) {
		return dropRow
	}
	if t.failing == nil {
		t.failing = &cellError{line: line, col: k, text: ShortText(s), reason: reason}
	}
	return skipRow
}

// missingReason is why a missing cell is not a number: empty, not finite
// (NaN) or not a number at all ("NA").
func missingReason(s string) error {
	_, err := ParseNumber(cellBytes(s))
	return err
}

// decide ends the doubt about the open column k at line: a factor when
// text, else numeric. A stream that takes factors refuses one whose
// missing cells it has passed already (it cannot read them again as the
// kind decided).
func (t *Table) decide(k int, text bool, line int) error {
	t.open[k] = false
	if !text {
		return nil
	}
	held := len(t.cols[k])
	if err := t.makeFactor(k, t.found); err != nil {
		return err
	}
	if t.stream && t.passedMissing[k] {
		return fmt.Errorf("column %s: its cells are missing up to line %d, which holds text: a stream learns which columns are factors from their first rows; name it with %s (or %s) to stream it as a factor",
			ShortText(t.names[k]), line, flagFactor, flagOrdinal)
	}
	if !t.stream {
		t.text[k] = make([]string, held, held+held/4+16) // the held rows, read at the end
	}
	return nil
}

// softValue is the value of cell s of the decided soft column k, numeric
// or factor (its text: the level), or why it has none.
func (t *Table) softValue(k int, s string, line int) (float64, *cellError) {
	if t.text[k] == nil {
		v, err := ParseNumber(cellBytes(s))
		if err != nil {
			return 0, &cellError{line: line, col: k, text: ShortText(s), reason: err}
		}
		return v, nil
	}
	switch {
	case MissingLevel(s) && !t.naLevel:
		return 0, &cellError{line: line, col: k, text: ShortText(s), reason: errMissingLevel}
	case !utf8.ValidString(s):
		return 0, &cellError{line: line, col: k, text: ShortText(s), reason: errNotUTF8}
	}
	return 0, nil
}

// storeSoft stores the soft cell of column k of a kept row: a missing
// cell of a column still open is held (NaN in its place).
func (t *Table) storeSoft(k int, vals []float64, text []string, line int) {
	s := text[k]
	switch {
	case t.open[k]:
		t.pending[k] = append(t.pending[k], pendingCell{row: t.n, line: line, text: s})
		t.cols[k] = append(t.cols[k], math.NaN())
	case t.text[k] == nil:
		v, _ := t.softValue(k, s, line)
		if t.stream {
			vals[k], text[k] = v, ""
		} else {
			t.cols[k] = append(t.cols[k], v)
		}
	default:
		if MissingLevel(s) {
			s = NALevel
		}
		t.storeText(k, s)
	}
}

// finish reads the held cells once the kinds are known, and refuses a
// column missing in every row. Errors name the file at path.
func (t *Table) finish(path string, dropMissing bool) error {
	if t.soft == nil || t.n == 0 && t.dropped == 0 && t.failing == nil {
		return nil // (no data rows: said by the caller)
	}
	for k, open := range t.open {
		if open {
			return allMissing(path, t.names[k])
		}
	}
	if t.failing != nil {
		return t.failing.error(path, t.names[t.failing.col], t.cellHint(t.failing.col))
	}
	var drop []int
	var first *cellError
	for k, held := range t.pending {
		for _, c := range held {
			if t.text[k] != nil && t.naLevel {
				t.text[k][c.row] = NALevel
				continue
			}
			reason := errMissingLevel
			if t.text[k] == nil {
				reason = missingReason(c.text)
			}
			if dropMissing && missing(reason) {
				drop = append(drop, c.row)
				continue
			}
			if first == nil || c.line < first.line {
				first = &cellError{line: c.line, col: k, text: ShortText(c.text), reason: reason}
			}
			break
		}
	}
	if first != nil {
		return first.error(path, t.names[first.col], t.cellHint(first.col))
	}
	t.dropRows(drop)
	return nil
}

// allMissing is the error of the column name of the file at path that
// holds no value, only missing ones.
func allMissing(path, name string) error {
	return fmt.Errorf("%s: column %s: every value is missing (empty, NA, NaN or null): nothing to read (--drop it)", path, ShortText(name))
}

// dropRows leaves out the rows drop (0-based, in any order, repeats
// allowed) of a table held in memory, and notes where the others are.
func (t *Table) dropRows(drop []int) {
	if len(drop) == 0 {
		return
	}
	slices.Sort(drop)
	drop = slices.Compact(drop)
	old := Places{runs: t.places}
	t.places = nil
	kept := 0
	for i := range t.n {
		if _, gone := slices.BinarySearch(drop, i); gone {
			continue
		}
		for k := range t.names {
			if t.text[k] != nil {
				t.text[k][kept] = t.text[k][i]
			} else {
				t.cols[k][kept] = t.cols[k][i]
			}
		}
		t.notePlace(kept, old.line(i))
		kept++
	}
	t.truncate(kept)
	t.dropped += t.n - kept
	t.n = kept
}

// line is where data row i starts (a line, or a Parquet row), i+1 when
// the places do not say.
func (p Places) line(i int) int {
	if at, ok := p.at(i); ok {
		return at
	}
	return i + 1
}
