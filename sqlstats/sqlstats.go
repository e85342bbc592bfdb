package sqlstats

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/suffstat"
)

// Dialect is what differs between SQL engines in the queries.
type Dialect struct {
	// Name names the engine in messages.
	Name string
	// Quote quotes an identifier.
	Quote func(name string) string
	// Float casts an expression to a double.
	Float func(expr string) string
	// HashFold returns an expression in 0…k−1 from a hash of the
	// expressions keys and a seed.
	HashFold func(keys []string, seed uint64, k int) string
	// NotFinite returns a condition true when expr is NaN or infinite.
	NotFinite func(expr string) string
}

// QuoteTable quotes a table name: "db.table" names table in database db
// (the first dot separates them, each part quoted), any other name one
// table of the current database.
func (d Dialect) QuoteTable(name string) string {
	if db, table, ok := strings.Cut(name, "."); ok {
		return d.Quote(db) + "." + d.Quote(table)
	}
	return d.Quote(name)
}

// CheckTable refuses a table name that QuoteTable would turn into an
// empty identifier: empty, or a database or table part left empty.
func CheckTable(name string) error {
	db, table, ok := strings.Cut(name, ".")
	if name == "" || ok && (db == "" || table == "") {
		return fmt.Errorf("table %q: give NAME or DATABASE.NAME, both parts not empty", name)
	}
	return nil
}

// ClickHouse is the dialect of ClickHouse (tested with 18.16).
var ClickHouse = Dialect{
	Name:  "ClickHouse",
	Quote: func(s string) string { return "`" + strings.ReplaceAll(s, "`", "\\`") + "`" },
	Float: func(e string) string { return "toFloat64(" + e + ")" },
	HashFold: func(keys []string, seed uint64, k int) string {
		return fmt.Sprintf("cityHash64(%d, %s) %% %d", seed, strings.Join(keys, ", "), k)
	},
	NotFinite: func(e string) string { return "NOT isFinite(" + e + ")" },
}

// PostgreSQL is the dialect of PostgreSQL (expected to work, untested).
var PostgreSQL = Dialect{
	Name:  "PostgreSQL",
	Quote: func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` },
	Float: func(e string) string { return "CAST(" + e + " AS double precision)" },
	HashFold: func(keys []string, seed uint64, k int) string {
		return fmt.Sprintf("mod(abs(hashtextextended(concat_ws('|', %s), %d)), %d)", strings.Join(keys, ", "), int64(seed>>1), k)
	},
	NotFinite: func(e string) string {
		return "(" + e + " = 'NaN'::float8 OR " + e + " IN ('Infinity'::float8, '-Infinity'::float8))"
	},
}

// DuckDB is the dialect of DuckDB (expected to work, untested).
var DuckDB = Dialect{
	Name:  "DuckDB",
	Quote: PostgreSQL.Quote,
	Float: func(e string) string { return "CAST(" + e + " AS DOUBLE)" },
	HashFold: func(keys []string, seed uint64, k int) string {
		return fmt.Sprintf("hash(%d, %s) %% %d", seed, strings.Join(keys, ", "), k)
	},
	NotFinite: func(e string) string { return "NOT isfinite(" + e + ")" },
}

// Querier runs a query and returns its rows as text fields.
type Querier interface {
	Query(ctx context.Context, sql string) ([][]string, error)
}

// Source says which rows and columns to summarise.
type Source struct {
	// Table names a table ("db.table" for one in another database, see
	// Dialect.QuoteTable), or Query is a SELECT whose rows are used (one
	// of the two).
	Table, Query string
	// Columns are the variables, in order: the predictors, then the
	// responses.
	Columns []string
	// Weight names a column of observation weights (≥ 0); empty: 1.
	Weight string
	// Folds is K (1: no cross-validation).
	Folds int
	// FoldColumn names a column holding each row's fold, 1…K (glmnet's
	// foldid). When empty, the fold is a hash of FoldKey (default: every
	// column of the row) with Seed: stable, whatever order the engine
	// scans the rows in.
	FoldColumn string
	FoldKey    []string
	Seed       uint64
	// MaxExprs bounds the sums of one query (0: 2000); the co-moments are
	// split into tiles of columns beyond it.
	MaxExprs int
}

// Compute runs the queries and returns the statistics of each fold.
func Compute(ctx context.Context, q Querier, d Dialect, s Source) (*suffstat.Folds, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	b := builder{d: d, s: s}
	first, err := q.Query(ctx, b.meansQuery())
	if err != nil {
		return nil, fmt.Errorf("sqlstats: the means query: %w", err)
	}
	folds, m, err := b.readMeans(first)
	if errors.Is(err, errBadRows) {
		return nil, b.badValues(ctx, q, err)
	}
	if err != nil {
		return nil, err
	}
	for _, tile := range b.tiles() {
		rows, err := q.Query(ctx, b.momentsQuery(m, tile))
		if err != nil {
			return nil, fmt.Errorf("sqlstats: the co-moments query: %w", err)
		}
		if err := b.readMoments(rows, tile, folds, m); err != nil {
			return nil, err
		}
	}
	b.centre(folds, m)
	return folds, nil
}

func (s Source) check() error {
	switch {
	case (s.Table == "") == (s.Query == ""):
		return errors.New("sqlstats: give a table or a query, not both")
	case s.Table != "" && CheckTable(s.Table) != nil:
		return fmt.Errorf("sqlstats: %v", CheckTable(s.Table))
	case len(s.Columns) < 2:
		return errors.New("sqlstats: need a predictor and a response")
	case s.Folds < 1:
		return fmt.Errorf("sqlstats: %d folds", s.Folds)
	}
	return nil
}

// builder writes the SQL.
type builder struct {
	d Dialect
	s Source
	// shift holds the shifted sums Σw(z − m) of each fold, filled by
	// readMoments.
	shift [][]float64
}

// from is the FROM clause with the rows kept: every variable finite and
// the weight non-negative.
func (b *builder) from() string {
	src := b.d.QuoteTable(b.s.Table)
	if b.s.Query != "" {
		src = "(" + b.s.Query + ") AS cardreg_source"
	}
	return " FROM " + src
}

// z is the expression of variable i as a double.
func (b *builder) z(i int) string { return b.d.Float(b.d.Quote(b.s.Columns[i])) }

// w is the weight expression.
func (b *builder) w() string {
	if b.s.Weight == "" {
		return "1"
	}
	return b.d.Float(b.d.Quote(b.s.Weight))
}

// fold is the expression of a row's fold, 0…K−1.
func (b *builder) fold() string {
	switch {
	case b.s.Folds == 1:
		return "0"
	case b.s.FoldColumn != "":
		return "(" + b.d.Quote(b.s.FoldColumn) + " - 1)"
	}
	keys := b.s.FoldKey
	if len(keys) == 0 {
		keys = b.s.Columns
	}
	quoted := make([]string, len(keys))
	for i, k := range keys {
		quoted[i] = b.d.Quote(k)
	}
	return b.d.HashFold(quoted, b.s.Seed, b.s.Folds)
}

// meansQuery counts the rows, the bad ones, Σw and Σw·z per fold.
func (b *builder) meansQuery() string {
	sel := []string{b.fold() + " AS cardreg_fold", "count(*)", "sum(CASE WHEN " + b.bad() + " THEN 1 ELSE 0 END)",
		"sum(CASE WHEN " + b.w() + " < 0 THEN 1 ELSE 0 END)", "sum(" + b.w() + ")"}
	for i := range b.s.Columns {
		sel = append(sel, "sum("+b.w()+" * "+b.z(i)+")")
	}
	return "SELECT " + strings.Join(sel, ", ") + b.from() + " GROUP BY cardreg_fold ORDER BY cardreg_fold"
}

// bad is the condition of a row holding NULL, NaN or an infinite value in
// a variable, the weight or one of the columns extra.
func (b *builder) bad(extra ...string) string {
	names := append(append(slices.Clone(b.s.Columns), extra...), b.s.Weight)
	var bad []string
	for _, c := range names {
		if c != "" {
			bad = append(bad, b.d.Quote(c)+" IS NULL", b.d.NotFinite(b.d.Float(b.d.Quote(c))))
		}
	}
	return strings.Join(bad, " OR ")
}

// errBadRows marks rows with a NULL, NaN or infinite value, which
// badValues then finds.
var errBadRows = errors.New("rows hold a NULL, NaN or infinite value")

// readMeans reads the first query into per-fold counts, weights and
// means, and returns the provisional mean of all rows. The counts of bad
// rows are read before anything else: a NaN in the data makes the sums
// NaN, and a NULL makes a hashed fold NULL.
func (b *builder) readMeans(rows [][]string) (*suffstat.Folds, []float64, error) {
	dim := len(b.s.Columns)
	folds := suffstat.NewFolds(b.s.Folds, dim)
	m := make([]float64, dim)
	var wAll float64
	for _, row := range rows {
		v, err := floats(row, 5+dim)
		if err != nil {
			return nil, nil, err
		}
		if v[2] > 0 {
			return nil, nil, fmt.Errorf("sqlstats: %.0f %w", v[2], errBadRows)
		}
		if v[3] > 0 {
			return nil, nil, fmt.Errorf("sqlstats: %.0f rows have a negative weight in %s", v[3], b.s.Weight)
		}
		k, err := b.foldOf(v[0], row[0], v[1])
		if err != nil {
			return nil, nil, err
		}
		f := folds.Fold[k]
		f.N, f.W = int64(v[1]), v[4]
		if err := b.finite(v[4:], func(i int) string {
			if i == 0 {
				return "the weights"
			}
			return b.s.Columns[i-1]
		}); err != nil {
			return nil, nil, err
		}
		for i := range dim {
			if f.W > 0 {
				f.Mean[i] = v[5+i] / f.W
			}
			m[i] += v[5+i]
		}
		wAll += f.W
	}
	if !(wAll > 0) {
		return nil, nil, errors.New("sqlstats: no rows (or zero total weight)")
	}
	for i := range m {
		m[i] /= wAll
	}
	b.shift = make([][]float64, b.s.Folds)
	for k := range b.shift {
		b.shift[k] = make([]float64, dim)
	}
	return folds, m, nil
}

// foldOf checks a fold number read back (field: its text) for the n
// rows of its group.
func (b *builder) foldOf(v float64, field string, n float64) (int, error) {
	k := int(v)
	switch {
	case field == null && b.s.FoldColumn != "":
		return 0, &ValueError{Column: b.s.FoldColumn, Nulls: int64(n), Fold: true}
	case field == null:
		return 0, errors.New("sqlstats: a column of the fold key holds NULL")
	case k < 0 || k >= b.s.Folds || float64(k) != v:
		return 0, fmt.Errorf("sqlstats: fold %v out of 1…%d (column %s)", v+1, b.s.Folds, b.s.FoldColumn)
	}
	return k, nil
}

// finite checks sums read back, after the rows were found free of NULL,
// NaN and infinities: a non-finite sum is then an overflow. v[i] is the
// sum of what(i), named only when it overflowed.
func (b *builder) finite(v []float64, what func(i int) string) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("sqlstats: the sum over the rows of %s is %v: the values overflow float64 (rescale them)", what(i), x)
		}
	}
	return nil
}

// ValueError says that rows of the source hold a NULL, NaN or infinite
// value, in which column.
type ValueError struct {
	// Column names the first column found with such values.
	Column string
	// Nulls and NonFinite count its rows holding NULL, and NaN or ±Inf.
	Nulls, NonFinite int64
	// Fold says the column is Source.FoldColumn, whose rows need a fold.
	Fold bool
}

// Error names the column and what it holds.
func (e *ValueError) Error() string {
	if e.Fold {
		return fmt.Sprintf("the fold column %q: %d rows hold NULL, not a fold", e.Column, e.Nulls)
	}
	var parts []string
	if e.Nulls > 0 {
		parts = append(parts, fmt.Sprintf("%d rows hold NULL", e.Nulls))
	}
	if e.NonFinite > 0 {
		parts = append(parts, fmt.Sprintf("%d rows hold NaN or an infinite value", e.NonFinite))
	}
	return fmt.Sprintf("column %q: %s", e.Column, strings.Join(parts, ", "))
}

// badValues counts the NULL and non-finite values of each variable and
// of the weight, and returns a *ValueError for the first column holding
// some (bad: the error of readMeans, returned if none is found).
func (b *builder) badValues(ctx context.Context, q Querier, bad error, extra ...string) error {
	names := append(slices.Clone(b.s.Columns), extra...)
	if b.s.Weight != "" {
		names = append(names, b.s.Weight)
	}
	var sel []string
	for _, c := range names {
		e := b.d.Quote(c)
		sel = append(sel, "sum(CASE WHEN "+e+" IS NULL THEN 1 ELSE 0 END)", "sum(CASE WHEN "+b.d.NotFinite(b.d.Float(e))+" THEN 1 ELSE 0 END)")
	}
	rows, err := q.Query(ctx, "SELECT "+strings.Join(sel, ", ")+b.from())
	if err != nil {
		return fmt.Errorf("%w (counting them per column: %v)", bad, err)
	}
	if len(rows) != 1 {
		return bad
	}
	v, err := floats(rows[0], 2*len(names))
	if err != nil {
		return err
	}
	for i, c := range names {
		if v[2*i] > 0 || v[2*i+1] > 0 {
			return &ValueError{Column: c, Nulls: int64(v[2*i]), NonFinite: int64(v[2*i+1])}
		}
	}
	return bad
}

// pair is one entry (i, j), i ≤ j, of the co-moments.
type pair struct{ i, j int }

// tiles splits the upper triangle into the sums of each query.
func (b *builder) tiles() [][]pair {
	most := b.s.MaxExprs
	if most <= 0 {
		most = 2000
	}
	dim := len(b.s.Columns)
	var all []pair
	for i := range dim {
		for j := i; j < dim; j++ {
			all = append(all, pair{i, j})
		}
	}
	var out [][]pair
	for lo := 0; lo < len(all); lo += most {
		out = append(out, all[lo:min(len(all), lo+most)])
	}
	return out
}

// shifted is zᵢ − mᵢ with mᵢ as a literal.
func (b *builder) shifted(i int, m []float64) string {
	return "(" + b.z(i) + " - " + literal(m[i]) + ")"
}

// momentsQuery sums w(zᵢ − mᵢ)(zⱼ − mⱼ) for a tile of pairs per fold, and
// in the first tile also w(zᵢ − mᵢ).
func (b *builder) momentsQuery(m []float64, tile []pair) string {
	sel := []string{b.fold() + " AS cardreg_fold"}
	if tile[0] == (pair{0, 0}) {
		for i := range b.s.Columns {
			sel = append(sel, "sum("+b.w()+" * "+b.shifted(i, m)+")")
		}
	}
	for _, p := range tile {
		sel = append(sel, "sum("+b.w()+" * "+b.shifted(p.i, m)+" * "+b.shifted(p.j, m)+")")
	}
	return "SELECT " + strings.Join(sel, ", ") + b.from() + " GROUP BY cardreg_fold ORDER BY cardreg_fold"
}

// readMoments stores a tile's sums (still shifted by m).
func (b *builder) readMoments(rows [][]string, tile []pair, folds *suffstat.Folds, m []float64) error {
	dim := len(b.s.Columns)
	first := tile[0] == (pair{0, 0})
	want := 1 + len(tile)
	if first {
		want += dim
	}
	for _, row := range rows {
		v, err := floats(row, want)
		if err != nil {
			return err
		}
		k := int(v[0])
		if k < 0 || k >= b.s.Folds || float64(k) != v[0] {
			return fmt.Errorf("sqlstats: fold %v out of range", v[0]+1)
		}
		v = v[1:]
		if first {
			if err := b.finite(v[:dim], func(i int) string { return b.s.Columns[i] }); err != nil {
				return err
			}
			copy(b.shift[k], v[:dim])
			v = v[dim:]
		}
		c := folds.Fold[k].C
		for t, p := range tile {
			if err := b.finite(v[t:t+1], func(int) string { return b.s.Columns[p.i] + " × " + b.s.Columns[p.j] }); err != nil {
				return err
			}
			c[p.i*dim+p.j] = v[t]
		}
	}
	return nil
}

// centre turns each fold's shifted sums S into co-moments about its own
// mean: C = S − W·δδᵀ with δ = Σw(z − m)/W, and the mean m + δ.
func (b *builder) centre(folds *suffstat.Folds, m []float64) {
	dim := len(b.s.Columns)
	for k, f := range folds.Fold {
		if f.W == 0 {
			clear(f.C)
			continue
		}
		delta := make([]float64, dim)
		for i := range delta {
			delta[i] = b.shift[k][i] / f.W
			f.Mean[i] = m[i] + delta[i]
		}
		for i := range dim {
			for j := i; j < dim; j++ {
				f.C[i*dim+j] -= f.W * delta[i] * delta[j]
			}
		}
	}
}

// null is how TabSeparated writes NULL.
const null = `\N`

// floats parses a row of n numbers: NaN and ±Inf are kept for the caller
// to name, NULL reads as NaN.
func floats(row []string, n int) ([]float64, error) {
	if len(row) != n {
		return nil, fmt.Errorf("sqlstats: the engine returned %d fields, expected %d", len(row), n)
	}
	out := make([]float64, n)
	for i, s := range row {
		if s == null {
			out[i] = math.NaN()
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil, fmt.Errorf("sqlstats: the engine returned %q, not a number", s)
		}
		out[i] = v
	}
	return out, nil
}

// literal prints a float64 exactly enough to read back the same value.
func literal(v float64) string {
	s := strconv.FormatFloat(v, 'g', 17, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}
