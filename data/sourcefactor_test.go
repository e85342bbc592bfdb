package data

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// sourceRows reads every pass's rows of a scanned FileSource into a matrix
// of its predictors and the responses, weights and offsets.
func sourceRows(t *testing.T, src *FileSource) (x *mat.Dense, y, w, o []float64) {
	t.Helper()
	var xs []float64
	err := src.Pass(func(xr []float64, yr, wr, or float64) error {
		xs = append(xs, xr...)
		y, w, o = append(y, yr), append(w, wr), append(o, or)
		return nil
	})
	require.NoError(t, err)
	return mat.NewDense(len(y), len(src.Names()), xs), y, w, o
}

// factorFile writes n rows of a numeric column, a text factor (with
// missing cells), a numeric-coded factor, weights and offsets.
func factorFile(t *testing.T, dir string, n int) string {
	rng := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	b.WriteString("x,g,code,w,off,y\n")
	for range n {
		g := []string{"a", "b", " c ", "d", "NA", ""}[rng.IntN(6)]
		code := []string{"1", "2.0", "03", "10"}[rng.IntN(4)]
		fmt.Fprintf(&b, "%.3f,%s,%s,%.2f,%.2f,%.3f\n", rng.NormFloat64(), g, code, 0.5+rng.Float64(), rng.NormFloat64()/4, rng.NormFloat64())
	}
	return writeFile(t, dir, "f.csv", b.String())
}

// A FileSource reads a file with factors as the rows in memory are read:
// the same predictors' names, the same dummy columns row by row, the same
// factors (levels, order, reference, counts), for nominal, numeric-coded
// and ordinal factors, references given, NA levels and dropped rows.
func TestFileSourceFactors(t *testing.T) {
	dir := t.TempDir()
	path := factorFile(t, dir, 300)
	base := Spec{Responses: []string{"y"}, Weights: "w", Offset: "off"}
	specs := map[string]func(s *Spec){
		"na-level": func(s *Spec) { s.Factors.NALevel = true },
		"drop":     func(s *Spec) { s.DropMissing = true },
		"nominal":  func(s *Spec) { s.DropMissing, s.Factors.Nominal = true, []string{"code"} },
		"ordinal": func(s *Spec) {
			s.Factors = FactorSpec{NALevel: true, Ordinal: []Ordering{{Name: "code", Order: []string{"10", "3", "2", "1"}}, {Name: "g"}}}
		},
		"ref": func(s *Spec) {
			s.Factors = FactorSpec{NALevel: true, Nominal: []string{"code"}, Ref: map[string]string{"g": "c", "code": "3"}}
		},
	}
	for name, set := range specs {
		t.Run(name, func(t *testing.T) {
			spec := base
			set(&spec)
			want, err := ReadRows(path, spec, RowsOptions{})
			require.NoError(t, err)
			src := NewFileSource(path, spec)
			n, err := src.Scan()
			require.NoError(t, err)
			require.Equal(t, want.X.RawMatrix().Rows, n)
			require.Equal(t, want.Names, src.Names())
			facs, cols := src.Factors()
			require.Equal(t, want.FactorCols, cols)
			require.Len(t, facs, len(want.Factors))
			for k, f := range facs {
				g := want.Factors[k]
				require.Equal(t, g.Levels, f.Levels)
				require.Equal(t, g.Ref, f.Ref)
				require.Equal(t, g.Ordinal, f.Ordinal)
				require.Equal(t, g.Counts, f.Counts)
				require.Nil(t, f.Codes)
				mass := make([]float64, len(g.Levels))
				for i, c := range g.Codes {
					mass[c] += want.Weights[i]
				}
				require.InDeltaSlice(t, mass, f.Mass, 1e-9)
			}
			require.NotEmpty(t, facs)
			x, y, w, o := sourceRows(t, src)
			require.Equal(t, want.X, x)
			require.Equal(t, mat.Col(nil, 0, want.Y), y)
			require.Equal(t, want.Weights, w)
			require.Equal(t, want.Offset, o)
			require.Equal(t, 2, src.Passes())
		})
	}
}

// A FileSource refuses what the rows in memory refuse (too many levels,
// citing the same limit; a level seen too rarely; a code that is not an
// integer), and a file changed between passes: a new level, a new text
// column, other predictors, other rows.
func TestFileSourceFactorErrors(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,id,y\n")
	for i := range 30 {
		fmt.Fprintf(&b, "%d,u%d,%d\n", i, i%15, i%7)
	}
	path := writeFile(t, dir, "ids.csv", b.String())
	spec := Spec{Factors: FactorSpec{MaxLevels: 10}}
	_, memErr := ReadRows(path, spec, RowsOptions{})
	require.ErrorContains(t, memErr, `column "id" has 15 levels: probably an ID column; --drop it, or raise --max-levels (now 10)`)
	_, err := NewFileSource(path, spec).Scan()
	require.EqualError(t, err, path+`:12: column "id" has more than 10 levels: probably an ID column; --drop it, or raise --max-levels (now 10)`)
	_, err = NewFileSource(path, Spec{}).Scan()
	require.NoError(t, err) // 15 levels, within the default 1000

	rare := writeFile(t, dir, "rare.csv", "x,g,y\n1,a,1\n2,a,2\n3,b,3\n")
	_, memErr = ReadRows(rare, Spec{}, RowsOptions{})
	_, err = NewFileSource(rare, Spec{}).Scan()
	require.ErrorContains(t, err, `column "g": level "b" appears in 1 row(s), fewer than 2`)
	require.ErrorContains(t, memErr, `column "g": level "b" appears in 1 row(s), fewer than 2`)

	frac := writeFile(t, dir, "frac.csv", "x,g,y\n1,1,1\n2,1.5,2\n3,2,3\n")
	_, err = NewFileSource(frac, Spec{Factors: FactorSpec{Nominal: []string{"g"}}}).Scan()
	require.EqualError(t, err, frac+`:3: column "g": "1.5" is not an integer (--factor reads integer codes; a column of text is a factor without it)`)

	changed := func(before, after, want string) {
		t.Helper()
		p := writeFile(t, dir, "c.csv", before)
		src := NewFileSource(p, Spec{})
		_, err := src.Scan()
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(p, []byte(after), 0o644))
		err = src.Pass(func([]float64, float64, float64, float64) error { return nil })
		require.EqualError(t, err, strings.ReplaceAll(want, "FILE", p))
	}
	good := "x,g,y\n1,a,1\n2,a,2\n3,b,3\n4,b,4\n"
	changed(good, "x,g,y\n1,a,1\n2,c,2\n3,b,3\n4,b,4\n",
		`FILE:3: column "g": level "c" was not seen by the first pass over the file (which found 2 levels: "a", "b"): the file changed between passes`)
	changed(good, "x,g,y\na,a,1\n2,a,2\n3,b,3\n4,b,4\n",
		`FILE: column "x" holds text in pass 2 over the file, and numbers only in the first: the file changed between passes`)
	changed(good, "g,x,y\na,1,1\na,2,2\nb,3,3\nb,4,4\n",
		`FILE: pass 2 over the file reads the predictors g, x, the first read x, g: the file changed between passes`)
	changed(good, good+"5,a,5\n",
		`FILE: pass 2 over the file read 5 rows, the first pass 4: the file changed between passes`)
}
