package main

import (
	"math"
	"math/rand/v2"
	"strconv"
)

// matrix is the generated n×p matrix held twice: by rows (for the svmlight
// file and the response) and by columns (for R's dgCMatrix). Indices are
// 0-based and increasing within each row and each column.
type matrix struct {
	n, p                   int
	rowPtr, cols           []int32 // CSR: row i's entries are [rowPtr[i], rowPtr[i+1])
	rowVals                []float64
	colPtr, rows           []int32 // CSC: column j's entries are [colPtr[j], colPtr[j+1])
	colVals                []float64
	rank                   []int // rank[j]: column j's frequency rank, 1 = most frequent
	emptyRowsFilled, maxDF int
}

// digits is the number of significant digits every value is rounded to.
const digits = 6

// round6 rounds v to 6 significant digits through its decimal text, so that the
// value written and the value read back are the same float64.
func round6(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', digits, 64), 64)
	return r
}

// maxFreq caps a column's probability of appearing in a row.
const maxFreq = 0.5

// zipfScale solves Σ_r min(maxFreq, c·r^(−s)) = target for c by bisection (the
// sum is increasing in c).
func zipfScale(p int, s, target float64) float64 {
	sum := func(c float64) float64 {
		t := 0.0
		for r := 1; r <= p; r++ {
			t += math.Min(maxFreq, c*math.Pow(float64(r), -s))
		}
		return t
	}
	lo, hi := 0.0, 1.0
	for sum(hi) < target && hi < 1e300 {
		hi *= 2
	}
	for it := 0; it < 200 && hi-lo > 1e-15*hi; it++ {
		mid := (lo + hi) / 2
		if sum(mid) < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// generate draws the pattern column by column (a Bernoulli process per column,
// walked by geometric gaps: O(nnz) draws), then the tf-idf values, the unit
// row norms and the rounding.
func generate(s spec) *matrix {
	rng := rand.New(rand.NewPCG(s.seed, s.seed^0x9e3779b97f4a7c15))
	m := &matrix{n: s.n, p: s.p, rank: make([]int, s.p)}
	for j, r := range rng.Perm(s.p) {
		m.rank[j] = r + 1
	}
	c := zipfScale(s.p, s.zipf, s.density*float64(s.p))
	colPtr := make([]int32, s.p+1)
	rows := make([]int32, 0, int(1.01*s.density*float64(s.n)*float64(s.p))+16)
	for j := 0; j < s.p; j++ {
		q := math.Min(maxFreq, c*math.Pow(float64(m.rank[j]), -s.zipf))
		rows = bernoulliRows(rng, rows, s.n, q)
		colPtr[j+1] = int32(len(rows))
		m.maxDF = max(m.maxDF, int(colPtr[j+1]-colPtr[j]))
	}
	vals := tfidf(rng, s.n, colPtr, rows)
	m.toRows(colPtr, rows, vals)
	m.fillEmptyRows(rng)
	m.normalise()
	m.toColumns()
	return m
}

// bernoulliRows appends the rows, among 0..n−1, that a Bernoulli(q) process
// selects: the gap to the next selected row is geometric.
func bernoulliRows(rng *rand.Rand, rows []int32, n int, q float64) []int32 {
	if q <= 0 {
		return rows
	}
	lq := math.Log1p(-q)
	for r := -1; ; {
		g := math.Floor(math.Log(1-rng.Float64()) / lq) // 1−U is in (0, 1]
		if g >= float64(n) {
			return rows
		}
		r += 1 + int(g)
		if r >= n {
			return rows
		}
		rows = append(rows, int32(r))
	}
}

// tfidf draws each entry's term count tf = 1 + Geometric (mean 0.5) and returns
// (1 + ln tf)·idf_j with the smoothed idf_j = 1 + ln((1 + n)/(1 + df_j)).
func tfidf(rng *rand.Rand, n int, colPtr, rows []int32) []float64 {
	vals := make([]float64, len(rows))
	lthird := math.Log(1.0 / 3)
	for j := 0; j+1 < len(colPtr); j++ {
		df := float64(colPtr[j+1] - colPtr[j])
		idf := 1 + math.Log((1+float64(n))/(1+df))
		for k := colPtr[j]; k < colPtr[j+1]; k++ {
			extra := math.Floor(math.Log(1-rng.Float64()) / lthird)
			vals[k] = (1 + math.Log1p(extra)) * idf
		}
	}
	return vals
}

// toRows fills the CSR arrays from CSC ones (a counting sort: the columns
// come out increasing within each row).
func (m *matrix) toRows(colPtr, rows []int32, vals []float64) {
	m.rowPtr = make([]int32, m.n+1)
	for _, r := range rows {
		m.rowPtr[r+1]++
	}
	for i := 0; i < m.n; i++ {
		m.rowPtr[i+1] += m.rowPtr[i]
	}
	next := append([]int32(nil), m.rowPtr[:m.n]...)
	m.cols = make([]int32, len(rows))
	m.rowVals = make([]float64, len(rows))
	for j := 0; j < m.p; j++ {
		for k := colPtr[j]; k < colPtr[j+1]; k++ {
			r := rows[k]
			m.cols[next[r]] = int32(j)
			m.rowVals[next[r]] = vals[k]
			next[r]++
		}
	}
}

// fillEmptyRows gives each empty row one entry, value 1, in a uniformly drawn
// column (a unit-norm row needs one non-zero).
func (m *matrix) fillEmptyRows(rng *rand.Rand) {
	var empty []int
	for i := 0; i < m.n; i++ {
		if m.rowPtr[i] == m.rowPtr[i+1] {
			empty = append(empty, i)
		}
	}
	if len(empty) == 0 {
		return
	}
	m.emptyRowsFilled = len(empty)
	cols := make([]int32, 0, len(m.cols)+len(empty))
	vals := make([]float64, 0, len(m.cols)+len(empty))
	ptr := make([]int32, m.n+1)
	e := 0
	for i := 0; i < m.n; i++ {
		cols = append(cols, m.cols[m.rowPtr[i]:m.rowPtr[i+1]]...)
		vals = append(vals, m.rowVals[m.rowPtr[i]:m.rowPtr[i+1]]...)
		if e < len(empty) && empty[e] == i {
			cols = append(cols, int32(rng.IntN(m.p)))
			vals = append(vals, 1)
			e++
		}
		ptr[i+1] = int32(len(cols))
	}
	m.rowPtr, m.cols, m.rowVals = ptr, cols, vals
}

// normalise scales each row to unit Euclidean length and rounds every value to
// 6 significant digits.
func (m *matrix) normalise() {
	for i := 0; i < m.n; i++ {
		v := m.rowVals[m.rowPtr[i]:m.rowPtr[i+1]]
		ss := 0.0
		for _, x := range v {
			ss += x * x
		}
		inv := 1 / math.Sqrt(ss)
		for k := range v {
			v[k] = round6(v[k] * inv)
		}
	}
}

// toColumns fills the CSC arrays from the CSR ones.
func (m *matrix) toColumns() {
	m.colPtr = make([]int32, m.p+1)
	for _, j := range m.cols {
		m.colPtr[j+1]++
	}
	for j := 0; j < m.p; j++ {
		m.colPtr[j+1] += m.colPtr[j]
	}
	next := append([]int32(nil), m.colPtr[:m.p]...)
	m.rows = make([]int32, len(m.cols))
	m.colVals = make([]float64, len(m.cols))
	for i := 0; i < m.n; i++ {
		for k := m.rowPtr[i]; k < m.rowPtr[i+1]; k++ {
			j := m.cols[k]
			m.rows[next[j]] = int32(i)
			m.colVals[next[j]] = m.rowVals[k]
			next[j]++
		}
	}
}

// truth is what respond reports about the model.
type truth struct {
	support      []int   // the true non-zero columns
	scale        float64 // the factor applied to the magnitudes drawn
	positiveRate float64 // rcv1: the fraction of +1 labels
}

// respond draws β* and the response (see the package comment).
func respond(s spec, m *matrix) ([]float64, truth) {
	rng := rand.New(rand.NewPCG(s.seed^0x5bd1e995, s.seed+1))
	top := max(s.k, s.p/10)
	var cand []int
	for j, r := range m.rank {
		if r <= top {
			cand = append(cand, j)
		}
	}
	rng.Shuffle(len(cand), func(a, b int) { cand[a], cand[b] = cand[b], cand[a] })
	beta := make([]float64, s.p)
	t := truth{support: cand[:s.k]}
	for _, j := range t.support {
		beta[j] = (1 + rng.Float64()) * float64(1-2*rng.IntN(2))
	}
	eta := make([]float64, s.n)
	for i := range eta {
		for k := m.rowPtr[i]; k < m.rowPtr[i+1]; k++ {
			eta[i] += m.rowVals[k] * beta[m.cols[k]]
		}
	}
	mean, sd := moments(eta)
	t.scale = 1.0
	if sd > 0 {
		t.scale = s.etaSD / sd
	}
	y := make([]float64, s.n)
	pos := 0
	for i := range eta {
		e := (eta[i] - mean) * t.scale
		if s.kind == "rcv1" {
			y[i] = -1
			if rng.Float64() < 1/(1+math.Exp(-e)) {
				y[i] = 1
				pos++
			}
			continue
		}
		y[i] = round6(e + s.noise*rng.NormFloat64())
	}
	t.positiveRate = float64(pos) / float64(s.n)
	return y, t
}

// moments returns the mean and the (population) standard deviation.
func moments(x []float64) (mean, sd float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		sd += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(sd / float64(len(x)))
}
