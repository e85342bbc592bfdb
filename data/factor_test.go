package data

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/testfiles"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// readBothWays reads path with ReadRows on one core, then on several
// with many small blocks, each with the columns' kinds decided from the
// records read ahead and, again, with nothing read ahead (every kind
// decided as the rows come, see settle.go): the four reads must decide
// the factors alike, and fail with the same error.
func readBothWays(t *testing.T, path string, spec Spec, o RowsOptions) (*Rows, error) {
	t.Helper()
	procs, block, ahead := runtime.GOMAXPROCS(0), blockSize, lookAhead
	defer func() { runtime.GOMAXPROCS(procs); blockSize = block; lookAhead = ahead }()
	runtime.GOMAXPROCS(1)
	serial, err := ReadRows(path, spec, o)
	for _, look := range []int{ahead, 1} {
		lookAhead = look
		runtime.GOMAXPROCS(1)
		blockSize = block
		again, aerr := ReadRows(path, spec, o)
		runtime.GOMAXPROCS(max(procs, 4))
		blockSize = 29
		parallel, perr := ReadRows(path, spec, o)
		for _, c := range []struct {
			name string
			r    *Rows
			err  error
		}{{"serial", again, aerr}, {"parallel", parallel, perr}} {
			require.Equal(t, err, c.err, "%s errors, look-ahead %d", c.name, look)
			if err != nil {
				continue
			}
			require.Equal(t, serial.X, c.r.X, "%s, look-ahead %d", c.name, look)
			require.Equal(t, serial.Names, c.r.Names)
			require.Equal(t, serial.Factors, c.r.Factors)
			require.Equal(t, serial.Dropped, c.r.Dropped)
			require.Equal(t, serial.Places, c.r.Places)
		}
	}
	return serial, err
}

// A text predictor is a factor: its levels in order, the most frequent
// the reference, one dummy column per other level standing where the
// column stood, named NAME=LEVEL; numeric predictors are unchanged and
// Check sees the expanded number of columns.
func TestReadRowsFactors(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "f.csv", "a,colour,b,y\n1,red,10,1\n2,blue,20,2\n3,red,30,3\n4,green,40,4\n5,blue,50,5\n6,red,60,6\n7,green,70,7\n")
	var np [2]int
	r, err := readBothWays(t, path, Spec{}, RowsOptions{Check: func(n, p int) error { np = [2]int{n, p}; return nil }})
	require.NoError(t, err)
	require.Equal(t, [2]int{7, 4}, np, "a, two dummies, b")
	require.Len(t, r.Factors, 1)
	f := r.Factors[0]
	require.Equal(t, "colour", f.Name)
	require.Equal(t, []string{"blue", "green", "red"}, f.Levels)
	require.Equal(t, 2, f.Ref, "red is the most frequent")
	require.Equal(t, []float64{2, 2, 3}, f.Counts)
	require.Equal(t, []int32{2, 0, 2, 1, 0, 2, 1}, f.Codes)
	require.Equal(t, [][]int{{1, 2}}, r.FactorCols)
	require.Equal(t, []string{"a", "colour=blue", "colour=green", "b"}, r.Names)
	require.Equal(t, mat.NewDense(7, 4, []float64{
		1, 0, 0, 10,
		2, 1, 0, 20,
		3, 0, 0, 30,
		4, 0, 1, 40,
		5, 1, 0, 50,
		6, 0, 0, 60,
		7, 0, 1, 70,
	}), r.X)

	// Dummies of new rows follow the same columns; an unseen level is an
	// error naming the row, unless it is read as the reference.
	x, err := f.Dummies([]string{"green", " red ", "blue"}, DummyOptions{})
	require.NoError(t, err)
	require.Equal(t, mat.NewDense(3, 2, []float64{0, 1, 0, 0, 1, 0}), x)
	_, err = f.Dummies([]string{"red", "pink"}, DummyOptions{Place: func(i int) string { return "new.csv:" + strconv.Itoa(i+2) }, UnseenHint: " (--unseen-as-ref)"})
	require.EqualError(t, err, `new.csv:3: column "colour": level "pink" is not one of the factor's 3 levels ("blue", "green", "red") (--unseen-as-ref)`)
	_, err = f.Dummies([]string{"NA"}, DummyOptions{UnseenAsRef: true})
	require.EqualError(t, err, `row 1: column "colour": missing value "NA" (the fit's data had none: the factor has no level for it)`)
	x, err = f.Dummies([]string{"pink"}, DummyOptions{UnseenAsRef: true})
	require.NoError(t, err)
	require.Equal(t, mat.NewDense(1, 2, nil), x)
	c, ok := f.Code("green")
	require.True(t, ok)
	require.Equal(t, int32(1), c)
	_, ok = f.Code("pink")
	require.False(t, ok)
	// A Factor made by hand (decoded from a saved model) finds its levels too.
	hand := &Factor{Name: "g", Levels: []string{"1", "2", "10"}, Numeric: true}
	c, ok = hand.Code("10.0")
	require.True(t, ok)
	require.Equal(t, int32(2), c)
}

// The rules of level order, reference, nominal codes, ordinal orders and
// missing values, on CSV files.
func TestFactorRules(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, data string
		spec       FactorSpec
		drop       bool
		levels     []string
		ref        int
		counts     []float64
		rows       int
	}{
		{"byte-wise order when a level is text", "g,y\nx,1\n10,2\n9,3\n10,4\n9,5\nx,6\n", FactorSpec{}, false, []string{"10", "9", "x"}, 0, []float64{2, 2, 2}, 6},
		{"nominal codes in numeric order", "g,y\n10,1\n9,2\n2,3\n10,4\n9.0,5\n02,6\n", FactorSpec{Nominal: []string{"g"}}, false, []string{"2", "9", "10"}, 0, []float64{2, 2, 2}, 6},
		{"most frequent is the reference", "g,y\nb,1\na,2\nb,3\na,4\nb,5\nc,6\nc,7\n", FactorSpec{}, false, []string{"a", "b", "c"}, 1, []float64{2, 3, 2}, 7},
		{"ties: the first in level order", "g,y\nb,1\na,2\nb,3\na,4\n", FactorSpec{}, false, []string{"a", "b"}, 0, []float64{2, 2}, 4},
		{"byte-wise order", "g,y\nb,1\nB,2\nb,3\nB,4\nä,5\nä,6\n", FactorSpec{}, false, []string{"B", "b", "ä"}, 0, []float64{2, 2, 2}, 6},
		{"--ref", "g,y\nb,1\na,2\nb,3\na,4\nb,5\n", FactorSpec{Ref: map[string]string{"g": "a"}}, false, []string{"a", "b"}, 0, []float64{2, 3}, 5},
		{"ordinal, natural order, first is the reference", "g,y\nlow,1\nhigh,2\nhigh,3\nlow,4\nhigh,5\n", FactorSpec{Ordinal: []Ordering{{Name: "g"}}}, false, []string{"high", "low"}, 0, []float64{3, 2}, 5},
		{"ordinal order", "g,y\nlow,1\nhigh,2\nmid,3\nlow,4\nhigh,5\nmid,6\n", FactorSpec{Ordinal: []Ordering{{Name: "g", Order: []string{"low", "mid", "high"}}}}, false, []string{"low", "mid", "high"}, 0, []float64{2, 2, 2}, 6},
		{"ordinal numeric codes", "g,y\n3,1\n1,2\n2,3\n3,4\n1.0,5\n2,6\n", FactorSpec{Ordinal: []Ordering{{Name: "g", Order: []string{"3", "2", "1"}}}}, false, []string{"3", "2", "1"}, 0, []float64{2, 2, 2}, 6},
		{"NA level last", "g,y\nb,1\n,2\na,3\nNA,4\nb,5\na,6\n", FactorSpec{NALevel: true}, false, []string{"a", "b", "NA"}, 0, []float64{2, 2, 2}, 6},
		{"NA level after numbers", "g,y\n2,1\nnan,2\n10,3\nNA,4\n2,5\n10,6\n", FactorSpec{NALevel: true, Nominal: []string{"g"}}, false, []string{"2", "10", "NA"}, 0, []float64{2, 2, 2}, 6},
		{"missing values dropped", "g,y\nb,1\n,2\na,3\nNA,4\nb,5\na,6\n", FactorSpec{}, true, []string{"a", "b"}, 0, []float64{2, 2}, 4},
		{"min count 1", "g,y\nb,1\na,2\nb,3\nc,4\n", FactorSpec{MinCount: 1}, false, []string{"a", "b", "c"}, 1, []float64{1, 2, 1}, 4},
		{"yes/no", "g,y\nyes,1\nno,2\nyes,3\nno,4\nyes,5\n", FactorSpec{}, false, []string{"no", "yes"}, 1, []float64{2, 3}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, dir, "r.csv", tc.data)
			r, err := readBothWays(t, path, Spec{Factors: tc.spec, DropMissing: tc.drop}, RowsOptions{})
			require.NoError(t, err)
			require.Len(t, r.Factors, 1)
			f := r.Factors[0]
			require.Equal(t, tc.levels, f.Levels)
			require.Equal(t, tc.ref, f.Ref)
			require.Equal(t, tc.counts, f.Counts)
			require.Len(t, f.Codes, tc.rows)
			_, p := r.X.Dims()
			require.Equal(t, len(tc.levels)-1, p)
			// Each row's dummies say its level.
			for i, c := range f.Codes {
				row := r.X.RawRowView(i)
				for k, v := range row {
					require.Equal(t, k == f.Dummy(c), v == 1, "row %d", i)
				}
			}
		})
	}
}

// Every bad input is one clear error naming the file, and the line and
// the column where there is one.
func TestFactorErrors(t *testing.T) {
	dir := t.TempDir()
	many := func(k, each int) string {
		var b strings.Builder
		b.WriteString("g,y\n")
		for i := range k * each {
			b.WriteString("L" + strconv.Itoa(i%k) + ",1\n")
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, data string
		spec       Spec
		want       string // after "FILE"
	}{
		{"not a number after a number", "a,b,y\n1,2,3\n4,x,6\n", Spec{},
			`:3: column "b": cannot parse "x" as a number (name it with --factor "b" to read it as a factor)`},
		{"no hint for the response", "a,b,y\n1,2,3\n4,5,six\n", Spec{},
			`:3: column "y": cannot parse "six" as a number`},
		{"missing value", "g,y\na,1\n,2\n", Spec{},
			`:3: column "g": missing value ""` + missingHint},
		{"NA text", "g,y\na,1\nb,2\nNA,3\n", Spec{},
			`:4: column "g": missing value "NA"` + missingHint},
		{"nominal non-integer", "g,y\n1,1\n2,2\n2.5,3\n", Spec{Factors: FactorSpec{Nominal: []string{"g"}}},
			`:4: column "g": "2.5" is not an integer (--factor reads integer codes; a column of text is a factor without it)`},
		{"one level", "g,y\na,1\na,2\n", Spec{},
			`: column "g": one level ("a") only, nothing to estimate (--drop it)`},
		{"rare level", "g,y\na,1\nb,2\na,3\nb,4\nc,5\n", Spec{},
			`:6: column "g": level "c" appears in 1 row(s), fewer than 2 (--min-count 1 takes it; or merge it with another level, or --drop the column)`},
		{"rare level, min count 3", "g,y\na,1\nb,2\na,3\nb,4\na,5\n", Spec{Factors: FactorSpec{MinCount: 3}},
			`:3: column "g": level "b" appears in 2 row(s), fewer than 3 (--min-count 1 takes it; or merge it with another level, or --drop the column)`},
		{"too many levels", many(12, 2), Spec{Factors: FactorSpec{MaxLevels: 10}},
			`: column "g" has 12 levels: probably an ID column; --drop it, or raise --max-levels (now 10)`},
		{"an ID", "id,y\nr1,1\nr2,2\nr3,3\n", Spec{},
			`: column "id" has a level of its own in every row (3 levels): probably an ID column; --drop it`},
		{"level not in the order", "g,y\nlow,1\nhigh,2\nmid,3\nlow,4\nhigh,5\nmid,6\n", Spec{Factors: FactorSpec{Ordinal: []Ordering{{Name: "g", Order: []string{"low", "high"}}}}},
			`:4: column "g": level "mid" is not in the --ordinal order ("low", "high")`},
		{"order names an unseen level", "g,y\nlow,1\nhigh,2\nlow,3\nhigh,4\n", Spec{Factors: FactorSpec{Ordinal: []Ordering{{Name: "g", Order: []string{"low", "mid", "high"}}}}},
			`: column "g": --ordinal lists level "mid", which the column does not hold (levels: "low", "high")`},
		{"order lists a level twice", "g,y\nlow,1\nhigh,2\nlow,3\nhigh,4\n", Spec{Factors: FactorSpec{Ordinal: []Ordering{{Name: "g", Order: []string{"low", "high", "low"}}}}},
			`: column "g": --ordinal lists level "low" twice`},
		{"reference not a level", "g,y\na,1\nb,2\na,3\nb,4\n", Spec{Factors: FactorSpec{Ref: map[string]string{"g": "z"}}},
			`: column "g": --ref level "z" is not a level (levels: "a", "b")`},
		{"reference of a numeric column", "a,g,y\n1,a,1\n2,b,2\n3,a,3\n4,b,4\n", Spec{Factors: FactorSpec{Ref: map[string]string{"a": "1"}}},
			`: --ref names "a", which is not a factor (name it with --factor)`},
		{"factor not a column", "a,y\n1,1\n", Spec{Factors: FactorSpec{Nominal: []string{"zz"}}},
			`: --factor: no predictor named "zz" (predictors: a)`},
		{"factor is the response", "a,y\n1,1\n", Spec{Factors: FactorSpec{Nominal: []string{"y"}}},
			`: --factor names "y", the response, which is never a factor`},
		{"ordinal is the weights", "a,w,y\n1,1,1\n", Spec{Weights: "w", Factors: FactorSpec{Ordinal: []Ordering{{Name: "w"}}}},
			`: --ordinal names "w", the weights, which is never a factor`},
		{"ref is the offset", "a,o,y\n1,1,1\n", Spec{Offset: "o", Factors: FactorSpec{Ref: map[string]string{"o": "1"}}},
			`: --ref names "o", the offset, which is never a factor`},
		{"nominal and ordinal", "a,y\n1,1\n", Spec{Factors: FactorSpec{Nominal: []string{"a"}, Ordinal: []Ordering{{Name: "a"}}}},
			`: "a" names both --factor and --ordinal: a factor is nominal or ordinal`},
		{"two columns of one name", "g,g=b,y\na,1,1\nb,2,2\na,3,3\nb,4,4\n", Spec{},
			`: two columns of X would be named "g=b" (a dummy column of the factor "g" and the column "g=b"): rename one`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, dir, "bad.csv", tc.data)
			_, err := readBothWays(t, path, tc.spec, RowsOptions{})
			require.EqualError(t, err, path+tc.want)
		})
	}
}

// Parquet: string and dictionary-encoded string columns are factors, a
// null in one is a missing value; a numeric column named by Nominal is
// read by value.
func TestParquetFactors(t *testing.T) {
	dir := t.TempDir()
	type row struct {
		Area  int32   `parquet:"area"`
		Kind  string  `parquet:"kind"`
		Dict  string  `parquet:"dict,dict"`
		Note  *string `parquet:"note,optional"`
		Price float64 `parquet:"price"`
	}
	kinds := []string{"flat", "house", "flat", "loft", "house", "loft"}
	var rows []row
	for i := range 12 {
		note := "n" + strconv.Itoa(i%2)
		rows = append(rows, row{Area: int32(i%3 + 1), Kind: kinds[i%6], Dict: kinds[(i+1)%6], Note: &note, Price: float64(i)})
	}
	pq := testfiles.WriteParquet(t, dir, "f.parquet", rows)
	var np [2]int
	r, err := ReadRows(pq, Spec{Factors: FactorSpec{Nominal: []string{"area"}}}, RowsOptions{Check: func(n, p int) error { np = [2]int{n, p}; return nil }})
	require.NoError(t, err)
	require.Equal(t, [2]int{12, 2 + 2 + 2 + 1}, np)
	require.Equal(t, []string{"area=2", "area=3", "kind=house", "kind=loft", "dict=house", "dict=loft", "note=n1"}, r.Names)
	require.Equal(t, []string{"1", "2", "3"}, r.Factors[0].Levels)
	require.Equal(t, []string{"flat", "house", "loft"}, r.Factors[1].Levels)
	require.Equal(t, []float64{4, 4, 4}, r.Factors[2].Counts)
	require.Equal(t, [][]int{{0, 1}, {2, 3}, {4, 5}, {6}}, r.FactorCols)

	// Through standard input and gzip, the same.
	b, err := os.ReadFile(pq)
	require.NoError(t, err)
	gz := filepath.Join(dir, "f.parquet.gz")
	require.NoError(t, os.WriteFile(gz, gzipped(t, b), 0o644))
	r2, err := ReadRows(gz, Spec{Factors: FactorSpec{Nominal: []string{"area"}}}, RowsOptions{})
	require.NoError(t, err)
	require.Equal(t, r.X, r2.X)

	// A null in a factor.
	rows[4].Note = nil
	pq = testfiles.WriteParquet(t, dir, "null.parquet", rows)
	_, err = ReadRows(pq, Spec{}, RowsOptions{})
	require.EqualError(t, err, pq+`: row 5: column "note": missing value null`+missingHint)
	r, err = ReadRows(pq, Spec{Factors: FactorSpec{NALevel: true, MinCount: 1}}, RowsOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"n0", "n1", "NA"}, r.Factors[2].Levels)
	r, err = ReadRows(pq, Spec{DropMissing: true}, RowsOptions{})
	require.NoError(t, err)
	require.Equal(t, 1, r.Dropped)
	require.Equal(t, []float64{5, 6}, r.Factors[2].Counts)
}

// gzipped compresses b.
func gzipped(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write(b)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// CSV through gzip and standard input: the same factors.
func TestFactorsGzipStdin(t *testing.T) {
	dir := t.TempDir()
	text := "a,g,y\n1,u,1\n2,v,2\n3,u,3\n4,v,4\n5,w,5\n6,w,6\n"
	plain := writeFile(t, dir, "p.csv", text)
	want, err := ReadRows(plain, Spec{}, RowsOptions{})
	require.NoError(t, err)
	gz := writeFile(t, dir, "p.csv.gz", string(gzipped(t, []byte(text))))
	got, err := ReadRows(gz, Spec{}, RowsOptions{})
	require.NoError(t, err)
	require.Equal(t, want.X, got.X)
	require.Equal(t, want.Names, got.Names)

	f, err := os.Open(plain)
	require.NoError(t, err)
	defer f.Close()
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	got, err = ReadRows("-", Spec{}, RowsOptions{})
	require.NoError(t, err)
	require.Equal(t, want.X, got.X)
	require.Equal(t, want.Factors, got.Factors)
}

// ReadStats, which streams the rows in one pass, refuses factors with one
// clear error (a FileSource takes them: TestFileSourceFactors).
func TestStreamRefusesFactors(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "s.csv", "a,g,y\n1,u,1\n2,v,2\n")
	want := path + `: column "g" holds text: one pass of statistics takes no factor columns (their levels are not known yet): read them in memory or by passes (FileSource)`
	_, err := ReadStats(path, Spec{}, StatsOptions{})
	require.EqualError(t, err, want)
	named := Spec{Factors: FactorSpec{Nominal: []string{"a"}}}
	_, err = ReadStats(path, named, StatsOptions{})
	require.EqualError(t, err, path+": --factor, --ordinal and --ref: one pass of statistics takes no factor columns (their levels are not known yet): read them in memory or by passes (FileSource)")
	// Dropped, the column is no matter.
	_, err = ReadStats(path, Spec{Drop: []string{"g"}}, StatsOptions{})
	require.NoError(t, err)
	pq, _ := testfiles.Example(t, dir, 20, 0)
	_, err = ReadStats(pq, Spec{Responses: []string{"y"}}, StatsOptions{})
	require.EqualError(t, err, pq+`: column "id" holds text: one pass of statistics takes no factor columns (their levels are not known yet): read them in memory or by passes (FileSource)`)
}

// The Munich rent data: area, coded 1–25, as a nominal factor; quality's
// text and the yes/no columns as factors by themselves. Their levels and
// counts match a count of the file made here with encoding/csv.
func TestMunichRentFactors(t *testing.T) {
	path := testfiles.SharedFile(t, "munich_rent2003_smurf_prepared.csv")
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	header, recs := recs[0], recs[1:]
	count := func(col string) map[string]float64 {
		j := slices.Index(header, col)
		require.GreaterOrEqual(t, j, 0, col)
		m := map[string]float64{}
		for _, rec := range recs {
			m[rec[j]]++
		}
		return m
	}
	r, err := ReadRows(path, Spec{Responses: []string{"rentm"}, Drop: []string{"rent"}, Factors: FactorSpec{Nominal: []string{"area"}}}, RowsOptions{})
	require.NoError(t, err)
	byName := map[string]*Factor{}
	for _, fa := range r.Factors {
		byName[fa.Name] = fa
	}
	want := []string{"area", "warm", "central", "tiles", "bathextra", "kitchen", "quality"}
	require.ElementsMatch(t, want, slices.Collect(maps.Keys(byName)))
	for _, name := range want {
		fa, counts := byName[name], count(name)
		require.Len(t, fa.Levels, len(counts), name)
		most := 0.0
		for c, l := range fa.Levels {
			require.Equal(t, counts[l], fa.Counts[c], "%s=%s", name, l)
			most = max(most, counts[l])
		}
		require.Equal(t, most, fa.Counts[fa.Ref], "%s: the reference is the most frequent", name)
		require.Len(t, fa.Codes, len(recs))
	}
	area := byName["area"]
	require.Len(t, area.Levels, 25)
	for c, l := range area.Levels {
		require.Equal(t, strconv.Itoa(c+1), l, "area's levels in numeric order")
	}
	require.Equal(t, []string{"no", "yes"}, byName["warm"].Levels)
	require.Equal(t, []string{"excellent", "fair", "good"}, byName["quality"].Levels)
	// size, rooms and year are numbers; X has 4 numeric columns
	// (size, rooms, year, good, best: 5) and the dummies.
	dummies := 0
	for _, fa := range r.Factors {
		dummies += fa.Width()
	}
	_, p := r.X.Dims()
	require.Equal(t, 5+dummies, p)

	// quality as an ordinal factor in its own order: fair the reference.
	r, err = ReadRows(path, Spec{Responses: []string{"rentm"}, Drop: []string{"rent"},
		Factors: FactorSpec{Ordinal: []Ordering{{Name: "quality", Order: []string{"fair", "good", "excellent"}}}}}, RowsOptions{})
	require.NoError(t, err)
	q := r.Factors[len(r.Factors)-1]
	require.Equal(t, []string{"fair", "good", "excellent"}, q.Levels)
	require.Equal(t, 0, q.Ref)
	require.Equal(t, []float64{count("quality")["fair"], count("quality")["good"], count("quality")["excellent"]}, q.Counts)
}

// FuzzReadRowsFactors reads arbitrary CSV bytes with ReadRows, factors
// on: no panic, an error is one line naming the file, and rows read hold
// each factor's dummy columns as the codes say (one 1 at most per row,
// none for the reference level), with levels seen at least MinCount times.
func FuzzReadRowsFactors(f *testing.F) {
	for _, s := range []string{
		"a,g,y\n1,u,1\n2,v,2\n3,u,3\n4,v,4\n",
		"a,g,y\n1,u,1\n2,,2\n3,NA,3\n4,v,4\n5,u,5\n6,v,6\n",
		"g,y\n1,1\n2,2\n2.5,3\n1,4\n",
		"g,h,y\nb,2,1\na,2,2\nb,3,3\na,3,4\n",
		"g,y\n\"a\nb\",1\nc,2\n\"a\nb\",3\nc,4\n",
		"g,g=b,y\na,1,1\nb,2,2\na,3,3\nb,4,4\n",
		"g,y\nx,1\nx,2\n",
	} {
		for mode := range uint8(16) {
			f.Add([]byte(s), mode)
		}
	}
	path := filepath.Join(f.TempDir(), "in.csv")
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		require.NoError(t, os.WriteFile(path, data, 0o644))
		// mode: bit 0 drops missing values, bit 1 makes NA a level, bit 2
		// names the first column a nominal factor, bit 3 an ordinal one
		// ordered as "b,a".
		spec := Spec{DropMissing: mode&1 != 0, Factors: FactorSpec{NALevel: mode&2 != 0, MaxLevels: 50}}
		if first, _, ok := bytes.Cut(data, []byte{','}); ok {
			name := strings.TrimSpace(string(first))
			if mode&4 != 0 {
				spec.Factors.Nominal = []string{name}
			}
			if mode&8 != 0 {
				spec.Factors.Ordinal = []Ordering{{Name: name, Order: []string{"b", "a"}}}
			}
		}
		r, err := ReadRows(path, spec, RowsOptions{})
		if err != nil {
			msg := err.Error()
			require.Contains(t, msg, path)
			require.NotContains(t, msg, "\n", "error is not one line")
			return
		}
		n, p := r.X.Dims()
		require.Len(t, r.Names, p)
		require.Len(t, r.FactorCols, len(r.Factors))
		for k, fa := range r.Factors {
			require.GreaterOrEqual(t, len(fa.Levels), 2)
			require.LessOrEqual(t, len(fa.Levels), 50)
			require.Len(t, fa.Codes, n)
			require.Len(t, r.FactorCols[k], fa.Width())
			for _, c := range fa.Counts {
				require.GreaterOrEqual(t, c, float64(DefaultMinCount))
			}
			for i, c := range fa.Codes {
				for d, j := range r.FactorCols[k] {
					require.Equal(t, d == fa.Dummy(c), r.X.At(i, j) == 1, "row %d", i)
				}
			}
		}
	})
}

// NewFactor rebuilds a factor from its saved levels, refusing levels no
// cell reads as; Level reads one new cell as Dummies does.
func TestNewFactor(t *testing.T) {
	f, err := NewFactor("n", []string{"1", "2", "10", "NA"}, 1, false, true, true)
	require.NoError(t, err)
	for cell, want := range map[string]int32{"10.0": 2, " 02": 1, "": 3, "nan": 3} {
		c, unseen, err := f.Level(cell, DummyOptions{})
		require.NoError(t, err, cell)
		require.False(t, unseen)
		require.Equal(t, want, c, cell)
	}
	c, unseen, err := f.Level("7", DummyOptions{UnseenAsRef: true})
	require.NoError(t, err)
	require.True(t, unseen)
	require.Equal(t, int32(1), c)
	_, unseen, err = f.Level("7", DummyOptions{UnseenHint: " (hint)"})
	require.True(t, unseen)
	require.EqualError(t, err, `column "n": level "7" is not one of the factor's 4 levels ("1", "2", "10", "NA") (hint)`)
	g, err := NewFactor("g", []string{"a", "b"}, 0, false, false, false)
	require.NoError(t, err)
	_, _, err = g.Level(" NA ", DummyOptions{UnseenAsRef: true})
	require.EqualError(t, err, `column "g": missing value "NA" (the fit's data had none: the factor has no level for it)`)
	for name, c := range map[string]struct {
		levels  []string
		ref     int
		numeric bool
		na      bool
		want    string
	}{
		"one level":       {[]string{"a"}, 0, false, false, "1 level(s)"},
		"reference":       {[]string{"a", "b"}, 2, false, false, "reference 2"},
		"twice":           {[]string{"a", "b", "a"}, 0, false, false, `level "a" appears twice`},
		"untrimmed":       {[]string{"a", " b"}, 0, false, false, `level " b" is not one a data file's cell gives`},
		"empty":           {[]string{"a", ""}, 0, false, false, `level "" is not one a data file's cell gives`},
		"missing":         {[]string{"a", "NA"}, 0, false, false, `level "NA" is not one a data file's cell gives`},
		"missing spelt":   {[]string{"a", "nan"}, 0, false, true, `level "nan" is not one a data file's cell gives`},
		"numeric padded":  {[]string{"1", "02"}, 0, true, false, `level "02" is not one a data file's cell gives`},
		"numeric decimal": {[]string{"1", "2.0"}, 0, true, false, `level "2.0" is not one a data file's cell gives`},
	} {
		_, err := NewFactor("f", c.levels, c.ref, false, c.numeric, c.na)
		require.ErrorContains(t, err, c.want, name)
	}
	_, err = NewFactor("f", []string{"02", "2.0"}, 0, false, false, false)
	require.NoError(t, err, "a text factor's levels are not numbers")
}

func TestFactorFromCodes(t *testing.T) {
	f, err := FactorFromCodes("region", []string{"a", "b", "c"}, []int32{0, 1, 1, 2, 2, 2, 0}, false, &FactorSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Ref != 2 || f.Counts[0] != 2 || f.Counts[2] != 3 || f.Width() != 2 {
		t.Errorf("ref %d counts %v", f.Ref, f.Counts)
	}
	f, err = FactorFromCodes("age", []string{"young", "old"}, []int32{1, 1, 0, 0, 1}, true, &FactorSpec{Ref: map[string]string{"age": "old"}})
	if err != nil || f.Ref != 1 || !f.Ordinal {
		t.Errorf("ordinal with --ref: %v, %+v", err, f)
	}
	codes := []int32{0, 1, 1}
	f, _ = FactorFromCodes("g", []string{"a", "b"}, codes, false, &FactorSpec{MinCount: 1})
	codes[0] = 1
	if f.Codes[0] != 0 {
		t.Error("codes not copied")
	}
	for _, c := range []struct {
		levels []string
		codes  []int32
		spec   FactorSpec
		want   string
	}{
		{[]string{"a", "b"}, []int32{0, 2}, FactorSpec{MinCount: 1}, `row 2: column "g": level code 2 is not one of 0 to 1`},
		{[]string{"a", "b"}, []int32{0, -1}, FactorSpec{MinCount: 1}, `row 2: column "g": level code -1`},
		{[]string{"a", "b"}, []int32{0, 0, 1}, FactorSpec{}, `data: row 3: column "g": level "b" appears in 1 row(s), fewer than 2`},
		{[]string{"a", "b", "c"}, []int32{0, 0, 1, 1}, FactorSpec{}, `data: column "g": level "c" appears in 0 row(s)`},
		{[]string{"a"}, []int32{0, 0}, FactorSpec{}, "1 level(s), a factor has at least two"},
		{[]string{"a", "a"}, []int32{0, 1}, FactorSpec{}, `level "a" appears twice`},
		{[]string{"a", "b\xff"}, []int32{0, 1}, FactorSpec{MinCount: 1}, `level "b\xff" is not UTF-8`},
		{[]string{"a", "b", "c"}, []int32{0, 1, 2}, FactorSpec{MaxLevels: 2, MinCount: 1}, "has 3 levels: probably an ID column"},
		{[]string{"a", "b"}, []int32{0, 0, 1, 1}, FactorSpec{Ref: map[string]string{"g": "z"}}, `--ref level "z" is not a level`},
	} {
		_, err := FactorFromCodes("g", c.levels, c.codes, false, &c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: got %v, want %q", c.levels, c.codes, err, c.want)
		}
	}
}

// awkwardLevels are level names a cell could not give as they are (spaces
// kept, empty, spellings of a missing value, numbers by their text) and
// text that needs quoting in a CSV cell or in a message.
var awkwardLevels = []string{"NA", "na", "NaN", " pad ", "", "1", "1.0", "01", "a,b", `say "hi"`, "two\nlines", "tab\there", "é", strings.Repeat("long", 5000), "g=h"}

// TestFactorFromCodesAnyLevel: a binding's level is any string, taken
// exactly as given: none is refused, trimmed, merged with another or read
// as a missing value.
func TestFactorFromCodesAnyLevel(t *testing.T) {
	levels := append([]string{"ref"}, awkwardLevels...)
	var codes []int32
	for c := range levels {
		codes = append(codes, int32(c), int32(c))
	}
	f, err := FactorFromCodes("g", levels, codes, false, &FactorSpec{Ref: map[string]string{"g": " pad "}})
	require.NoError(t, err)
	require.Equal(t, levels, f.Levels)
	require.Equal(t, " pad ", f.Levels[f.Ref], "--ref names a level exactly")
	for c, l := range levels {
		got, ok := f.Code(l)
		require.True(t, ok, "level %q", l)
		require.Equal(t, int32(c), got, "level %q", l)
	}
	for _, cell := range []string{"pad", "nA", " NA", "1.00", "é "} {
		_, unseen, err := f.Level(cell, DummyOptions{})
		require.True(t, unseen, "cell %q", cell)
		require.ErrorContains(t, err, "is not one of the factor's", "cell %q", cell)
	}
	names := f.DummyNames()
	require.Contains(t, names, "g=")
	require.Contains(t, names, "g=NA")
	require.Contains(t, names, "g=1.0")
}
