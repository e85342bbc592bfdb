package data

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Options says how to read a table. The zero value reads every column
// of a comma-separated file as numbers.
type Options struct {
	Sep rune // the field separator; 0 means ','
	// DropMissing leaves out the rows holding an empty, NaN or infinite
	// cell instead of failing (cells that are not numbers at all are still
	// errors).
	DropMissing bool
	// Columns, when not nil, says from the header's names which columns
	// to read; the others are skipped unparsed and may hold anything. Its
	// error (a usage error, say) is returned as it is.
	Columns func(header []string) ([]bool, error)
	// Labels, when not nil, says which columns hold text labels (class
	// names) rather than numbers.
	Labels func(name string) bool
	// Factors, when not nil, says which columns are factors (see Factor):
	// read as labels, but a missing value (an empty cell, "NA" or "NaN" in
	// any case, a Parquet null) is refused as such, left out with
	// DropMissing, or read as the level "NA" with NALevel.
	Factors func(name string) bool
	// MayBeFactor, when not nil, says which other columns become factors
	// when they hold text: in CSV, when the column's first cell that is
	// not missing (empty, "NA", "NaN"), wherever it is, is not a number; in
	// Parquet, a BYTE_ARRAY (string) column. A column read as numbers that
	// MayBeFactor names gets a hint at its first cell that is not a number
	// (name it with --factor). A column whose every cell is missing is
	// refused as such.
	MayBeFactor func(name string) bool
	// NALevel reads a factor's missing values as the level "NA".
	NALevel bool
	// FactorFound, when not nil, is called with each column MayBeFactor
	// made a factor, before any row is read; its error stops the read (a
	// form that takes numbers only, say).
	FactorFound func(name string) error
	// Progress draws a progress bar (nil: none).
	Progress *Progress
	// NoHeader reads a file without a header row: the columns are named
	// "1", "2", … and the first record is data.
	NoHeader bool
	// Limits bound the longest record and the widest header, refused as
	// soon as they are passed.
	Limits Limits
	// Row, when not nil, streams the rows: it gets each data row's values
	// of the numeric columns read (in table order, text columns 0) and its
	// text cells (nil entries for numeric columns), valid until it returns,
	// and the table keeps no cells. Its error stops the read and is
	// returned with the file and line.
	Row func(values []float64, text []string) error
}

// UTF8BOM is the byte order mark some spreadsheet programs put at the start
// of a UTF-8 file; it is not part of the first column's name.
var UTF8BOM = []byte{0xEF, 0xBB, 0xBF}

// latin1Hint ends the messages about text that is not UTF-8: such text is
// most often Latin-1 (ISO 8859-1 or Windows-1252).
const latin1Hint = "(Latin-1? convert the file with iconv -f latin1 -t utf-8)"

// readBufSize is the read buffer; a line longer than this is gathered in a
// separate buffer, so it only bounds the fast path, not the line length.
const readBufSize = 1 << 20

// Read reads a data file with a header row: CSV (any one-character
// separator), or Parquet, either possibly gzip-compressed, or standard
// input when path is "-". A leading UTF-8 byte order mark is skipped and
// CRLF line ends are accepted (CR alone, the old Mac format, is refused as
// such); quoting follows RFC 4180 (as encoding/csv without LazyQuotes),
// blank lines are skipped and cells are trimmed of white space. Numbers
// are decimal ([-+]digits[.digits][e[-+]digits], not Go's 1_000 or 0x1p3).
// Errors are one line naming the file and the physical line (a Parquet
// file's row), and quote at most a short prefix of a cell; they name the
// file already (see InFile).
//
// The file is read in one pass straight into the columns, on every core;
// its text is never held in memory.
func Read(path string, o Options) (_ *Table, err error) {
	defer func() {
		if err != nil {
			err = fileError{err}
		}
	}()
	sep, err := fieldSep(path, o.Sep)
	if err != nil {
		return nil, err
	}
	if isParquet(path) {
		return readParquet(path, o)
	}
	in, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	if in.parquet {
		return spoolParquet(in, o)
	}
	return readCSV(in, sep, o)
}

// fieldSep returns the field separator sep names (',' for 0), or an error
// for one that cannot separate CSV fields.
func fieldSep(path string, sep rune) (rune, error) {
	if sep == 0 {
		sep = ','
	}
	if sep == '"' || sep == '\r' || sep == '\n' || sep == utf8.RuneError || !utf8.ValidRune(sep) {
		return 0, fmt.Errorf("%s: invalid field separator %q", path, sep)
	}
	return sep, nil
}

// readCSV reads the opened CSV input in with the separator sep: header,
// factor detection, then the data rows.
func readCSV(in *input, sep rune, o Options) (*Table, error) {
	p := o.Progress
	if p != nil {
		p.start, p.size = time.Now(), in.size
		defer p.Done()
	}
	r := &csvReader{path: in.name, br: in.r, sep: utf8.AppendRune(nil, sep), dropMissing: o.DropMissing, limits: &o.Limits}
	if head, _ := r.br.Peek(len(UTF8BOM)); bytes.Equal(head, UTF8BOM) {
		r.br.Discard(len(UTF8BOM))
		r.n += int64(len(UTF8BOM))
	}
	t, err := r.header(o)
	if err != nil {
		return nil, err
	}
	if err := r.detectFactors(t, o); err != nil {
		return nil, err
	}
	if runtime.GOMAXPROCS(0) > 1 && r.pending == nil {
		// (A headerless file, whose first line is read already, is read
		// on one core: such files are small.)
		err = r.dataParallel(t, in.size, p, o.Row)
	} else {
		err = r.data(t, in.size, p, o.Row)
	}
	if err != nil {
		return nil, err
	}
	if err := t.finish(in.name, o.DropMissing); err != nil {
		return nil, err
	}
	if t.Rows() == 0 && t.dropped > 0 {
		return nil, fmt.Errorf("%s: no data rows left after dropping %d with missing values", in.name, t.dropped)
	}
	if t.Rows() == 0 {
		return nil, fmt.Errorf("%s: no data rows after the header", in.name)
	}
	return t, nil
}

// csvReader splits a CSV file into records. Records without a quote (the
// common case) are split in place in the read buffer; the others are
// unquoted into rec.
type csvReader struct {
	path        string
	dropMissing bool // leave out rows with an empty or non-finite cell
	br          *bufio.Reader
	sep         []byte      // the separator, UTF-8 encoded
	line        int         // physical lines read so far
	n           int64       // bytes read so far
	limits      *Limits     // the longest record, the widest header
	headerCount *fieldCount // counts the header's fields as it is read
	// mem, when not nil, is the block parsed: lines are read from it
	// (from memPos on; lineStart is the last one's start) and quoted
	// records unquoted in place, nothing copied.
	mem               []byte
	memPos, lineStart int
	fields            int      // fields per record (the header's)
	recLine           int      // the first line of the record being read
	pending           []byte   // a line to read again (a headerless file's first)
	dest              []int    // the table column of each field, -1 for skipped ones
	names             []string // the header's names, for messages (nil: numbers)

	// The record parsed by parseRecord: field i is rec[ends[i-1]:ends[i]]
	// and starts on line lines[i].
	rec   []byte
	ends  []int
	lines []int
}

// readLine returns the next physical line with "\r\n" turned into "\n", or
// io.EOF at the end of the file. A final line without a line end loses a
// trailing "\r". The line is valid until the next call.
func (r *csvReader) readLine() ([]byte, error) {
	line, err := r.rawLine()
	if err != nil && err != io.EOF {
		return nil, err
	}
	if r.limits.over(len(line)) && r.headerCount == nil { // (the header: see header)
		return nil, r.limits.tooLong(r.path, r.line+1)
	}
	r.n += int64(len(line))
	if len(line) > 0 && err == io.EOF {
		err = nil
		if line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
	}
	if err != nil {
		return nil, err
	}
	r.line++
	if n := len(line); n >= 2 && line[n-2] == '\r' && line[n-1] == '\n' {
		line[n-2] = '\n'
		line = line[:n-1]
	}
	return line, nil
}

// rawLine returns the next line as it is in the input, or io.EOF with
// the last bytes of the input, which end no line: a slice of the block
// parsed (mem), of the read buffer, or, for a line longer than that, of a
// slice of its own (gather).
func (r *csvReader) rawLine() ([]byte, error) {
	if r.mem != nil {
		rest := r.mem[r.memPos:]
		r.lineStart = r.memPos
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			r.memPos = len(r.mem)
			return rest, io.EOF
		}
		r.memPos += i + 1
		return rest[:i+1], nil
	}
	line, err := r.br.ReadSlice('\n')
	switch {
	case err == bufio.ErrBufferFull:
		return r.gather(line, r.countFields)
	case err != nil && err != io.EOF:
		return nil, fmt.Errorf("%s: %w", r.path, err)
	}
	return line, err
}

// countFields counts the fields of a header read in pieces (see
// Limits.Fields); it does nothing for the other records.
func (r *csvReader) countFields(piece []byte) error {
	if r.headerCount == nil {
		return nil
	}
	if err := r.headerCount.add(piece, r.limits.Fields); err != nil {
		return fmt.Errorf("%s:%d: %w", r.path, r.line+1, err)
	}
	return r.limits.columns(r.path, r.line+1, r.headerCount.fields+1)
}

// nextLine returns the next line that is not blank, or io.EOF. (A line is
// empty only at the end of a file ending in "\r".)
func (r *csvReader) nextLine() ([]byte, error) {
	if r.pending != nil {
		line := r.pending
		r.pending = nil
		r.line++
		return line, nil
	}
	for {
		line, err := r.readLine()
		if err != nil || len(line) > 1 || len(line) == 1 && line[0] != '\n' {
			return line, err
		}
	}
}

// index returns the index of the first separator in b, or -1.
func (r *csvReader) index(b []byte) int {
	if len(r.sep) == 1 {
		return bytes.IndexByte(b, r.sep[0])
	}
	return bytes.Index(b, r.sep)
}

// trimNL drops the line end of a line.
func trimNL(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\n' {
		return line[:n-1]
	}
	return line
}

// recordBuffer returns the empty buffer that the record starting with
// line is unquoted into.
func (r *csvReader) recordBuffer(line []byte) []byte {
	switch {
	case r.mem != nil:
		// Unquoted in place: what is written never passes what is read.
		return r.mem[r.lineStart:r.lineStart]
	case r.br != nil && len(line) > r.br.Size():
		// A line longer than the read buffer is gather's own slice, not
		// the buffer the next lines are read into: unquoted in place too,
		// so that its record is not held twice beside the copy of a cell
		// that a text column keeps (RecordFactor; a 150 MB quoted level
		// took 3.06 times its length, 2 once in place).
		return line[:0]
	case cap(r.rec) > hugeRecord:
		return nil // the last huge record's slice: let it go
	}
	return r.rec[:0]
}

// parseRecord parses the record whose first line is line (line r.line),
// reading more lines while a quoted field spans line ends, into rec, ends
// and lines. It follows encoding/csv (without LazyQuotes): a quote in an
// unquoted field is an error, as is anything but a separator or the line end
// after a closing quote.
func (r *csvReader) parseRecord(line []byte) error {
	r.rec, r.ends, r.lines = r.recordBuffer(line), r.ends[:0], r.lines[:0]
	lineNo, col := r.line, 1 // col: 1-based byte offset in the line
	for {
		r.lines = append(r.lines, lineNo)
		if len(line) == 0 || line[0] != '"' {
			i := r.index(line)
			field := line
			if i >= 0 {
				field = field[:i]
			} else {
				field = trimNL(field)
			}
			if q := bytes.IndexByte(field, '"'); q >= 0 {
				return fmt.Errorf(`%s:%d: column %s: bare " in non-quoted field (byte %d)`, r.path, lineNo, r.field(len(r.ends)), col+q)
			}
			r.rec = append(r.rec, field...)
			r.ends = append(r.ends, len(r.rec))
			if i < 0 {
				return nil
			}
			line = line[i+len(r.sep):]
			col += i + len(r.sep)
			continue
		}
		// A quoted field.
		openLine, openCol := lineNo, col
		line = line[1:]
		col++
	quoted:
		for {
			i := bytes.IndexByte(line, '"')
			switch {
			case i >= 0:
				r.rec = append(r.rec, line[:i]...)
				line = line[i+1:]
				col += i + 1
				switch {
				case len(line) > 0 && line[0] == '"':
					r.rec = append(r.rec, '"')
					line = line[1:]
					col++
				case bytes.HasPrefix(line, r.sep):
					r.ends = append(r.ends, len(r.rec))
					line = line[len(r.sep):]
					col += len(r.sep)
					break quoted
				case len(line) == 0 || len(line) == 1 && line[0] == '\n':
					r.ends = append(r.ends, len(r.rec))
					return nil
				default:
					// col-1: the quote.
					return fmt.Errorf(`%s:%d: column %s: extraneous or missing " in quoted-field (byte %d)`, r.path, lineNo, r.field(len(r.ends)), col-1)
				}
			case len(line) > 0:
				// The field goes on past the line end.
				r.rec = append(r.rec, line...)
				if r.limits.over(len(r.rec)) {
					return r.limits.tooLong(r.path, r.lines[0])
				}
				var err error
				line, err = r.readLine()
				if err == io.EOF {
					return r.unclosed(openLine, openCol)
				}
				if err != nil {
					return err
				}
				lineNo, col = r.line, 1
			default:
				return r.unclosed(openLine, openCol)
			}
		}
	}
}

// field names field j (0-based) of a record in messages: its header
// name, quoted, or its number.
func (r *csvReader) field(j int) string {
	if j < len(r.names) {
		return ShortText(r.names[j])
	}
	return strconv.Itoa(j + 1)
}

// loneCR reports an unquoted field of the first line of a file that
// holds a carriage return inside it (not at its ends, which trimming
// drops; readLine has turned CR LF into LF): the mark of a file whose lines
// end in CR only, which reads as one line.
func (r *csvReader) loneCR(line []byte) bool {
	line = trimNL(line)
	for len(line) > 0 {
		if line[0] == '"' {
			i := 1
			for ; i < len(line); i++ {
				if line[i] == '"' {
					if i+1 < len(line) && line[i+1] == '"' {
						i++
						continue
					}
					break
				}
			}
			if i >= len(line) {
				return false // a quoted field over several lines
			}
			line = line[i+1:]
		}
		k := r.index(line)
		field := line
		if k >= 0 {
			field = line[:k]
		}
		if bytes.IndexByte(bytes.TrimSpace(field), '\r') >= 0 {
			return true
		}
		if k < 0 {
			return false
		}
		line = line[k+len(r.sep):]
	}
	return false
}

// unclosed is the error of a quoted field opened at line and byte col
// that has no closing quote.
func (r *csvReader) unclosed(line, col int) error {
	return fmt.Errorf(`%s:%d: column %s: the quoted field that starts here (byte %d) has no closing "`, r.path, line, r.field(len(r.ends)), col)
}

// headerless takes the first record, line (a copy of it as read), as data: the columns are
// named 1, 2, … and the record is read again as the first row.
func (r *csvReader) headerless(line []byte, o Options) (*Table, error) {
	if len(r.lines) > 0 && r.lines[len(r.lines)-1] != r.lines[0] {
		return nil, fmt.Errorf("%s:%d: a quoted field spans lines in the first record", r.path, r.lines[0])
	}
	if r.limits.over(len(line)) {
		return nil, r.limits.tooLong(r.path, r.lines[0])
	}
	names := make([]string, len(r.ends))
	for j := range names {
		names[j] = strconv.Itoa(j + 1)
	}
	r.pending, r.line = line, r.line-1
	t, dest, err := newTable(r.path, names, o)
	if err != nil {
		return nil, err
	}
	r.dest, r.fields = dest, len(r.ends)
	return t, nil
}

// headerNames checks the header record's names (not empty, UTF-8, no
// invisible character, no name twice) and returns them trimmed.
func (r *csvReader) headerNames(sepHint string) ([]string, error) {
	seen := map[string]int{}
	start := 0
	names := make([]string, len(r.ends))
	for j, end := range r.ends {
		line, name := r.lines[j], strings.TrimSpace(string(r.rec[start:end]))
		start = end
		if name == "" {
			return nil, fmt.Errorf("%s:%d: column %d: empty name", r.path, line, j+1)
		}
		if !utf8.ValidString(name) {
			// A name read with U+FFFD in place of its bytes would not
			// match the file's own header again (predict).
			return nil, fmt.Errorf("%s:%d: column %d: name %s is not UTF-8 %s", r.path, line, j+1, ShortText(name), latin1Hint)
		}
		if strings.IndexFunc(name, invisible) >= 0 {
			// A quoted name may hold a line break or a tab, which would
			// break the one-line messages and the text output; a byte
			// order mark or another format character would make two
			// names look alike.
			return nil, fmt.Errorf("%s:%d: column %d: name %s holds a control or invisible character%s", r.path, line, j+1, ShortText(name), sepHint)
		}
		if k, dup := seen[name]; dup {
			return nil, fmt.Errorf("%s:%d: column %d: name %s appears twice (columns %d and %d)", r.path, line, j+1, ShortText(name), k+1, j+1)
		}
		seen[name] = j
		names[j] = name
	}
	return names, nil
}

// header reads the header row into a table with empty columns, and sets
// which field goes to which column.
func (r *csvReader) header(o Options) (*Table, error) {
	before := r.n
	if o.Limits.Fields != nil || o.Limits.Record > 0 {
		r.headerCount = &fieldCount{sep: r.sep, next: FieldsStep}
		defer func() { r.headerCount = nil }()
	}
	line, err := r.nextLine()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file, expected a header row", r.path)
	}
	if err != nil {
		return nil, err
	}
	if r.loneCR(line) {
		return nil, fmt.Errorf(`%s: lines end in CR only (old Mac format), which this reader does not take: convert them to LF line ends, e.g. tr '\r' '\n' < old.csv > new.csv`, r.path)
	}
	var first []byte
	if o.NoHeader {
		// The first record is data too: keep it as read, since parseRecord
		// may unquote a line longer than the read buffer in place.
		first = slices.Clone(line)
	}
	if err := r.parseRecord(line); err != nil {
		return nil, err
	}
	if o.NoHeader {
		return r.headerless(first, o)
	}
	t := &Table{}
	if len(r.ends) == 1 {
		t.sepHint = sepHint(r.rec, r.sep)
	}
	names, err := r.headerNames(t.sepHint)
	if err != nil {
		return nil, err
	}
	nt, dest, err := newTable(r.path, names, o)
	if err != nil {
		return nil, err
	}
	// The header's length is checked after its width (newTable runs the
	// form's check), whose message says more: reading a header shorter
	// than the read buffer takes nothing beside it.
	if r.limits.over(int(r.n - before)) {
		return nil, r.limits.tooLong(r.path, r.lines[0])
	}
	nt.sepHint = t.sepHint
	r.dest, r.fields, r.names = dest, len(r.ends), names
	return nt, nil
}

// invisible reports a control character or an invisible format character
// (a byte order mark, a zero-width space).
func invisible(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }

// sepHint says which separator a one-field header seems to use instead of
// sep, or "" when none.
func sepHint(header, sep []byte) string {
	for _, c := range []string{";", "\t", "|", ","} {
		if c != string(sep) && bytes.Contains(header, []byte(c)) {
			flag := c
			if c == "\t" {
				flag = `'\t'`
			} else if c == ";" || c == "|" {
				flag = "'" + c + "'"
			}
			return fmt.Sprintf(" (the header has one column but holds %q: try --sep %s)", c, flag)
		}
	}
	return ""
}

// cellError is the first bad cell of a record; it is reported only once the
// record has been read whole, so that a field-count error comes first.
type cellError struct {
	line, col int
	text      string
	reason    error
}

// data reads the data rows into t's columns, or hands them to row.
func (r *csvReader) data(t *Table, size int64, p *Progress, row func([]float64, []string) error) error {
	start := r.n // bytes before the first data row
	for {
		line, err := r.nextLine()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		r.recLine = r.line
		bad, nf, err := r.record(t, line)
		if err != nil {
			return err
		}
		if nf != r.fields {
			return fmt.Errorf("%s:%d: expected %d fields, got %d%s", r.path, r.recLine, r.fields, nf, t.sepHint)
		}
		if bad != nil {
			if !r.dropMissing || !missing(bad.reason) {
				return bad.error(r.path, t.names[bad.col], t.cellHint(bad.col))
			}
			t.truncate(t.n)
			t.dropped++
			continue
		}
		if t.open != nil { // the main table's soft cells, in file order
			fate, bad, err := t.settle(t.rowVals, t.rowText, r.recLine, r.dropMissing)
			switch {
			case err != nil:
				return fmt.Errorf("%s: %w", r.path, err)
			case bad != nil:
				return bad.error(r.path, t.names[bad.col], t.cellHint(bad.col))
			case fate != keepRow:
				t.truncate(t.n)
				if fate == dropRow {
					t.dropped++
				}
				continue
			}
		}
		if err := r.keep(t, row); err != nil {
			return err
		}
		r.after(t, size, start, p)
	}
}

// record stores the fields of the record that starts with line, returning
// the first bad cell (the rest of the record is then only counted) and
// the number of fields.
func (r *csvReader) record(t *Table, line []byte) (bad *cellError, nf int, err error) {
	recLine := r.recLine
	// store parses field nf of the record (or only counts it when
	// skipped, past the header's count or after a bad cell).
	store := func(field []byte, line int) {
		if nf < r.fields && bad == nil {
			if k := r.dest[nf]; k >= 0 {
				bad = t.store(k, field, line)
			}
		}
		nf++
	}
	if bytes.IndexByte(line, '"') >= 0 {
		if err := r.parseRecord(line); err != nil {
			return nil, 0, err
		}
		from := 0
		for j, end := range r.ends {
			store(r.rec[from:end], r.lines[j])
			from = end
		}
		return bad, nf, nil
	}
	// No quotes: split in place.
	line = trimNL(line)
	if len(r.sep) == 1 {
		sep := r.sep[0]
		for i := bytes.IndexByte(line, sep); i >= 0; i = bytes.IndexByte(line, sep) {
			store(line[:i], recLine)
			line = line[i+1:]
		}
	} else {
		for i := bytes.Index(line, r.sep); i >= 0; i = bytes.Index(line, r.sep) {
			store(line[:i], recLine)
			line = line[i+len(r.sep):]
		}
	}
	store(line, recLine)
	return bad, nf, nil
}

// keep hands a whole, valid row to row (when streaming) and counts it.
func (r *csvReader) keep(t *Table, row func([]float64, []string) error) error {
	if row != nil {
		if err := row(t.rowVals, t.rowText); err != nil {
			return fmt.Errorf("%s:%d: %w", r.path, r.recLine, err)
		}
	}
	if !t.stream {
		t.notePlace(t.n, r.recLine)
	}
	t.n++
	return nil
}

// after sizes the columns once the first rows tell how many the file
// holds (start: the bytes before them; size: the file's, 0 if unknown),
// and draws the progress.
func (r *csvReader) after(t *Table, size, start int64, p *Progress) {
	if t.n == sizingRows && size > 0 && !t.stream {
		sizeColumns(t, t.n, size-r.n, r.n-start)
	}
	if p != nil && r.n >= p.next {
		p.next = r.n + 64<<10
		p.rows = t.n + t.dropped
		p.update(r.n)
	}
}

func (e *cellError) error(path, name, hint string) error {
	name = ShortText(name)
	switch e.reason {
	case errEmptyCell:
		return fmt.Errorf("%s:%d: column %s: empty cell (missing values are not supported)", path, e.line, name)
	case errMissingLevel:
		return fmt.Errorf("%s:%d: column %s: missing value %s%s", path, e.line, name, e.text, missingHint)
	case errNotFinite:
		return fmt.Errorf("%s:%d: column %s: %s is not a finite number", path, e.line, name, e.text)
	case errNotUTF8:
		return fmt.Errorf("%s:%d: column %s: label %s is not UTF-8 %s", path, e.line, name, e.text, latin1Hint)
	case errNotDecimal:
		return fmt.Errorf("%s:%d: column %s: %s is not a decimal number (hexadecimal numbers and digit separators such as 1_000 are not read)", path, e.line, name, e.text)
	default:
		return fmt.Errorf("%s:%d: column %s: cannot parse %s as a number%s", path, e.line, name, e.text, hint)
	}
}
