package design

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// randomDesign returns a design of a dense column, a sparse block, a
// scaled sparse column and a factor's indicators, and its dense copy
// built independently.
func randomDesign(t *testing.T, rng *rand.Rand, n int) (*Matrix, *mat.Dense) {
	const levels = 5
	codes := make([]int32, n)
	for i := range codes {
		codes[i] = int32(rng.IntN(levels+1)) - 1
	}
	ind, err := Indicators(codes, levels, true)
	require.NoError(t, err)
	dense := make([]float64, n)
	var start = []int{0}
	var rows []int32
	var vals []float64
	for range 3 {
		for i := range n {
			if rng.Float64() < 0.2 {
				rows = append(rows, int32(i))
				vals = append(vals, rng.NormFloat64())
			}
		}
		start = append(start, len(rows))
	}
	csc, err := FromCSC(n, 3, start, rows, vals)
	require.NoError(t, err)
	for i := range dense {
		dense[i] = rng.NormFloat64()
	}
	cols := append([]Column{{Dense: dense}}, csc.Columns()...)
	cols = append(cols, csc.Col(1).Scaled(2.5))
	cols = append(cols, ind...)
	m, err := New(n, cols)
	require.NoError(t, err)

	x := mat.NewDense(n, len(cols), nil)
	for i := range n {
		x.Set(i, 0, dense[i])
	}
	for j := range 3 {
		for k := start[j]; k < start[j+1]; k++ {
			x.Set(int(rows[k]), 1+j, vals[k])
			if j == 1 {
				x.Set(int(rows[k]), 4, 2.5*vals[k])
			}
		}
	}
	for i, c := range codes {
		if c >= 1 {
			x.Set(i, 5+int(c)-1, 1)
		}
	}
	return m, x
}

// Every product of a mixed design equals the dense matrix's.
func TestProductsMatchDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 60
	m, x := randomDesign(t, rng, n)
	require.True(t, mat.EqualApprox(m.Dense(), x, 1e-15))
	_, p := m.Dims()
	b := mat.NewDense(p, 2, nil)
	for j := range p {
		b.Set(j, 0, rng.NormFloat64())
		b.Set(j, 1, rng.NormFloat64())
	}
	var got, want mat.Dense
	m.Mul(&got, b)
	want.Mul(x, b)
	require.True(t, mat.EqualApprox(&got, &want, 1e-12))
	r := mat.NewDense(n, 2, nil)
	v := make([]float64, n)
	for i := range n {
		r.Set(i, 0, rng.NormFloat64())
		r.Set(i, 1, rng.NormFloat64())
		v[i] = rng.Float64()
	}
	var gt, wt mat.Dense
	m.MulTrans(&gt, r)
	wt.Mul(x.T(), r)
	require.True(t, mat.EqualApprox(&gt, &wt, 1e-12))
	u := mat.Col(nil, 0, r)
	for j := range p {
		c, xc := m.Col(j), mat.Col(nil, j, x)
		var dot, sq float64
		for i := range n {
			dot += xc[i] * u[i]
			sq += v[i] * xc[i] * xc[i]
		}
		require.InDelta(t, dot, c.Dot(u), 1e-12)
		require.InDelta(t, sq, c.WeightedSq(v), 1e-12)
		y1, y2 := make([]float64, n), make([]float64, n)
		c.Axpy(0.7, y1)
		c.AxpyMul(0.7, v, y2)
		for i := range n {
			require.InDelta(t, 0.7*xc[i], y1[i], 1e-15)
			require.InDelta(t, 0.7*v[i]*xc[i], y2[i], 1e-15)
		}
	}
}

// Selecting rows (out of order, repeated) equals selecting the dense
// matrix's rows.
func TestSelectRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m, x := randomDesign(t, rng, 40)
	for _, rows := range [][]int{{0, 5, 7, 39}, {39, 3, 3, 12, 0, 12}, {}} {
		got := m.SelectRows(rows)
		_, p := x.Dims()
		for k, i := range rows {
			for j := range p {
				require.Equal(t, x.At(i, j), got.Dense().At(k, j))
			}
		}
		require.NoError(t, func() error { _, err := New(len(rows), got.Columns()); return err }())
	}
}

// Malformed columns are refused with the column and the reason.
func TestNewRefuses(t *testing.T) {
	for _, c := range []struct {
		col  Column
		want string
	}{
		{Column{Dense: []float64{1}}, "1 values for 3 rows"},
		{Column{Rows: []int32{2, 1}}, "rows not increasing"},
		{Column{Rows: []int32{1, 1}}, "row 2 given twice"},
		{Column{Rows: []int32{3}}, "row index"},
		{Column{Rows: []int32{-1}}, "row index"},
		{Column{Rows: []int32{0}, Vals: []float64{1, 2}}, "2 values for 1 rows"},
	} {
		_, err := New(3, []Column{{Dense: []float64{1, 2, 3}}, c.col})
		require.ErrorContains(t, err, "column 2: "+c.want)
	}
	_, err := New(2, []Column{{Rows: []int32{0}, Vals: []float64{nanValue()}}})
	require.ErrorContains(t, err, "not finite")
	_, err = FromCSC(3, 2, []int{0, 1}, []int32{0}, nil)
	require.ErrorContains(t, err, "column starts")
	_, err = Indicators([]int32{0, 4}, 3, false)
	require.ErrorContains(t, err, "row 2: level code 4")
}

func nanValue() float64 { var z float64; return z / z }

// FromDense holds every column of x, dense or by its non-zeros, whatever
// the shape's fit to the transposition's tiles, from a view of a larger
// matrix (a stride beyond the columns) too.
func TestFromDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sz := range [][2]int{{1, 1}, {7, 3}, {37, 300}, {9, 513}, {64, 256}} {
		n, p := sz[0], sz[1]
		big := mat.NewDense(n+2, p+3, nil)
		for i := range n + 2 {
			for j := range p + 3 {
				if j%5 != 4 || rng.Float64() < 0.05 { // every fifth column sparse
					big.Set(i, j, rng.NormFloat64())
				}
			}
		}
		x := big.Slice(1, n+1, 2, p+2).(*mat.Dense)
		m := FromDense(x, 1.0/16)
		require.True(t, mat.Equal(x, m.Dense()), "%d×%d", n, p)
		sparse := 0
		for j := range p {
			var nnz int
			for i := range n {
				if x.At(i, j) != 0 {
					nnz++
				}
			}
			require.Equal(t, float64(nnz) > float64(n)/16, m.Col(j).IsDense(), "%d×%d column %d", n, p, j)
			if !m.Col(j).IsDense() {
				sparse++
			}
		}
		require.True(t, n < 30 || sparse > 0, "%d×%d: no sparse column", n, p)
		// A subset of the columns, in any order, and their largest
		// magnitudes; a value that is not finite makes its column's NaN.
		x.Set(n-1, 0, math.NaN())
		vals, top := ColumnsOf(x, []int{p - 1, 0})
		for a, j := range []int{p - 1, 0} {
			want := 0.0
			for i := range n {
				require.Equal(t, math.Float64bits(x.At(i, j)), math.Float64bits(vals[a][i]), "%d×%d (%d, %d)", n, p, i, j)
				want = max(want, math.Abs(x.At(i, j)))
			}
			require.Equal(t, math.Float64bits(want), math.Float64bits(top[a]), "%d×%d column %d", n, p, j)
		}
		require.True(t, math.IsNaN(top[1]))
	}
}
