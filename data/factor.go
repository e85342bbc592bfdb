package data

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"
)

// DefaultMaxLevels is the most levels a factor may have when
// FactorSpec.MaxLevels is 0: a text column with more is most likely an
// identifier, whose dummy columns would fill memory and fit nothing.
const DefaultMaxLevels = 1000

// DefaultMinCount is the fewest rows a factor's level must be seen in when
// FactorSpec.MinCount is 0: the effect of a level seen in one row only
// fits that row's response exactly, and cross-validation leaves it out of
// the fit of the fold that holds it.
const DefaultMinCount = 2

// The command-line flags the factors' messages name.
const (
	flagFactor    = "--factor"
	flagOrdinal   = "--ordinal"
	flagRef       = "--ref"
	flagMaxLevels = "--max-levels"
	flagMinCount  = "--min-count"
)

// Factor is a categorical predictor: one level code per row, and the
// levels' names. Its effect enters a fit as one dummy (0/1) column per
// level but the reference, whose effect is 0 (see Rows.FactorCols).
type Factor struct {
	// Name is the column's.
	Name string
	// Levels are the factor's levels in its order: an Ordering's, else
	// numeric order when every level is a number, else byte-wise
	// lexicographic order; the level NALevel, when missing values are
	// one, comes last unless an Ordering places it.
	Levels []string
	// Ref is the index in Levels of the reference level: by default the
	// most frequent level (ties: the first in Levels), the first level of
	// an ordinal factor; FactorSpec.Ref chooses another.
	Ref int
	// Ordinal says the levels are ordered (FactorSpec.Ordinal).
	Ordinal bool
	// Numeric says the column was named as a factor (FactorSpec.Nominal
	// or Ordinal) and its cells that are numbers are levels by value:
	// "2.0" and "02" are the level "2".
	Numeric bool
	// NALevel says missing values (an empty cell, "NA", "NaN") are the
	// level NALevel.
	NALevel bool
	// Codes hold each row's level, an index into Levels, for the rows
	// kept.
	Codes []int32
	// Counts are the rows of each level, unweighted (whatever the
	// weights).
	Counts []float64
	// Mass holds the weights' sum of each level's rows for a factor
	// read by a stream (FileSource), which holds no Codes; nil otherwise
	// (the rows in memory carry their weights).
	Mass []float64

	// index finds a level's code (nil for a Factor not built here: Code
	// then searches Levels).
	index map[string]int32
	// exact says the levels are names given as they are (FactorFromCodes),
	// not read from cells: Code takes a level exactly as written, and no
	// level is a missing value.
	exact bool
}

// Ordering is an ordinal factor: the column Name, and its levels in
// Order (nil: the natural order, see Factor.Levels).
type Ordering struct {
	Name  string
	Order []string
}

// FactorSpec says which predictors are factors and how. A predictor
// whose cells are text is a factor without being named (see the package
// documentation); the response, weights, offsets and fold ids never are.
type FactorSpec struct {
	// Nominal names numeric-coded columns read as nominal factors
	// (--factor NAME): their cells that are numbers must be integers, and
	// the levels print as the integers.
	Nominal []string
	// Ordinal names ordinal factors (--ordinal NAME[=l1,l2,…]), numeric
	// or text; an Order must hold every level seen, once, and only those.
	Ordinal []Ordering
	// Ref names the reference level of a factor by its name (--ref
	// NAME=LEVEL).
	Ref map[string]string
	// NALevel reads a factor's missing values (an empty cell, "NA" or
	// "NaN" in any case, a Parquet null) as the level NALevel
	// (--na-level); else they are an error, or their rows are left out
	// with Spec.DropMissing.
	NALevel bool
	// MaxLevels refuses a factor with more levels (probably an
	// identifier); 0 means DefaultMaxLevels.
	MaxLevels int
	// MinCount refuses a level seen in fewer rows; 0 means
	// DefaultMinCount (1 takes every level).
	MinCount int
}

// Width is the number of the factor's dummy columns: one per level but
// the reference.
func (f *Factor) Width() int { return len(f.Levels) - 1 }

// Dummy is the dummy column (0 … Width()-1) of level code c, -1 for the
// reference level.
func (f *Factor) Dummy(c int32) int {
	switch r := int32(f.Ref); {
	case c < r:
		return int(c)
	case c > r:
		return int(c) - 1
	}
	return -1
}

// DummyNames are the names of the dummy columns, NAME=LEVEL, in level
// order skipping the reference.
func (f *Factor) DummyNames() []string {
	var names []string
	for c, l := range f.Levels {
		if c != f.Ref {
			names = append(names, f.Name+"="+l)
		}
	}
	return names
}

// Code returns the code of a level given as a cell would hold it
// (trimmed; a number by value for a Numeric factor; a missing value as
// NALevel when that is a level), and false when it is not a level. The
// level of a factor from codes (FactorFromCodes) is taken exactly as
// written: " a ", "" and "NA" are levels like any other.
func (f *Factor) Code(level string) (int32, bool) {
	s, err := level, error(nil)
	if !f.exact {
		s, err = f.canon(strings.TrimSpace(level), false)
	}
	if err != nil {
		return 0, false
	}
	if f.index != nil {
		c, ok := f.index[s]
		return c, ok
	}
	c := slices.Index(f.Levels, s)
	return int32(c), c >= 0
}

// canon is a cell's level: NALevel for a missing value when that is one
// ("" otherwise), and for a Numeric factor a number's shortest decimal,
// which must be an integer when integer is true.
func (f *Factor) canon(s string, integer bool) (string, error) {
	if MissingLevel(s) {
		if f.NALevel {
			return NALevel, nil
		}
		return "", nil
	}
	if !f.Numeric {
		return s, nil
	}
	v, err := ParseNumber([]byte(s))
	if err != nil {
		return s, nil // a text level among the codes
	}
	if integer && v != math.Trunc(v) {
		return "", fmt.Errorf("%s is not an integer (%s reads integer codes; a column of text is a factor without it)", ShortText(s), flagFactor)
	}
	return strconv.FormatFloat(v, 'f', -1, 64), nil
}

// DummyOptions say how Factor.Dummies reads the levels of new rows.
type DummyOptions struct {
	// UnseenAsRef reads a level the factor does not have as its reference
	// level instead of refusing it.
	UnseenAsRef bool
	// UnseenHint, when not empty, ends the message of an unseen level
	// (the option that sets UnseenAsRef, say).
	UnseenHint string
	// Place names where row i is, as messages start ("FILE:LINE", see
	// Places.Of); nil names it "row i+1".
	Place func(i int) string
}

// Dummies returns the dummy columns of new rows whose levels are cells,
// for prediction: a len(cells)×Width() matrix, row i holding 1 in the
// column of its level (Dummy) and 0 elsewhere. A level the factor does not
// have, or a missing value when NALevel is not one, is an error naming the
// row, the column and the level, unless UnseenAsRef. It panics when the
// factor has fewer than two levels or cells is empty.
func (f *Factor) Dummies(cells []string, o DummyOptions) (*mat.Dense, error) {
	x := mat.NewDense(len(cells), f.Width(), nil)
	place := o.Place
	if place == nil {
		place = func(i int) string { return fmt.Sprintf("row %d", i+1) }
	}
	for i, s := range cells {
		c, _, err := f.Level(s, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", place(i), err)
		}
		if k := f.Dummy(c); k >= 0 {
			x.Set(i, k, 1)
		}
	}
	return x, nil
}

// Level returns the code of a new row's level, cell, as Dummies reads it,
// and whether the factor does not have that level (unseen), which is read
// as the reference with o.UnseenAsRef and is otherwise an error naming the
// column and the level (not the row: o.Place is for Dummies). A missing
// value is an error when NALevel is not a level, whatever o says.
func (f *Factor) Level(cell string, o DummyOptions) (c int32, unseen bool, err error) {
	c, ok := f.Code(cell)
	if ok {
		return c, false, nil
	}
	s := strings.TrimSpace(cell)
	if f.exact {
		s = cell
	} else if !f.NALevel && MissingLevel(s) {
		return 0, false, fmt.Errorf("column %s: missing value %s (the fit's data had none: the factor has no level for it)",
			ShortText(f.Name), ShortText(s))
	}
	if !o.UnseenAsRef {
		return 0, true, fmt.Errorf("column %s: level %s is not one of the factor's %d levels (%s)%s",
			ShortText(f.Name), ShortText(s), len(f.Levels), someLevels(f.Levels), o.UnseenHint)
	}
	return int32(f.Ref), true, nil
}

// NewFactor returns a factor of the column name for reading the levels of
// new rows (Code, Level, Dummies): one saved with a model, say. Its levels
// are in order, levels[ref] is the reference, and each level must be one
// a data file's cell can give (see Factor.Code): trimmed, not empty,
// valid UTF-8, a missing value only as NALevel when naLevel, for a
// numeric factor a number as its shortest decimal; no level twice, at
// least two levels. It has no Codes or Counts.
func NewFactor(name string, levels []string, ref int, ordinal, numeric, naLevel bool) (*Factor, error) {
	f := &Factor{Name: name, Levels: levels, Ref: ref, Ordinal: ordinal, Numeric: numeric, NALevel: naLevel}
	col := "column " + ShortText(name)
	for _, l := range levels {
		if s, err := f.canon(strings.TrimSpace(l), false); err != nil || s != l || l == "" || !utf8.ValidString(l) {
			return nil, fmt.Errorf("%s: level %s is not one a data file's cell gives (cells are read trimmed of spaces, not empty, a missing value only as %s with --na-level, a number of a --factor column as its shortest decimal): the model file was edited?",
				col, ShortText(l), NALevel)
		}
	}
	return f, f.buildIndex()
}

// buildIndex checks f's levels and reference, then builds the index of its
// levels: at least two levels, none twice, each valid UTF-8 (a name that
// JSON, the results' format, would change).
func (f *Factor) buildIndex() error {
	col := "column " + ShortText(f.Name)
	if len(f.Levels) < 2 {
		return fmt.Errorf("%s: %d level(s), a factor has at least two", col, len(f.Levels))
	}
	if f.Ref < 0 || f.Ref >= len(f.Levels) {
		return fmt.Errorf("%s: reference %d is not one of the levels 0 to %d", col, f.Ref, len(f.Levels)-1)
	}
	f.index = make(map[string]int32, len(f.Levels))
	for c, l := range f.Levels {
		if !utf8.ValidString(l) {
			return fmt.Errorf("%s: level %s is not UTF-8", col, ShortText(l))
		}
		if _, dup := f.index[l]; dup {
			return fmt.Errorf("%s: level %s appears twice", col, ShortText(l))
		}
		f.index[l] = int32(c)
	}
	return nil
}

// someLevels lists the first levels, for messages.
func someLevels(levels []string) string {
	const most = 10
	quoted := make([]string, 0, most+1)
	for _, l := range levels[:min(len(levels), most)] {
		quoted = append(quoted, ShortText(l))
	}
	if len(levels) > most {
		quoted = append(quoted, "…")
	}
	return strings.Join(quoted, ", ")
}

// maxLevels is MaxLevels or its default.
func (fs *FactorSpec) maxLevels() int {
	if fs.MaxLevels > 0 {
		return fs.MaxLevels
	}
	return DefaultMaxLevels
}

// minCount is MinCount or its default.
func (fs *FactorSpec) minCount() int {
	if fs.MinCount > 0 {
		return fs.MinCount
	}
	return DefaultMinCount
}

// ordering is the Ordering of the column name, nil when it is not ordinal.
func (fs *FactorSpec) ordering(name string) *Ordering {
	for i := range fs.Ordinal {
		if fs.Ordinal[i].Name == name {
			return &fs.Ordinal[i]
		}
	}
	return nil
}

// named reports whether the spec names the column as a factor.
func (fs *FactorSpec) named(name string) bool {
	return slices.Contains(fs.Nominal, name) || fs.ordering(name) != nil
}

// any reports whether the spec names a factor or a reference.
func (fs *FactorSpec) any() bool {
	return len(fs.Nominal) > 0 || len(fs.Ordinal) > 0 || len(fs.Ref) > 0
}

// check refuses a name that is not among the predictors, names the
// column of another role (roles, by name), or both a nominal and an
// ordinal factor.
func (fs *FactorSpec) check(predictors []string, roles map[string]string) error {
	which := func(flag, name string) error {
		if role, ok := roles[name]; ok {
			return fmt.Errorf("%s names %s, the %s, which is never a factor", flag, ShortText(name), role)
		}
		if !slices.Contains(predictors, name) {
			return fmt.Errorf("%s: no predictor named %s (predictors: %s)", flag, ShortText(name), strings.Join(predictors, ", "))
		}
		return nil
	}
	for _, name := range fs.Nominal {
		if err := which(flagFactor, name); err != nil {
			return err
		}
	}
	for i, o := range fs.Ordinal {
		if err := which(flagOrdinal, o.Name); err != nil {
			return err
		}
		if slices.Contains(fs.Nominal, o.Name) {
			return fmt.Errorf("%s names both %s and %s: a factor is nominal or ordinal", ShortText(o.Name), flagFactor, flagOrdinal)
		}
		if slices.ContainsFunc(fs.Ordinal[:i], func(p Ordering) bool { return p.Name == o.Name }) {
			return fmt.Errorf("%s names %s twice", flagOrdinal, ShortText(o.Name))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(fs.Ref)) {
		if err := which(flagRef, name); err != nil {
			return err
		}
	}
	return nil
}

// factorBuild gathers a factor's levels from its cells, one at a time:
// the rows in memory (buildFactor) or streamed (a FileSource's first
// pass).
type factorBuild struct {
	f     *Factor
	ord   *Ordering
	seen  []string // levels in order of appearance
	first []int    // the row each is first seen in
	// most, when positive, refuses a level past that many as soon as it
	// is seen (a stream, which holds no cells to count at the end).
	most int
}

// newBuild starts the factor of column name.
func (fs *FactorSpec) newBuild(name string) *factorBuild {
	ord := fs.ordering(name)
	f := &Factor{Name: name, Ordinal: ord != nil, Numeric: fs.named(name), NALevel: fs.NALevel, index: map[string]int32{}}
	return &factorBuild{f: f, ord: ord}
}

// add reads cell s of row i (its weight w) and returns its code so far
// (levels in order of appearance).
func (b *factorBuild) add(s string, i int, w float64) (int32, error) {
	f := b.f
	s, err := f.canon(s, b.ord == nil)
	if err != nil {
		return 0, err
	}
	c, ok := f.index[s]
	if !ok {
		if b.most > 0 && len(b.seen) == b.most {
			return 0, errTooManyLevels
		}
		c = int32(len(b.seen))
		f.index[s] = c
		b.seen, b.first = append(b.seen, s), append(b.first, i)
		f.Counts, f.Mass = append(f.Counts, 0), append(f.Mass, 0)
	}
	f.Counts[c]++
	f.Mass[c] += w
	return c, nil
}

// errTooManyLevels stops a stream at a level past FactorSpec.MaxLevels.
var errTooManyLevels = errors.New("too many levels")

// tooManyLevels is the error of a factor of column col with more levels
// (count: a number, or "more than N") than FactorSpec allows.
func (fs *FactorSpec) tooManyLevels(col, count string) error {
	return fmt.Errorf("%s has %s levels: probably an ID column; --drop it, or raise %s (now %d)", col, count, flagMaxLevels, fs.maxLevels())
}

// buildFactor makes the factor of column name from its cells (the rows
// kept), place naming where a row is in the file at path. It checks the
// rules of FactorSpec: integer codes, the levels' number and counts, the
// ordering and the reference.
func (fs *FactorSpec) buildFactor(path, name string, cells []string, place func(int) string) (*Factor, error) {
	b := fs.newBuild(name)
	col := "column " + ShortText(name)
	codes := make([]int32, len(cells))
	for i, s := range cells {
		c, err := b.add(s, i, 1)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", place(i), col, err)
		}
		codes[i] = c
	}
	b.f.Codes, b.f.Mass = codes, nil
	return b.finish(fs, path, len(cells), place)
}

// finish checks the levels gathered from n rows against the rules of
// FactorSpec (their number and counts, the ordering), puts them in order
// and sets the reference; place names where a row is in the file at path.
func (b *factorBuild) finish(fs *FactorSpec, path string, n int, place func(int) string) (*Factor, error) {
	f := b.f
	col := "column " + ShortText(f.Name)
	if k := len(b.seen); k > fs.maxLevels() {
		return nil, fmt.Errorf("%s: %w", path, fs.tooManyLevels(col, strconv.Itoa(k)))
	}
	if k := len(b.seen); k == n && k > 2 {
		return nil, fmt.Errorf("%s: %s has a level of its own in every row (%d levels): probably an ID column; --drop it", path, col, k)
	}
	order, err := b.order(b.ord, path, col, place)
	if err != nil {
		return nil, err
	}
	b.recode(order)
	if len(f.Levels) == 1 {
		return nil, fmt.Errorf("%s: %s: one level (%s) only, nothing to estimate (--drop it)", path, col, ShortText(f.Levels[0]))
	}
	if err := fs.checkCounts(f, col, func(c int) string { return place(b.first[c]) }); err != nil {
		return nil, err
	}
	return f, b.reference(fs, path, col)
}

// checkCounts refuses a level of f seen in fewer than MinCount rows, at
// names where level c is first seen.
func (fs *FactorSpec) checkCounts(f *Factor, col string, at func(c int) string) error {
	for c, n := range f.Counts {
		if n < float64(fs.minCount()) {
			return fmt.Errorf("%s: %s: level %s appears in %v row(s), fewer than %d (%s 1 takes it; or merge it with another level, or --drop the column)",
				at(c), col, ShortText(f.Levels[c]), n, fs.minCount(), flagMinCount)
		}
	}
	return nil
}

// FactorFromCodes returns the factor name of rows given as level codes
// rather than cells (an R factor, a pandas categorical: the bindings):
// codes[i] is row i's level, an index into levels, which are in the
// factor's order. A level is any string, valid UTF-8, given once: it was
// never a cell, so nothing about it is trimmed, read as a number or as a
// missing value (" a ", "", "NA" and "1.0" are levels of their own; a
// missing value has no code). Reading the data names them in messages. It
// applies FactorSpec's rules as reading a column does: the number of
// levels (MaxLevels), their counts (MinCount) and the reference (Ref,
// else the default). codes is copied; NALevel is not used.
func FactorFromCodes(name string, levels []string, codes []int32, ordinal bool, fs *FactorSpec) (*Factor, error) {
	col := "column " + ShortText(name)
	if k := len(levels); k > fs.maxLevels() {
		return nil, fmt.Errorf("data: %s has %d levels: probably an ID column; drop it, or raise %s (now %d)", col, k, flagMaxLevels, fs.maxLevels())
	}
	f := &Factor{Name: name, Levels: slices.Clone(levels), Ordinal: ordinal, exact: true}
	if err := f.buildIndex(); err != nil {
		return nil, fmt.Errorf("data: %v", err)
	}
	f.Codes, f.Counts = slices.Clone(codes), make([]float64, len(levels))
	first := make([]int, len(levels))
	for i, c := range f.Codes {
		if c < 0 || int(c) >= len(levels) {
			return nil, fmt.Errorf("data: row %d: %s: level code %d is not one of 0 to %d (a missing value has no level)", i+1, col, c, len(levels)-1)
		}
		if f.Counts[c] == 0 {
			first[c] = i
		}
		f.Counts[c]++
	}
	at := func(c int) string {
		if f.Counts[c] == 0 {
			return "data" // an unused level
		}
		return "data: row " + strconv.Itoa(first[c]+1)
	}
	if err := fs.checkCounts(f, col, at); err != nil {
		return nil, err
	}
	return f, (&factorBuild{f: f}).reference(fs, "data", col)
}

// order returns the levels seen (their codes so far) in the factor's
// order: ord's, else the natural one, NALevel last unless ord places it.
func (b *factorBuild) order(ord *Ordering, path, col string, place func(int) string) ([]int32, error) {
	codes := make([]int32, len(b.seen))
	for c := range codes {
		codes[c] = int32(c)
	}
	na := int32(-1)
	if c, ok := b.f.index[NALevel]; ok && b.f.NALevel {
		na = c
	}
	if ord == nil || ord.Order == nil {
		codes = slices.DeleteFunc(codes, func(c int32) bool { return c == na })
		sortLevels(codes, b.seen)
		if na >= 0 {
			codes = append(codes, na)
		}
		return codes, nil
	}
	pos := map[string]int{}
	for _, l := range ord.Order {
		l, _ = b.f.canon(strings.TrimSpace(l), false)
		if _, dup := pos[l]; dup {
			return nil, fmt.Errorf("%s: %s: %s lists level %s twice", path, col, flagOrdinal, ShortText(l))
		}
		if _, ok := b.f.index[l]; !ok {
			return nil, fmt.Errorf("%s: %s: %s lists level %s, which the column does not hold (levels: %s)", path, col, flagOrdinal, ShortText(l), someLevels(b.seen))
		}
		pos[l] = len(pos)
	}
	for c, l := range b.seen {
		if _, ok := pos[l]; !ok && int32(c) != na {
			return nil, fmt.Errorf("%s: %s: level %s is not in the %s order (%s)", place(b.first[c]), col, ShortText(l), flagOrdinal, someLevels(ord.Order))
		}
	}
	codes = slices.DeleteFunc(codes, func(c int32) bool { return c == na && !hasKey(pos, NALevel) })
	slices.SortFunc(codes, func(a, c int32) int { return pos[b.seen[a]] - pos[b.seen[c]] })
	if na >= 0 && !hasKey(pos, NALevel) {
		codes = append(codes, na)
	}
	return codes, nil
}

func hasKey(m map[string]int, k string) bool { _, ok := m[k]; return ok }

// sortLevels sorts codes by their levels: numerically when every level is
// a number (ties, such as "1" and "1.0", byte-wise), else byte-wise.
func sortLevels(codes []int32, levels []string) {
	nums := make([]float64, len(levels))
	numeric := true
	for _, c := range codes {
		v, err := ParseNumber([]byte(levels[c]))
		nums[c], numeric = v, numeric && err == nil
	}
	slices.SortFunc(codes, func(a, b int32) int {
		if numeric {
			if c := cmp.Compare(nums[a], nums[b]); c != 0 {
				return c
			}
		}
		return strings.Compare(levels[a], levels[b])
	})
}

// recode puts the levels in order (order[new] is the old code) and
// renumbers the rows, the counts and the index.
func (b *factorBuild) recode(order []int32) {
	f := b.f
	to := make([]int32, len(order))
	counts, first := make([]float64, len(order)), make([]int, len(order))
	f.Levels = make([]string, len(order))
	for c, old := range order {
		to[old] = int32(c)
		f.Levels[c], counts[c], first[c] = b.seen[old], f.Counts[old], b.first[old]
		f.index[b.seen[old]] = int32(c)
	}
	for i, c := range f.Codes {
		f.Codes[i] = to[c]
	}
	if f.Mass != nil {
		mass := make([]float64, len(order))
		for c, old := range order {
			mass[c] = f.Mass[old]
		}
		f.Mass = mass
	}
	f.Counts, b.first = counts, first
}

// reference sets the reference level: FactorSpec.Ref's, else the first of
// an ordinal factor, else the most frequent (ties: the first).
func (b *factorBuild) reference(fs *FactorSpec, path, col string) error {
	f := b.f
	if level, ok := fs.Ref[f.Name]; ok {
		c, ok := f.Code(level)
		if !ok {
			return fmt.Errorf("%s: %s: %s level %s is not a level (levels: %s)", path, col, flagRef, ShortText(level), someLevels(f.Levels))
		}
		f.Ref = int(c)
		return nil
	}
	if f.Ordinal {
		f.Ref = 0
		return nil
	}
	for c, n := range f.Counts {
		if n > f.Counts[f.Ref] {
			f.Ref = c
		}
	}
	return nil
}
