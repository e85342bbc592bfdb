package data

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/cardsparse/cardreg/internal/dataerr"
)

// RowSource gives a data set's rows, one pass at a time, in the same order
// every pass: a file too large for memory, read again for each pass.
type RowSource interface {
	// Pass calls row once per observation with its predictors, response,
	// weight (1 when there are none) and offset (0 when there is none). An
	// error from row or from reading stops the pass and is returned.
	Pass(row func(x []float64, y, w, o float64) error) error
}

// FileSource is a RowSource over a data file: every pass reads the file
// again (in parallel blocks), so the rows are never held. Its predictors
// are the columns read that have no other role in its Spec, numeric: a
// factor (Spec.Factors, or a predictor that holds text) is refused; its
// response is the Spec's first.
type FileSource struct {
	path string
	spec Spec
	// Check, when not nil, is called once the header is read with the
	// number of predictors; its error stops the pass (a memory budget,
	// say).
	Check  func(p int) error
	names  []string // the predictors, in order (known after the first pass)
	target string
	passes int
}

// NewFileSource returns the source of the file at path ("-" for standard
// input, which can be read once only: see OnlyOnce) read as spec says.
func NewFileSource(path string, spec Spec) *FileSource {
	return &FileSource{path: path, spec: spec}
}

// Names are the predictors' names, known after the first pass.
func (s *FileSource) Names() []string { return s.names }

// Target is the response's name, known after the first pass.
func (s *FileSource) Target() string { return s.target }

// Passes counts the passes begun over the file.
func (s *FileSource) Passes() int { return s.passes }

// Scan makes a first pass over the file, which learns the predictors, and
// returns the number of rows; it refuses a file without a predictor.
func (s *FileSource) Scan() (int, error) {
	n := 0
	if err := s.Pass(func([]float64, float64, float64, float64) error { n++; return nil }); err != nil {
		return 0, err
	}
	if len(s.names) == 0 {
		return 0, NoPredictors(s.path, "")
	}
	return n, nil
}

// sourceColumns is where a row's variables are in the columns read.
type sourceColumns struct {
	x       []int
	y, w, o int
	xv      []float64
	spec    *Spec
}

// Pass reads the file once, calling row for every data row. A
// *dataerr.RowError of row is reported with its column (Spec.RowErrorText),
// and every error with the file and line.
func (s *FileSource) Pass(row func(x []float64, y, w, o float64) error) error {
	s.passes++
	c := &sourceColumns{y: -1, w: -1, o: -1, spec: &s.spec}
	ro := s.spec.options(fmt.Sprintf("streaming %s (pass %d)", s.path, s.passes))
	if s.Check != nil {
		s.spec.widthCheck(&ro, s.spec.roleColumns()+s.spec.responseColumns(), s.Check)
	}
	ro.Columns = func(h []string) ([]bool, error) {
		keep, err := s.spec.selectAll(h)
		if err != nil {
			return nil, err
		}
		s.setColumns(c, kept(h, keep))
		if s.Check == nil {
			return keep, nil
		}
		return keep, s.Check(len(c.x))
	}
	if err := s.spec.streamFactors(&ro, func(name string) bool { return slices.Contains(s.names, name) }); err != nil {
		return InFile(s.path, err)
	}
	ro.Row = func(v []float64, _ []string) error {
		return c.row(v, row, s.target)
	}
	_, err := Read(s.path, ro)
	return err
}

// setColumns sets the roles of the columns read, named names.
func (s *FileSource) setColumns(c *sourceColumns, names []string) {
	s.target = s.spec.responses(names)[0]
	s.names = s.names[:0]
	for k, name := range names {
		switch name {
		case s.target:
			c.y = k
		case s.spec.Weights:
			c.w = k
		case s.spec.Offset:
			c.o = k
		case s.spec.FoldID:
		default:
			c.x = append(c.x, k)
			s.names = append(s.names, name)
		}
	}
	c.xv = make([]float64, len(c.x))
}

// row hands one row's values v to fn.
func (c *sourceColumns) row(v []float64, fn func(x []float64, y, w, o float64) error, target string) error {
	for k, j := range c.x {
		c.xv[k] = v[j]
	}
	w, o := 1.0, 0.0
	if c.w >= 0 {
		w = v[c.w]
	}
	if c.o >= 0 {
		o = v[c.o]
	}
	err := fn(c.xv, v[c.y], w, o)
	var re *dataerr.RowError
	if errors.As(err, &re) {
		return errors.New(c.spec.RowErrorText(re, target))
	}
	return err
}

// Explain prefixes an error of a fit from the source with the file's name,
// unless it names it already (a row's error, "FILE:LINE: …", read back
// through the source), and names the column of a *dataerr.RowError found
// after a pass (a weight outweighing the rest) or of a
// *dataerr.ColumnError.
func (s *FileSource) Explain(err error) error {
	if InFile(s.path, err) == err {
		return err
	}
	var re *dataerr.RowError
	if errors.As(err, &re) {
		return fmt.Errorf("%s: data row %d, %s", s.path, re.Row+1, s.spec.RowErrorText(re, s.target))
	}
	var ce *dataerr.ColumnError
	if errors.As(err, &ce) && ce.Col < len(s.names) {
		return fmt.Errorf("%s: column %s: %v", s.path, ShortText(s.names[ce.Col]), ce.Err)
	}
	return fmt.Errorf("%s: %w", s.path, err)
}

// OnlyOnce says what makes the file at path readable once only: standard
// input, or a file that is not a regular file (a pipe); "" when it can be
// read again (a missing file is reported by its first read).
func OnlyOnce(path string) string {
	if path == "-" {
		return "standard input"
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().IsRegular() {
		return ""
	}
	return path + " (not a regular file: a pipe?)"
}
