// Package kproject projects vectors onto the set of vectors with at most k
// distinct values, the cardinality projection used to compress the columns
// of a weight matrix.
//
// The Euclidean projection of v ∈ ℝⁿ onto {x : x has at most k distinct
// values} is optimal one-dimensional k-means: the clusters of an optimal
// solution are contiguous in sorted order (every point belongs to a nearest
// cluster mean, and the points nearest to one of finitely many centres on the
// line form an interval), and every value is replaced by the mean of its
// cluster. Exact solves it by dynamic programming over the sorted values;
// Heuristic is the source paper's cheaper rule, which cuts the sorted values
// into k parts of (nearly) equal size. Columns applies either to every column
// of a matrix.
//
// Both projections share these conventions: dst and v have the same length
// and may be the same slice; the result is the squared distance ‖v − x‖²,
// computed from the written x; when v already has at most k distinct values
// (in particular when k ≥ len(v)) dst is a copy of v and the distance is 0;
// k < 1, a length mismatch, or a NaN or infinite value in v panics. Equal
// values are ordered by index, so results are deterministic.
package kproject

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Exact writes into dst the Euclidean projection of v onto the vectors with
// at most k distinct values and returns the squared distance ‖v − x‖².
//
// It sorts v and finds the optimal k contiguous clusters of the sorted values
// by dynamic programming; segment costs come in O(1) from prefix sums of the
// (centred) values and their squares. The optimal last split is monotone in
// the prefix length, because the segment cost satisfies the quadrangle
// inequality, so each of the k layers is solved by divide and conquer in
// O(n log n): O(n log n + k·n·log n) time and O(k·n) memory in total. Equal
// values are never split between clusters, since moving them together
// strictly lowers the cost.
func Exact(dst, v []float64, k int) float64 {
	idx, s, done := prepare("Exact", dst, v, k)
	if done {
		return 0
	}
	return assign(dst, s, idx, optimalCuts(s, k))
}

// Heuristic writes into dst the source paper's approximate projection of v
// onto the vectors with at most k distinct values and returns the squared
// distance ‖v − x‖², which is never smaller than that of Exact.
//
// It sorts v (equal values by index) and cuts the sorted values into k
// consecutive parts: with q = n/k and r = n mod k, the first r parts hold
// q+1 values and the remaining k−r parts hold q. Every value is replaced by
// the mean of its part. Equal values may fall into different parts. It takes
// O(n log n) time.
func Heuristic(dst, v []float64, k int) float64 {
	idx, s, done := prepare("Heuristic", dst, v, k)
	if done {
		return 0
	}
	return assign(dst, s, idx, equalCuts(len(s), k))
}

// Columns replaces every column of m in place by its projection, computed by
// Exact when exact is true and by Heuristic otherwise, and returns the total
// squared distance over all columns. It panics as Exact does.
func Columns(m *mat.Dense, k int, exact bool) float64 {
	project := Heuristic
	if exact {
		project = Exact
	}
	r, c := m.Dims()
	col := make([]float64, r)
	var total float64
	for j := range c {
		mat.Col(col, j, m)
		total += project(col, col, k)
		m.SetCol(j, col)
	}
	return total
}

// Distinct returns the number of distinct values in v. Values are compared
// with ==, so −0 and +0 are one value and every NaN counts separately.
func Distinct(v []float64) int {
	s := slices.Clone(v)
	slices.Sort(s)
	return distinctSorted(s)
}

// distinctSorted returns the number of distinct values of the sorted s.
func distinctSorted(s []float64) int {
	d := 0
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			d++
		}
	}
	return d
}

// prepare validates the arguments of the projection fn and returns the
// sorting permutation idx of v and the sorted values s. When v already has at
// most k distinct values it copies v into dst and reports done.
func prepare(fn string, dst, v []float64, k int) (idx []int, s []float64, done bool) {
	if k < 1 {
		panic(fmt.Sprintf("kproject: %s: k = %d, need k ≥ 1", fn, k))
	}
	if len(dst) != len(v) {
		panic(fmt.Sprintf("kproject: %s: len(dst) = %d ≠ len(v) = %d", fn, len(dst), len(v)))
	}
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			panic(fmt.Sprintf("kproject: %s: v[%d] = %v is not finite", fn, i, x))
		}
	}
	if k >= len(v) {
		copy(dst, v)
		return nil, nil, true
	}
	idx, s = sortIndex(v)
	if distinctSorted(s) <= k {
		copy(dst, v)
		return nil, nil, true
	}
	return idx, s, false
}

// sortIndex returns the permutation idx that sorts v, equal values by index,
// and the sorted values s[t] = v[idx[t]].
func sortIndex(v []float64) (idx []int, s []float64) {
	idx = make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(v[a], v[b]); c != 0 {
			return c
		}
		return a - b
	})
	s = make([]float64, len(v))
	for t, i := range idx {
		s[t] = v[i]
	}
	return idx, s
}

// equalCuts returns the boundaries 0 = c[0] < … < c[k] = n of k consecutive
// parts of n ≥ k items whose first n mod k parts hold one item more.
func equalCuts(n, k int) []int {
	q, r := n/k, n%k
	c := make([]int, k+1)
	for j := range k {
		c[j+1] = c[j] + q
		if j < r {
			c[j+1]++
		}
	}
	return c
}

// assign writes the mean of every segment [c[j], c[j+1]) of the sorted values
// s to the positions idx of those values in dst and returns the squared
// distance. It reads only s, so dst may alias the original vector.
func assign(dst, s []float64, idx, c []int) float64 {
	var dist float64
	for j := range len(c) - 1 {
		seg := s[c[j]:c[j+1]]
		mean := segMean(seg)
		for t, x := range seg {
			d := x - mean
			dist += d * d
			dst[idx[c[j]+t]] = mean
		}
	}
	return dist
}

// segMean returns the mean of the non-empty x, summed as offsets from x[0]
// for accuracy; the mean of equal values is that value exactly.
func segMean(x []float64) float64 {
	var sum float64
	for _, y := range x {
		sum += y - x[0]
	}
	return x[0] + sum/float64(len(x))
}
