package penalty

import (
	"fmt"
	"math"
)

// This file is the one home of the formulas for the pair weights of factor
// blocks (Block.Weights of a NominalBlock or an OrdinalBlock).
//
// Level order and the reference. A factor's levels are numbered 0…K−1 in
// their own order. A NominalBlock's weight matrix is indexed differently:
// index 0 is the reference level and 1…K−1 are the other levels in level
// order (the order of the block's Rows). So for the reference at level ref,
// level l < ref is index l+1, level l > ref is index l, and level ref is
// index 0. An OrdinalBlock's weights are indexed by edge e, which joins
// levels e and e+1 whatever the reference.

// AdaptiveFloor is the relative floor of the adaptive weights: a difference
// |β̂_j − β̂_k| is replaced by max(|β̂_j − β̂_k|, AdaptiveFloor·s), s the
// largest |β̂_j| of the factor (the reference's 0 included), so that two
// levels with equal estimates get the large finite weight 1/(AdaptiveFloor·s)
// instead of +Inf. When every β̂_j is 0 all weights are 1.
const AdaptiveFloor = 1e-6

// nominalIndex returns the weight-matrix index of level l for the
// reference at level ref.
func nominalIndex(l, ref int) int {
	switch {
	case l == ref:
		return 0
	case l < ref:
		return l + 1
	}
	return l
}

func checkCounts(counts []float64) float64 {
	if len(counts) < 2 {
		panic(fmt.Sprintf("penalty: a factor needs at least two levels, got %d counts", len(counts)))
	}
	var n float64
	for l, c := range counts {
		if !(c >= 0) || math.IsInf(c, 0) {
			panic(fmt.Sprintf("penalty: count %d of a factor is %v; counts must be finite and ≥ 0", l, c))
		}
		n += c
	}
	return n
}

// CountPairWeights returns the level-count ("standardization") weights of a
// nominal factor with the counts n_0…n_{K−1} of its levels (numbers of rows,
// or total row weights) and the reference at level ref, as the K×K matrix a
// NominalBlock expects (reindexed: the reference at index 0, see the top of
// this file). The weight of levels j ≠ k is
//
//	w_jk = (2/K)·√((n_j + n_k)/n),   n = Σ_l n_l,
//
// (H. D. Bondell and B. J. Reich, "Simultaneous factor selection and
// collapsing levels in ANOVA", Biometrics 65, 2009), as the R package smurf
// computes its pen.weights = "stand" for the generalized fused lasso
// (smurf 1.1.7, R/Penalty_weights.R, .compute_pen_weights): there the factor
// √((n_j + n_k)/n) is multiplied by the number of parameters over the number
// of pairs, (K−1)/(K(K−1)/2) = 2/K, to put the K(K−1)/2 pair terms on the
// scale of the K−1 terms of a fused lasso. smurf then multiplies the
// weights of all predictors of the model by one common factor so that they
// average 1 (m/Σw over the m penalised weights); a common factor on every
// block is a rescaling of λ and is left out here. The diagonal is 0. Two
// levels that are both empty get weight 0, which NewBlocks refuses.
// CountPairWeights panics if there are fewer than two counts, if a count
// is negative or not finite, or if ref is out of range.
func CountPairWeights(counts []float64, ref int) []float64 {
	n := checkCounts(counts)
	k := len(counts)
	if ref < 0 || ref >= k {
		panic(fmt.Sprintf("penalty: reference level %d of a factor with %d levels", ref, k))
	}
	adj := 2 / float64(k)
	w := make([]float64, k*k)
	for j := 0; j < k; j++ {
		for l := j + 1; l < k; l++ {
			x := adj * math.Sqrt((counts[j]+counts[l])/n)
			a, b := nominalIndex(j, ref), nominalIndex(l, ref)
			w[a*k+b], w[b*k+a] = x, x
		}
	}
	return w
}

// CountChainWeights returns the level-count ("standardization") edge weights
// of an ordinal factor with the counts n_0…n_{K−1} of its levels in order:
//
//	w_e = √((n_e + n_{e+1})/n),   n = Σ_l n_l,   e = 0…K−2,
//
// smurf's pen.weights = "stand" for the fused lasso (factor 1 there; see
// CountPairWeights for the source and for smurf's common rescaling, left
// out here). The weights do not depend on the reference. It panics if there
// are fewer than two counts or a count is negative or not finite.
func CountChainWeights(counts []float64) []float64 {
	n := checkCounts(counts)
	w := make([]float64, len(counts)-1)
	for e := range w {
		w[e] = math.Sqrt((counts[e] + counts[e+1]) / n)
	}
	return w
}

// adaptive returns 1/max(|d|, floor), or 1 when floor is 0 (all estimates 0).
func adaptive(d, floor float64) float64 {
	if floor == 0 {
		return 1
	}
	return 1 / math.Max(math.Abs(d), floor)
}

func adaptiveFloor(beta []float64) float64 {
	var s float64
	for j, b := range beta {
		if math.IsNaN(b) || math.IsInf(b, 0) {
			panic(fmt.Sprintf("penalty: estimate %d of a factor is %v", j, b))
		}
		s = math.Max(s, math.Abs(b))
	}
	return AdaptiveFloor * s
}

// AdaptivePairWeights returns the adaptive weights of a nominal factor from
// an unpenalised estimate: beta holds β̂_1…β̂_{K−1}, the effects of the
// non-reference levels in level order (a NominalBlock's Rows), the
// reference's effect being β̂_0 = 0. The result is the K×K matrix a
// NominalBlock expects (the reference at index 0) with
//
//	w_jk = 1/max(|β̂_j − β̂_k|, AdaptiveFloor·max_l|β̂_l|),
//
// and all weights 1 when every β̂_j is 0. smurf's pen.weights = "glm" is
// 1/|β̂_j − β̂_k| from a GLM fit with no floor (a tie gives +Inf there), then
// rescaled with all the model's weights to average 1 (left out here, see
// CountPairWeights). The diagonal is 0. It panics if beta is empty or has a
// value that is not finite.
func AdaptivePairWeights(beta []float64) []float64 {
	if len(beta) == 0 {
		panic("penalty: AdaptivePairWeights of a factor with one level")
	}
	floor := adaptiveFloor(beta)
	k := len(beta) + 1
	at := func(i int) float64 {
		if i == 0 {
			return 0
		}
		return beta[i-1]
	}
	w := make([]float64, k*k)
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			x := adaptive(at(i)-at(j), floor)
			w[i*k+j], w[j*k+i] = x, x
		}
	}
	return w
}

// AdaptiveChainWeights returns the adaptive edge weights of an ordinal
// factor with the reference at position ref: beta holds the effects of the
// K−1 non-reference levels in order (an OrdinalBlock's Rows), and with x
// the K level effects (x_ref = 0)
//
//	w_e = 1/max(|x_{e+1} − x_e|, AdaptiveFloor·max_l|x_l|),   e = 0…K−2,
//
// all 1 when every effect is 0 (smurf's "glm" weights for the fused lasso;
// see AdaptivePairWeights). It panics if beta is empty, ref is outside
// 0…len(beta) or a value is not finite.
func AdaptiveChainWeights(beta []float64, ref int) []float64 {
	if len(beta) == 0 {
		panic("penalty: AdaptiveChainWeights of a factor with one level")
	}
	if ref < 0 || ref > len(beta) {
		panic(fmt.Sprintf("penalty: reference position %d of a factor with %d levels", ref, len(beta)+1))
	}
	floor := adaptiveFloor(beta)
	x := make([]float64, 0, len(beta)+1)
	x = append(x, beta[:ref]...)
	x = append(x, 0)
	x = append(x, beta[ref:]...)
	w := make([]float64, len(beta))
	for e := range w {
		w[e] = adaptive(x[e+1]-x[e], floor)
	}
	return w
}
