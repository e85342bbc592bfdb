package data

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/suffstat"
)

// Stats are a data file's sufficient statistics per cross-validation fold,
// read in one pass: O(d²) memory for d variables, whatever the number of
// rows.
type Stats struct {
	// Folds hold each fold's statistics of the variables, the predictors
	// first, then the responses.
	Folds *suffstat.Folds
	// Names are the predictors', Responses the responses' names.
	Names, Responses []string
	// Dropped counts the rows left out for a missing value.
	Dropped int
}

// StatsOptions say how ReadStats deals the rows to folds.
type StatsOptions struct {
	// Folds is the number of folds the rows are dealt to by
	// suffstat.RowFold with Seed (1: none); a Spec.FoldID column sets
	// them instead, as many as its largest value.
	Folds int
	// Seed is RowFold's seed.
	Seed uint64
	// Check, when not nil, is called with the number of variables and of
	// folds before statistics of that size are allocated (a memory budget,
	// say); its error stops the read.
	Check func(vars, folds int) error
}

// ReadStats reads the file at path once, row by row, into per-fold
// statistics of (predictors, responses): the rows are never held. It
// takes numeric predictors only: a factor (Spec.Factors, or a predictor
// that holds text) is refused. Weights
// are checked and scaled as they come (suffstat.WeightScale: only their
// ratios matter), and a variable too large for the sums of squares is
// refused by name.
func ReadStats(path string, spec Spec, o StatsOptions) (*Stats, error) {
	if spec.Offset != "" {
		return nil, errors.New("data: statistics take no offset column")
	}
	r := &statsReader{spec: &spec, opts: o, k: max(o.Folds, 1)}
	if spec.FoldID != "" {
		r.k = 1 // grown to the largest fold seen
	}
	r.rowFolds = suffstat.NewRowFolder(o.Seed, r.k)
	defer r.close()
	ro := spec.options("streaming " + path + " (pass 1 of 1: the statistics)")
	ro.Columns = r.columns
	if o.Check != nil {
		spec.widthCheck(&ro, spec.roleColumns(), func(vars int) error { return o.Check(vars, r.k) })
	}
	if err := spec.streamFactors(&ro, func(name string) bool { return slices.Contains(r.names, name) }); err != nil {
		return nil, InFile(path, err)
	}
	ro.Row = func(v []float64, _ []string) error { return r.add(v) }
	t, err := Read(path, ro)
	if err != nil {
		return nil, err
	}
	if err := r.finish(path); err != nil {
		return nil, err
	}
	return &Stats{Folds: r.folds, Names: r.names, Responses: r.responses, Dropped: t.Dropped()}, nil
}

// statsReader gathers the statistics of ReadStats row by row.
type statsReader struct {
	spec *Spec
	opts StatsOptions
	k    int // folds to start with

	names, responses []string
	order            []int // table column of each variable
	wcol, fcol       int   // of the weights and folds, -1 for none

	folds    *suffstat.Folds
	chunks   []*suffstat.Chunk // each fold's rows, added a block at a time
	rowFolds *suffstat.RowFolder
	z        []float64
	ws       suffstat.WeightSummary
	scale    suffstat.WeightScale
	top      []float64 // each variable's largest magnitude
	row      uint64
}

// columns picks the columns read and sets the variables' roles.
func (r *statsReader) columns(h []string) ([]bool, error) {
	keep, err := r.spec.selectAll(h)
	if err != nil {
		return nil, err
	}
	v := r.spec.Variables(kept(h, keep))
	r.names, r.responses, r.order, r.wcol, r.fcol = v.Names, v.Responses, v.Order, v.Weights, v.FoldID
	return keep, r.check(r.k)
}

// Variables are the roles of the columns of a statistics form.
type Variables struct {
	// Names are the predictors', Responses the responses' names.
	Names, Responses []string
	// Order is the column of each variable, the predictors first, then
	// the responses.
	Order []int
	// Weights and FoldID are the weights' and fold ids' columns, -1 for
	// none.
	Weights, FoldID int
}

// Variables sets the roles of the columns read, named names (in order):
// the responses, the weights and the fold ids, and the predictors, every
// other column.
func (s *Spec) Variables(names []string) Variables {
	v := Variables{Responses: s.responses(names), Weights: -1, FoldID: -1}
	for c, name := range names {
		if !slices.Contains(v.Responses, name) && name != s.Weights && name != s.FoldID {
			v.Order = append(v.Order, c)
			v.Names = append(v.Names, name)
		}
	}
	for _, name := range v.Responses {
		v.Order = append(v.Order, slices.Index(names, name))
	}
	if s.Weights != "" {
		v.Weights = slices.Index(names, s.Weights)
	}
	if s.FoldID != "" {
		v.FoldID = slices.Index(names, s.FoldID)
	}
	return v
}

// check calls Check for k folds.
func (r *statsReader) check(k int) error {
	if r.opts.Check == nil {
		return nil
	}
	return r.opts.Check(len(r.order), k)
}

// add adds one row's values v (in table order) to its fold.
func (r *statsReader) add(v []float64) error {
	if r.folds == nil {
		r.folds = suffstat.NewFolds(r.k, len(r.order))
		r.z, r.top = make([]float64, len(r.order)), make([]float64, len(r.order))
		for _, m := range r.folds.Fold {
			r.chunks = append(r.chunks, suffstat.NewChunk(m, suffstat.DefaultBlock))
		}
	}
	for i, c := range r.order {
		r.z[i] = v[c]
		r.top[i] = math.Max(r.top[i], math.Abs(r.z[i]))
	}
	w, err := r.weight(v)
	if err != nil {
		return err
	}
	fold, err := r.fold(v)
	if err != nil {
		return err
	}
	r.chunks[fold].Add(r.z, w)
	r.row++
	return nil
}

// weight checks and scales the row's weight (1 without weights).
func (r *statsReader) weight(v []float64) (float64, error) {
	if r.wcol < 0 {
		return 1, nil
	}
	if err := suffstat.ValidWeight(v[r.wcol]); err != nil {
		return 0, columnError(r.spec.Weights, err, r.spec.Flags.Weights)
	}
	r.ws.Add(v[r.wcol])
	w, shift := r.scale.Scale(v[r.wcol])
	if shift != 0 {
		rescale(r.chunks, r.folds, shift)
	}
	return w, nil
}

// fold is the row's fold: suffstat.RowFold's, or the fold id column's
// (1-based), adding the folds up to it.
func (r *statsReader) fold(v []float64) (int, error) {
	if r.fcol < 0 {
		return r.rowFolds.Fold(r.row), nil
	}
	fold, err := FoldOf(v[r.fcol])
	if err != nil {
		return 0, columnError(r.spec.FoldID, err, r.spec.Flags.FoldID)
	}
	if fold >= len(r.folds.Fold) {
		if err := r.check(fold + 1); err != nil {
			return 0, columnError(r.spec.FoldID, err, r.spec.Flags.FoldID)
		}
	}
	for len(r.folds.Fold) <= fold {
		m := suffstat.New(len(r.order))
		r.folds.Fold = append(r.folds.Fold, m)
		r.chunks = append(r.chunks, suffstat.NewChunk(m, suffstat.DefaultBlock))
	}
	return fold, nil
}

// finish flushes the folds' statistics and checks the weights and the
// variables' magnitudes.
func (r *statsReader) finish(path string) error {
	for _, c := range r.chunks {
		c.Flush()
	}
	if err := r.ws.Check(); r.wcol >= 0 && err != nil {
		return fmt.Errorf("%s: data row %d, %v", path, r.ws.MaxRow+1, columnError(r.spec.Weights, err, r.spec.Flags.Weights))
	}
	wmax := 1.0 // the largest weight as the statistics hold it
	if r.wcol >= 0 {
		wmax = math.Ldexp(r.ws.Max, -r.scale.Exp())
	}
	for j, m := range r.top {
		if err := suffstat.CheckMagnitude(m, wmax); err != nil {
			name := slices.Concat(r.names, r.responses)[j]
			return fmt.Errorf("%s: column %s: %v: multiply or divide it by a power of ten (unweighted fits in memory rescale by themselves)", path, ShortText(name), err)
		}
	}
	return nil
}

// close releases the chunks' buffers after an error (a no-op once
// flushed).
func (r *statsReader) close() {
	for _, c := range r.chunks {
		c.Close()
	}
}

// rescale multiplies the weights added so far to every fold by 2^shift,
// once the chunks have added them: their WeightScale moved.
func rescale(chunks []*suffstat.Chunk, folds *suffstat.Folds, shift int) {
	for _, c := range chunks {
		c.Flush()
	}
	for _, m := range folds.Fold {
		m.ScaleExp(shift)
	}
}

// maxFolds bounds the fold ids.
const maxFolds = 1000

// FoldOf reads one fold id: an integer 1…1000, returned 0-based.
func FoldOf(v float64) (int, error) {
	if v != math.Trunc(v) || v < 1 || v > maxFolds {
		return 0, fmt.Errorf("fold ids must be integers from 1 to %d, found %v", maxFolds, v)
	}
	return int(v) - 1, nil
}

// FoldColumn reads the fold id column col, named name, of the file at
// path into 0-based folds, place naming where a data row is in the file
// (Table.Place); every fold from 1 to its largest value must be present.
// Messages end with " (FLAG)" for a flag named.
func FoldColumn(col []float64, path, name, flag string, place func(int) string) ([]int, error) {
	out := make([]int, len(col))
	seen := map[int]bool{}
	k := 0
	for i, v := range col {
		f, err := FoldOf(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", place(i), columnError(name, err, flag))
		}
		out[i], seen[f], k = f, true, max(k, f+1)
	}
	for f := range k {
		if !seen[f] {
			return nil, fmt.Errorf("%s: %v", path, columnError(name, fmt.Errorf("fold %d of 1…%d has no rows", f+1, k), flag))
		}
	}
	return out, nil
}
