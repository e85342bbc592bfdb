package data

import (
	"bytes"
	"fmt"
	"io"

	"github.com/cardsparse/cardreg/design"
)

// ReadSVMLight reads an svmlight (libsvm) file, plain or gzip-compressed
// (told by its magic bytes), or standard input ("-"), into memory: the
// labels and the design as sparse columns, built from the rows through a
// compressed-sparse-row copy (twelve bytes per non-zero) without a dense
// matrix. The format, one row a line:
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
	in, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	if in.parquet {
		return nil, fmt.Errorf("%s: looks like a Parquet file, expected svmlight text", in.name)
	}
	r := &svmReader{lr: lineReader{br: in.r, name: in.name, max: lineLimit(o.Budget)}, o: o, start: []int{0}}
	if o.Features < 0 {
		return nil, fmt.Errorf("%s: %d features: must be >= 1 (0: the largest index)", in.name, o.Features)
	}
	if err := checkSparseMemory(o.Features, 0, 0, o.Budget, fmt.Sprintf("%s: %d features", in.name, o.Features)); err != nil {
		return nil, err
	}
	if err := r.read(); err != nil {
		return nil, err
	}
	return r.build()
}

// svmReader reads an svmlight file into compressed sparse rows.
type svmReader struct {
	lr lineReader
	o  SparseOptions
	// y are the labels; start, cols (indices as in the file) and vals
	// the rows' non-zeros.
	y     []float64
	start []int
	cols  []int32
	vals  []float64
	// places says on which line each row is.
	places []rowPlace
	// maxIdx is the largest index seen and maxAt where; zeroAt where the
	// first index 0 is, atP where the first index equal to Features is
	// ("" when none).
	maxIdx             int
	maxAt, zeroAt, atP place
	sawIndex           bool
	fs                 []field
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
	row := len(r.y)
	if row >= maxIndex {
		return fmt.Errorf("%s:%d: more than %d rows", r.lr.name, r.lr.line, maxIndex)
	}
	if k := len(r.places); k == 0 || r.places[k-1].at+row-r.places[k-1].row != r.lr.line {
		r.places = append(r.places, rowPlace{row, r.lr.line})
	}
	r.y = append(r.y, label)
	r.start = append(r.start, len(r.cols))
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
		r.cols = append(r.cols, int32(k))
		r.vals = append(r.vals, v)
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
	if !r.sawIndex || k > r.maxIdx {
		r.maxIdx, r.maxAt, r.sawIndex = k, here, true
	}
	return nil
}

// base decides the file's base.
func (r *svmReader) base() (int, error) {
	zero := r.o.Base == Base0 || r.o.Base == BaseAuto && r.zeroAt.line > 0
	if !zero {
		return 1, nil
	}
	if r.atP.line > 0 { // only with BaseAuto: Base0 refused it as read
		return 0, fmt.Errorf("%s: index %d beyond the %d features of a 0-based file (index 0 at %s makes it 0-based)", r.lr.where(r.atP), r.o.Features, r.o.Features, r.lr.where(r.zeroAt))
	}
	return 0, nil
}

// build turns the rows into sparse columns: a counting pass over the
// indices, then each row's non-zeros put in their columns, in row order.
func (r *svmReader) build() (*Sparse, error) {
	name := r.lr.name
	n := len(r.y)
	if n == 0 {
		return nil, fmt.Errorf("%s: no rows (an svmlight file holds one row per line: LABEL INDEX:VALUE …)", name)
	}
	base, err := r.base()
	if err != nil {
		return nil, err
	}
	p := r.o.Features
	if p == 0 {
		if !r.sawIndex {
			return nil, fmt.Errorf("%s: no feature in any row (give the number of features to read it as all zero)", name)
		}
		p = r.maxIdx + 1 - base
	}
	at := fmt.Sprintf("%s: index %d", r.lr.where(r.maxAt), r.maxIdx)
	if r.o.Features > 0 {
		at = fmt.Sprintf("%s: %d features", name, p)
	}
	if err := checkSparseMemory(p, len(r.cols), 0, r.o.Budget, at); err != nil {
		return nil, err
	}
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
	x, err := design.FromCSC(n, p, start, rows, vals)
	if err != nil { // built increasing and finite: a bug
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &Sparse{X: x, Y: r.y, Names: sparseNames(p), ZeroBased: base == 0,
		Places: Places{path: name, runs: r.places}}, nil
}
