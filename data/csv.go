package data

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
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
	k, found := slices.BinarySearchFunc(p.runs, i, func(p rowPlace, i int) int { return p.row - i })
	if !found {
		k--
	}
	switch {
	case k < 0:
		return fmt.Sprintf("%s: data row %d", p.path, i+1)
	case p.byRow:
		return fmt.Sprintf("%s: row %d", p.path, p.runs[k].at+i-p.runs[k].row)
	}
	return fmt.Sprintf("%s:%d", p.path, p.runs[k].at+i-p.runs[k].row)
}

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
	// Progress draws a progress bar (nil: none).
	Progress *Progress
	// NoHeader reads a file without a header row: the columns are named
	// "1", "2", … and the first record is data.
	NoHeader bool
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
	sep := o.Sep
	if sep == 0 {
		sep = ','
	}
	if sep == '"' || sep == '\r' || sep == '\n' || sep == utf8.RuneError || !utf8.ValidRune(sep) {
		return nil, fmt.Errorf("%s: invalid field separator %q", path, sep)
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
	p := o.Progress
	if p != nil {
		p.start, p.size = time.Now(), in.size
		defer p.Done()
	}
	r := &csvReader{path: in.name, br: in.r, sep: utf8.AppendRune(nil, sep), dropMissing: o.DropMissing}
	if head, _ := r.br.Peek(len(UTF8BOM)); bytes.Equal(head, UTF8BOM) {
		r.br.Discard(len(UTF8BOM))
		r.n += int64(len(UTF8BOM))
	}
	t, err := r.header(o)
	if err != nil {
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
	if t.Rows() == 0 && t.dropped > 0 {
		return nil, fmt.Errorf("%s: no data rows left after dropping %d with missing values", in.name, t.dropped)
	}
	if t.Rows() == 0 {
		return nil, fmt.Errorf("%s: no data rows after the header", in.name)
	}
	return t, nil
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

// csvReader splits a CSV file into records. Records without a quote (the
// common case) are split in place in the read buffer; the others are
// unquoted into rec.
type csvReader struct {
	path        string
	dropMissing bool // leave out rows with an empty or non-finite cell
	br          *bufio.Reader
	sep         []byte   // the separator, UTF-8 encoded
	line        int      // physical lines read so far
	n           int64    // bytes read so far
	long        []byte   // a line longer than the read buffer
	fields      int      // fields per record (the header's)
	recLine     int      // the first line of the record being read
	pending     []byte   // a line to read again (a headerless file's first)
	dest        []int    // the table column of each field, -1 for skipped ones
	names       []string // the header's names, for messages (nil: numbers)

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
	line, err := r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.long = append(r.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = r.br.ReadSlice('\n')
			r.long = append(r.long, line...)
		}
		line = r.long
	}
	r.n += int64(len(line))
	if len(line) > 0 && err == io.EOF {
		err = nil
		if line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
	}
	if err != nil {
		if err != io.EOF {
			err = fmt.Errorf("%s: %w", r.path, err)
		}
		return nil, err
	}
	r.line++
	if n := len(line); n >= 2 && line[n-2] == '\r' && line[n-1] == '\n' {
		line[n-2] = '\n'
		line = line[:n-1]
	}
	return line, nil
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

// parseRecord parses the record whose first line is line (line r.line),
// reading more lines while a quoted field spans line ends, into rec, ends
// and lines. It follows encoding/csv (without LazyQuotes): a quote in an
// unquoted field is an error, as is anything but a separator or the line end
// after a closing quote.
func (r *csvReader) parseRecord(line []byte) error {
	r.rec, r.ends, r.lines = r.rec[:0], r.ends[:0], r.lines[:0]
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
		return ShortText([]byte(r.names[j]))
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

// header reads the header row into a table with empty columns, and sets
// which field goes to which column.
func (r *csvReader) header(o Options) (*Table, error) {
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
	first := slices.Clone(line)
	if err := r.parseRecord(line); err != nil {
		return nil, err
	}
	if o.NoHeader {
		if len(r.lines) > 0 && r.lines[len(r.lines)-1] != r.lines[0] {
			return nil, fmt.Errorf("%s:%d: a quoted field spans lines in the first record", r.path, r.lines[0])
		}
		names := make([]string, len(r.ends))
		for j := range names {
			names[j] = strconv.Itoa(j + 1)
		}
		r.pending, r.line = first, r.line-1
		t, dest, err := newTable(r.path, names, o)
		if err != nil {
			return nil, err
		}
		r.dest, r.fields = dest, len(r.ends)
		return t, nil
	}
	t := &Table{}
	if len(r.ends) == 1 {
		t.sepHint = sepHint(r.rec, r.sep)
	}
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
			return nil, fmt.Errorf("%s:%d: column %d: name %s is not UTF-8 %s", r.path, line, j+1, ShortText([]byte(name)), latin1Hint)
		}
		if strings.IndexFunc(name, invisible) >= 0 {
			// A quoted name may hold a line break or a tab, which would
			// break the one-line messages and the text output; a byte
			// order mark or another format character would make two
			// names look alike.
			return nil, fmt.Errorf("%s:%d: column %d: name %s holds a control or invisible character%s", r.path, line, j+1, ShortText([]byte(name)), t.sepHint)
		}
		if k, dup := seen[name]; dup {
			return nil, fmt.Errorf("%s:%d: column %d: name %s appears twice (columns %d and %d)", r.path, line, j+1, ShortText([]byte(name)), k+1, j+1)
		}
		seen[name] = j
		names[j] = name
	}
	nt, dest, err := newTable(r.path, names, o)
	if err != nil {
		return nil, err
	}
	nt.sepHint = t.sepHint
	r.dest, r.fields, r.names = dest, len(r.ends), names
	return nt, nil
}

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
	t := &Table{}
	dest := make([]int, len(names))
	for j, name := range names {
		dest[j] = -1
		if !keep[j] {
			continue
		}
		dest[j] = len(t.names)
		t.names = append(t.names, name)
		if o.Labels != nil && o.Labels(name) {
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

var (
	errEmptyCell = errors.New("empty cell")
	errNotUTF8   = errors.New("not UTF-8")
	errNotNumber = errors.New("not a number")
	// errNotDecimal is a number in a syntax other than decimal (Go's
	// 1_000 or 0x1p3, which strconv.ParseFloat reads).
	errNotDecimal = errors.New("not a decimal number")
	errNotFinite  = errors.New("not a finite number")
)

// ParseNumber parses a cell, trimmed of white space, as a finite number.
func ParseNumber(b []byte) (float64, error) {
	if len(b) > 0 && (b[0] <= ' ' || b[len(b)-1] <= ' ' || b[0] >= utf8.RuneSelf || b[len(b)-1] >= utf8.RuneSelf) {
		b = bytes.TrimSpace(b)
	}
	if len(b) == 0 {
		return 0, errEmptyCell
	}
	if v, ok := parseSimple(b); ok {
		return v, nil
	}
	// string(b) does not allocate for a short cell: ParseFloat copies its
	// argument into the errors it returns, so it does not escape.
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		if hexPrefix(b) {
			return 0, errNotDecimal
		}
		return 0, errNotNumber
	}
	// ParseFloat also reads Go's literals (1_000, 0x1p3), which R and
	// pandas read as text: only decimal numbers are data.
	if spelled := err == nil && (math.IsNaN(v) || math.IsInf(v, 0)); !spelled && !decimalSyntax(b) {
		return 0, errNotDecimal
	}
	// ParseFloat accepts "NaN", "Inf" and "Infinity", and returns ±Inf
	// with ErrRange for values beyond float64; the fit needs finite data.
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errNotFinite
	}
	return v, nil
}

// Numbers parses text cells (a column read as labels) as finite numbers,
// as a numeric column's cells are parsed, and reports false when one is
// not.
func Numbers(text []string) ([]float64, bool) {
	nums := make([]float64, len(text))
	for i, s := range text {
		v, err := ParseNumber([]byte(s))
		if err != nil {
			return nil, false
		}
		nums[i] = v
	}
	return nums, true
}

// hexPrefix reports a cell that starts, after a sign, with 0x or 0X.
func hexPrefix(b []byte) bool {
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		b = b[1:]
	}
	return len(b) > 1 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')
}

// decimalSyntax reports whether b is a decimal number:
// [-+]digits[.digits][(e|E)[-+]digits], digits on at least one side of
// the point.
func decimalSyntax(b []byte) bool {
	i := 0
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	digits := func() int {
		k := i
		for i < len(b) && b[i]-'0' <= 9 {
			i++
		}
		return i - k
	}
	n := digits()
	if i < len(b) && b[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

// pow10 holds the powers of ten that are exact in a float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseSimple parses a non-empty decimal [-+]digits[.digits][(e|E)[-+]digits]
// with at most 19 significant digits when the result is exact: the mantissa
// below 2⁵³ and the power of ten at most 22 in size are both exact float64s,
// so one multiplication or division rounds correctly (Clinger's fast path).
// Anything else reports !ok and is left to strconv.ParseFloat.
func parseSimple(b []byte) (float64, bool) {
	i, neg := 0, false
	switch b[0] {
	case '-':
		neg, i = true, 1
	case '+':
		i = 1
	}
	m, exp, i, ok := simpleMantissa(b, i)
	if !ok {
		return 0, false
	}
	if i < len(b) {
		e, ok := simpleExponent(b[i:])
		if !ok {
			return 0, false
		}
		exp += e
	}
	return exactValue(m, exp, neg)
}

// simpleMantissa reads digits[.digits] from b[i:]: m, the significant
// digits as an integer, exp, the power of ten of m's last digit, and the
// index after them; !ok when there is no digit or more than 19
// significant ones.
func simpleMantissa(b []byte, i int) (m uint64, exp, end int, ok bool) {
	nd, ndig, sawDot := 0, 0, false // nd: significant digits, ndig: all digits
	for ; i < len(b); i++ {
		c := b[i]
		if c-'0' <= 9 {
			ndig++
			if m != 0 || c != '0' {
				nd++
				m = m*10 + uint64(c-'0')
			}
			if sawDot {
				exp--
			}
			continue
		}
		if c == '.' && !sawDot {
			sawDot = true
			continue
		}
		break
	}
	return m, exp, i, ndig > 0 && nd <= 19
}

// simpleExponent reads an exponent (e|E)[-+]digits that is all of b,
// refusing one beyond about 10⁵ in size.
func simpleExponent(b []byte) (int, bool) {
	if b[0] != 'e' && b[0] != 'E' {
		return 0, false
	}
	i, neg := 1, false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	if i == len(b) {
		return 0, false
	}
	e := 0
	for ; i < len(b); i++ {
		c := b[i]
		if c-'0' > 9 || e > 10000 {
			return 0, false
		}
		e = e*10 + int(c-'0')
	}
	if neg {
		e = -e
	}
	return e, true
}

// exactValue is ±m·10^exp when one operation gives it exactly rounded.
func exactValue(m uint64, exp int, neg bool) (float64, bool) {
	if m == 0 {
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	if m >= 1<<53 || exp < -22 || exp > 22 {
		return 0, false
	}
	v := float64(m)
	if exp < 0 {
		v /= pow10[-exp]
	} else {
		v *= pow10[exp]
	}
	if neg {
		v = -v
	}
	return v, true
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
			if !r.dropMissing || (bad.reason != errEmptyCell && bad.reason != errNotFinite) {
				return bad.error(r.path, t.names[bad.col], t.sepHint)
			}
			t.truncate(t.n)
			t.dropped++
			continue
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

// store appends a field to column k, or returns why it cannot.
func (t *Table) store(k int, field []byte, line int) *cellError {
	if t.text[k] != nil {
		s := strings.TrimSpace(string(field))
		if s == "" {
			return &cellError{line: line, col: k, reason: errEmptyCell}
		}
		if !utf8.ValidString(s) {
			return &cellError{line: line, col: k, text: ShortText([]byte(s)), reason: errNotUTF8}
		}
		if t.stream {
			t.rowText[k] = s
		} else {
			t.text[k] = append(t.text[k], s)
		}
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

func (e *cellError) error(path, name, hint string) error {
	name = ShortText([]byte(name))
	switch e.reason {
	case errEmptyCell:
		return fmt.Errorf("%s:%d: column %s: empty cell (missing values are not supported)", path, e.line, name)
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

// Index returns the column named name, or an error listing the columns.
func (t *Table) Index(name string) (int, error) {
	for j, n := range t.names {
		if n == name {
			return j, nil
		}
	}
	return 0, fmt.Errorf("no column named %q (columns: %s)", name, strings.Join(t.names, ", "))
}
