package factor

import (
	"fmt"
	"testing"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
)

// design3 is x0 (numeric), g (nominal, levels a b c, reference b: columns
// 1 g=a and 2 g=c), x3 (numeric), o (ordinal, levels 1 2 3, reference 1:
// columns 4 o=2 and 5 o=3).
func design3(t *testing.T) *Design {
	t.Helper()
	g := &data.Factor{Name: "g", Levels: []string{"a", "b", "c"}, Ref: 1, Codes: []int32{0, 1, 2, 1, 1}, Counts: []float64{1, 3, 1}}
	o := &data.Factor{Name: "o", Levels: []string{"1", "2", "3"}, Ref: 0, Ordinal: true, Codes: []int32{0, 0, 1, 2, 2}, Counts: []float64{2, 1, 2}}
	d, err := NewDesign([]string{"x0", "g=a", "g=c", "x3", "o=2", "o=3"}, []*data.Factor{g, o}, [][]int{{1, 2}, {4, 5}})
	require.NoError(t, err)
	return d
}

func TestDesignPenalty(t *testing.T) {
	d := design3(t)
	require.Equal(t, []int{0, 3}, d.Numeric())
	pen, free, err := d.Penalty(Options{Numeric: NumericNone})
	require.NoError(t, err)
	require.Equal(t, []int{0, 3}, free)
	// The penalty's rows are the penalised columns 1, 2, 4, 5 in order.
	b := pen.Blocks()
	require.Len(t, b, 2)
	require.Equal(t, penalty.NominalBlock, b[0].Type)
	require.Equal(t, []int{0, 1}, b[0].Rows)
	require.Equal(t, penalty.OrdinalBlock, b[1].Type)
	require.Equal(t, []int{2, 3}, b[1].Rows)
	require.Equal(t, 0, b[1].Ref)

	pen, free, err = d.Penalty(Options{Numeric: NumericLasso, Weights: Count})
	require.NoError(t, err)
	require.Empty(t, free)
	b = pen.Blocks()
	require.Len(t, b, 3)
	require.Equal(t, []int{1, 2}, b[0].Rows)
	require.Equal(t, penalty.LassoBlock, b[2].Type)
	require.Equal(t, []int{0, 3}, b[2].Rows)
	require.Equal(t, penalty.CountPairWeights(d.Factors[0].Counts, 1), b[0].Weights)

	_, _, err = d.Penalty(Options{Weights: Adaptive})
	require.ErrorContains(t, err, "pilot")
	_, _, err = d.Penalty(Options{Numeric: "ridge"})
	require.ErrorContains(t, err, "ridge")
}

func TestNewDesignRefuses(t *testing.T) {
	g := &data.Factor{Name: "g", Levels: []string{"a", "b"}, Ref: 0}
	_, err := NewDesign([]string{"g=b"}, []*data.Factor{g}, [][]int{{0, 0}})
	require.Error(t, err)
	_, err = NewDesign([]string{"g=b", "x"}, []*data.Factor{g, g}, [][]int{{0}, {0}})
	require.Error(t, err, "a column taken twice")
	_, err = NewDesign([]string{"g=b"}, []*data.Factor{g}, [][]int{{3}})
	require.Error(t, err)
}

func TestLevelsAndDF(t *testing.T) {
	d := design3(t)
	// g: a = c = 0.5 (one group), b reference 0; o: 2 = 0 (fused with the
	// reference 1), 3 = −1.
	coef := []float64{0.2, 0.5, 0.5, 0.2, 0, -1}
	lv := d.Levels(Fitted{Coef: coef, LogLink: true})
	require.Len(t, lv, 2)
	require.Equal(t, "b", lv[0].Reference)
	require.Len(t, lv[0].Groups, 2)
	require.Equal(t, []string{"a", "c"}, lv[0].Groups[0].Levels)
	require.Equal(t, 2, lv[0].Groups[0].Rows)
	require.InDelta(t, 0.4, lv[0].Groups[0].Share, 1e-15)
	require.True(t, lv[0].Groups[1].Reference)
	require.Equal(t, []string{"1", "2"}, lv[1].Groups[0].Levels)
	require.Equal(t, 0.0, lv[1].Groups[0].Effect)
	require.Equal(t, []string{"3"}, lv[1].Groups[1].Levels)
	// Shares by weights.
	lv = d.Levels(Fitted{Coef: coef, Weights: []float64{3, 1, 1, 1, 4}})
	require.InDelta(t, 0.4, lv[0].Groups[0].Share, 1e-15) // rows 0 and 2: (3+1)/10
	// df: g one non-zero effect, o one, the numeric predictors one value
	// (cardinality) or two coefficients (lasso).
	require.Equal(t, 3, d.DF(coef, NumericCardinality))
	require.Equal(t, 4, d.DF(coef, NumericLasso))
}

func TestMerges(t *testing.T) {
	d := design3(t)
	lambdas := []float64{3, 2, 1}
	coefs := [][]float64{
		{0, 0, 0, 0, 0, 0},        // everything at the reference
		{0, 0.5, 0.5, 0, 0, -1},   // g: a c together
		{0, 0.5, 0.7, 0, 0.1, -1}, // every level apart
	}
	m := d.Merges(lambdas, coefs)
	// g: at λ=2 {a} + {c}; at λ=3 {a c} + {b}; o: at λ=2 {1} + {2}, at λ=3
	// {1 2} + {3}.
	require.Len(t, m, 4)
	require.Equal(t, Merge{Factor: "g", Lambda: 2, Joined: [][]string{{"a"}, {"c"}}, Groups: 2}, m[0])
	require.Equal(t, Merge{Factor: "g", Lambda: 3, Joined: [][]string{{"a", "c"}, {"b"}}, Reference: true, Groups: 1}, m[1])
	require.Equal(t, "o", m[2].Factor)
	require.True(t, m[2].Reference)
	require.Equal(t, [][]string{{"1"}, {"2"}}, m[2].Joined)
}

func TestParsePairWeights(t *testing.T) {
	for _, s := range []string{"equal", "count", "adaptive"} {
		w, err := ParsePairWeights(s)
		require.NoError(t, err)
		require.Equal(t, s, w.String())
	}
	_, err := ParsePairWeights("smurf")
	require.ErrorContains(t, err, "equal, count, adaptive")
}

// Effects puts each column's coefficient at its level and 0 at the
// reference.
func TestEffects(t *testing.T) {
	d := design3(t)
	coef := []float64{0.2, 0.5, 0.7, 0.2, 0.1, -1}
	require.Equal(t, []float64{0.5, 0, 0.7}, d.Effects(0, coef))
	require.Equal(t, []float64{0, 0.1, -1}, d.Effects(1, coef))
}

// TestWeightedLevelLimit refuses count or adaptive weights on a nominal
// factor above MaxWeightedLevels levels (equal weights and ordinal chains
// take any number).
func TestWeightedLevelLimit(t *testing.T) {
	k := MaxWeightedLevels + 1
	levels, cols, names := make([]string, k), make([]int, k-1), make([]string, k-1)
	counts := make([]float64, k)
	for l := range levels {
		levels[l], counts[l] = fmt.Sprint(l), 2
	}
	for j := range cols {
		cols[j], names[j] = j, fmt.Sprintf("g=%d", j+1)
	}
	for _, ordinal := range []bool{false, true} {
		g := &data.Factor{Name: "g", Levels: levels, Ordinal: ordinal, Counts: counts}
		d, err := NewDesign(names, []*data.Factor{g}, [][]int{cols})
		require.NoError(t, err)
		_, _, err = d.Penalty(Options{Weights: Equal})
		require.NoError(t, err)
		_, _, err = d.Penalty(Options{Weights: Count})
		if ordinal {
			require.NoError(t, err)
		} else {
			require.ErrorContains(t, err, "at most 100 levels")
		}
	}
}

// The numeric predictors' penalties are named as the penalty table names
// them, so that --penalty lasso builds the lasso whether or not the
// predictors include factors.
func TestNumericPenaltiesAreTableNames(t *testing.T) {
	for _, name := range []string{NumericCardinality, NumericLasso} {
		if _, ok := penalty.Lookup(name); !ok {
			t.Errorf("numeric penalty %q is not in the penalty table (%v)", name, penalty.Names(nil))
		}
	}
	if _, ok := penalty.Lookup(NumericNone); ok {
		t.Errorf("%q names a penalty of the table", NumericNone)
	}
}
