package data

import (
	"bytes"
	"fmt"
	"io"
	"slices"

	"github.com/cardsparse/cardreg/design"
)

// ReadSVMLight reads an svmlight (libsvm) file, plain or gzip-compressed
// (told by its magic bytes), or standard input ("-"), into memory: the
// labels and the design as sparse columns, without a dense matrix. A
// file is read twice (a first pass checks it and counts each column's
// non-zeros, a second fills the columns), so that the read holds the
// columns and O(n + p) only; standard input or a pipe is read once
// through a compressed-sparse-row copy (twice the non-zeros' memory at
// the peak). The format, one row a line:
//
//	LABEL INDEX:VALUE INDEX:VALUE … [# comment]
//
// fields separated by spaces or tabs. Blank lines and comment lines (#)
// hold no row. The rules, each broken one an error naming the file, the
// line and the column (the byte) and why:
//
//   - The label is one finite number; a multi-label line ("1,3 …") is
//     refused (cardreg fits one response per row).
//   - Indices are whole numbers, strictly increasing within a line
//     (libsvm's rule, which its own tools check): an unsorted or repeated
//     index is refused, not sorted or summed.
//   - The base (SparseOptions.Base): 1-based by convention; 0-based when
//     said, or, by default (BaseAuto), when an index 0 occurs in the file
//     (scikit-learn's rule). A 0-based file without an index 0 is read as
//     1-based, its columns shifted by one: say the base when it matters
//     (a test file read with a training file's columns). Index 0 in a file
//     said to be 1-based is an error.
//   - Values are finite decimal numbers; explicit zeros are not stored.
//   - p is the largest index seen (plus one, 0-based), or
//     SparseOptions.Features, past which an index is an error.
//   - A negative index is an error; the columns an index implies are
//     checked against the memory budget before they are allocated.
//   - qid:N tokens (ranking groups) are refused: cardreg fits no ranking
//     model, and dropping them silently would fit another problem than
//     the one the file poses; remove them first (sed 's/ qid:[^ ]*//').
func ReadSVMLight(path string, o SparseOptions) (*Sparse, error) {
	return readSVMLight(path, o, OnlyOnce(path) == "")
}

// readSVMLight is ReadSVMLight, reading the file twice or once.
func readSVMLight(path string, o SparseOptions, twoPass bool) (*Sparse, error) {
	o = o.resolved()
	name := InputName(path)
	if o.Features < 0 {
		return nil, fmt.Errorf("%s: %d features: must be >= 1 (0: the largest index)", name, o.Features)
	}
	if err := checkSparseMemory(o.Features, 0, 0, o.Budget, fmt.Sprintf("%s: %d features", name, o.Features)); err != nil {
		return nil, err
	}
	r := &svmReader{o: o, start: []int{0}, twoPass: twoPass}
	if err := r.readPass(path, 1); err != nil {
		return nil, err
	}
	if !r.twoPass {
		return r.build()
	}
	if err := r.prepare(); err != nil {
		return nil, err
	}
	if err := r.readPass(path, 2); err != nil {
		return nil, err
	}
	return r.finish()
}

// svmReader reads an svmlight file into sparse columns. A file that can
// be read twice is: a first pass checks it and counts each column's
// non-zeros, a second puts them in their columns, so that the read takes
// the columns' memory and O(n + p) only. Standard input or a pipe is read
// once into compressed sparse rows, then put in columns (twice the
// memory of the non-zeros at the peak).
type svmReader struct {
	lr lineReader
	o  SparseOptions
	// twoPass says the file is read twice; pass is the pass (1, 2).
	twoPass bool
	pass    int
	// y are the labels, places on which line each row is.
	y      []float64
	places []rowPlace
	// The rows' non-zeros when read once: start, cols (indices as in the
	// file) and vals.
	start []int
	cols  []int32
	vals  []float64
	// counts are the non-zeros of each index (as in the file), nnz their
	// sum, in the first of two passes.
	counts []int
	nnz    int
	// The columns filled by the second pass: base, p, the columns' starts,
	// the next place in each, their rows and values; row is the row read.
	base, p, row int
	cscStart     []int
	next         []int
	rows         []int32
	cscVals      []float64
	// maxIdx is the largest index seen and maxAt where; zeroAt where the
	// first index 0 is, atP where the first index equal to Features is
	// (line 0 when none).
	maxIdx             int
	maxAt, zeroAt, atP place
	sawIndex           bool
	fs                 []field
}

// readPass reads the file at path once, as pass k.
func (r *svmReader) readPass(path string, k int) error {
	in, err := openInput(path)
	if err != nil {
		return err
	}
	defer in.Close()
	if in.parquet {
		return fmt.Errorf("%s: looks like a Parquet file, expected svmlight text", in.name)
	}
	r.lr = lineReader{br: in.r, name: in.name, max: lineLimit(r.o.Budget)}
	r.pass, r.row = k, 0
	return r.read()
}

// read reads every line.
func (r *svmReader) read() error {
	for {
		line, err := r.lr.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := r.parseLine(line); err != nil {
			return err
		}
	}
}

// parseLine reads one line: a row, or nothing (blank, comment).
func (r *svmReader) parseLine(line []byte) error {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	r.fs = fields(line, r.fs)
	if len(r.fs) == 0 {
		return nil
	}
	label, err := r.label(r.fs[0])
	if err != nil {
		return err
	}
	prev := -1
	for _, f := range r.fs[1:] {
		k, err := r.pair(f, prev)
		if err != nil {
			return err
		}
		prev = k
	}
	return r.endRow(label)
}

// endRow notes the end of a row of label.
func (r *svmReader) endRow(label float64) error {
	if r.pass == 2 {
		if r.row >= len(r.y) || r.y[r.row] != label {
			return r.changed()
		}
		r.row++
		return nil
	}
	row := len(r.y)
	if row >= maxIndex {
		return fmt.Errorf("%s:%d: more than %d rows", r.lr.name, r.lr.line, maxIndex)
	}
	if k := len(r.places); k == 0 || r.places[k-1].at+row-r.places[k-1].row != r.lr.line {
		r.places = append(r.places, rowPlace{row, r.lr.line})
	}
	r.y = append(r.y, label)
	if !r.twoPass {
		r.start = append(r.start, len(r.cols))
	}
	return nil
}

// changed is the error of a file whose second pass differs from its
// first.
func (r *svmReader) changed() error {
	return fmt.Errorf("%s:%d: the file changed while it was read (it is read twice: a first pass counts each column's non-zeros)", r.lr.name, r.lr.line)
}

// keep stores the non-zero v at index k of the current row: in the
// compressed rows, the counts (first pass) or its column (second pass).
func (r *svmReader) keep(k int, v float64) error {
	switch {
	case !r.twoPass:
		r.cols = append(r.cols, int32(k))
		r.vals = append(r.vals, v)
	case r.pass == 1:
		if k >= len(r.counts) {
			r.counts = slices.Grow(r.counts, k+1-len(r.counts))[:k+1]
		}
		r.counts[k]++
		r.nnz++
	default:
		j := k - r.base
		if j < 0 || j >= r.p || r.next[j] >= r.cscStart[j+1] {
			return r.changed()
		}
		r.rows[r.next[j]], r.cscVals[r.next[j]] = int32(r.row), v
		r.next[j]++
	}
	return nil
}

// label reads a line's label.
func (r *svmReader) label(f field) (float64, error) {
	switch {
	case bytes.IndexByte(f.text, ',') >= 0:
		return 0, fmt.Errorf("%s: multi-label line (labels %s): cardreg fits one response per row; keep one label per line", r.lr.at(f.col), ShortText(f.text))
	case bytes.IndexByte(f.text, ':') >= 0:
		return 0, fmt.Errorf("%s: the line starts with %s, not a label: every svmlight line starts with its label", r.lr.at(f.col), ShortText(f.text))
	}
	v, err := number(f.text, "label")
	if err != nil {
		return 0, fmt.Errorf("%s: %v", r.lr.at(f.col), err)
	}
	return v, nil
}

// pair reads INDEX:VALUE after index prev (−1: none) on the line and
// returns the index.
func (r *svmReader) pair(f field, prev int) (int, error) {
	here := place{r.lr.line, f.col}
	at := func() string { return r.lr.where(here) }
	if bytes.HasPrefix(f.text, []byte("qid:")) {
		return 0, fmt.Errorf("%s: %s: qid (a ranking group) is not read: cardreg fits no ranking model; remove the qid tokens (sed 's/ qid:[^ ]*//')", at(), ShortText(f.text))
	}
	is, vs, ok := bytes.Cut(f.text, []byte{':'})
	if !ok {
		return 0, fmt.Errorf("%s: expected INDEX:VALUE, got %s", at(), ShortText(f.text))
	}
	k, err := index(is, "index")
	if err != nil {
		return 0, fmt.Errorf("%s: %v", at(), err)
	}
	switch {
	case k == prev:
		return 0, fmt.Errorf("%s: index %d repeated on the line", at(), k)
	case k < prev:
		return 0, fmt.Errorf("%s: index %d after %d: indices must increase along a line (libsvm's rule; sort the line's pairs)", at(), k, prev)
	}
	if err := r.checkIndex(k, here); err != nil {
		return 0, err
	}
	v, err := number(vs, "value")
	if err != nil {
		return 0, fmt.Errorf("%s: index %d: %v", at(), k, err)
	}
	if v != 0 {
		if err := r.keep(k, v); err != nil {
			return 0, err
		}
	}
	return k, nil
}

// checkIndex checks index k, at at, against the base and Features, and
// notes what detection needs.
func (r *svmReader) checkIndex(k int, here place) error {
	p := r.o.Features
	at := func() string { return r.lr.where(here) }
	switch {
	case k == 0 && r.o.Base == Base1:
		return fmt.Errorf("%s: index 0 in a file read as 1-based (read it as 0-based, or auto, to take it)", at())
	case p > 0 && r.o.Base == Base0 && k >= p:
		return fmt.Errorf("%s: index %d beyond the %d features of a 0-based file (indices 0…%d)", at(), k, p, p-1)
	case p > 0 && k > p:
		return fmt.Errorf("%s: index %d beyond the %d features", at(), k, p)
	}
	if k == 0 && r.zeroAt.line == 0 {
		r.zeroAt = here
	}
	if p > 0 && k == p && r.atP.line == 0 {
		r.atP = here
	}
	if r.pass == 1 && (!r.sawIndex || k > r.maxIdx) {
		// The columns an index implies (k at least, 1-based) are checked
		// before any is held.
		if err := checkSparseMemory(max(k, 1), r.nnz+len(r.cols)+1, 0, r.o.Budget, ""); err != nil {
			return fmt.Errorf("%s: index %d%v", at(), k, err)
		}
		r.maxIdx, r.maxAt, r.sawIndex = k, here, true
	}
	return nil
}

// baseOf decides the file's base.
func (r *svmReader) baseOf() (int, error) {
	zero := r.o.Base == Base0 || r.o.Base == BaseAuto && r.zeroAt.line > 0
	if !zero {
		return 1, nil
	}
	if r.atP.line > 0 { // only with BaseAuto: Base0 refused it as read
		return 0, fmt.Errorf("%s: index %d beyond the %d features of a 0-based file (index 0 at %s makes it 0-based)", r.lr.where(r.atP), r.o.Features, r.o.Features, r.lr.where(r.zeroAt))
	}
	return 0, nil
}

// dims decides the base and p once the file is read, and checks the
// memory of p columns and nnz non-zeros.
func (r *svmReader) dims(nnz int) error {
	name := r.lr.name
	if len(r.y) == 0 {
		return fmt.Errorf("%s: no rows (an svmlight file holds one row per line: LABEL INDEX:VALUE …)", name)
	}
	var err error
	if r.base, err = r.baseOf(); err != nil {
		return err
	}
	r.p = r.o.Features
	if r.p == 0 {
		if !r.sawIndex {
			return fmt.Errorf("%s: no feature in any row (give the number of features to read it as all zero)", name)
		}
		r.p = r.maxIdx + 1 - r.base
	}
	at := fmt.Sprintf("%s: index %d", r.lr.where(r.maxAt), r.maxIdx)
	if r.o.Features > 0 {
		at = fmt.Sprintf("%s: %d features", name, r.p)
	}
	return checkSparseMemory(r.p, nnz, 0, r.o.Budget, at)
}

// build turns the rows read once into sparse columns: a counting pass
// over the indices, then each row's non-zeros put in their columns, in
// row order.
func (r *svmReader) build() (*Sparse, error) {
	if err := r.dims(len(r.cols)); err != nil {
		return nil, err
	}
	n, p, base := len(r.y), r.p, r.base
	start := make([]int, p+1)
	for _, k := range r.cols {
		start[int(k)-base+1]++
	}
	for j := range p {
		start[j+1] += start[j]
	}
	next := append([]int(nil), start[:p]...)
	rows := make([]int32, len(r.cols))
	vals := make([]float64, len(r.cols))
	for i := range n {
		for e := r.start[i]; e < r.start[i+1]; e++ {
			j := int(r.cols[e]) - base
			rows[next[j]], vals[next[j]] = int32(i), r.vals[e]
			next[j]++
		}
	}
	r.cols, r.vals, r.start = nil, nil, nil
	return r.sparse(start, rows, vals)
}

// prepare sizes the columns from the first pass's counts, for the second
// to fill.
func (r *svmReader) prepare() error {
	if err := r.dims(r.nnz); err != nil {
		return err
	}
	r.cscStart = make([]int, r.p+1)
	for k, c := range r.counts {
		r.cscStart[k-r.base+1] = c // k ≥ base: an index below it was refused
	}
	r.counts = nil
	for j := range r.p {
		r.cscStart[j+1] += r.cscStart[j]
	}
	r.next = append([]int(nil), r.cscStart[:r.p]...)
	r.rows, r.cscVals = make([]int32, r.nnz), make([]float64, r.nnz)
	return nil
}

// finish checks that the second pass filled every column and returns
// the design.
func (r *svmReader) finish() (*Sparse, error) {
	if r.row != len(r.y) {
		return nil, r.changed()
	}
	for j := range r.p {
		if r.next[j] != r.cscStart[j+1] {
			return nil, r.changed()
		}
	}
	r.next = nil
	return r.sparse(r.cscStart, r.rows, r.cscVals)
}

// sparse is the file's design of columns start, rows, vals.
func (r *svmReader) sparse(start []int, rows []int32, vals []float64) (*Sparse, error) {
	x, err := design.FromCSC(len(r.y), r.p, start, rows, vals)
	if err != nil { // built increasing and finite: a bug
		return nil, fmt.Errorf("%s: %v", r.lr.name, err)
	}
	return &Sparse{X: x, Y: r.y, Names: SparseNames(r.p), ZeroBased: r.base == 0,
		Places: Places{path: r.lr.name, runs: r.places}}, nil
}
