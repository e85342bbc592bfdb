package data

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// Limits bound what a read holds, refused as soon as they are passed, not
// once the whole record is in memory (a memory budget, say).
type Limits struct {
	// Record is the longest record to read, in bytes (the header or a
	// row, quoted line ends included); 0 means any. Reading a record takes
	// up to RecordFactor times its length.
	Record int64
	// Budget names what sets Record in its message ("--memory 1 GB",
	// say).
	Budget string
	// Fields, when not nil, is called as a CSV header longer than the
	// read buffer (a megabyte) is read, each time its fields pass a
	// multiple of FieldsStep, with its fields so far; its error, prefixed
	// with the file and line, stops the read (a width the budget cannot
	// take). A shorter header is checked once read, by the form's own
	// check.
	Fields func(fields int) error
}

// RecordFactor bounds the memory a record takes while it is read, in
// multiples of its length: its bytes, and at most as many again while
// they are put together or a cell of it is copied (a factor's level).
const RecordFactor = 2

// FieldsStep is how many of a header's fields Limits.Fields is called
// after: the check costs nothing beside the reading, and a header too wide
// is refused this many fields after it passes the limit.
const FieldsStep = 1024

// hugeRecord is the length past which a record's pieces, once put
// together, are handed back to the system at once: the collector would
// otherwise keep them until the heap doubles, over the RecordFactor.
const hugeRecord = 32 << 20

// ColumnBytes is the memory a column of a header takes in a read, beside
// its name: its name's header, its place in the table and in the reader
// (measured: a header of 10 million columns of 9-byte names read into
// memory took 4.0 to 5.3 GB, 400 to 530 bytes a column).
const ColumnBytes = 512

// columns refuses a header of fields columns (so far, on line) whose
// columns would take more memory than the budget that sets Record.
func (l *Limits) columns(path string, line, fields int) error {
	if l.Record <= 0 || int64(fields)*ColumnBytes <= l.Record*RecordFactor {
		return nil
	}
	return fmt.Errorf("%s:%d: the header has %d columns so far: reading them takes about %d bytes each, more than %s allows (drop columns before reading the file)",
		path, line, fields, ColumnBytes, l.Budget)
}

// tooLong is the error of a record, starting on line, longer than the
// limit.
func (l *Limits) tooLong(path string, line int) error {
	return fmt.Errorf("%s:%d: a record longer than %s bytes: reading it takes up to %d times its length, more than %s allows (a line end missing, or a cell that holds a file?)",
		path, line, strconv.FormatInt(l.Record, 10), RecordFactor, l.Budget)
}

// over reports a record of n bytes longer than the limit.
func (l *Limits) over(n int) bool { return l != nil && l.Record > 0 && int64(n) > l.Record }

// fieldCount counts the fields of a record read in pieces (a header): the
// separators outside quotes, one quote parity carried from piece to piece.
type fieldCount struct {
	sep    []byte
	quotes int
	fields int
	next   int // the count at which Fields is called next
}

// add counts the fields that end in piece and calls check once the count
// passes the next step.
func (c *fieldCount) add(piece []byte, check func(int) error) error {
	if check == nil {
		check = func(int) error { return nil }
	}
	for i, b := range piece {
		switch {
		case b == '"':
			c.quotes++
		case b == c.sep[0] && c.quotes%2 == 0 && bytes.HasPrefix(piece[i:], c.sep):
			c.fields++ // (a separator of several bytes cut between pieces is missed: a lower bound)
			if c.fields+1 >= c.next {
				c.next += FieldsStep
				if err := check(c.fields + 1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// gather reads the rest of a line longer than the read buffer (first, the
// buffer's worth read already) in pieces, which it puts together in one
// slice of the line's length: growing one slice instead would hold the
// old and the new one at once, up to three times the line. It refuses a
// line longer than the limit, and calls count with each piece.
func (r *csvReader) gather(first []byte, count func([]byte) error) ([]byte, error) {
	pieces := [][]byte{bytes.Clone(first)}
	n := len(first)
	if err := count(first); err != nil {
		return nil, err
	}
	var err error = bufio.ErrBufferFull
	for err == bufio.ErrBufferFull {
		var line []byte
		line, err = r.br.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull && err != io.EOF {
			return nil, fmt.Errorf("%s: %w", r.path, err)
		}
		n += len(line)
		if err := count(line); err != nil { // first: a header's width says more
			return nil, err
		}
		if r.limits.over(n) {
			return nil, r.limits.tooLong(r.path, r.line+1)
		}
		pieces = append(pieces, bytes.Clone(line))
	}
	return join(pieces, n), err
}
