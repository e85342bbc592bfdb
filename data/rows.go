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
	// Names are X's columns' names (a factor's dummy columns are
	// NAME=LEVEL), Responses the responses' names.
	Names, Responses []string
	// Factors are the factor predictors, in the file's order, and
	// FactorCols the columns of X holding each one's dummy columns: one
	// per level but the reference, in level order, 1 where the row's
	// level is that level, else 0. X keeps the file's column order, a
	// factor's dummy columns standing where its column stood.
	Factors    []*Factor
	FactorCols [][]int
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
// offsets and fold ids the Spec names. A predictor that holds text, or
// that Spec.Factors names, is a factor (see the package documentation);
// X holds its dummy columns. It refuses a file with no predictor and fold
// ids that are not 1…K with every fold present (FoldColumn).
func ReadRows(path string, spec Spec, o RowsOptions) (*Rows, error) {
	ro := spec.options("reading " + path)
	if o.Check != nil { // at least one row
		spec.widthCheck(&ro, spec.roleColumns()+spec.responseColumns(), func(p int) error { return o.Check(1, p) })
	}
	spec.readFactors(&ro)
	t, err := Read(path, ro)
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
	xcols, err := r.factors(t, &spec, skip, path)
	if err != nil {
		return nil, err
	}
	p := len(r.Names)
	if p <= 0 {
		return nil, NoPredictors(path, t.SepHint())
	}
	if o.Check != nil {
		if err := o.Check(t.Rows(), p); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	r.fill(t, xcols, targets)
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

// factors builds the factors among the predictors (the columns not
// skipped), sets the names of X's columns, and returns the table column
// of each predictor.
func (r *Rows) factors(t *Table, spec *Spec, skip []int, path string) ([]int, error) {
	var xcols []int
	var names []string
	var factors []*Factor
	for j, name := range t.Names() {
		if slices.Contains(skip, j) {
			continue
		}
		var f *Factor
		if t.Text(j) != nil {
			var err error
			if f, err = spec.Factors.buildFactor(path, name, t.Text(j), r.Places.Of); err != nil {
				return nil, err
			}
		}
		xcols, names, factors = append(xcols, j), append(names, name), append(factors, f)
	}
	var err error
	r.Names, r.Factors, r.FactorCols, err = spec.Factors.layout(path, names, factors)
	return xcols, err
}

// layout returns the columns of X of the predictors names (factors[k]
// the factor of predictor k, nil for a numeric one), in order, a
// factor's dummy columns standing where its column stood: their names
// (NAME=LEVEL for a dummy column), the factors and the columns of each.
// It refuses two columns of one name, and a reference (Ref) named for a
// numeric predictor.
func (fs *FactorSpec) layout(path string, names []string, factors []*Factor) ([]string, []*Factor, [][]int, error) {
	var xnames []string
	var fcs []*Factor
	var cols [][]int
	seen := map[string]string{} // X's names, and what each is
	for k, name := range names {
		f := factors[k]
		what, dummies := "the column "+ShortText(name), []string{name}
		if f != nil {
			fcs, cols = append(fcs, f), append(cols, seqFrom(len(xnames), f.Width()))
			what, dummies = "a dummy column of the factor "+ShortText(name), f.DummyNames()
		} else if _, ok := fs.Ref[name]; ok {
			return nil, nil, nil, fmt.Errorf("%s: %s names %s, which is not a factor (name it with %s)", path, flagRef, ShortText(name), flagFactor)
		}
		for _, n := range dummies {
			if other, dup := seen[n]; dup {
				return nil, nil, nil, fmt.Errorf("%s: two columns of X would be named %s (%s and %s): rename one", path, ShortText(n), other, what)
			}
			seen[n] = what
		}
		xnames = append(xnames, dummies...)
	}
	return xnames, fcs, cols, nil
}

// seqFrom is from, from+1, …, n numbers.
func seqFrom(from, n int) []int {
	s := make([]int, n)
	for k := range s {
		s[k] = from + k
	}
	return s
}

// fill builds X from the predictors' columns xcols (factors as their
// dummy columns) and Y from the targets.
func (r *Rows) fill(t *Table, xcols, targets []int) {
	r.X = mat.NewDense(t.Rows(), len(r.Names), nil)
	k, fi := 0, 0
	for _, j := range xcols {
		if t.Text(j) == nil {
			r.X.SetCol(k, t.Col(j))
			k++
			continue
		}
		f := r.Factors[fi]
		for i, c := range f.Codes {
			if d := f.Dummy(c); d >= 0 {
				r.X.Set(i, k+d, 1)
			}
		}
		k += f.Width()
		fi++
	}
	r.Y = t.Dense(targets)
}
