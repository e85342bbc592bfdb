// Package radix sorts float64 values with their indices by a
// least-significant-digit radix sort: O(n) where a comparison sort takes
// O(n log n), for the sorts the cardinality penalty and its solvers do on
// every step.
package radix

import (
	"cmp"
	"math"
	"slices"
)

// Pair is a value and the index it came from.
type Pair struct {
	V float64
	I int
}

// minLen is the length from which SortDesc sorts by radix: below it a
// comparison sort is as fast.
const minLen = 512

// SortDesc sorts ps by decreasing value and returns the sorted slice,
// which is ps or spare[:len(ps)] (spare must be at least as long). Equal
// values keep their order from 512 entries on. The values must not be NaN.
func SortDesc(ps, spare []Pair) []Pair {
	if len(ps) < minLen {
		slices.SortFunc(ps, func(a, b Pair) int { return cmp.Compare(b.V, a.V) })
		return ps
	}
	const bits, buckets = 11, 1 << 11
	spare = spare[:len(ps)]
	var count [buckets]int
	for shift := uint(0); shift < 64; shift += bits {
		clear(count[:])
		for _, p := range ps {
			count[descKey(p.V)>>shift&(buckets-1)]++
		}
		if count[descKey(ps[0].V)>>shift&(buckets-1)] == len(ps) {
			continue // every key has this digit
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, p := range ps {
			d := descKey(p.V) >> shift & (buckets - 1)
			spare[count[d]] = p
			count[d]++
		}
		ps, spare = spare, ps
	}
	return ps
}

// descKey maps a float64 to a key whose unsigned order is the values'
// decreasing order (−0 right after +0).
func descKey(v float64) uint64 {
	b := math.Float64bits(v)
	if b>>63 != 0 {
		return b // negative: the larger the magnitude, the larger the key
	}
	return ^b &^ (1 << 63) // non-negative: the larger the value, the smaller the key
}
