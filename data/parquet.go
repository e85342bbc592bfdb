package data

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// parquetMagic starts (and ends) every Parquet file.
const parquetMagic = "PAR1"

// isParquet reports whether the regular file at path starts with
// Parquet's magic bytes. Standard input and other streams (a pipe such as
// bash's <(…), a device) are looked at by openInput instead (see
// spoolParquet): reading their start here would take it from the reader.
func isParquet(path string) bool {
	if path == "-" {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	head := make([]byte, len(parquetMagic))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == parquetMagic
}

// pqColumn is how one leaf column of a Parquet file is read.
type pqColumn struct {
	name     string // the top-level field's
	field    int    // the top-level field (header column) it belongs to
	nested   bool   // part of a nested or repeated field: never read
	kind     parquet.Kind
	scale    float64 // 10^-s for a DECIMAL with scale s, else 1
	unsigned bool    // INT32/INT64 annotated as an unsigned integer
}

// readParquet reads a flat Parquet file as Read reads CSV: the
// same options, the same table, the same kinds of errors, with "row N"
// (1-based data row) in place of a line. Numeric columns of every
// physical type are read (BOOLEAN as 0/1, INT32/INT64 with a DECIMAL
// scale applied, FLOAT, DOUBLE); text (BYTE_ARRAY) only as labels or
// skipped columns; a null is reported like an empty cell.
func readParquet(path string, o Options) (t *Table, err error) {
	return readParquetBy(path, o, true)
}

// readParquetBy is readParquet, column by column when columnar is true and
// the columns allow it, else row by row.
func readParquetBy(path string, o Options, columnar bool) (t *Table, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readParquetFile(path, f, o, columnar)
}

// readParquetFile is readParquetBy reading the open file f, named path in
// messages (f may be a temporary copy of standard input).
func readParquetFile(path string, f *os.File, o Options, columnar bool) (t *Table, err error) {
	defer func() {
		// The decoder is third-party code fed hostile bytes: a panic in it
		// is a corrupt file, not a crash.
		if p := recover(); p != nil {
			t, err = nil, fmt.Errorf("%s: corrupt Parquet file (%v)", path, p)
		}
	}()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkParquetFooter(path, f, fi.Size()); err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable Parquet file: %v", path, err)
	}
	if err := checkParquetSizes(path, pf.Metadata(), fi.Size()); err != nil {
		return nil, err
	}
	cols, names, err := parquetColumns(path, pf.Schema())
	if err != nil {
		return nil, err
	}
	t, fieldDest, err := newTable(path, names, o)
	if err != nil {
		return nil, err
	}
	t.byRow = true
	dest, err := leafDest(path, cols, fieldDest)
	if err != nil {
		return nil, err
	}
	if err := allNull(path, pf.Metadata(), dest, t.names); err != nil {
		return nil, err
	}
	for l, c := range cols {
		if k := dest[l]; k >= 0 && t.maybe[k] && c.kind == parquet.ByteArray {
			if err := t.makeFactor(k, o.FactorFound); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
	}
	if columnar && t.columnarOK(cols, dest) {
		err = t.readColumnar(path, pf, cols, dest, o)
	} else {
		err = t.readRows(path, pf, cols, dest, o)
	}
	if err != nil {
		return nil, err
	}
	if t.Rows() == 0 {
		return nil, fmt.Errorf("%s: no data rows", path)
	}
	return t, nil
}

// allNull refuses a column read (dest: the table column of each leaf
// column, -1 when skipped) whose values are all null by the file's
// statistics (each row group's null count is its row count), as a CSV
// column missing in every row is refused. A file without statistics is
// read, and fails at its first null.
func allNull(path string, md *format.FileMetaData, dest []int, names []string) error {
	if md.NumRows <= 0 {
		return nil
	}
	for l, k := range dest {
		if k < 0 {
			continue
		}
		all := true
		for _, rg := range md.RowGroups {
			if l >= len(rg.Columns) {
				return nil
			}
			m := rg.Columns[l].MetaData
			all = all && m.NumValues == rg.NumRows && m.Statistics.NullCount == m.NumValues
		}
		if all {
			return allMissing(path, names[k])
		}
	}
	return nil
}

// readRows reads the file row by row (parquet-go assembles the rows).
func (t *Table) readRows(path string, pf *parquet.File, cols []pqColumn, dest []int, o Options) error {
	t.pqWant = 0
	for _, k := range dest {
		if k >= 0 {
			t.pqWant++
		}
	}
	r := parquet.NewReader(pf)
	defer r.Close()
	buf := make([]parquet.Row, 1024)
	for {
		n, rerr := r.ReadRows(buf)
		for _, row := range buf[:n] {
			if err := t.parquetRow(path, row, cols, dest, o); err != nil {
				return err
			}
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return fmt.Errorf("%s: %v", path, rerr)
		}
	}
}

// checkParquetFooter refuses a file whose footer length (the 4 bytes
// before the closing magic) cannot fit in it: the decoder would otherwise
// try to read and allocate whatever a corrupt length says.
func checkParquetFooter(path string, f *os.File, size int64) error {
	tail := make([]byte, 8)
	if size < int64(2*len(parquetMagic)+4) {
		return fmt.Errorf("%s: corrupt Parquet file (%d bytes)", path, size)
	}
	if _, err := f.ReadAt(tail, size-8); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	n := int64(binary.LittleEndian.Uint32(tail))
	if n > size-int64(2*len(parquetMagic)+4) {
		return fmt.Errorf("%s: corrupt Parquet file (a footer of %d bytes in a %d-byte file)", path, n, size)
	}
	return nil
}

// maxExpansion bounds how much larger than the file its encoded pages may
// claim to be: dictionary and run-length encodings are counted before
// compression, so real files stay far below it, while a corrupt size field
// would make the decoder allocate without bound.
const maxExpansion = 1000

// checkParquetSizes refuses column chunks whose recorded sizes cannot be
// those of this file.
func checkParquetSizes(path string, md *format.FileMetaData, size int64) error {
	for g, rg := range md.RowGroups {
		for _, cc := range rg.Columns {
			m := cc.MetaData
			if m.TotalCompressedSize < 0 || m.TotalCompressedSize > size ||
				m.TotalUncompressedSize < 0 || m.TotalUncompressedSize > maxExpansion*size+1<<20 || m.NumValues < 0 {
				return fmt.Errorf("%s: corrupt Parquet file (row group %d: column chunk sizes %d/%d for a %d-byte file)",
					path, g, m.TotalCompressedSize, m.TotalUncompressedSize, size)
			}
		}
	}
	return nil
}

// parquetColumns lists the leaf columns of a schema and the names of its
// top-level fields, the table's header. A nested or repeated field is a
// header column like the others, so that it can be left out (--drop,
// --predictors); its leaves are read only if it is kept, which leafDest
// refuses.
func parquetColumns(path string, s *parquet.Schema) ([]pqColumn, []string, error) {
	var cols []pqColumn
	var names []string
	seen := map[string]int{}
	for j, fd := range s.Fields() {
		name := strings.TrimSpace(fd.Name())
		if !utf8.ValidString(name) {
			return nil, nil, fmt.Errorf("%s: column %d: name %s is not UTF-8 %s", path, j+1, ShortText(name), latin1Hint)
		}
		if k, dup := seen[name]; dup {
			return nil, nil, fmt.Errorf("%s: column %d: name %s appears twice (columns %d and %d)", path, j+1, ShortText(name), k+1, j+1)
		}
		seen[name] = j
		names = append(names, name)
		if !fd.Leaf() || fd.Repeated() {
			for range leafCount(fd) {
				cols = append(cols, pqColumn{name: name, field: j, nested: true})
			}
			continue
		}
		c := pqColumn{name: name, field: j, kind: fd.Type().Kind(), scale: 1}
		if lt := fd.Type().LogicalType(); lt != nil {
			switch v := lt.Value.(type) {
			case *format.DecimalType:
				c.scale = math.Pow(10, -float64(v.Scale))
			case *format.IntType:
				c.unsigned = !v.IsSigned
			}
		}
		cols = append(cols, c)
	}
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("%s: no columns", path)
	}
	return cols, names, nil
}

// leafCount is the number of leaf columns under a field.
func leafCount(f parquet.Field) int {
	if f.Leaf() {
		return 1
	}
	n := 0
	for _, g := range f.Fields() {
		n += leafCount(g)
	}
	return n
}

// leafDest turns the table column of each header column into the table
// column of each leaf column (-1 for leaves not read), refusing a nested
// or repeated column that is kept.
func leafDest(path string, cols []pqColumn, fieldDest []int) ([]int, error) {
	dest := make([]int, len(cols))
	for l, c := range cols {
		dest[l] = fieldDest[c.field]
		if dest[l] >= 0 && c.nested {
			return nil, fmt.Errorf("%s: column %s is nested or repeated; only flat columns are read (leave it out with --drop)", path, ShortText(c.name))
		}
	}
	return dest, nil
}

// parquetRow stores one row.
func (t *Table) parquetRow(path string, row parquet.Row, cols []pqColumn, dest []int, o Options) error {
	rowNo := t.n + t.dropped + 1
	got := 0
	for _, v := range row {
		j := v.Column()
		if j < 0 || j >= len(cols) || dest[j] < 0 {
			continue
		}
		got++
		k := dest[j]
		bad := t.parquetValue(k, v, cols[j])
		if bad == nil {
			continue
		}
		if o.DropMissing && missing(bad) {
			t.truncate(t.n)
			t.dropped++
			return nil
		}
		return parquetError(path, rowNo, t.names[k], bad, v)
	}
	if got != t.pqWant {
		// One value for each leaf column read (a nested column left out
		// may hold any number).
		return fmt.Errorf("%s: row %d has %d values for %d columns", path, rowNo, got, t.pqWant)
	}
	if o.Row != nil {
		if err := o.Row(t.rowVals, t.rowText); err != nil {
			return fmt.Errorf("%s: row %d: %w", path, rowNo, err)
		}
	}
	if !t.stream {
		t.notePlace(t.n, rowNo)
	}
	t.n++
	return nil
}

// errTextColumn is a text value in a numeric column.
var errTextColumn = errors.New("text in a numeric column")

// parquetValue stores v in column k, or says why it cannot.
func (t *Table) parquetValue(k int, v parquet.Value, c pqColumn) error {
	if t.text[k] != nil && t.factor[k] {
		return t.parquetLevel(k, v, c)
	}
	if v.IsNull() {
		return errEmptyCell
	}
	if t.text[k] != nil {
		s := strings.TrimSpace(v.String())
		if !utf8.ValidString(s) {
			return errNotUTF8
		}
		t.storeText(k, s)
		return nil
	}
	x, ok := c.number(v)
	if !ok {
		return errTextColumn
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return errNotFinite
	}
	if t.stream {
		t.rowVals[k] = x
	} else {
		t.cols[k] = append(t.cols[k], x)
	}
	return nil
}

// parquetLevel stores v, a factor's value, in column k as text: a number
// as its shortest decimal (no DECIMAL scale left out, 0/1 for a BOOLEAN),
// a missing value as NALevel or not at all.
func (t *Table) parquetLevel(k int, v parquet.Value, c pqColumn) error {
	var s string
	if !v.IsNull() {
		if x, ok := c.number(v); ok {
			s = strconv.FormatFloat(x, 'f', -1, 64)
		} else {
			s = strings.TrimSpace(v.String())
		}
	}
	if MissingLevel(s) {
		if !t.naLevel {
			return errMissingLevel
		}
		s = NALevel
	}
	if !utf8.ValidString(s) {
		return errNotUTF8
	}
	t.storeText(k, s)
	return nil
}

// storeText keeps text s as column k's cell: the current row's while
// streaming, else appended to the column.
func (t *Table) storeText(k int, s string) {
	if t.stream {
		t.rowText[k] = s
	} else {
		t.text[k] = append(t.text[k], s)
	}
}

// number converts a non-null value of the column to float64 (BOOLEAN as
// 0/1, INT32/INT64 with the DECIMAL scale or as unsigned, FLOAT, DOUBLE),
// and reports false for a kind that holds no number.
func (c pqColumn) number(v parquet.Value) (float64, bool) {
	switch c.kind {
	case parquet.Boolean:
		if v.Boolean() {
			return 1, true
		}
		return 0, true
	case parquet.Int32:
		if c.unsigned {
			return float64(uint32(v.Int32())), true
		}
		return float64(v.Int32()) * c.scale, true
	case parquet.Int64:
		if c.unsigned {
			return float64(uint64(v.Int64())), true
		}
		return float64(v.Int64()) * c.scale, true
	case parquet.Float:
		return float64(v.Float()), true
	case parquet.Double:
		return v.Double(), true
	}
	return 0, false
}

func parquetError(path string, row int, name string, why error, v parquet.Value) error {
	name = ShortText(name)
	switch why {
	case errEmptyCell:
		return fmt.Errorf("%s: row %d: column %s: null (missing values are not supported)", path, row, name)
	case errNotFinite:
		return fmt.Errorf("%s: row %d: column %s: %s is not a finite number", path, row, name, ShortText(v.String()))
	case errNotUTF8:
		return fmt.Errorf("%s: row %d: column %s: label %s is not UTF-8 %s", path, row, name, ShortText(v.String()), latin1Hint)
	case errMissingLevel:
		text := "null"
		if !v.IsNull() {
			text = ShortText(strings.TrimSpace(v.String()))
		}
		return fmt.Errorf("%s: row %d: column %s: missing value %s%s", path, row, name, text, missingHint)
	}
	return fmt.Errorf("%s: row %d: column %s: %s holds text, not numbers (leave it out with --drop)", path, row, name, ShortText(v.String()))
}
