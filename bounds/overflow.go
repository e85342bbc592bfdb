package bounds

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// NetworkFactor names an ingredient of Theorem 1's λ,
// C (M_G + 1) a^{2L} ‖x‖_n² (√2/L)^{2L−1} √log(2P) log(2n)/√n.
type NetworkFactor int

// The ingredients NetworkConstants.Overflowing can blame.
const (
	// NoiseConstant is C.
	NoiseConstant NetworkFactor = iota
	// InputNorm is ‖x‖_n, squared.
	InputNorm
	// Activation is a_Lip^{2L}.
	Activation
	// KernelTerm is M_G + 1.
	KernelTerm
)

// Overflowing reports whether Theorem 1's λ or one of its corollaries
// overflows float64 and, when it does, the ingredient that made it (the
// largest on a log scale), for constants computed with activation
// Lipschitz constant aLip and input norm xnorm.
func (nc NetworkConstants) Overflowing(aLip, xnorm float64) (NetworkFactor, bool) {
	if finite(nc.Lambda) && finite(nc.LambdaL1) && finite(nc.LambdaCardinality) {
		return 0, false
	}
	logs := []float64{
		NoiseConstant: math.Log(nc.C),
		InputNorm:     2 * math.Log(xnorm),
		Activation:    2 * float64(nc.L) * math.Log(aLip),
		KernelTerm:    math.Log(nc.MG + 1),
	}
	k := 0
	for i, v := range logs {
		if v > logs[k] {
			k = i
		}
	}
	return NetworkFactor(k), true
}

// RegressionFactor names an ingredient of Theorem 2's λ,
// max(M_G, 1/ν)·2σ·√(N s)·√(2 log(p q / t)).
type RegressionFactor int

// The ingredients RegressionConstants.Overflowing can blame.
const (
	// Confidence is t, through log(p q / t).
	Confidence RegressionFactor = iota
	// Equivalence is max(M_G, 1/ν).
	Equivalence
	// Noise is σ.
	Noise
	// DesignScale is s = 2 max_j ‖x_j‖²/N.
	DesignScale
)

// Overflowing reports whether rc.Lambda overflows float64 and, when it
// does, the ingredient that made it: t when log(p q / t) itself
// overflows, else the largest of max(M_G, 1/ν), σ and s (in that order of
// precedence on ties), for constants computed with noise level sigma,
// confidence 1 − t, p predictors and q responses.
func (rc RegressionConstants) Overflowing(sigma, t float64, p, q int) (RegressionFactor, bool) {
	if finite(rc.Lambda) {
		return 0, false
	}
	if !finite(math.Log(float64(p*q) / t)) {
		return Confidence, true
	}
	size := func(v float64) float64 {
		if !finite(v) {
			return math.Inf(1)
		}
		return math.Abs(v)
	}
	switch m := max(size(rc.Equivalence), size(rc.S), size(sigma)); m {
	case size(rc.Equivalence):
		return Equivalence, true
	case size(sigma):
		return Noise, true
	}
	return DesignScale, true
}

// finite reports whether v is a finite number.
func finite(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }

// XNorm returns ‖x‖_n = √(Σ_i ‖x_i‖²/n) of the n rows of x, the input
// scale of Theorem 1 (Network.XNorm).
func XNorm(x mat.Matrix) float64 {
	n, _ := x.Dims()
	return mat.Norm(x, 2) / math.Sqrt(float64(n))
}
