package reference

import "fmt"

// AdjustedRand returns the adjusted Rand index of Hubert and Arabie (1985)
// between two labelings a and b of the same items; labels are arbitrary ints
// and only equality of labels matters. With n_ij the contingency table,
// a_i and b_j its row and column sums and N = len(a),
//
//	ARI = (Σ C(n_ij,2) − E) / (½[Σ C(a_i,2) + Σ C(b_j,2)] − E),
//	E   = Σ C(a_i,2)·Σ C(b_j,2) / C(N,2).
//
// The denominator is zero exactly when both labelings are the same trivial
// partition: both put all items in one cluster, or both put every item in its
// own cluster (this includes N ≤ 1). In that case the partitions are equal
// and AdjustedRand returns 1, never NaN. A single cluster against all
// singletons gives 0. AdjustedRand panics if len(a) != len(b).
func AdjustedRand(a, b []int) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("reference: AdjustedRand: len(a) = %d, len(b) = %d", len(a), len(b)))
	}
	type cell struct{ i, j int }
	table := make(map[cell]int64)
	rowSum := make(map[int]int64)
	colSum := make(map[int]int64)
	for k := range a {
		table[cell{a[k], b[k]}]++
		rowSum[a[k]]++
		colSum[b[k]]++
	}
	pairs := func(c int64) int64 { return c * (c - 1) / 2 }
	var index, sumA, sumB int64
	for _, c := range table {
		index += pairs(c)
	}
	for _, c := range rowSum {
		sumA += pairs(c)
	}
	for _, c := range colSum {
		sumB += pairs(c)
	}
	total := pairs(int64(len(a)))
	// (sumA+sumB)/2 ≥ √(sumA·sumB) ≥ sumA·sumB/total, with equality throughout
	// only if sumA == sumB and (sumA == 0 or sumA == total).
	if sumA == sumB && (sumA == 0 || sumA == total) {
		return 1
	}
	expected := float64(sumA) * float64(sumB) / float64(total)
	maxIndex := 0.5 * float64(sumA+sumB)
	return (float64(index) - expected) / (maxIndex - expected)
}
