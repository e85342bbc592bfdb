package data

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/cardsparse/cardreg/design"
)

// mmBanner starts a Matrix Market file.
const mmBanner = "%%MatrixMarket"

// mmExample is the header a design's Matrix Market file has.
const mmExample = "%%MatrixMarket matrix coordinate real general"

// ReadMatrixMarket reads a Matrix Market file (NIST's exchange format,
// scipy.io.mmwrite's and R Matrix's writeMM's), plain or gzip-compressed,
// or standard input ("-"), into memory as a design without a response
// (Sparse.Y is nil; ReadResponse reads one). The format:
//
//	%%MatrixMarket matrix coordinate real general
//	% comments
//	M N NNZ
//	I J VALUE        (NNZ lines, 1-based indices, any order)
//
// The header's field is real, integer or pattern (no values: all ones);
// an array file (M N, then the M·N values column by column, one a line)
// gives dense columns. Refused with a clear error: complex values,
// symmetric, skew-symmetric and hermitian storage (write the matrix as
// general), a header or size line of the wrong length or kind, an index
// outside the declared size, an entry given twice, a value that is not a
// finite number (or not a whole number in an integer file), and more or
// fewer entries than declared; each names the file and the line (and
// the entry's column). The columns and non-zeros the size line declares
// are checked against the memory budget before they are allocated.
// SparseOptions.Base must be BaseAuto or Base1 (the format is 1-based);
// SparseOptions.Features, when given, is at least N (the columns past N
// are zero).
func ReadMatrixMarket(path string, o SparseOptions) (*Sparse, error) {
	o = o.resolved()
	in, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	if in.parquet {
		return nil, fmt.Errorf("%s: looks like a Parquet file, expected a Matrix Market file", in.name)
	}
	if o.Base == Base0 {
		return nil, fmt.Errorf("%s: a Matrix Market file is 1-based by its format: it cannot be read as 0-based", in.name)
	}
	m := &mmReader{lr: lineReader{br: in.r, name: in.name, max: lineLimit(o.Budget)}, o: o}
	if err := m.header(); err != nil {
		return nil, err
	}
	if err := m.size(); err != nil {
		return nil, err
	}
	var x *design.Matrix
	if m.array {
		x, err = m.readArray()
	} else {
		x, err = m.readCoordinate()
	}
	if err != nil {
		return nil, err
	}
	return &Sparse{X: x, Names: SparseNames(m.p), Places: Places{path: in.name}}, nil
}

// mmReader reads a Matrix Market file.
type mmReader struct {
	lr lineReader
	o  SparseOptions
	// array, pattern and integer are the header's format and field.
	array, pattern, integer bool
	// m, nCols and nnz are the declared size, sizeLine its line; p is the
	// columns of the design (Features, or nCols).
	m, nCols, nnz, p, sizeLine int
	fs                         []field
}

// header reads the banner line.
func (m *mmReader) header() error {
	line, err := m.lr.next()
	if err == io.EOF {
		return fmt.Errorf("%s: empty file, expected a Matrix Market header (%s)", m.lr.name, mmExample)
	}
	if err != nil {
		return err
	}
	m.fs = fields(line, m.fs)
	if len(m.fs) == 0 || string(m.fs[0].text) != mmBanner {
		return fmt.Errorf("%s:1: not a Matrix Market file: the first line must be a header such as %s", m.lr.name, mmExample)
	}
	if len(m.fs) != 5 {
		return fmt.Errorf("%s:1: the header has %d words, a Matrix Market header 5 (%s)", m.lr.name, len(m.fs), mmExample)
	}
	word := func(k int) string { return strings.ToLower(string(m.fs[k].text)) }
	bad := func(k int, why string) error {
		return fmt.Errorf("%s: %s %s", m.lr.at(m.fs[k].col), ShortText(m.fs[k].text), why)
	}
	if word(1) != "matrix" {
		return bad(1, "is not a matrix (the header's object must be matrix)")
	}
	switch word(2) {
	case "coordinate":
	case "array":
		m.array = true
	default:
		return bad(2, "is not a Matrix Market format (coordinate or array)")
	}
	switch word(3) {
	case "real", "double":
	case "integer":
		m.integer = true
	case "pattern":
		m.pattern = true
		if m.array {
			return bad(3, "does not combine with array (an array file holds values)")
		}
	case "complex":
		return bad(3, "values are refused: a design is real")
	default:
		return bad(3, "is not a Matrix Market field (real, integer or pattern)")
	}
	switch word(4) {
	case "general":
	case "symmetric", "skew-symmetric", "hermitian":
		return bad(4, "storage (one triangle stored) is refused: a design is general; write the matrix as general (scipy.io.mmwrite(..., symmetry='general'))")
	default:
		return bad(4, "is not a Matrix Market symmetry (general)")
	}
	return nil
}

// dataLine returns the next line that is not blank nor a comment (%),
// split into m.fs, or io.EOF.
func (m *mmReader) dataLine() error {
	for {
		line, err := m.lr.next()
		if err != nil {
			return err
		}
		m.fs = fields(line, m.fs)
		if len(m.fs) > 0 && m.fs[0].text[0] != '%' {
			return nil
		}
	}
}

// size reads the size line and checks the memory it implies.
func (m *mmReader) size() error {
	err := m.dataLine()
	if err == io.EOF {
		return fmt.Errorf("%s: no size line after the header", m.lr.name)
	}
	if err != nil {
		return err
	}
	m.sizeLine = m.lr.line
	want, what := 3, "ROWS COLUMNS ENTRIES"
	if m.array {
		want, what = 2, "ROWS COLUMNS"
	}
	if len(m.fs) != want {
		return fmt.Errorf("%s:%d: the size line has %d fields, expected %d (%s)", m.lr.name, m.lr.line, len(m.fs), want, what)
	}
	dims := make([]int, want)
	for k, name := range []string{"rows", "columns", "entries"}[:want] {
		v, err := index(m.fs[k].text, "the number of "+name)
		if err != nil {
			return fmt.Errorf("%s: %v", m.lr.at(m.fs[k].col), err)
		}
		dims[k] = v
	}
	m.m, m.nCols = dims[0], dims[1]
	if m.m == 0 {
		return fmt.Errorf("%s:%d: the matrix has no rows", m.lr.name, m.lr.line)
	}
	m.p = m.nCols
	if f := m.o.Features; f > 0 && f < m.nCols {
		return fmt.Errorf("%s:%d: %d columns, more than the %d features asked for", m.lr.name, m.lr.line, m.nCols, f)
	} else if f > 0 {
		m.p = f
	}
	if m.array {
		m.nnz = m.m * m.nCols
	} else {
		m.nnz = dims[2]
		if float64(m.nnz) > float64(m.m)*float64(m.nCols) {
			return fmt.Errorf("%s:%d: %d entries do not fit in %d × %d", m.lr.name, m.lr.line, m.nnz, m.m, m.nCols)
		}
	}
	extra := 4 + 4 + 8 + 4 // the entries as read (row, column, value) and their order
	if m.array {
		extra = 0
	}
	return checkSparseMemory(m.p, m.nnz, extra, m.o.Budget, fmt.Sprintf("%s:%d", m.lr.name, m.lr.line))
}

// value reads an entry's value from f.
func (m *mmReader) value(f field) (float64, error) {
	v, err := number(f.text, "value")
	if err == nil && m.integer && v != math.Trunc(v) {
		err = fmt.Errorf("value %s is not a whole number (the header says integer)", ShortText(f.text))
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %v", m.lr.at(f.col), err)
	}
	return v, nil
}

// readArray reads the values of an array file, column by column.
func (m *mmReader) readArray() (*design.Matrix, error) {
	cols := make([]design.Column, m.p)
	for j := range m.nCols {
		col := make([]float64, m.m)
		for i := range col {
			err := m.dataLine()
			if err == io.EOF {
				return nil, fmt.Errorf("%s: %d values, the size line (line %d) declares %d × %d = %d", m.lr.name, j*m.m+i, m.sizeLine, m.m, m.nCols, m.nnz)
			}
			if err != nil {
				return nil, err
			}
			if len(m.fs) != 1 {
				return nil, fmt.Errorf("%s:%d: %d fields, an array file holds one value a line", m.lr.name, m.lr.line, len(m.fs))
			}
			if col[i], err = m.value(m.fs[0]); err != nil {
				return nil, err
			}
		}
		cols[j] = design.Column{Dense: col}
	}
	if err := m.dataLine(); err != io.EOF {
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s:%d: more values than the %d × %d the size line (line %d) declares", m.lr.name, m.lr.line, m.m, m.nCols, m.sizeLine)
	}
	return design.New(m.m, cols)
}

// entries are a coordinate file's entries as read, and the line of each
// (places: entry k is on line places.at + k − places.row).
type entries struct {
	rows, cols []int32
	vals       []float64
	places     []rowPlace
}

// readCoordinate reads the entries of a coordinate file and puts them in
// columns.
func (m *mmReader) readCoordinate() (*design.Matrix, error) {
	e := &entries{rows: make([]int32, 0, m.nnz), cols: make([]int32, 0, m.nnz)}
	if !m.pattern {
		e.vals = make([]float64, 0, m.nnz)
	}
	for {
		err := m.dataLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := m.entry(e); err != nil {
			return nil, err
		}
	}
	if len(e.rows) != m.nnz {
		return nil, fmt.Errorf("%s: %d entries, the size line (line %d) declares %d", m.lr.name, len(e.rows), m.sizeLine, m.nnz)
	}
	return m.columns(e)
}

// entry reads the entry on the current line into e.
func (m *mmReader) entry(e *entries) error {
	want := 3
	if m.pattern {
		want = 2
	}
	if len(m.fs) != want {
		return fmt.Errorf("%s:%d: %d fields, expected %d (ROW COLUMN%s)", m.lr.name, m.lr.line, len(m.fs), want, map[bool]string{true: "", false: " VALUE"}[m.pattern])
	}
	k := len(e.rows)
	if k == m.nnz {
		return fmt.Errorf("%s:%d: more entries than the %d the size line (line %d) declares", m.lr.name, m.lr.line, m.nnz, m.sizeLine)
	}
	var ij [2]int
	for c, bound := range []int{m.m, m.nCols} {
		what := []string{"row", "column"}[c]
		v, err := index(m.fs[c].text, what)
		if err == nil && (v < 1 || v > bound) {
			err = fmt.Errorf("%s %d outside 1…%d (the size line, line %d)", what, v, bound, m.sizeLine)
		}
		if err != nil {
			return fmt.Errorf("%s: %v", m.lr.at(m.fs[c].col), err)
		}
		ij[c] = v
	}
	if !m.pattern {
		v, err := m.value(m.fs[2])
		if err != nil {
			return err
		}
		e.vals = append(e.vals, v)
	}
	if n := len(e.places); n == 0 || e.places[n-1].at+k-e.places[n-1].row != m.lr.line {
		e.places = append(e.places, rowPlace{k, m.lr.line})
	}
	e.rows, e.cols = append(e.rows, int32(ij[0]-1)), append(e.cols, int32(ij[1]-1))
	return nil
}

// line is the line of entry k.
func (e *entries) line(k int) int {
	return Places{runs: e.places}.line(k)
}

// columns puts the entries in columns, each in increasing rows (entries
// may come in any order), refusing an entry given twice.
func (m *mmReader) columns(e *entries) (*design.Matrix, error) {
	start := make([]int, m.p+1)
	for _, j := range e.cols {
		start[j+1]++
	}
	for j := range m.p {
		start[j+1] += start[j]
	}
	next := append([]int(nil), start[:m.p]...)
	order := make([]int32, len(e.rows))
	for k, j := range e.cols {
		order[next[j]] = int32(k)
		next[j]++
	}
	e.cols = nil
	for j := range m.p {
		ids := order[start[j]:start[j+1]]
		if !slices.IsSortedFunc(ids, func(a, b int32) int { return int(e.rows[a]) - int(e.rows[b]) }) {
			slices.SortStableFunc(ids, func(a, b int32) int { return int(e.rows[a]) - int(e.rows[b]) })
		}
		for k := 1; k < len(ids); k++ {
			if a, b := ids[k-1], ids[k]; e.rows[a] == e.rows[b] {
				first, second := min(a, b), max(a, b)
				return nil, fmt.Errorf("%s:%d: entry (%d, %d) given twice (first on line %d)", m.lr.name, e.line(int(second)), e.rows[a]+1, j+1, e.line(int(first)))
			}
		}
	}
	rows := make([]int32, len(order))
	var vals []float64
	if e.vals != nil {
		vals = make([]float64, len(order))
	}
	for k, id := range order {
		rows[k] = e.rows[id]
		if vals != nil {
			vals[k] = e.vals[id]
		}
	}
	return design.FromCSC(m.m, m.p, start, rows, vals)
}
