package data

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

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
// are the columns read that have no other role in its Spec; a factor
// (Spec.Factors, or a predictor that holds text) enters as its dummy
// columns (one per level but the reference, in level order, where its
// column stands, as in Rows.X), built row by row: the levels are learned
// by the first pass (Scan), which counts each level's rows and weights,
// and the later passes read each row's level as its dummies, a level the
// first pass did not see being an error (the file changed). Its response
// is the Spec's first.
type FileSource struct {
	path string
	spec Spec
	// Check, when not nil, is called once the header is read with the
	// number of predictors (the factors' columns before their levels are
	// known: Scan calls it again with the dummy columns); its error stops
	// the pass (a memory budget, say).
	Check func(p int) error
	// names are the predictors, in order (a factor's dummy columns
	// NAME=LEVEL), known after the first pass.
	names  []string
	target string
	passes int
	// learned says the first pass is done: cols are the predictor
	// columns it read, factors the factor of each (nil for a numeric
	// one), and facs and facCols the factors in order and their columns
	// among the predictors (as Rows.Factors and Rows.FactorCols).
	learned bool
	rows    int
	cols    []string
	factors []*Factor
	facs    []*Factor
	facCols [][]int
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

// Factors are the factor predictors, in the file's order, and the
// columns of each one's dummies among the predictors (as Rows.Factors
// and Rows.FactorCols), known after the first pass; a factor's Counts
// and Mass are its levels' rows and weights, and it has no Codes.
func (s *FileSource) Factors() ([]*Factor, [][]int) { return s.facs, s.facCols }

// Scan makes a first pass over the file, which learns the predictors and
// the factors' levels, and returns the number of rows; it refuses a file
// without a predictor, and checks Check on the predictors' number with
// the factors' dummy columns.
func (s *FileSource) Scan() (int, error) {
	n := 0
	if err := s.Pass(func([]float64, float64, float64, float64) error { n++; return nil }); err != nil {
		return 0, err
	}
	if len(s.names) == 0 {
		return 0, NoPredictors(s.path, "")
	}
	if s.Check != nil && len(s.facs) > 0 {
		if err := s.Check(len(s.names)); err != nil {
			return 0, InFile(s.path, err)
		}
	}
	return n, nil
}

// sourceColumns is where a row's variables are in the columns read.
type sourceColumns struct {
	// x are the predictors' columns, xnames their names; at is where
	// each predictor's first value goes in xv, fac its factor (nil for a
	// numeric one) once the levels are known, build its factor being
	// learned (the first pass).
	x       []int
	xnames  []string
	at      []int
	fac     []*Factor
	build   []*factorBuild
	y, w, o int
	xv      []float64
	spec    *Spec
	rows    int
}

// Pass reads the file once, calling row for every data row. A
// *dataerr.RowError of row is reported with its column (Spec.RowErrorText),
// and every error with the file and line. The first pass over a file
// with factors learns their levels and hands row a nil x (Scan makes that
// pass).
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
		if err := s.setColumns(c, kept(h, keep)); err != nil {
			return nil, err
		}
		if s.Check == nil {
			return keep, nil
		}
		return keep, s.Check(max(len(c.x), len(s.names)))
	}
	s.readFactors(&ro, c)
	ro.Row = func(v []float64, text []string) error {
		return c.row(v, text, row, s.target)
	}
	if _, err := Read(s.path, ro); err != nil {
		return err
	}
	if !s.learned {
		return s.learn(c)
	}
	if len(s.facs) > 0 && c.rows != s.rows {
		return fmt.Errorf("%s: pass %d over the file read %d rows, the first pass %d: the file changed between passes", s.path, s.passes, c.rows, s.rows)
	}
	return nil
}

// readFactors sets o to read the factors: on the first pass those Spec
// names and the predictors found to hold text (each then learned); on
// the later ones the factors the first pass found, any other predictor
// that holds text being an error.
func (s *FileSource) readFactors(o *Options, c *sourceColumns) {
	o.NALevel = s.spec.Factors.NALevel
	if !s.learned {
		o.Factors = s.spec.Factors.named
		o.MayBeFactor = func(name string) bool { return slices.Contains(c.xnames, name) }
		o.FactorFound = func(name string) error {
			k := slices.Index(c.xnames, name)
			c.build[k] = s.spec.Factors.newStreamBuild(name)
			return nil
		}
		return
	}
	isFactor := func(name string) bool {
		k := slices.Index(s.cols, name)
		return k >= 0 && s.factors[k] != nil
	}
	o.Factors = isFactor
	o.MayBeFactor = func(name string) bool { return slices.Contains(s.cols, name) && !isFactor(name) }
	o.FactorFound = func(name string) error {
		return fmt.Errorf("column %s holds text in pass %d over the file, and numbers only in the first: the file changed between passes", ShortText(name), s.passes)
	}
}

// setColumns sets the roles of the columns read, named names: on the
// first pass it notes the predictors and starts the factors Spec names;
// on the later ones it refuses other predictors than the first pass's
// (the file changed).
func (s *FileSource) setColumns(c *sourceColumns, names []string) error {
	s.target = s.spec.responses(names)[0]
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
			c.xnames = append(c.xnames, name)
		}
	}
	if !s.learned {
		s.names, c.build = c.xnames, make([]*factorBuild, len(c.x))
		for k, name := range c.xnames {
			if s.spec.Factors.named(name) {
				c.build[k] = s.spec.Factors.newStreamBuild(name)
			}
		}
		return s.spec.Factors.check(c.xnames, s.spec.roles(names))
	}
	if !slices.Equal(c.xnames, s.cols) {
		return fmt.Errorf("pass %d over the file reads the predictors %s, the first read %s: the file changed between passes",
			s.passes, strings.Join(c.xnames, ", "), strings.Join(s.cols, ", "))
	}
	c.fac, c.at = s.factors, make([]int, len(c.x))
	p := 0
	for k, f := range c.fac {
		c.at[k] = p
		p++
		if f != nil {
			p += f.Width() - 1
		}
	}
	c.xv = make([]float64, p)
	return nil
}

// newStreamBuild starts the factor of column name read by a stream,
// which refuses a level past MaxLevels as soon as it is seen.
func (fs *FactorSpec) newStreamBuild(name string) *factorBuild {
	b := fs.newBuild(name)
	b.most = fs.maxLevels()
	return b
}

// learn ends the first pass: it builds the factors from the levels seen
// (the rules of FactorSpec, as for the rows in memory) and lays out the
// predictors' columns.
func (s *FileSource) learn(c *sourceColumns) error {
	s.factors = make([]*Factor, len(c.x))
	place := Places{path: InputName(s.path)}.Of // "FILE: data row N"
	for k, b := range c.build {
		if b == nil {
			continue
		}
		f, err := b.finish(&s.spec.Factors, s.path, c.rows, place)
		if err != nil {
			return err
		}
		s.factors[k] = f
	}
	names, facs, cols, err := s.spec.Factors.layout(s.path, c.xnames, s.factors)
	if err != nil {
		return err
	}
	s.learned, s.rows, s.cols, s.names, s.facs, s.facCols = true, c.rows, c.xnames, names, facs, cols
	return nil
}

// row hands one row's values v (text: its factors' cells) to fn: its
// predictors' values, a factor's as its dummy columns; on the first pass
// over a file with factors it learns their levels and hands a nil x.
func (c *sourceColumns) row(v []float64, text []string, fn func(x []float64, y, w, o float64) error, target string) error {
	w, o := 1.0, 0.0
	if c.w >= 0 {
		w = v[c.w]
	}
	if c.o >= 0 {
		o = v[c.o]
	}
	x, err := c.predictors(v, text, w)
	c.rows++
	if err != nil {
		return err
	}
	err = fn(x, v[c.y], w, o)
	var re *dataerr.RowError
	if errors.As(err, &re) {
		return errors.New(c.spec.RowErrorText(re, target))
	}
	return err
}

// predictors are the row's predictors: v's, with each factor's dummy
// columns from its cell in text once the levels are known; nil while
// they are learned, the row's levels counted with its weight w.
func (c *sourceColumns) predictors(v []float64, text []string, w float64) ([]float64, error) {
	if c.fac == nil {
		return c.learnRow(v, text, w)
	}
	for k, j := range c.x {
		f, at := c.fac[k], c.at[k]
		if f == nil {
			c.xv[at] = v[j]
			continue
		}
		code, ok := f.Code(text[j])
		if !ok {
			return nil, fmt.Errorf("column %s: level %s was not seen by the first pass over the file (which found %d levels: %s): the file changed between passes",
				ShortText(f.Name), ShortText(text[j]), len(f.Levels), someLevels(f.Levels))
		}
		clear(c.xv[at : at+f.Width()])
		if d := f.Dummy(code); d >= 0 {
			c.xv[at+d] = 1
		}
	}
	return c.xv, nil
}

// learnRow counts the levels of a row of the first pass (weight w), and
// returns its predictors when there is no factor (nil otherwise).
func (c *sourceColumns) learnRow(v []float64, text []string, w float64) ([]float64, error) {
	factors := false
	for k, b := range c.build {
		if b == nil {
			continue
		}
		factors = true
		_, err := b.add(text[c.x[k]], c.rows, w)
		if errors.Is(err, errTooManyLevels) {
			return nil, c.spec.Factors.tooManyLevels("column "+ShortText(b.f.Name), fmt.Sprintf("more than %d", b.most))
		}
		if err != nil {
			return nil, fmt.Errorf("column %s: %v", ShortText(b.f.Name), err)
		}
	}
	if factors {
		return nil, nil
	}
	if len(c.xv) != len(c.x) {
		c.xv = make([]float64, len(c.x))
	}
	for k, j := range c.x {
		c.xv[k] = v[j]
	}
	return c.xv, nil
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
