package data

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// quantileByCounting is the reference of QuantileEdges: for each j, the
// smallest value v with #{x ≤ v}·k ≥ j·n (the inverse empirical
// distribution function at j/k), found by counting for every value; then
// the distinct ones below the largest value.
func quantileByCounting(x []float64, k int) []float64 {
	var out []float64
	top := slices.Max(x)
	for j := 1; j < k; j++ {
		best := math.Inf(1)
		for _, v := range x {
			c := 0
			for _, u := range x {
				if u <= v {
					c++
				}
			}
			if c*k >= j*len(x) && v < best {
				best = v
			}
		}
		if best < top && !slices.Contains(out, best) {
			out = append(out, best)
		}
	}
	return out
}

// QuantileEdges equals the quantiles found by counting, on data with and
// without ties; every band holds a row and tied values share a band.
func TestQuantileEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	for trial := range 200 {
		n := 5 + rng.IntN(60)
		x := make([]float64, n)
		levels := 2 + rng.IntN(20)
		for i := range x {
			if trial%2 == 0 {
				x[i] = float64(rng.IntN(levels)) // ties
			} else {
				x[i] = rng.NormFloat64()
			}
		}
		distinct := len(slices.Compact(slices.Sorted(slices.Values(x))))
		k := 2 + rng.IntN(distinct)
		if k > distinct {
			k = distinct
		}
		edges, note, err := QuantileEdges(x, k)
		require.NoError(t, err)
		require.Equal(t, quantileByCounting(x, k), edges, "trial %d k %d", trial, k)
		require.Equal(t, note != "", len(edges)+1 < k)
		counts := make([]int, len(edges)+1)
		for _, v := range x {
			counts[BinCode(v, edges)]++
		}
		require.NotContains(t, counts, 0, "trial %d: a band is empty", trial)
	}
}

func TestQuantileEdgesRefuses(t *testing.T) {
	_, _, err := QuantileEdges([]float64{1, 2, 3}, 1)
	require.ErrorContains(t, err, "at least 2 bands")
	_, _, err = QuantileEdges([]float64{1, 2, 2, 1}, 3)
	require.ErrorContains(t, err, "3 bands asked of a column with 2 distinct values")
	_, _, err = QuantileEdges([]float64{1, math.NaN(), 3}, 2)
	require.ErrorContains(t, err, "finite")
	// Many ties: five bands asked, fewer made, said.
	x := []float64{50, 50, 50, 50, 50, 50, 50, 60, 70, 80, 90, 100}
	edges, note, err := QuantileEdges(x, 5)
	require.NoError(t, err)
	require.Equal(t, []float64{50, 60, 80}, edges)
	require.Contains(t, note, "4 bands made of the 5 asked")
}

// Bands are right-closed, the outer ones open; every number has one.
func TestBinLevelsAndCodes(t *testing.T) {
	edges := []float64{20, 25.5, 1e6}
	require.Equal(t, []string{"(-Inf,20]", "(20,25.5]", "(25.5,1e+06]", "(1e+06,Inf)"}, BinLevels(edges))
	for v, want := range map[float64]int32{-1e300: 0, 20: 0, 20.000001: 1, 25.5: 1, 26: 2, 1e6: 2, math.Inf(1): 3} {
		require.Equal(t, want, BinCode(v, edges), "%v", v)
	}
}

func TestParseBinning(t *testing.T) {
	for s, want := range map[string]Binning{
		"age=10":         {Name: "age", K: 10},
		" age = 4 ":      {Name: "age", K: 4},
		"age=30.0":       {Name: "age", Edges: []float64{30}},
		"age=20,30,45.5": {Name: "age", Edges: []float64{20, 30, 45.5}},
		"age=-1e3,0":     {Name: "age", Edges: []float64{-1000, 0}},
	} {
		got, err := ParseBinning(s)
		require.NoError(t, err, s)
		require.Equal(t, want, got, s)
	}
	for s, msg := range map[string]string{
		"age":                     "give NAME=K",
		"=4":                      "give NAME=K",
		"age=":                    "give NAME=K",
		"age=1":                   "at least 2 bands",
		"age=0":                   "at least 2 bands",
		"age=x":                   "is not a number",
		"age=30,20":               "must increase strictly",
		"age=20,20":               "must increase strictly",
		"age=NaN":                 "not a finite number",
		"age=1,Inf":               "not a finite number",
		"age=1,,2":                "is not a number",
		"age=9999999999999999999": "not a number of bands",
	} {
		_, err := ParseBinning(s)
		require.ErrorContains(t, err, msg, s)
	}
}

// ReadRows bins a numeric column into an ordinal factor: its dummy
// columns are the bands above the first, the cut points kept; a text
// column, a column named a factor already, a role column or an empty band
// are refused.
func TestReadRowsBins(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("age,colour,y\n")
	for i := range 40 {
		b.WriteString(strings.Join([]string{strconv.Itoa(18 + i), []string{"red", "blue"}[i%2], strconv.Itoa(i % 3)}, ",") + "\n")
	}
	path := writeFile(t, dir, "d.csv", b.String())
	spec := Spec{Sep: ',', Factors: FactorSpec{Bins: []Binning{{Name: "age", K: 4}}}}
	r, err := ReadRows(path, spec, RowsOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"age=(27,37]", "age=(37,47]", "age=(47,Inf)", "colour=red"}, r.Names)
	require.Equal(t, []float64{27, 37, 47}, r.Factors[0].Edges)
	require.True(t, r.Factors[0].Ordinal)
	require.Equal(t, []float64{1, 0, 0}, r.X.RawRowView(10)[:3]) // age 28
	require.Equal(t, []float64{0, 0, 0}, r.X.RawRowView(9)[:3])  // age 27: the first band
	for _, c := range []struct {
		bins    []Binning
		nominal []string
		msg     string
	}{
		{[]Binning{{Name: "colour", K: 2}}, nil, "holds text (a factor already)"},
		{[]Binning{{Name: "age", K: 2}}, []string{"age"}, "makes a factor already"},
		{[]Binning{{Name: "y", K: 2}}, nil, "which is never a factor"},
		{[]Binning{{Name: "nope", K: 2}}, nil, "no predictor named"},
		{[]Binning{{Name: "age", K: 2}, {Name: "age", K: 3}}, nil, "names \"age\" twice"},
		{[]Binning{{Name: "age", Edges: []float64{10, 20}}}, nil, "the band (-Inf,10] holds no row"},
		{[]Binning{{Name: "age", K: 41}}, nil, "41 bands asked of a column with 40 distinct values"},
	} {
		spec := Spec{Sep: ',', Factors: FactorSpec{Bins: c.bins, Nominal: c.nominal}}
		_, err := ReadRows(path, spec, RowsOptions{})
		require.ErrorContains(t, err, c.msg, "%v", c.bins)
	}
}

// RowsOptions.Design reads the same predictors as X, the factors (a
// binned one included, the reference not first) as indicator columns.
func TestReadRowsDesign(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("age,colour,z,y\n")
	for i := range 30 {
		b.WriteString(strings.Join([]string{strconv.Itoa(18 + i), []string{"red", "blue", "blue", "green"}[i%4], strconv.FormatFloat(float64(i)/7, 'g', -1, 64), strconv.Itoa(i % 3)}, ",") + "\n")
	}
	path := writeFile(t, dir, "d.csv", b.String())
	spec := Spec{Sep: ',', Factors: FactorSpec{Bins: []Binning{{Name: "age", K: 3}}, Ref: map[string]string{"age": "(27,37]"}}}
	dense, err := ReadRows(path, spec, RowsOptions{})
	require.NoError(t, err)
	cols, err := ReadRows(path, spec, RowsOptions{Design: true})
	require.NoError(t, err)
	require.Nil(t, cols.X)
	require.Equal(t, dense.Names, cols.Names)
	require.Equal(t, dense.X.RawMatrix().Data, cols.Design.Dense().RawMatrix().Data)
	require.Equal(t, dense.Y, cols.Y)
	require.Equal(t, 1, dense.Factors[0].Ref)
}
