package sqlstats

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/glmscan"
)

// GLMScanner is a glmscan.Scanner over the rows of a ClickHouse table or
// query: each scan is one aggregation query that returns only sums per
// fold, with the models' coefficients sent as array constants and every
// model evaluated on every row with ClickHouse's array functions
// (arrayMap, sumForEach). Predictors are taken about one row's values (a
// query of one row, LIMIT 1, which reads no more than a block): the sums
// are of shifted values. Source.Columns are the predictors, then the
// response.
type GLMScanner struct {
	ctx    context.Context
	q      Querier
	b      builder
	fam    datafit.Family
	offset string
	p      int
	shift  []float64
	scans  int
	n      float64 // the rows counted, or −1 before
}

// NewGLMScanner returns a scanner of src's rows for family fam, which
// writes its formulas in SQL (datafit.SQLWriter), with the offset column
// offset ("" for none).
func NewGLMScanner(ctx context.Context, q Querier, src Source, offset string, fam datafit.Family) (*GLMScanner, error) {
	if err := src.check(); err != nil {
		return nil, err
	}
	if _, ok := fam.(datafit.SQLWriter); !ok {
		return nil, fmt.Errorf("sqlstats: the %s family has no SQL formulas (datafit.SQLWriter): a database cannot fit it", fam.Name())
	}
	return &GLMScanner{ctx: ctx, q: q, b: builder{d: ClickHouse, s: src}, fam: fam, offset: offset, p: len(src.Columns) - 1, n: -1}, nil
}

// Folds implements glmscan.Scanner.
func (g *GLMScanner) Folds() int { return g.b.s.Folds }

// Scans implements glmscan.Scanner: the aggregation queries made.
func (g *GLMScanner) Scans() int { return g.scans }

// col is a source column as a double.
func (g *GLMScanner) col(name string) string { return g.b.d.Float(g.b.d.Quote(name)) }

// offsets lists the offset column, if any.
func (g *GLMScanner) offsets() []string {
	if g.offset == "" {
		return nil
	}
	return []string{g.offset}
}

// o is the offset expression.
func (g *GLMScanner) o() string {
	if g.offset == "" {
		return "0"
	}
	return g.col(g.offset)
}

// base is the subquery of rows: z = (1, x − shift), y, w, o, the fold k
// and, when withX, xd = x − shift and the count of bad values.
func (g *GLMScanner) base(withX bool, extra string) string {
	z := []string{literal(1)}
	var xd []string
	for j := range g.p {
		e := g.col(g.b.s.Columns[j]) + " - " + literal(g.shift[j])
		z, xd = append(z, e), append(xd, e)
	}

	sel := []string{"[" + strings.Join(z, ", ") + "] AS z", g.col(g.b.s.Columns[g.p]) + " AS y",
		g.b.w() + " AS w", g.o() + " AS o", g.b.fold() + " AS k"}
	if withX {
		sel = append(sel, "["+strings.Join(xd, ", ")+"] AS xd",
			"CASE WHEN "+g.b.bad(g.offsets()...)+" THEN 1 ELSE 0 END AS bad")
	}
	if extra != "" {
		sel = append(sel, extra)
	}
	return "(SELECT " + strings.Join(sel, ", ") + g.b.from() + ")"
}

// readShift reads one row's predictors, the shift.
func (g *GLMScanner) readShift() error {
	var sel []string
	for j := range g.p {
		sel = append(sel, g.col(g.b.s.Columns[j]))
	}
	rows, err := g.q.Query(g.ctx, "SELECT "+strings.Join(sel, ", ")+g.b.from()+" LIMIT 1")
	if err != nil {
		return fmt.Errorf("sqlstats: reading one row: %w", err)
	}
	if len(rows) == 0 {
		return errors.New("sqlstats: no rows")
	}
	v, err := floats(rows[0], g.p)
	if err != nil {
		return err
	}
	for j, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			v[j] = 0 // the totals query names the bad values
		}
	}
	g.shift = v
	return nil
}

// Rows returns the number of rows (a count query, which reads no column
// of a MergeTree table: not a scan).
func (g *GLMScanner) Rows() (int, error) {
	n, err := g.count()
	return int(n), err
}

// count returns the number of rows, counted once.
func (g *GLMScanner) count() (float64, error) {
	if g.n >= 0 {
		return g.n, nil
	}
	rows, err := g.q.Query(g.ctx, "SELECT count()"+g.b.from())
	if err != nil {
		return 0, fmt.Errorf("sqlstats: counting the rows: %w", err)
	}
	if len(rows) != 1 {
		return 0, errors.New("sqlstats: counting the rows: no answer")
	}
	v, err := floats(rows[0], 1)
	if err != nil {
		return 0, err
	}
	g.n = v[0]
	return g.n, nil
}

// sampleSeed separates the sample's hash from the folds'.
const sampleSeed = 0x5a3d1e

// First implements glmscan.Scanner: after a count and one row (the
// shift), one query returns per fold the totals, the bounds of the
// response and weights, and a sample of about m rows (a hash of each row
// below m/n of its range: uniform and the same every time).
func (g *GLMScanner) First(m int) (*glmscan.Totals, *glmscan.Sample, error) {
	if err := g.readShift(); err != nil {
		return nil, nil, err
	}
	n, err := g.count()
	if err != nil {
		return nil, nil, err
	}
	thr := uint64(math.MaxUint32) + 1
	if float64(m) < n {
		thr = uint64(float64(m) / n * float64(thr))
	}
	keys := make([]string, len(g.b.s.Columns))
	for i, c := range g.b.s.Columns {
		keys[i] = g.b.d.Quote(c)
	}
	hash := fmt.Sprintf("cityHash64(%d, %s) %% 4294967296 AS hs", g.b.s.Seed+sampleSeed, strings.Join(keys, ", "))
	// The offsets with the family's power a (glmscan.Totals).
	a := glmscan.OffsetPower(g.fam)
	wy, we := "w * y", "w * exp(o)"
	if a != 1 {
		wy, we = "w * y * exp("+literal(a-1)+" * o)", "w * exp("+literal(a)+" * o)"
	}
	sel := []string{"k", "count()", "sum(bad)", "sum(w)", "sum(" + wy + ")", "sum(" + we + ")",
		"sumForEach(arrayMap(x -> " + wy + " * x, xd))", "sumForEach(arrayMap(x -> " + we + " * x, xd))",
		"sumForEachForEach(arrayMap(u -> arrayMap(v -> w * u * v, z), z))",
		fmt.Sprintf("groupArrayIf(arrayConcat(xd, [y, w, o]), hs < %d)", thr),
		"min(y)", "max(y)", "min(w)", "sum(o != 0)", "max(length(z) + length(xd))"}
	rows, err := g.query(g.b.s.Folds, "SELECT "+strings.Join(sel, ", ")+" FROM "+g.base(true, hash)+" GROUP BY k ORDER BY k"+blockSize((g.p+1)*(g.p+1)))
	if err != nil {
		return nil, nil, err
	}
	return g.readFirst(rows)
}

// blockValues bounds the values a block of rows holds in each per-row
// array of a scan (ClickHouse materialises the constants and the arrays
// of its lambdas for every row of a block).
const blockValues = 1 << 24

// blockSize is the SETTINGS clause of a scan whose rows each hold arrays
// of perRow values: blocks of at most blockValues/perRow rows (64 to
// ClickHouse's default 65,536).
func blockSize(perRow int) string {
	return fmt.Sprintf(" SETTINGS max_block_size = %d", max(64, min(65536, blockValues/max(perRow, 1))))
}

// query runs one scan and checks it returned at most k groups.
func (g *GLMScanner) query(k int, sql string) ([][]string, error) {
	g.scans++
	rows, err := g.q.Query(g.ctx, sql)
	if err != nil {
		return nil, fmt.Errorf("sqlstats: scan %d: %w", g.scans, err)
	}
	if len(rows) > k {
		return nil, fmt.Errorf("sqlstats: scan %d returned %d folds, expected at most %d", g.scans, len(rows), k)
	}
	return rows, nil
}

// readFirst reads the first scan's rows.
func (g *GLMScanner) readFirst(rows [][]string) (*glmscan.Totals, *glmscan.Sample, error) {
	p := g.p
	t := glmscan.NewTotals(g.b.s.Folds, p)
	t.Shift = g.shift
	smp := &glmscan.Sample{}
	var yMin, yMax, wMin = math.Inf(1), math.Inf(-1), math.Inf(1)
	for _, row := range rows {
		if len(row) != 15 {
			return nil, nil, fmt.Errorf("sqlstats: the first scan returned %d fields, expected 15", len(row))
		}
		v, err := floats(append(append([]string{}, row[:6]...), row[10:14]...), 10)
		if err != nil {
			return nil, nil, err
		}
		if v[2] > 0 {
			return nil, nil, g.b.badValues(g.ctx, g.q, fmt.Errorf("sqlstats: %.0f %w", v[2], errBadRows), g.offsets()...)
		}
		k, err := g.b.foldOf(v[0], row[0], v[1])
		if err != nil {
			return nil, nil, err
		}
		t.N[k], t.W[k], t.WY[k], t.WE[k] = int(v[1]), v[3], v[4], v[5]
		t.Offset = t.Offset || v[9] > 0
		yMin, yMax, wMin = math.Min(yMin, v[6]), math.Max(yMax, v[7]), math.Min(wMin, v[8])
		for a, dst := range []*[][]float64{&t.WXY, &t.WXE} {
			if (*dst)[k], err = array(row[6+a], p); err != nil {
				return nil, nil, err
			}
		}
		if err := g.readGram(t.XX[k], row[8]); err != nil {
			return nil, nil, err
		}
		if err := g.readSample(smp, row[9], k); err != nil {
			return nil, nil, err
		}
	}
	if err := g.checkRange(yMin, yMax, wMin); err != nil {
		return nil, nil, err
	}
	return t, smp, nil
}

// readGram fills the (p+1)² Gram matrix xx, as the engine prints it: an
// array of rows.
func (g *GLMScanner) readGram(xx []float64, field string) error {
	d := g.p + 1
	rows, err := nested(field, d)
	if err != nil {
		return err
	}
	if len(rows) != d {
		return fmt.Errorf("sqlstats: the engine returned a Gram matrix of %d rows, expected %d", len(rows), d)
	}
	for a, r := range rows {
		copy(xx[a*d:], r)
	}
	return nil
}

// readSample appends fold k's sampled rows (x − shift, y, w, o).
func (g *GLMScanner) readSample(smp *glmscan.Sample, field string, k int) error {
	rows, err := nested(field, g.p+3)
	if err != nil {
		return err
	}
	for _, v := range rows {
		x := v[:g.p]
		for j := range x {
			x[j] += g.shift[j]
		}
		smp.X = append(smp.X, x)
		smp.Y, smp.W, smp.O = append(smp.Y, v[g.p]), append(smp.W, v[g.p+1]), append(smp.O, v[g.p+2])
		smp.Fold = append(smp.Fold, k)
	}
	return nil
}

// nested parses an array of arrays of n numbers each: [[a,b],[c,d],…].
func nested(field string, n int) ([][]float64, error) {
	inner := strings.TrimSpace(field)
	if len(inner) < 2 || inner[0] != '[' || inner[len(inner)-1] != ']' {
		return nil, fmt.Errorf("sqlstats: the engine returned %.40q, not an array of arrays", field)
	}
	inner = inner[1 : len(inner)-1]
	var out [][]float64
	for inner != "" {
		end := strings.IndexByte(inner, ']')
		if end < 0 {
			return nil, fmt.Errorf("sqlstats: the engine returned %.40q, not an array of arrays", field)
		}
		v, err := array(inner[:end+1], n)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		inner = strings.TrimPrefix(inner[end+1:], ",")
	}
	return out, nil
}

// checkRange refuses responses outside the family's range (its Check of
// the smallest and the largest) and negative weights, naming the column.
func (g *GLMScanner) checkRange(yMin, yMax, wMin float64) error {
	y := g.b.s.Columns[g.p]
	for _, v := range []float64{yMin, yMax} {
		if err := g.fam.Check(v); err != nil {
			return fmt.Errorf("sqlstats: column %s holds values from %v to %v: %v", y, yMin, yMax, err)
		}
	}
	if wMin < 0 {
		return fmt.Errorf("sqlstats: column %s holds negative weights (down to %v)", g.b.s.Weight, wMin)
	}
	return nil
}

// array parses an array of n numbers as the engine prints it: [a,b,…].
func array(field string, n int) ([]float64, error) {
	s := strings.TrimSpace(field)
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, fmt.Errorf("sqlstats: the engine returned %.40q, not an array", field)
	}
	var parts []string
	if s = s[1 : len(s)-1]; s != "" {
		parts = strings.Split(s, ",")
	}
	if len(parts) != n {
		return nil, fmt.Errorf("sqlstats: the engine returned an array of %d numbers, expected %d", len(parts), n)
	}
	out := make([]float64, n)
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, fmt.Errorf("sqlstats: the engine returned %q in an array, not a number", p)
		}
		out[i] = v
	}
	return out, nil
}

// sqlScorer is implemented by the families whose held-out measures are
// their own (datafit.Binomial: cv.glmnet's).
type sqlScorer interface {
	ScoreSQL(measure, e string) (string, bool)
}

// score is the held-out measure of a row at e (glm's score for one row):
// the family's own, else (y − μ)², |y − μ| or the deviance.
func score(f datafit.SQLWriter, measure, e string) (string, error) {
	if s, ok := f.(sqlScorer); ok {
		if sql, ok := s.ScoreSQL(measure, e); ok {
			return sql, nil
		}
		return "", fmt.Errorf("sqlstats: no SQL for the measure %q", measure)
	}
	mu := f.MeanSQL(e)
	switch measure {
	case "mse":
		return "pow(y - " + mu + ", 2)", nil
	case "mae":
		return "abs(y - " + mu + ")", nil
	case "deviance":
		return f.DevianceSQL(e), nil
	}
	return "", fmt.Errorf("sqlstats: no SQL for the measure %q", measure)
}

// coefs returns points' (b₀, β) about the shift as an array of arrays,
// and their holdouts.
func (g *GLMScanner) coefs(pts []glmscan.Point, alpha bool) (string, string) {
	rows := make([]string, len(pts))
	holds := make([]string, len(pts))
	for i, pt := range pts {
		b0, beta := pt.B0, pt.Beta
		if alpha {
			b0, beta = pt.Dual.Alpha[0], pt.Dual.Alpha[1:]
		}
		c := make([]string, g.p+1)
		for j, v := range beta {
			b0 += v * g.shift[j]
			c[j+1] = literal(v)
		}
		c[0] = literal(b0)
		rows[i] = "[" + strings.Join(c, ",") + "]"
		holds[i] = strconv.Itoa(pt.Holdout)
	}
	return "[" + strings.Join(rows, ",") + "]", "[" + strings.Join(holds, ",") + "]"
}

// dot is the linear predictor of coefficient array b on the row's z.
const dot = "arraySum(arrayMap((c, x) -> c * x, b, z))"

// Scan implements glmscan.Scanner: one query. Each subquery level
// selects plainly the columns its lambdas use (ClickHouse 18.16 does not
// see a column used only inside a nested lambda).
func (g *GLMScanner) Scan(req *glmscan.Request) (*glmscan.Sums, error) {
	if err := glmscan.CheckRequest(req, g.p, g.b.s.Folds); err != nil {
		return nil, err
	}
	var grad, dual []int
	for i, pt := range req.Points {
		if pt.Dual != nil {
			dual = append(dual, i)
		} else {
			grad = append(grad, i)
		}
	}
	sql, err := g.scanSQL(req, grad, dual)
	if err != nil {
		return nil, err
	}
	rows, err := g.query(g.b.s.Folds, sql)
	if err != nil {
		return nil, err
	}
	return g.readScan(rows, req, grad, dual)
}

// pick returns the points of idx.
func pick(pts []glmscan.Point, idx []int) []glmscan.Point {
	out := make([]glmscan.Point, len(idx))
	for a, i := range idx {
		out[a] = pts[i]
	}
	return out
}

// scanSQL writes a scan's query: level 1 the rows, level 2 the linear
// predictors E (gradient points) and ED (dual points), level 3 the
// weighted derivatives R and the dual values VD, level 4 the sums.
func (g *GLMScanner) scanSQL(req *glmscan.Request, grad, dual []int) (string, error) {
	f := g.fam.(datafit.SQLWriter) // checked by NewGLMScanner
	score, err := score(f, req.Measure, "e")
	if err != nil {
		return "", err
	}
	cols := "z, y, w, o, k"
	lv2, lv3, agg := []string{cols}, []string{cols}, []string{"k", "count()", "min(y) + min(w) + min(o) + max(length(z))"}
	if len(grad) > 0 {
		b, h := g.coefs(pick(req.Points, grad), false)
		lv2 = append(lv2, "arrayMap(b -> "+dot+" + o, "+b+") AS E")
		lv3 = append(lv3, "E", "arrayMap((e, h) -> if(h = k, 0, w * "+f.D1SQL("e")+"), E, "+h+") AS R")
		agg = append(agg, "sumForEachForEach(arrayMap(r -> arrayMap(x -> r * x, z), R))",
			"sumForEach(arrayMap((e, h) -> if(h = k, 0, w * "+f.DevianceSQL("e")+"), E, "+h+"))",
			"sumForEach(arrayMap((e, h) -> if(h = k, w * "+score+", 0), E, "+h+"))")
	}
	if len(dual) > 0 {
		pts := pick(req.Points, dual)
		b, h := g.coefs(pts, false)
		a, _ := g.coefs(pts, true)
		lv2 = append(lv2, "arrayMap(b -> "+dot+" + o, "+b+") AS ED")
		lv3 = append(lv3, "ED", "arrayMap((e, b) -> "+f.D1SQL("e")+" - "+dot+", ED, "+a+") AS VD")
		agg = append(agg, "sumForEach(arrayMap((v, e, h) -> if(h = k OR w = 0, 0, w * (o * v - "+f.ConjugateSQL("v", "e")+")), VD, ED, "+h+"))")
	}
	from := "(SELECT " + strings.Join(lv2, ", ") + " FROM " + g.base(false, "") + ")"
	from = "(SELECT " + strings.Join(lv3, ", ") + " FROM " + from + ")"
	return "SELECT " + strings.Join(agg, ", ") + " FROM " + from + " GROUP BY k ORDER BY k" + blockSize(len(req.Points)*(g.p+1)), nil
}

// readScan adds up the folds' sums into the request's Sums, the gradients
// back on the data's scale (Σ w d₁ x = Σ w d₁ (x − shift) + shift·Σ w d₁).
func (g *GLMScanner) readScan(rows [][]string, req *glmscan.Request, grad, dual []int) (*glmscan.Sums, error) {
	m, p1 := len(req.Points), g.p+1
	out := &glmscan.Sums{Grad: make([][]float64, m), Dev: make([]float64, m), Dual: make([]float64, m), Score: make([]float64, m)}
	for _, i := range grad {
		out.Grad[i] = make([]float64, p1)
	}
	for _, row := range rows {
		want := 3
		if len(grad) > 0 {
			want += 3
		}
		if len(dual) > 0 {
			want++
		}
		if len(row) != want {
			return nil, fmt.Errorf("sqlstats: a scan returned %d fields, expected %d", len(row), want)
		}
		next := 3
		if len(grad) > 0 {
			if err := g.addGrad(out, row[3:6], grad); err != nil {
				return nil, err
			}
			next = 6
		}
		if len(dual) > 0 {
			v, err := array(row[next], len(dual))
			if err != nil {
				return nil, err
			}
			for a, i := range dual {
				out.Dual[i] += v[a]
			}
		}
	}
	for _, i := range grad {
		gr := out.Grad[i]
		for j := range g.p {
			gr[j+1] += g.shift[j] * gr[0]
		}
	}
	return out, nil
}

// addGrad adds one fold's gradient, deviance and score arrays.
func (g *GLMScanner) addGrad(out *glmscan.Sums, fields []string, grad []int) error {
	p1 := g.p + 1
	gv, err := nested(fields[0], p1)
	if err != nil {
		return err
	}
	if len(gv) != len(grad) {
		return fmt.Errorf("sqlstats: a scan returned %d gradients, expected %d", len(gv), len(grad))
	}
	dv, err := array(fields[1], len(grad))
	if err != nil {
		return err
	}
	sv, err := array(fields[2], len(grad))
	if err != nil {
		return err
	}
	for a, i := range grad {
		for j := range p1 {
			out.Grad[i][j] += gv[a][j]
		}
		out.Dev[i] += dv[a]
		out.Score[i] += sv[a]
	}
	return nil
}
