package radix

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The radix sort orders like a comparison sort (values decreasing, every
// index once) on ties, signed zeros, infinities, subnormals and
// magnitudes across the whole exponent range.
func TestSortDescMatchesComparisonSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64, 1, -1}
	for _, n := range []int{minLen, minLen + 1, 1000, 4097} {
		for trial := 0; trial < 5; trial++ {
			v := make([]float64, n)
			for i := range v {
				switch trial {
				case 0:
					v[i] = rng.NormFloat64()
				case 1:
					v[i] = float64(rng.IntN(7) - 3) // many ties
				case 2:
					v[i] = special[rng.IntN(len(special))]
				case 3:
					v[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(2000)-1000)
				default:
					v[i] = 1 + 1e-15*float64(rng.IntN(5)) // differ in the last bits
				}
			}
			ps := make([]Pair, n)
			for i, x := range v {
				ps[i] = Pair{x, i}
			}
			got := SortDesc(ps, make([]Pair, n))
			want := slices.Clone(v)
			slices.SortFunc(want, func(a, b float64) int { return cmp.Compare(b, a) })
			seen := make([]bool, n)
			for k, p := range got {
				require.Equal(t, want[k], p.V, "n=%d trial %d at %d", n, trial, k)
				require.Equal(t, v[p.I], p.V)
				require.False(t, seen[p.I])
				seen[p.I] = true
			}
		}
	}
}
