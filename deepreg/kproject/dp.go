package kproject

import "math"

// dp holds the state of the optimal k-means dynamic program over n sorted
// values: D_j(i), the least cost of j clusters over the first i values, is
// min over t of D_{j−1}(t) + w(t, i), with w(t, i) the within-segment sum of
// squares of values t, …, i−1.
type dp struct {
	n      int
	p1, p2 []float64 // prefix sums of the centred values and their squares
	prev   []float64 // D_{j−1}
	cur    []float64 // D_j
	arg    []int     // arg[j*(n+1)+i]: the optimal last split of D_j(i)
}

// newDP returns the program for the sorted values s and k clusters. The
// values are centred on their mean to limit cancellation in w.
func newDP(s []float64, k int) *dp {
	n := len(s)
	mean := segMean(s)
	d := &dp{
		n:    n,
		p1:   make([]float64, n+1),
		p2:   make([]float64, n+1),
		prev: make([]float64, n+1),
		cur:  make([]float64, n+1),
		arg:  make([]int, (k+1)*(n+1)),
	}
	for i, x := range s {
		y := x - mean
		d.p1[i+1] = d.p1[i] + y
		d.p2[i+1] = d.p2[i] + y*y
	}
	return d
}

// cost returns w(a, b), the sum of squared deviations from their mean of the
// values a, …, b−1 (a < b), clamped at zero against rounding.
func (d *dp) cost(a, b int) float64 {
	s := d.p1[b] - d.p1[a]
	return max(d.p2[b]-d.p2[a]-s*s/float64(b-a), 0)
}

// optimalCuts returns the boundaries 0 = c[0] < … < c[k] = n of the optimal
// k contiguous clusters of the sorted s, 1 ≤ k ≤ len(s). Layer j needs D_j(i)
// only for j ≤ i ≤ n−k+j, and the last layer only at i = n.
func optimalCuts(s []float64, k int) []int {
	d := newDP(s, k)
	n := d.n
	for i := 1; i <= n-k+1; i++ {
		d.prev[i] = d.cost(0, i)
	}
	for j := 2; j <= k; j++ {
		lo := j
		if j == k {
			lo = n
		}
		d.layer(j, lo, n-k+j, j-1, n-1)
		d.prev, d.cur = d.cur, d.prev
	}
	return d.backtrack(k)
}

// layer computes D_j(i) for lo ≤ i ≤ hi, knowing that the optimal last split
// lies in [optLo, optHi]. It solves the middle i by a scan and recurses on
// each half with the split range narrowed at the middle's split: the
// smallest optimal split is nondecreasing in i because w satisfies the
// quadrangle inequality w(a,c) + w(b,d) ≤ w(a,d) + w(b,c) for a ≤ b ≤ c ≤ d.
func (d *dp) layer(j, lo, hi, optLo, optHi int) {
	if lo > hi {
		return
	}
	mid := (lo + hi) / 2
	best, bestVal := optLo, math.Inf(1)
	for t := optLo; t <= min(mid-1, optHi); t++ {
		if c := d.prev[t] + d.cost(t, mid); c < bestVal {
			best, bestVal = t, c
		}
	}
	d.cur[mid] = bestVal
	d.arg[j*(d.n+1)+mid] = best
	d.layer(j, lo, mid-1, optLo, best)
	d.layer(j, mid+1, hi, best, optHi)
}

// backtrack follows the stored splits back from D_k(n) to the boundaries.
func (d *dp) backtrack(k int) []int {
	c := make([]int, k+1)
	c[k] = d.n
	for j := k; j >= 2; j-- {
		c[j-1] = d.arg[j*(d.n+1)+c[j]]
	}
	return c
}
