package data

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/membudget"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// randomSparse is an n×p matrix with about density of its cells non-zero
// (values of every magnitude and sign, so that their text must round-trip
// exactly), and n labels.
func randomSparse(rng *rand.Rand, n, p int, density float64) (*mat.Dense, []float64) {
	x := mat.NewDense(n, p, nil)
	y := make([]float64, n)
	for i := range n {
		y[i] = rng.NormFloat64() * 10
		for j := range p {
			if rng.Float64() < density {
				x.Set(i, j, rng.NormFloat64()*float64(int(1)<<rng.IntN(20))/3)
			}
		}
	}
	return x, y
}

// svmText writes x and y as svmlight text, indices from base; blank and
// comment lines are put among the rows when decorate.
func svmText(x *mat.Dense, y []float64, base int, decorate bool) string {
	var b strings.Builder
	n, p := x.Dims()
	for i := range n {
		if decorate && i%3 == 1 {
			b.WriteString("# a comment\n\n")
		}
		b.WriteString(strconv.FormatFloat(y[i], 'g', -1, 64))
		for j := range p {
			if v := x.At(i, j); v != 0 {
				fmt.Fprintf(&b, " %d:%s", j+base, strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		if decorate && i%4 == 2 {
			b.WriteString("\t# trailing comment 3:4")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestSVMLightRoundTrip: a random matrix written as svmlight text (1- and
// 0-based, the base given or detected, plain and gzip, with comments
// and blank lines) reads back exactly, its labels too.
func TestSVMLightRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	x, y := randomSparse(rng, 40, 12, 0.2)
	for j := range 40 { // the first and last columns non-zero somewhere: p and the base are detected
		x.Set(j, 0, float64(j+1))
	}
	x.Set(5, 11, -2.5)
	for _, tc := range []struct {
		name string
		base int
		o    SparseOptions
		gz   bool
	}{
		{"one", 1, SparseOptions{}, false},
		{"one-said", 1, SparseOptions{Base: Base1}, false},
		{"zero", 0, SparseOptions{}, false},
		{"zero-said", 0, SparseOptions{Base: Base0}, true},
		{"gzip", 1, SparseOptions{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := svmText(x, y, tc.base, true)
			if tc.gz {
				text = string(gzipped(t, []byte(text)))
			}
			path := writeFile(t, dir, tc.name+".svm", text)
			s, err := ReadSVMLight(path, tc.o)
			require.NoError(t, err)
			require.Equal(t, tc.base == 0, s.ZeroBased)
			require.True(t, mat.Equal(x, s.X.Dense()), "X differs")
			require.Equal(t, y, s.Y)
			require.Equal(t, []string{"x1", "x2"}, s.Names[:2])
			require.Len(t, s.Names, 12)
			// Row 1 (0-based) comes after a comment and a blank line.
			require.Equal(t, path+":4", s.Places.Of(1))
		})
	}
	t.Run("features", func(t *testing.T) {
		path := writeFile(t, dir, "f.svm", svmText(x, y, 1, false))
		s, err := ReadSVMLight(path, SparseOptions{Features: 15})
		require.NoError(t, err)
		_, p := s.X.Dims()
		require.Equal(t, 15, p)
		want := mat.NewDense(40, 15, nil)
		want.Slice(0, 40, 0, 12).(*mat.Dense).Copy(x)
		require.True(t, mat.Equal(want, s.X.Dense()))
	})
}

// TestSVMLightStdin: "-" reads standard input.
func TestSVMLightStdin(t *testing.T) {
	path := writeFile(t, t.TempDir(), "in.svm", "1 1:2\n0 2:3\n")
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	s, err := ReadSVMLight("-", SparseOptions{})
	require.NoError(t, err)
	require.Equal(t, []float64{1, 0}, s.Y)
	require.Equal(t, []float64{2, 0, 0, 3}, s.X.Dense().RawMatrix().Data)
}

// TestSVMLightEdges: rows without features, explicit zeros, signs and
// exponents, CRLF line ends.
func TestSVMLightEdges(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "e.svm", "+1 2:0 3:1e-3\r\n-1\r\n2.5e1 1:-0 4:+7 # 9:9\r\n")
	s, err := ReadSVMLight(path, SparseOptions{})
	require.NoError(t, err)
	require.Equal(t, []float64{1, -1, 25}, s.Y)
	want := mat.NewDense(3, 4, []float64{0, 0, 1e-3, 0, 0, 0, 0, 0, 0, 0, 0, 7})
	require.True(t, mat.Equal(want, s.X.Dense()))
	require.Equal(t, 2, s.X.NonZeros(), "explicit zeros are not stored")
}

// TestSVMLightErrors: each bad file gets one error naming the file, the
// line, the column and why; none panics.
func TestSVMLightErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, data string
		o          SparseOptions
		want       string
	}{
		{"unsorted", "1 1:1 3:2\n0 5:1 2:1\n", SparseOptions{}, "t.svm:2:7: index 2 after 5: indices must increase along a line"},
		{"repeated", "1 1:1 1:2\n", SparseOptions{}, "t.svm:1:7: index 1 repeated on the line"},
		{"zero-in-1-based", "1 1:1\n0 0:1 2:1\n", SparseOptions{Base: Base1}, "t.svm:2:3: index 0 in a file read as 1-based"},
		{"negative", "1 -3:1\n", SparseOptions{}, "t.svm:1:3: index \"-3\" is negative"},
		{"huge", "1 99999999999:1\n", SparseOptions{}, "t.svm:1:3: index \"99999999999\" is too large (at most 2147483647)"},
		{"not-int", "1 a:1\n", SparseOptions{}, "t.svm:1:3: index \"a\" is not a whole number"},
		{"float-index", "1 1.5:1\n", SparseOptions{}, "t.svm:1:3: index \"1.5\" is not a whole number"},
		{"nan", "1 1:nan\n", SparseOptions{}, "t.svm:1:3: index 1: value \"nan\" is not finite"},
		{"inf", "1 1:1 2:-Inf\n", SparseOptions{}, "t.svm:1:7: index 2: value \"-Inf\" is not finite"},
		{"overflow", "1 1:1e999\n", SparseOptions{}, "t.svm:1:3: index 1: value \"1e999\" is not finite"},
		{"underflow", "1 1:1e-999\n", SparseOptions{}, "t.svm:1:3: index 1: value \"1e-999\" is below the smallest float64"},
		{"bad-value", "1 1:x\n", SparseOptions{}, "t.svm:1:3: index 1: value \"x\" is not a number"},
		{"empty-value", "1 1:\n", SparseOptions{}, "t.svm:1:3: index 1: value \"\" is not a number"},
		{"label", "1 1:1\nyes 1:1\n", SparseOptions{}, "t.svm:2:1: label \"yes\" is not a number"},
		{"label-nan", "NaN 1:1\n", SparseOptions{}, "t.svm:1:1: label \"NaN\" is not finite"},
		{"multi-label", "1,3 1:1\n", SparseOptions{}, "t.svm:1:1: multi-label line (labels \"1,3\")"},
		{"no-label", "1:1 2:2\n", SparseOptions{}, "t.svm:1:1: the line starts with \"1:1\", not a label"},
		{"qid", "1 qid:3 1:1\n", SparseOptions{}, "t.svm:1:3: \"qid:3\": qid (a ranking group) is not read"},
		{"no-colon", "1 1:1 7\n", SparseOptions{}, "t.svm:1:7: expected INDEX:VALUE, got \"7\""},
		{"beyond-features", "1 1:1 6:1\n", SparseOptions{Features: 5}, "t.svm:1:7: index 6 beyond the 5 features"},
		{"beyond-features-0", "1 0:1 5:1\n", SparseOptions{Features: 5, Base: Base0}, "t.svm:1:7: index 5 beyond the 5 features of a 0-based file"},
		{"beyond-features-auto", "1 1:1 5:1\n0 0:2\n", SparseOptions{Features: 5}, "t.svm:1:7: index 5 beyond the 5 features of a 0-based file (index 0 at "},
		{"empty", "# nothing\n\n", SparseOptions{}, "t.svm: no rows"},
		{"no-features", "1\n0\n", SparseOptions{}, "t.svm: no feature in any row"},
		{"memory", "1 2000000000:1\n", SparseOptions{Budget: membudget.Budget{Bytes: 1e9, Given: true}}, "t.svm:1:3: index 2000000000: 2000000000 columns and 1 non-zeros need about"},
		{"memory-features", "1 1:1\n", SparseOptions{Features: 2000000000, Budget: membudget.Budget{Bytes: 1e9, Given: true}}, "t.svm: 2000000000 features: 2000000000 columns and 0 non-zeros need about"},
		{"binary", "1 1:1\x00\n", SparseOptions{}, "t.svm: looks like binary data"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, dir, "t.svm", tc.data)
			_, err := ReadSVMLight(path, tc.o)
			require.Error(t, err)
			require.Contains(t, err.Error(), filepath.Join(dir, tc.want))
		})
	}
}

// mmCoordinate writes x as a Matrix Market coordinate file, its entries
// in the order perm gives (nil: column by column).
func mmCoordinate(x *mat.Dense, rng *rand.Rand) string {
	n, p := x.Dims()
	var lines []string
	for j := range p {
		for i := range n {
			if v := x.At(i, j); v != 0 {
				lines = append(lines, fmt.Sprintf("%d %d %s", i+1, j+1, strconv.FormatFloat(v, 'g', -1, 64)))
			}
		}
	}
	if rng != nil {
		rng.Shuffle(len(lines), func(a, b int) { lines[a], lines[b] = lines[b], lines[a] })
	}
	return fmt.Sprintf("%%%%MatrixMarket matrix coordinate real general\n%% written by a test\n%d %d %d\n%s\n", n, p, len(lines), strings.Join(lines, "\n"))
}

// TestMatrixMarketRoundTrip: a random matrix written as a coordinate
// file (entries in order or shuffled, gzip), an array file, and its
// pattern as a pattern file, reads back exactly.
func TestMatrixMarketRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	x, _ := randomSparse(rng, 30, 9, 0.25)
	check := func(name, text string, o SparseOptions, want *mat.Dense) {
		t.Helper()
		path := writeFile(t, dir, name, text)
		s, err := ReadMatrixMarket(path, o)
		require.NoError(t, err, name)
		require.Nil(t, s.Y)
		require.True(t, mat.Equal(want, s.X.Dense()), name)
	}
	check("sorted.mtx", mmCoordinate(x, nil), SparseOptions{}, x)
	check("shuffled.mtx", mmCoordinate(x, rng), SparseOptions{Base: Base1}, x)
	check("gz.mtx.gz", string(gzipped(t, []byte(mmCoordinate(x, rng)))), SparseOptions{}, x)

	padded := mat.NewDense(30, 11, nil)
	padded.Slice(0, 30, 0, 9).(*mat.Dense).Copy(x)
	check("padded.mtx", mmCoordinate(x, nil), SparseOptions{Features: 11}, padded)

	var arr strings.Builder
	fmt.Fprintf(&arr, "%%%%MatrixMarket matrix array real general\n30 9\n")
	for j := range 9 {
		for i := range 30 {
			arr.WriteString(strconv.FormatFloat(x.At(i, j), 'g', -1, 64) + "\n")
		}
	}
	check("array.mtx", arr.String(), SparseOptions{}, x)

	pattern := mat.NewDense(30, 9, nil)
	var lines []string
	for j := range 9 {
		for i := range 30 {
			if x.At(i, j) != 0 {
				pattern.Set(i, j, 1)
				lines = append(lines, fmt.Sprintf("%d %d", i+1, j+1))
			}
		}
	}
	check("pattern.mtx", fmt.Sprintf("%%%%MatrixMarket MATRIX Coordinate Pattern General\n30 9 %d\n%s\n", len(lines), strings.Join(lines, "\n")), SparseOptions{}, pattern)
	check("integer.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 2\n2 1 -4\n1 2 7\n", SparseOptions{},
		mat.NewDense(2, 2, []float64{0, 7, -4, 0}))
}

// TestMatrixMarketErrors: each bad file gets one error naming the file
// and the line (and the column) and why.
func TestMatrixMarketErrors(t *testing.T) {
	dir := t.TempDir()
	const h = "%%MatrixMarket matrix coordinate real general\n"
	for _, tc := range []struct {
		name, data string
		o          SparseOptions
		want       string
	}{
		{"empty", "", SparseOptions{}, "t.mtx: empty file"},
		{"no-banner", "3 3 1\n1 1 1\n", SparseOptions{}, "t.mtx:1: not a Matrix Market file"},
		{"ragged-header", "%%MatrixMarket matrix coordinate real\n", SparseOptions{}, "t.mtx:1: the header has 4 words, a Matrix Market header 5"},
		{"long-header", "%%MatrixMarket matrix coordinate real general extra\n", SparseOptions{}, "t.mtx:1: the header has 6 words"},
		{"vector", "%%MatrixMarket vector coordinate real general\n", SparseOptions{}, "t.mtx:1:16: \"vector\" is not a matrix"},
		{"format", "%%MatrixMarket matrix sparse real general\n", SparseOptions{}, "t.mtx:1:23: \"sparse\" is not a Matrix Market format"},
		{"complex", "%%MatrixMarket matrix coordinate complex general\n", SparseOptions{}, "t.mtx:1:34: \"complex\" values are refused"},
		{"symmetric", "%%MatrixMarket matrix coordinate real symmetric\n", SparseOptions{}, "t.mtx:1:39: \"symmetric\" storage (one triangle stored) is refused"},
		{"hermitian", "%%MatrixMarket matrix coordinate real hermitian\n", SparseOptions{}, "t.mtx:1:39: \"hermitian\" storage"},
		{"array-pattern", "%%MatrixMarket matrix array pattern general\n", SparseOptions{}, "t.mtx:1:29: \"pattern\" does not combine with array"},
		{"no-size", h + "% only comments\n", SparseOptions{}, "t.mtx: no size line after the header"},
		{"ragged-size", h + "3 3\n", SparseOptions{}, "t.mtx:2: the size line has 2 fields, expected 3 (ROWS COLUMNS ENTRIES)"},
		{"bad-size", h + "3 x 1\n", SparseOptions{}, "t.mtx:2:3: the number of columns \"x\" is not a whole number"},
		{"negative-size", h + "-3 3 1\n", SparseOptions{}, "t.mtx:2:1: the number of rows \"-3\" is negative"},
		{"no-rows", h + "0 3 0\n", SparseOptions{}, "t.mtx:2: the matrix has no rows"},
		{"too-many-declared", h + "2 2 5\n", SparseOptions{}, "t.mtx:2: 5 entries do not fit in 2 × 2"},
		{"memory", h + "1000 2000000000 1\n", SparseOptions{Budget: membudget.Budget{Bytes: 1e9, Given: true}}, "t.mtx:2: 2000000000 columns and 1 non-zeros need about"},
		{"row-beyond", h + "2 2 1\n3 1 1\n", SparseOptions{}, "t.mtx:3:1: row 3 outside 1…2 (the size line, line 2)"},
		{"col-beyond", h + "2 2 1\n1 3 1\n", SparseOptions{}, "t.mtx:3:3: column 3 outside 1…2"},
		{"zero-index", h + "2 2 1\n0 1 1\n", SparseOptions{}, "t.mtx:3:1: row 0 outside 1…2"},
		{"ragged-entry", h + "2 2 1\n1 1\n", SparseOptions{}, "t.mtx:3: 2 fields, expected 3 (ROW COLUMN VALUE)"},
		{"nan", h + "2 2 1\n1 1 nan\n", SparseOptions{}, "t.mtx:3:5: value \"nan\" is not finite"},
		{"integer-frac", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", SparseOptions{}, "t.mtx:3:5: value \"1.5\" is not a whole number"},
		{"too-many", h + "2 2 1\n1 1 1\n2 2 1\n", SparseOptions{}, "t.mtx:4: more entries than the 1 the size line (line 2) declares"},
		{"too-few", h + "2 2 3\n1 1 1\n2 2 1\n", SparseOptions{}, "t.mtx: 2 entries, the size line (line 2) declares 3"},
		{"duplicate", h + "3 2 3\n2 1 1\n% a comment\n1 2 1\n2 1 5\n", SparseOptions{}, "t.mtx:6: entry (2, 1) given twice (first on line 3)"},
		{"features", h + "2 3 0\n", SparseOptions{Features: 2}, "t.mtx:2: 3 columns, more than the 2 features asked for"},
		{"base0", h + "2 3 0\n", SparseOptions{Base: Base0}, "t.mtx: a Matrix Market file is 1-based by its format"},
		{"array-short", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", SparseOptions{}, "t.mtx: 3 values, the size line (line 2) declares 2 × 2 = 4"},
		{"array-long", "%%MatrixMarket matrix array real general\n1 2\n1\n2\n3\n", SparseOptions{}, "t.mtx:5: more values than the 1 × 2"},
		{"array-ragged", "%%MatrixMarket matrix array real general\n1 2\n1 2\n", SparseOptions{}, "t.mtx:3: 2 fields, an array file holds one value a line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, dir, "t.mtx", tc.data)
			_, err := ReadMatrixMarket(path, tc.o)
			require.Error(t, err)
			require.Contains(t, err.Error(), filepath.Join(dir, tc.want))
		})
	}
}

// TestReadResponse: one number per line, as many as the rows; errors by
// line.
func TestReadResponse(t *testing.T) {
	dir := t.TempDir()
	y, err := ReadResponse(writeFile(t, dir, "y.txt", "1\n-2.5\n3e2\n\n"), 3)
	require.NoError(t, err)
	require.Equal(t, []float64{1, -2.5, 300}, y)
	for _, tc := range []struct{ data, want string }{
		{"1\n2\n", "y.txt: 2 values for the design's 3 rows"},
		{"1\n2\n3\n4\n", "y.txt:4: more than the 3 values"},
		{"1\nx\n3\n", "y.txt:2: value \"x\" is not a number"},
		{"1\n\n2\n3\n", "y.txt:2: blank line among the values"},
		{"1\nInf\n3\n", "y.txt:2: value \"Inf\" is not finite"},
	} {
		_, err := ReadResponse(writeFile(t, dir, "y.txt", tc.data), 3)
		require.Error(t, err)
		require.Contains(t, err.Error(), filepath.Join(dir, tc.want))
	}
}

// TestParseBase reads the base as typed.
func TestParseBase(t *testing.T) {
	for s, want := range map[string]Base{"": BaseAuto, "auto": BaseAuto, "0": Base0, "1": Base1} {
		b, err := ParseBase(s)
		require.NoError(t, err)
		require.Equal(t, want, b)
	}
	_, err := ParseBase("2")
	require.EqualError(t, err, "must be auto, 0 or 1, got \"2\"")
}

// TestFormatOf: the format named, else the extension's (.gz taken off).
func TestFormatOf(t *testing.T) {
	for _, tc := range []struct {
		path, given string
		want        Format
	}{
		{"a.csv", "", FormatTable}, {"a.svm", "", FormatSVMLight}, {"A.LIBSVM.GZ", "", FormatSVMLight},
		{"d/a.svmlight.gz", "", FormatSVMLight}, {"a.mtx", "", FormatMatrixMarket}, {"a.mm.gz", "", FormatMatrixMarket},
		{"rcv1_train.binary", "", FormatTable}, {"rcv1_train.binary", "libsvm", FormatSVMLight},
		{"a.svm", "csv", FormatTable}, {"-", "MTX", FormatMatrixMarket}, {"-", "", FormatTable},
	} {
		f, err := FormatOf(tc.path, tc.given)
		require.NoError(t, err)
		require.Equal(t, tc.want, f, "%s %s", tc.path, tc.given)
	}
	require.Equal(t, ".libsvm, .svm, .svmlight: svmlight; .mm, .mtx: mtx", Extensions())
	_, err := FormatOf("a.csv", "xls")
	require.EqualError(t, err, `unknown format "xls" (csv (or parquet), svmlight (or libsvm), mtx (Matrix Market))`)
}

// TestReadSparse: a Matrix Market design takes its response from a file,
// an svmlight file from its labels; constant columns are found.
func TestReadSparse(t *testing.T) {
	dir := t.TempDir()
	mtx := writeFile(t, dir, "x.mtx", "%%MatrixMarket matrix coordinate real general\n3 4 5\n1 1 2\n2 1 2\n3 1 2\n2 2 1\n3 3 0\n")
	_, err := ReadSparse(mtx, FormatMatrixMarket, SparseOptions{}, "")
	require.ErrorIs(t, err, ErrNoResponse)
	s, err := ReadSparse(mtx, FormatMatrixMarket, SparseOptions{}, writeFile(t, dir, "y.txt", "1\n2\n3\n"))
	require.NoError(t, err)
	require.Equal(t, []float64{1, 2, 3}, s.Y)
	isConstant := func(v []float64) bool {
		for _, e := range v {
			if e != v[0] {
				return false
			}
		}
		return true
	}
	// x1 is 2 everywhere, x3 stores an explicit 0 only, x4 is empty.
	require.Equal(t, []int{0, 2, 3}, s.ConstantColumns(isConstant))
	svm := writeFile(t, dir, "x.svm", "1 1:1\n0 2:1\n")
	_, err = ReadSparse(svm, FormatSVMLight, SparseOptions{}, "y.txt")
	require.EqualError(t, err, "an svmlight file holds its labels: it takes no response file")
	s, err = ReadSparse(svm, FormatSVMLight, SparseOptions{}, "")
	require.NoError(t, err)
	require.Equal(t, []float64{1, 0}, s.Y)
}

// TestLongLine: a line longer than the budget allows is refused as it is
// read.
func TestLongLine(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "l.svm", "1"+strings.Repeat(" 1:1", 1<<20)+"\n")
	_, err := ReadSVMLight(path, SparseOptions{Budget: membudget.Budget{Bytes: 2 << 20, Given: true}})
	require.Error(t, err)
	require.Contains(t, err.Error(), path+":1: a line longer than 1048576 bytes")
}

// BenchmarkReadSVMLight reads an rcv1-sized file (n = 20,242, p =
// 47,236, 0.16 % non-zeros), in two passes (a file) and in one (a pipe).
func BenchmarkReadSVMLight(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	var s strings.Builder
	const n, p, nnzRow = 20242, 47236, 76
	for range n {
		s.WriteString("1")
		k := 0
		for range nnzRow {
			k += 1 + rng.IntN(2*p/nnzRow-1)
			if k > p {
				break
			}
			fmt.Fprintf(&s, " %d:%.6g", k, rng.Float64())
		}
		s.WriteString("\n")
	}
	path := filepath.Join(b.TempDir(), "r.svm")
	require.NoError(b, os.WriteFile(path, []byte(s.String()), 0o644))
	for _, twice := range []bool{true, false} {
		b.Run(map[bool]string{true: "twice", false: "once"}[twice], func(b *testing.B) {
			b.SetBytes(int64(s.Len()))
			b.ReportAllocs()
			for b.Loop() {
				x, err := readSVMLight(path, SparseOptions{Features: p}, twice)
				require.NoError(b, err)
				b.ReportMetric(float64(x.X.NonZeros()), "nnz")
			}
		})
	}
}

// TestSVMLightOnePass: a file read once (standard input: a pipe, say)
// gives the same design as the same file read in two passes, and its
// errors the same places.
func TestSVMLightOnePass(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	x, y := randomSparse(rng, 30, 10, 0.3)
	x.Set(0, 9, 1)
	dir := t.TempDir()
	for _, text := range []string{svmText(x, y, 1, true), "1 1:1\n0 3:2 2:1\n", "1 1:1\n0 2000000000:1\n"} {
		path := writeFile(t, dir, "o.svm", text)
		o := SparseOptions{Budget: membudget.Budget{Bytes: 1e9, Given: true}}
		twice, err2 := ReadSVMLight(path, o)
		f, err := os.Open(path)
		require.NoError(t, err)
		old := os.Stdin
		os.Stdin = f
		once, err1 := ReadSVMLight("-", o)
		os.Stdin = old
		f.Close()
		if err2 != nil {
			require.Error(t, err1)
			require.Equal(t, strings.Replace(err2.Error(), path, StdinName, -1), err1.Error())
			continue
		}
		require.NoError(t, err1)
		require.True(t, mat.Equal(twice.X.Dense(), once.X.Dense()))
		require.True(t, mat.Equal(x, once.X.Dense()))
		require.Equal(t, twice.Y, once.Y)
		require.Equal(t, twice.Places.Of(7), strings.Replace(once.Places.Of(7), StdinName, path, 1))
	}
}

// TestSVMLightChanged: a file that changes between the two passes is
// refused, not read half old, half new.
func TestSVMLightChanged(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "c.svm", "1 1:1 2:2\n0 2:1\n")
	r := &svmReader{start: []int{0}, twoPass: true}
	require.NoError(t, r.readPass(path, 1))
	require.NoError(t, r.prepare())
	writeFile(t, dir, "c.svm", "1 1:1 2:2\n0 1:1\n")
	err := r.readPass(path, 2)
	if err == nil {
		_, err = r.finish()
	}
	require.ErrorContains(t, err, "the file changed while it was read")
}
