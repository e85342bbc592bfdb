package main

import (
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
)

// columnarOK reports whether every column read is numeric (no labels or
// text), so that the file can be read column by column.
func (t *table) columnarOK(cols []pqColumn, dest []int) bool {
	for j, c := range cols {
		k := dest[j]
		if k < 0 {
			continue
		}
		if t.text[k] != nil {
			return false
		}
		switch c.kind {
		case parquet.Boolean, parquet.Int32, parquet.Int64, parquet.Float, parquet.Double:
		default:
			return false
		}
	}
	return true
}

// readColumnar reads the file row group by row group, each column through
// its own cursor over its pages, and hands the rows on as readRows does
// (the same values, nulls and errors): plain numeric pages are taken as
// slices, without a value object per cell or row assembly.
func (t *table) readColumnar(path string, pf *parquet.File, cols []pqColumn, dest []int, o readOptions) error {
	for _, rg := range pf.RowGroups() {
		chunks := rg.ColumnChunks()
		cur := make([]*pqCursor, len(cols))
		for j := range cols {
			if dest[j] >= 0 {
				cur[j] = &pqCursor{pages: chunks[j].Pages(), c: cols[j]}
			}
		}
		err := t.columnarRows(path, rg.NumRows(), cur, dest, o)
		for _, q := range cur {
			if q != nil {
				q.pages.Close()
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// columnarRows reads one row group's rows from the cursors.
func (t *table) columnarRows(path string, rows int64, cur []*pqCursor, dest []int, o readOptions) error {
	for range rows {
		rowNo := t.n + t.dropped + 1
		drop := false
		for j, q := range cur {
			if q == nil {
				continue
			}
			x, null, err := q.next()
			if err != nil {
				return fmt.Errorf("%s: row %d, column %s: %v", path, rowNo, shortText([]byte(q.c.name)), err)
			}
			bad := errEmptyCell
			if !null {
				bad = t.putNumber(dest[j], x)
			}
			if bad == nil || drop {
				continue
			}
			if !o.dropMissing {
				return parquetError(path, rowNo, t.names[dest[j]], bad, parquet.ValueOf(x))
			}
			drop = true // read the row's other values, then drop it
		}
		if drop {
			t.truncate(t.n)
			t.dropped++
			continue
		}
		if o.row != nil {
			if err := o.row(t.rowVals, t.rowText); err != nil {
				return fmt.Errorf("%s: row %d: %w", path, rowNo, err)
			}
		}
		t.n++
	}
	return nil
}

// pqCursor walks one column chunk row by row, a page at a time.
type pqCursor struct {
	pages parquet.Pages
	c     pqColumn
	vals  []float64 // the current page's values, one per row
	null  []bool    // which rows of the page are null (nil: none)
	i     int       // the next row within the page
	buf   []parquet.Value
	own   []float64 // storage for vals when they are not the page's own
	conv  []float64 // storage for converted values
}

// next returns the column's value in the next row, or reports a null.
func (q *pqCursor) next() (float64, bool, error) {
	for q.i == len(q.vals) {
		if err := q.load(); err != nil {
			return 0, false, err
		}
	}
	i := q.i
	q.i++
	if q.null != nil && q.null[i] {
		return 0, true, nil
	}
	return q.vals[i], false, nil
}

// load decodes the next page.
func (q *pqCursor) load() error {
	page, err := q.pages.ReadPage()
	if err == io.EOF {
		return fmt.Errorf("the column chunk ends before its row group")
	}
	if err != nil {
		return err
	}
	n := int(page.NumValues())
	q.i, q.null = 0, nil
	if page.Dictionary() == nil && q.plain(page, n) {
		return nil
	}
	// Dictionary-encoded or unusual pages: value by value.
	if cap(q.buf) < n {
		q.buf = make([]parquet.Value, n)
	}
	q.buf = q.buf[:n]
	got, err := page.Values().ReadValues(q.buf)
	if err != nil && err != io.EOF {
		return err
	}
	if got != n {
		return fmt.Errorf("a page holds %d of its %d values", got, n)
	}
	q.own = q.own[:0]
	for r, v := range q.buf {
		x, null := q.number(v)
		if null {
			q.nulls(n)[r] = true
		}
		q.own = append(q.own, x)
	}
	q.vals = q.own
	return nil
}

// plain takes the values of a page of n rows stored plainly, and reports
// whether it could.
func (q *pqCursor) plain(page parquet.Page, n int) bool {
	data := page.Data()
	dense := q.conv[:0]
	switch {
	case q.c.kind == parquet.Double && data.Kind() == encoding.Double:
		dense = data.Double()
		if q.c.scale != 1 {
			return false
		}
	case q.c.kind == parquet.Float && data.Kind() == encoding.Float:
		for _, v := range data.Float() {
			dense = append(dense, float64(v))
		}
	case q.c.kind == parquet.Int32 && data.Kind() == encoding.Int32:
		for _, v := range data.Int32() {
			dense = append(dense, float64(v)*q.c.scale)
		}
	case q.c.kind == parquet.Int64 && data.Kind() == encoding.Int64:
		for _, v := range data.Int64() {
			dense = append(dense, float64(v)*q.c.scale)
		}
	default:
		return false
	}
	if q.c.kind != parquet.Double {
		q.conv = dense
	}
	if page.NumNulls() == 0 {
		if len(dense) != n {
			return false
		}
		q.vals = dense
		return true
	}
	defs := page.DefinitionLevels()
	if len(defs) != n || len(dense) != n-int(page.NumNulls()) {
		return false
	}
	q.own = q.own[:0]
	v := 0
	for r, d := range defs {
		if d == 0 {
			q.nulls(n)[r] = true
			q.own = append(q.own, 0)
			continue
		}
		q.own = append(q.own, dense[v])
		v++
	}
	q.vals = q.own
	return true
}

// nulls returns the page's null marks, made on first use.
func (q *pqCursor) nulls(n int) []bool {
	if q.null == nil {
		q.null = make([]bool, n)
	}
	return q.null
}

// number converts a value of the column as parquetValue does.
func (q *pqCursor) number(v parquet.Value) (float64, bool) {
	if v.IsNull() {
		return 0, true
	}
	switch q.c.kind {
	case parquet.Boolean:
		if v.Boolean() {
			return 1, false
		}
		return 0, false
	case parquet.Int32:
		return float64(v.Int32()) * q.c.scale, false
	case parquet.Int64:
		return float64(v.Int64()) * q.c.scale, false
	case parquet.Float:
		return float64(v.Float()), false
	}
	return v.Double(), false
}
