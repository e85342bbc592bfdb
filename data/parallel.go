package data

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
)

// blockSize is how much of a file one parser takes at a time (a variable
// so that tests can cut small files into many blocks).
var blockSize = 1 << 20

// block is a run of whole records: they start on line first (1-based).
type block struct {
	data    []byte
	first   int
	res     chan blockRows
	readErr error // a read error, in place of data, at its place in the file
}

// blockRows are a block's parsed rows: values, and text cells when some
// columns are labels, row after row.
type blockRows struct {
	vals    []float64
	text    []string
	lines   []int // each row's first line, for the errors of row
	n       int   // rows
	dropped int
	err     error
}

// dataParallel is data on every core: the rows after the header are cut
// into blocks of whole records (a line end outside quotes; RFC 4180
// quotes are balanced in a record, so parity tells), parsed in parallel,
// and handed to row in file order (or, when row is nil, appended to the
// table's columns, sized from the first block), with the same errors
// (file and line) as the serial reader.
func (r *csvReader) dataParallel(t *Table, size int64, p *Progress, row func([]float64, []string) error) error {
	workers := runtime.GOMAXPROCS(0)
	// Which columns are labels, copied: the workers read it while a table
	// kept in memory grows its columns.
	labels := make([]bool, len(t.names))
	for k := range labels {
		labels[k] = t.text[k] != nil
	}
	if row == nil {
		row = t.appendRow
	}
	start := r.n
	order := make(chan *block, 2*workers)
	work := make(chan *block, 2*workers)
	stop := make(chan struct{})
	// The columns' names and kinds, for the workers' tables.
	shape := &Table{names: t.names, sepHint: t.sepHint, factor: t.factor, maybe: t.maybe, naLevel: t.naLevel, soft: t.soft}
	chunk := blockSize
	var wg sync.WaitGroup
	wg.Add(1 + workers)
	go func() {
		defer wg.Done()
		r.split(order, work, stop, chunk)
	}()
	for range workers {
		go func() {
			defer wg.Done()
			for b := range work {
				b.res <- r.parseBlock(shape, labels, b)
			}
		}()
	}
	// No goroutine outlives the read (an early return, on an error, must not
	// leave one reading the file or the parser's state): stop the splitter,
	// take what it still sends (results are buffered, so no worker waits),
	// and wait for all of them.
	defer func() {
		close(stop)
		for range order {
		}
		wg.Wait()
	}()
	sized := t.stream
	if p != nil {
		p.update(r.n) // drawn (after its delay) from the start, as the serial reader does
	}
	for b := range order {
		if b.readErr != nil {
			return b.readErr
		}
		res := <-b.res
		if err := r.takeRows(t, res, row); err != nil {
			return err
		}
		// The rows before a block's error are taken first: a soft cell
		// among them may be the read's first error.
		if res.err != nil {
			return res.err
		}
		t.dropped += res.dropped
		r.n += int64(len(b.data))
		putFloats(res.vals)
		putBytes(b.data)
		if !sized && t.n >= sizingRows && size > 0 {
			// The first blocks tell how many rows the file holds (not a
			// block cut short by a long record after it).
			sizeColumns(t, t.n, size-r.n, r.n-start)
			sized = true
		}
		if p != nil {
			p.rows = t.n + t.dropped
			p.update(r.n)
		}
	}
	return nil
}

// split reads blocks of whole records, of about size bytes, and sends each
// to order (in file order) and work. A read error is sent as a block of its
// own. It closes both channels at the end.
//
// The work is linear in the file's length whatever its records: a record
// longer than a block is read on into a buffer grown geometrically, the
// search for a record end goes on where it stopped (see recordScan), and
// only the bytes after the last record end are copied, to start the next
// block.
func (r *csvReader) split(order, work chan<- *block, stop <-chan struct{}, size int) {
	defer close(order)
	defer close(work)
	var scan recordScan
	data := getBytes(size)[:0]
	line := r.line + 1
	for eof := false; !eof; {
		var err error
		data, err = readBlock(r.br, data, size)
		if err == io.EOF {
			eof = true
		} else if err != nil {
			putBytes(data)
			select {
			case order <- &block{readErr: fmt.Errorf("%s: %w", r.path, err)}:
			case <-stop:
			}
			return
		}
		cut := len(data)
		if !eof {
			cut = scan.next(data)
		}
		var b *block
		if cut < 0 { // one record longer than a block
			var whole []byte
			whole, data, eof, err = r.longRecord(data, &scan, size, line)
			if err != nil {
				select {
				case order <- &block{readErr: err}:
				case <-stop:
				}
				return
			}
			b = &block{data: whole, first: line, res: make(chan blockRows, 1)}
		} else {
			b = &block{data: data[:cut], first: line, res: make(chan blockRows, 1)}
			if !eof { // the bytes after the last record end start the next block
				rest := getBytes(len(data) - cut + size)[:len(data)-cut]
				copy(rest, data[cut:])
				data = rest
			}
		}
		line += bytes.Count(b.data, []byte{'\n'})
		select {
		case order <- b:
		case <-stop:
			return
		}
		select {
		case work <- b:
		case <-stop:
			return
		}
	}
}

// longRecord reads on a record longer than a block, which data (a block's
// worth, its first bytes on line) begins, to its end and past it to the
// end of the last record in the piece read then: it returns those records
// in one slice of their length, the bytes after them (the start of the
// next block, scanned by scan) and whether the input ended. The record is
// read in pieces put together at its end, so that it takes at most
// RecordFactor times its length (a slice grown as it is read would hold
// the old and the new one at once); one longer than the limit is refused
// as soon as that much of it is read.
func (r *csvReader) longRecord(data []byte, scan *recordScan, size, line int) (whole, rest []byte, eof bool, err error) {
	pieces := [][]byte{data}
	n := len(data)
	for {
		piece := make([]byte, size)
		k, rerr := io.ReadFull(r.br, piece)
		piece = piece[:k]
		eof = rerr == io.EOF || rerr == io.ErrUnexpectedEOF
		if rerr != nil && !eof {
			return nil, nil, false, fmt.Errorf("%s: %w", r.path, rerr)
		}
		end, quotes := recordEnd(piece, scan.quotes)
		if eof || end >= 0 {
			if eof { // the last block takes all
				end = k
			}
			pieces = append(pieces, piece[:end])
			n += end
			if r.limits.over(n) {
				return nil, nil, false, r.limits.tooLong(r.path, line)
			}
			rest = getBytes(k - end + size)[:k-end]
			copy(rest, piece[end:])
			scan.pos, scan.quotes = k-end, quotes%2
			return join(pieces, n), rest, eof, nil
		}
		n += k
		if r.limits.over(n) {
			return nil, nil, false, r.limits.tooLong(r.path, line)
		}
		pieces = append(pieces, piece)
		scan.quotes = quotes % 2
	}
}

// join puts pieces of n bytes in all together in one slice of that
// length, dropping them as it goes; a huge record's pieces are handed
// back to the system at once (see hugeRecord).
func join(pieces [][]byte, n int) []byte {
	whole := make([]byte, 0, n)
	for k, p := range pieces {
		whole = append(whole, p...)
		pieces[k] = nil
	}
	if n >= hugeRecord {
		debug.FreeOSMemory()
	}
	return whole
}

// readBlock appends up to size bytes from br to data, growing it (at least
// doubling it) when it has no room, and returns io.EOF once the input ends
// (with the bytes that could still be read).
func readBlock(br io.Reader, data []byte, size int) ([]byte, error) {
	if cap(data)-len(data) < size {
		grown := getBytes(max(2*cap(data), len(data)+size))[:len(data)]
		copy(grown, data)
		putBytes(data)
		data = grown
	}
	n, err := io.ReadFull(br, data[len(data):len(data)+size])
	data = data[:len(data)+n]
	if err == io.ErrUnexpectedEOF {
		err = io.EOF
	}
	return data, err
}

// recordScan finds record ends in a buffer that grows at its end, looking
// at each byte once: it remembers how far it looked and the parity of the
// quotes it saw.
type recordScan struct {
	pos    int // bytes of the buffer looked at
	quotes int // quotes seen in them
}

// next looks at the bytes of data not seen yet and returns the end of the
// last whole record in data, or -1. After a cut, the scan goes on in a
// buffer that starts at the cut (data[cut:] and what follows).
func (s *recordScan) next(data []byte) int {
	from := s.pos
	end, quotes := recordEnd(data[from:], s.quotes)
	s.pos, s.quotes = len(data), quotes%2
	if end < 0 {
		return -1
	}
	// A record end has an even number of quotes before it, so the
	// parity after it is the parity of them all.
	cut := from + end
	s.pos -= cut
	return cut
}

// recordEnd returns the length of the longest prefix of data made of
// whole records, given the number of quotes before data: up to a line end
// with an even number of quotes before it, or -1 when there is none; and
// the number of quotes before data's end.
func recordEnd(data []byte, quotes int) (int, int) {
	end := -1
	for i := 0; i < len(data); {
		j := bytes.IndexAny(data[i:], "\"\n")
		if j < 0 {
			break
		}
		i += j
		if data[i] == '"' {
			quotes++
		} else if quotes%2 == 0 {
			end = i + 1
		}
		i++
	}
	return end, quotes
}

// appendRow stores a row in a table kept in memory.
func (t *Table) appendRow(v []float64, text []string) error {
	for k := range t.names {
		if t.soft != nil && t.soft[k] {
			continue // stored by settle
		}
		if t.text[k] != nil {
			t.text[k] = append(t.text[k], text[k])
		} else {
			t.cols[k] = append(t.cols[k], v[k])
		}
	}
	return nil
}

// parseBlock parses a block's records with the serial reader's code, its
// line numbers offset to the block's place in the file; shape holds the
// table's names and the kinds of its columns.
func (r *csvReader) parseBlock(shape *Table, labels []bool, b *block) blockRows {
	names := shape.names
	br := &csvReader{path: r.path, mem: b.data, sep: r.sep, limits: r.limits,
		dropMissing: r.dropMissing, line: b.first - 1, fields: r.fields, dest: r.dest, names: r.names}
	bt := &Table{names: names, cols: make([][]float64, len(names)), text: make([][]string, len(names)), stream: true,
		rowVals: make([]float64, len(names)), rowText: make([]string, len(names)), sepHint: shape.sepHint,
		factor: shape.factor, maybe: shape.maybe, naLevel: shape.naLevel, soft: shape.soft}
	hasText := shape.soft != nil // soft cells are handed on as text
	for k, l := range labels {
		if l {
			bt.text[k], hasText = []string{}, true
		}
	}
	out := blockRows{vals: getFloats()}
	out.err = br.data(bt, 0, nil, func(v []float64, text []string) error {
		out.vals = append(out.vals, v...)
		out.lines = append(out.lines, br.recLine)
		if hasText {
			out.text = append(out.text, text...)
		}
		return nil
	})
	out.n, out.dropped = bt.n, bt.dropped
	return out
}

// Pools of block buffers: the raw bytes and the parsed values of a block
// are reused once its rows are handed on, so that a read leaves little
// garbage (the heap of an in-memory read stays near its columns' size).
var (
	bytesPool  sync.Pool
	floatsPool sync.Pool
)

// getBytes returns a buffer of length n.
func getBytes(n int) []byte {
	if b, ok := bytesPool.Get().(*[]byte); ok && cap(*b) >= n {
		return (*b)[:n]
	}
	return make([]byte, n)
}

// putBytes returns b to the pool, unless it grew for a record much longer
// than a block: kept, it would hold that memory for the rest of the read.
func putBytes(b []byte) {
	if cap(b) <= maxPooledBytes {
		bytesPool.Put(&b)
	}
}

// maxPooledBytes is the largest buffer putBytes keeps: a few blocks.
const maxPooledBytes = 8 << 20

// getFloats returns an empty buffer of values.
func getFloats() []float64 {
	if f, ok := floatsPool.Get().(*[]float64); ok {
		return (*f)[:0]
	}
	return nil
}

func putFloats(f []float64) { floatsPool.Put(&f) }

// takeRows hands a parsed block's rows to row in order, settling the
// columns still undecided (t.soft) and counting the rows they drop.
func (r *csvReader) takeRows(t *Table, res blockRows, row func([]float64, []string) error) error {
	ncol := len(t.names)
	for i := range res.n {
		vals := res.vals[i*ncol : (i+1)*ncol]
		var text []string
		if res.text != nil {
			text = res.text[i*ncol : (i+1)*ncol]
		}
		if t.soft != nil {
			fate, bad, err := t.settle(vals, text, res.lines[i], r.dropMissing)
			switch {
			case err != nil:
				return fmt.Errorf("%s: %w", r.path, err)
			case bad != nil:
				return bad.error(r.path, t.names[bad.col], t.cellHint(bad.col))
			case fate == dropRow:
				t.dropped++
				continue
			case fate == skipRow:
				continue
			}
		}
		if err := row(vals, text); err != nil {
			return fmt.Errorf("%s:%d: %w", r.path, res.lines[i], err)
		}
		if !t.stream {
			t.notePlace(t.n, res.lines[i])
		}
		t.n++
	}
	return nil
}
