package simulate

import (
	"encoding/json"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Stat is the mean of repeated measurements with their standard deviation
// and a 95 % interval for the mean (Student's t, n−1 degrees of freedom).
type Stat struct {
	Mean, SD  float64
	Low, High float64
	N         int
}

// MarshalJSON writes the Stat for the JSON summaries: mean, SD and the
// interval as "ci95", rounded to six significant digits, and n.
func (s Stat) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"mean": sig(s.Mean), "sd": sig(s.SD), "ci95": []float64{sig(s.Low), sig(s.High)}, "n": s.N})
}

// sig rounds x to 6 significant digits; NaN and ±Inf, which JSON cannot
// hold, become 0 (callers pass finite values).
func sig(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return 0
	}
	e := math.Floor(math.Log10(math.Abs(x)))
	return round(x, int(5-e))
}

// Summarize returns the Stat of xs, NaNs dropped. With a single value the SD
// is 0 and the interval is the value itself.
func Summarize(xs []float64) Stat {
	var v []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	s := Stat{N: len(v)}
	if s.N == 0 {
		return s
	}
	s.Mean = stat.Mean(v, nil)
	s.Low, s.High = s.Mean, s.Mean
	if s.N > 1 {
		s.SD = stat.StdDev(v, nil)
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(s.N - 1)}.Quantile(0.975)
		half := t * s.SD / math.Sqrt(float64(s.N))
		s.Low, s.High = s.Mean-half, s.Mean+half
	}
	return s
}

// AdjustedRand returns the adjusted Rand index of two labellings of the
// same items (Hubert and Arabie, 1985): 1 for identical partitions, about 0
// for independent ones. Two partitions that are both a single cluster, or
// both all singletons, agree exactly and score 1.
func AdjustedRand(a, b []int) float64 {
	if len(a) != len(b) {
		panic("simulate: labellings of different lengths")
	}
	type pair struct{ x, y int }
	joint, ra, rb := map[pair]int{}, map[int]int{}, map[int]int{}
	for i := range a {
		joint[pair{a[i], b[i]}]++
		ra[a[i]]++
		rb[b[i]]++
	}
	c2 := func(n int) float64 { return float64(n) * float64(n-1) / 2 }
	var sj, sa, sb float64
	for _, n := range joint {
		sj += c2(n)
	}
	for _, n := range ra {
		sa += c2(n)
	}
	for _, n := range rb {
		sb += c2(n)
	}
	if len(a) < 2 {
		return 1
	}
	expected := sa * sb / c2(len(a))
	top := (sa + sb) / 2
	if top == expected {
		return 1
	}
	return (sj - expected) / (top - expected)
}
