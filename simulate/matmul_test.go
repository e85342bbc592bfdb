package simulate

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func TestMatmulQuick(t *testing.T) {
	needData(t, "digits.csv", "letter_recognition.csv", "clave_direction.csv")
	e := Matmul()
	r := checkQuick(t, e, 7, 2, "panel", "method", "product", "status")
	assert.Equal(t, "matmul", r.Name)
	assert.Equal(t, []string{"panel", "x", "method", "rep", "seed", "rows", "inner", "cols", "distinct", "product", "status", "seconds"}, r.Columns)
	assert.Equal(t, []string{"seconds"}, r.Timing)
	// Rows: per panel, quick xs × 2 repetitions × methods.
	perPanel := map[string]int{"square": 2 * 2 * 4, "binary": 2 * 2 * 6, "digits": 2 * 2 * 4, "letter": 2 * 2 * 4,
		"clave": 2 * 2 * 4, "wide": 2 * 2 * 4, "long": 2 * 2 * 4, "sweep": 3 * 2 * 4}
	want := 0
	for _, n := range perPanel {
		want += n
	}
	require.Len(t, r.Rows, want)
	count := map[string]int{}
	for _, row := range r.Rows {
		count[row[0]]++
		if row[2] == mCardreg {
			assert.Equal(t, "ok", row[10], "cardreg is never skipped: %v", row)
		}
	}
	assert.Equal(t, perPanel, count)

	panels, ok := r.Summary.([]TimingPanel)
	require.True(t, ok, "summary is %T", r.Summary)
	require.Len(t, panels, 8)
	for _, p := range panels {
		require.NotEmpty(t, p.Points, p.Panel)
		for _, pt := range p.Points {
			assert.InDelta(t, 1, pt.Ratio[mCardreg], 1e-12, "%s x=%d", p.Panel, pt.X)
			assert.Contains(t, pt.Ratio, mGonum, "%s x=%d", p.Panel, pt.X)
			assert.Contains(t, pt.Ratio, mNaive, "%s x=%d", p.Panel, pt.X)
			for m, v := range pt.Median {
				assert.True(t, v > 0 && !math.IsInf(v, 0), "%s x=%d %s: %v", p.Panel, pt.X, m, v)
			}
		}
	}
	other := runQuick(t, e, 8, 2)
	assert.Equal(t, len(r.Rows), len(other.Rows))
}

func TestPowersQuick(t *testing.T) {
	e := Powers()
	r := checkQuick(t, e, 3, 2, "method")
	assert.Equal(t, []string{"power", "method", "rep", "seed", "edges", "max_entry", "exact_range", "max_rel_diff", "seconds", "cumulative_seconds"}, r.Columns)
	require.Len(t, r.Rows, 10*3*2) // powers × methods × repetitions
	maxRel, err := r.Floats("max_rel_diff")
	require.NoError(t, err)
	for i, d := range maxRel {
		assert.Zero(t, d, "row %d: the quick powers are exact integers", i+1)
	}
	cum, err := r.Floats("cumulative_seconds")
	require.NoError(t, err)
	step, err := r.Floats("seconds")
	require.NoError(t, err)
	for i := range cum {
		assert.GreaterOrEqual(t, cum[i], step[i])
	}
	other := runQuick(t, e, 4, 2)
	assert.NotEqual(t, r.Deterministic(), other.Deterministic(), "another seed, another graph")
}

func TestMarkovQuick(t *testing.T) {
	e := Markov()
	r := checkQuick(t, e, 5, 2, "method")
	assert.Equal(t, []string{"step", "method", "rep", "seed", "max_abs_diff", "seconds", "cumulative_seconds"}, r.Columns)
	require.Len(t, r.Rows, 21*3*2) // steps 0..20 × methods × repetitions
	diff, err := r.Floats("max_abs_diff")
	require.NoError(t, err)
	for i, d := range diff {
		assert.LessOrEqual(t, d, 1e-12, "row %d", i+1)
	}
}

// TestTransition checks the Markov transition matrix: rows sum to one, two
// distinct values per row, at most twelve per column.
func TestTransition(t *testing.T) {
	p := transitionFor(t, 1)
	r, c := p.Dims()
	for i := 0; i < r; i++ {
		row := p.RawRowView(i)
		assert.InDelta(t, 1, floatsSum(row), 1e-12)
		assert.Len(t, distinct(row), 2, "row %d", i)
	}
	for j := 0; j < c; j++ {
		assert.LessOrEqual(t, len(distinct(mat.Col(nil, j, p))), 12, "column %d", j)
	}
}

func transitionFor(t *testing.T, seed uint64) *mat.Dense {
	t.Helper()
	return transition(rand.New(rand.NewPCG(seed, 1)), 200)
}

func distinct(xs []float64) map[float64]bool {
	m := map[float64]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// TestSameProduct checks that the product check can fail.
func TestSameProduct(t *testing.T) {
	ref := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	assert.NoError(t, sameProduct(mat.DenseCopyOf(ref), ref, false))
	assert.NoError(t, sameProduct(mat.NewDense(2, 2, []float64{1, 0, 1, 0}), ref, true))
	assert.Error(t, sameProduct(mat.NewDense(2, 2, []float64{1, 2, 3, 4.001}), ref, false))
	assert.Error(t, sameProduct(mat.NewDense(2, 2, []float64{1, 2, 3, 4}), ref, true))
	assert.Error(t, sameProduct(mat.NewDense(1, 2, nil), ref, false))
}

// TestMatmulMarkdown checks the Markdown tables of a summary.
func TestMatmulMarkdown(t *testing.T) {
	x := 16
	panels := []TimingPanel{{Panel: "sweep", Title: "Sweep", XLabel: "k (distinct values)", Cardreg: "Algorithm 3",
		Methods: []string{mNaive, mGonum, mCardreg}, CrossoverX: &x,
		Points: []TimingPoint{{X: 8, Median: map[string]float64{mGonum: 0.002, mCardreg: 0.001},
			Ratio: map[string]float64{mGonum: 2, mCardreg: 1}}}}}
	var b strings.Builder
	require.NoError(t, WriteTimingMarkdown(&b, panels))
	out := b.String()
	assert.Contains(t, out, "### Sweep")
	assert.Contains(t, out, "| k (distinct values) | naive | gonum | cardreg | gonum / cardreg |")
	assert.Contains(t, out, "| 8 | – | 2.00 | 1.00 | 2.00 |")
	assert.Contains(t, out, "gonum is faster from k = 16 on.")
}
