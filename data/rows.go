package data

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Rows are a data file's rows in memory, split by role.
type Rows struct {
	// X holds the predictors (n×p), Y the responses (n×q).
	X, Y *mat.Dense
	// Weights and Offset are the weights' and offsets' columns, nil when
	// the Spec names none.
	Weights, Offset []float64
	// FoldID holds each row's fold (0-based), nil without Spec.FoldID.
	FoldID []int
	// Names are the predictors', Responses the responses' names.
	Names, Responses []string
	// Dropped counts the rows left out for a missing value.
	Dropped int
	// Places says where each row is in the file, for messages.
	Places Places
}

// RowsOptions are the checks of ReadRows.
type RowsOptions struct {
	// Check, when not nil, is called with the rows' and predictors'
	// numbers before X is built (a memory budget, say); its error,
	// prefixed with the file's name, stops the read.
	Check func(n, p int) error
}

// SpecError is an error of a Spec rather than of the data: a response
// named twice.
type SpecError struct {
	// Response is the name given twice.
	Response string
}

// Error names the response given twice.
func (e *SpecError) Error() string {
	return fmt.Sprintf("data: the responses name %q twice", e.Response)
}

// ReadRows reads the file at path into memory: the predictors (every
// column read that has no other role), the responses, and the weights,
// offsets and fold ids the Spec names. It refuses a file with no predictor
// and fold ids that are not 1…K with every fold present (FoldColumn).
func ReadRows(path string, spec Spec, o RowsOptions) (*Rows, error) {
	t, err := Read(path, spec.options("reading "+path))
	if err != nil {
		return nil, err
	}
	r := &Rows{Dropped: t.Dropped(), Places: t.Places(path)}
	targets, err := r.responses(t, &spec)
	if _, ok := err.(*SpecError); ok {
		return nil, err
	}
	if err != nil {
		return nil, InFile(path, err)
	}
	skip := slices.Clone(targets)
	column := func(name string) ([]float64, error) {
		if name == "" {
			return nil, nil
		}
		j, err := t.Index(name)
		skip = append(skip, j)
		return t.Col(j), err
	}
	fold, err := r.roles(t, &spec, column)
	if err != nil {
		return nil, InFile(path, err)
	}
	if spec.FoldID != "" {
		if r.FoldID, err = FoldColumn(fold, path, spec.FoldID, spec.Flags.FoldID, r.Places.Of); err != nil {
			return nil, err
		}
	}
	p := len(t.Names()) - len(skip)
	if p <= 0 {
		return nil, NoPredictors(path, t.SepHint())
	}
	if o.Check != nil {
		if err := o.Check(t.Rows(), p); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	r.fill(t, skip, targets)
	return r, nil
}

// NoPredictors is the error of a file at path with no predictor column,
// hint ending it (Table.SepHint).
func NoPredictors(path, hint string) error {
	return fmt.Errorf("%s: need at least one predictor column besides the response%s", path, hint)
}

// responses finds the response columns of t.
func (r *Rows) responses(t *Table, spec *Spec) ([]int, error) {
	var targets []int
	for _, name := range spec.responses(t.Names()) {
		k, err := t.Index(name)
		if err != nil {
			return nil, err
		}
		if slices.Contains(targets, k) {
			return nil, &SpecError{Response: name}
		}
		targets = append(targets, k)
		r.Responses = append(r.Responses, name)
	}
	return targets, nil
}

// roles reads the weights, offsets and fold ids, through column (which
// notes them as no predictors), and returns the fold ids' column.
func (r *Rows) roles(t *Table, spec *Spec, column func(string) ([]float64, error)) ([]float64, error) {
	var err error
	if r.Weights, err = column(spec.Weights); err != nil {
		return nil, err
	}
	if r.Offset, err = column(spec.Offset); err != nil {
		return nil, err
	}
	return column(spec.FoldID)
}

// fill builds X from the columns not skipped and Y from the targets.
func (r *Rows) fill(t *Table, skip, targets []int) {
	var xcols []int
	for j, name := range t.Names() {
		if !slices.Contains(skip, j) {
			xcols = append(xcols, j)
			r.Names = append(r.Names, name)
		}
	}
	r.X, r.Y = t.Dense(xcols), t.Dense(targets)
}
