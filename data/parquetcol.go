package data

import (
	"fmt"
	"io"
	"math"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
)

// columnarOK reports whether every column read is numeric (no labels or
// text), so that the file can be read column by column.
func (t *Table) columnarOK(cols []pqColumn, dest []int) bool {
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
func (t *Table) readColumnar(path string, pf *parquet.File, cols []pqColumn, dest []int, o Options) error {
	for _, rg := range pf.RowGroups() {
		chunks := rg.ColumnChunks()
		cur := make([]*pqCursor, len(cols))
		for j := range cols {
			if dest[j] >= 0 {
				pages := chunks[j].Pages()
				cur[j] = &pqCursor{pages: pages, ahead: prefetch(pages), c: cols[j]}
			}
		}
		err := t.columnarRows(path, rg.NumRows(), cur, dest, o)
		for _, q := range cur {
			if q != nil {
				q.ahead.stop()
				q.release()
				q.pages.Close()
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// pqBlock is the number of rows the columnar reader gathers from its
// columns at a time.
const pqBlock = 256

// pqBatch is a block of rows gathered from the columns: values row-major
// in table order, null marks beside them.
type pqBatch struct {
	vals []float64
	null []bool
	rows int
	bad  bool // some value is null or not finite: check row by row
	err  error
}

// columnarRows reads one row group's rows from the cursors, a block of
// rows at a time: a second goroutine decodes the pages and copies each
// column's run of values into a block (row-major, like the table's rows)
// while this one checks the previous block's rows and hands them on, in
// order.
func (t *Table) columnarRows(path string, rows int64, cur []*pqCursor, dest []int, o Options) error {
	width := len(t.names)
	free := make(chan *pqBatch, 3)
	for range 3 {
		free <- &pqBatch{vals: make([]float64, pqBlock*width), null: make([]bool, pqBlock*width)}
	}
	full := make(chan *pqBatch, 3)
	done, exited := make(chan struct{}), make(chan struct{})
	defer func() {
		close(done)
		<-exited // the cursors are the caller's again
	}()
	go func() {
		defer close(exited)
		gatherBatches(rows, cur, dest, width, free, full, done)
	}()
	for got := int64(0); got < rows; {
		bt := <-full
		if bt.err != nil {
			first := t.n + t.dropped + 1
			return fmt.Errorf("%s: rows %d to %d: %v", path, first, first-1+int(min(pqBlock, rows-got)), bt.err)
		}
		for r := range bt.rows {
			row := bt.vals[r*width : (r+1)*width]
			if !bt.bad {
				if err := t.keepRow(path, row, o); err != nil {
					return err
				}
				continue
			}
			if err := t.columnarRow(path, row, bt.null[r*width:(r+1)*width], cur, dest, o); err != nil {
				return err
			}
		}
		got += int64(bt.rows)
		free <- bt
	}
	return nil
}

// gatherBatches fills the batches from free with the row group's rows and
// sends them on full, until the rows are done, an error (sent as a batch)
// or done is closed. A panic of the decoder (a corrupt file) is an error.
func gatherBatches(rows int64, cur []*pqCursor, dest []int, width int, free <-chan *pqBatch, full chan<- *pqBatch, done <-chan struct{}) {
	var bt *pqBatch
	send := func(b *pqBatch) bool {
		select {
		case full <- b:
			return true
		case <-done:
			return false
		}
	}
	defer func() {
		if p := recover(); p != nil {
			send(&pqBatch{err: fmt.Errorf("corrupt Parquet file (%v)", p)})
		}
	}()
	for sent := int64(0); sent < rows; sent += int64(bt.rows) {
		select {
		case bt = <-free:
		case <-done:
			return
		}
		bt.rows = int(min(pqBlock, rows-sent))
		bt.bad = false
		clear(bt.null[:bt.rows*width])
		for j, q := range cur {
			if q == nil {
				continue
			}
			bad, err := q.take(bt.rows, bt.vals, bt.null, dest[j], width)
			if err != nil {
				send(&pqBatch{err: fmt.Errorf("column %s: %v", ShortText(q.c.name), err)})
				return
			}
			bt.bad = bt.bad || bad
		}
		if !send(bt) {
			return
		}
	}
}

// columnarRow checks one row (values in table order, null marks beside
// them) and stores it, drops it or says why it cannot be read.
func (t *Table) columnarRow(path string, row []float64, null []bool, cur []*pqCursor, dest []int, o Options) error {
	rowNo := t.n + t.dropped + 1
	for j, q := range cur {
		if q == nil {
			continue
		}
		k := dest[j]
		var bad error
		switch x := row[k]; {
		case null[k]:
			bad = errEmptyCell
		case math.IsNaN(x) || math.IsInf(x, 0):
			bad = errNotFinite
		default:
			continue
		}
		if !o.DropMissing {
			return parquetError(path, rowNo, t.names[k], bad, parquet.ValueOf(row[k]))
		}
		t.dropped++
		return nil
	}
	return t.keepRow(path, row, o)
}

// keepRow stores a checked row (values in table order) or hands it on.
func (t *Table) keepRow(path string, row []float64, o Options) error {
	if t.stream {
		if o.Row != nil {
			if err := o.Row(row, t.rowText); err != nil {
				return fmt.Errorf("%s: row %d: %w", path, t.n+t.dropped+1, err)
			}
		}
	} else {
		for k, x := range row {
			t.cols[k] = append(t.cols[k], x)
		}
		t.notePlace(t.n, t.n+t.dropped+1)
	}
	t.n++
	return nil
}

// pqCursor walks one column chunk row by row, a page at a time.
type pqCursor struct {
	pages parquet.Pages
	ahead *pageAhead // reads pages ahead of us
	err   error      // the first error reading pages, returned from then on
	c     pqColumn
	vals  []float64 // the current page's values, one per row
	null  []bool    // which rows of the page are null (nil: none)
	i     int       // the next row within the page
	buf   []parquet.Value
	own   []float64    // storage for vals when they are not the page's own
	conv  []float64    // storage for converted values
	page  parquet.Page // the current page, released for reuse when done
}

// take copies the column's values in the next b rows into column k of the
// row-major block blk of the given width, marks its nulls in nul, and
// reports whether any value is null or not finite.
func (q *pqCursor) take(b int, blk []float64, nul []bool, k, width int) (bool, error) {
	bad := false
	for r := 0; r < b; {
		for q.i == len(q.vals) {
			if err := q.load(); err != nil {
				return false, err
			}
		}
		m := min(b-r, len(q.vals)-q.i)
		var nan float64 // x − x is NaN exactly when x is NaN or ±Inf
		for a, x := range q.vals[q.i : q.i+m] {
			blk[(r+a)*width+k] = x
			nan += x - x
		}
		bad = bad || nan != 0 // NaN != 0 holds
		if q.null != nil {
			for a, isNull := range q.null[q.i : q.i+m] {
				nul[(r+a)*width+k] = isNull
				bad = bad || isNull
			}
		}
		q.i += m
		r += m
	}
	return bad, nil
}

// load decodes the next page.
func (q *pqCursor) load() error {
	q.release()
	if q.err != nil {
		return q.err
	}
	page, err := q.ahead.next()
	if err == io.EOF {
		err = fmt.Errorf("the column chunk ends before its row group")
	}
	if err != nil {
		q.err = err
		return err
	}
	q.page = page
	n := int(page.NumValues())
	q.i, q.null = 0, nil
	if page.Dictionary() == nil && q.plain(page, n) {
		return nil
	}
	// Dictionary-encoded or unusual pages: value by value, a bounded
	// buffer at a time (a corrupt header may claim any count).
	if q.buf == nil {
		q.buf = make([]parquet.Value, 1024)
	}
	q.own = q.own[:0]
	var nulls []int
	vr := page.Values()
	for {
		got, err := vr.ReadValues(q.buf)
		for _, v := range q.buf[:got] {
			if v.IsNull() {
				nulls = append(nulls, len(q.own))
			}
			x, _ := q.c.number(v) // columnarOK admitted numeric kinds only
			q.own = append(q.own, x)
		}
		if err == io.EOF || got == 0 && err == nil {
			break
		}
		if err != nil {
			return err
		}
		if len(q.own) > n {
			break
		}
	}
	if len(q.own) != n {
		return fmt.Errorf("a page holds %d values where its header says %d", len(q.own), n)
	}
	for _, r := range nulls {
		q.nulls(n)[r] = true
	}
	q.vals = q.own
	return nil
}

// pageAhead reads a column chunk's next page ahead on a goroutine of its
// own, so that decompressing and decoding it overlaps the other columns'
// work; a panic of the decoder there is an error, not a crash.
type pageAhead struct {
	ch   chan fetched
	done chan struct{}
	exit chan struct{}
}

// fetched is a page read ahead, or the error that ended the reading.
type fetched struct {
	page parquet.Page
	err  error
}

func prefetch(pages parquet.Pages) *pageAhead {
	a := &pageAhead{ch: make(chan fetched), done: make(chan struct{}), exit: make(chan struct{})}
	go func() {
		defer close(a.exit)
		for {
			f := readPage(pages)
			select {
			case a.ch <- f:
			case <-a.done:
				return
			}
			if f.err != nil {
				return
			}
		}
	}()
	return a
}

// readPage reads one page, a decoder panic becoming an error.
func readPage(pages parquet.Pages) (f fetched) {
	defer func() {
		if p := recover(); p != nil {
			f = fetched{err: fmt.Errorf("corrupt Parquet file (%v)", p)}
		}
	}()
	page, err := pages.ReadPage()
	return fetched{page: page, err: err}
}

// next returns the next page (after an error, call it no more).
func (a *pageAhead) next() (parquet.Page, error) {
	f := <-a.ch
	return f.page, f.err
}

// stop ends the reading and waits for it, so that the pages can be closed.
func (a *pageAhead) stop() {
	close(a.done)
	<-a.exit
}

// release hands the current page back to the decoder's buffer pool (its
// values, which vals may alias, are no longer read).
func (q *pqCursor) release() {
	if q.page != nil {
		parquet.Release(q.page)
		q.page = nil
	}
}

// plain takes the values of a page of n rows stored plainly, and reports
// whether it could.
func (q *pqCursor) plain(page parquet.Page, n int) bool {
	if q.c.unsigned { // value by value, through number
		return false
	}
	dense, ok := q.dense(page.Data())
	if !ok {
		return false
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

// dense returns a page's non-null values as float64 (the page's own
// DOUBLE values, or converted into q.conv), and reports false for an
// encoding that does not match the column's kind.
func (q *pqCursor) dense(data encoding.Values) ([]float64, bool) {
	dense := q.conv[:0]
	switch {
	case q.c.kind == parquet.Double && data.Kind() == encoding.Double && q.c.scale == 1:
		return data.Double(), true
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
		return nil, false
	}
	q.conv = dense
	return dense, true
}

// nulls returns the page's null marks, made on first use.
func (q *pqCursor) nulls(n int) []bool {
	if q.null == nil {
		q.null = make([]bool, n)
	}
	return q.null
}
