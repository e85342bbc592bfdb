package bounds

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

// LayerPenalty says which G a network puts on the rows of each weight
// matrix W^l (p_{l+1}×p_l).
type LayerPenalty int

// The network penalties.
const (
	// Lasso is G = 0: M_G = 0.
	Lasso LayerPenalty = iota
	// Cardinality is the unweighted all-pairs A^l on the rows of W^l:
	// M_l = 2/p_{l+1} (0 for a single row).
	Cardinality
	// CardinalityWeighted is √P_l·A^l with P_l = p_{l+1}p_l:
	// M_l = 2/(p_{l+1}√P_l) ≤ 2/√P_l, the paper's bound. (The paper's
	// lemma states 2/√P_l for A^l itself; that holds only with the weight:
	// unweighted, M_l = 2/p_{l+1} is larger whenever p_l > p_{l+1}.)
	CardinalityWeighted
	// GroupedCardinality is ⊕_k w_k A_k over groups of the rows of each W^l
	// (Network.Groups), with w_k = √(|B_k|·p_l) unless Network.Unweighted:
	// M_l = max_k 2/(w_k|B_k|) over groups of two or more rows.
	GroupedCardinality
)

// Network describes an architecture and its data for Theorem 1 of the
// source paper (§4).
type Network struct {
	// Widths are p₀,…,p_{L+1}: W^l has size p_{l+1}×p_l, so L, the number
	// of hidden layers, is len(Widths) − 2 and must be at least 1.
	Widths []int
	// ALip is the activation's Lipschitz constant a_Lip (relu, identity,
	// arctan and isru: 1; leaky relu: max(1, slope)).
	ALip float64
	// N is the number of samples n and XNorm is ‖x‖_n = √(Σ‖x_i‖²/n).
	N     int
	XNorm float64
	// Penalty is the G of every layer.
	Penalty LayerPenalty
	// Groups holds, for the GroupedCardinality penalty, one label per row of each W^l
	// (len(Groups) = L + 1, len(Groups[l]) = p_{l+1}).
	Groups [][]int
	// Unweighted drops the √P_k weights of the GroupedCardinality penalty.
	Unweighted bool
	// Nu is ν; if zero, the smallest admissible ν = 1/(1 − M_G) is used
	// (1 for the lasso).
	Nu float64
	// C is the theorem's noise constant; if zero, 1 is used.
	C float64
}

// NetworkConstants holds every ingredient of the network λ.
type NetworkConstants struct {
	// L is the number of hidden layers and P = Σ_l p_{l+1}p_l the number of
	// parameters.
	L, P int
	// LayerM holds M_l per weight matrix; MG is their maximum.
	LayerM []float64
	MG     float64
	// NuMin = 1/(1 − M_G) is the smallest ν Theorem 1 allows; Nu is the ν
	// used.
	NuMin, Nu float64
	// CLip = 2 a^L √L ‖x‖_n ((2/L)(M_G + 1/ν))^L is the Lipschitz constant
	// of the network class on the unit h-ball, with the paper's definition's
	// 2/L (its Lipschitz theorem states 1/L; the entropy bound and Theorem 1
	// rely on 2/L). RPrime = c_Lip·(M_G + 1/ν) bounds sup‖g_Ω‖_n and
	// R = max(R′, 1).
	CLip, RPrime, R float64
	// Lambda is Theorem 1's
	// C (M_G + 1) a^{2L} ‖x‖_n² (√2/L)^{2L−1} √log(2P) log(2n)/√n;
	// LambdaL1 and LambdaCardinality are its corollaries, the same without
	// the factor (M_G + 1) (the ℓ1 one with G = 0 and ν = 1; the
	// cardinality one with ν ≥ ν_min, dropping M_A ≪ 1).
	Lambda, LambdaL1, LambdaCardinality float64
	// C is the noise constant used.
	C float64
}

// NetworkLambda computes the constants of Theorem 1 for an architecture.
// It returns an error when the architecture is not valid or M_G ≥ 1 (no ν
// is then admissible).
func NetworkLambda(net Network) (NetworkConstants, error) {
	var nc NetworkConstants
	if len(net.Widths) < 3 {
		return nc, errors.New("bounds: the architecture needs p₀, at least one hidden width and p_{L+1}")
	}
	for _, w := range net.Widths {
		if w < 1 {
			return nc, fmt.Errorf("bounds: width %d is not positive", w)
		}
	}
	if !(net.ALip > 0) || net.N < 1 || !(net.XNorm > 0) || math.IsInf(net.XNorm, 0) || net.Nu < 0 || net.C < 0 {
		return nc, errors.New("bounds: a_Lip, n and ‖x‖_n must be positive, ν and C non-negative")
	}
	nc.L = len(net.Widths) - 2
	if net.Penalty == GroupedCardinality && len(net.Groups) != nc.L+1 {
		return nc, fmt.Errorf("bounds: the grouped penalty needs row labels for each of the %d weight matrices, got %d", nc.L+1, len(net.Groups))
	}
	nc.C = net.C
	if nc.C == 0 {
		nc.C = 1
	}
	for l := 0; l+1 < len(net.Widths); l++ {
		rows, cols := net.Widths[l+1], net.Widths[l]
		nc.P += rows * cols
		var m float64
		switch net.Penalty {
		case Cardinality:
			m = AllPairs(rows, 1)
		case CardinalityWeighted:
			m = AllPairs(rows, math.Sqrt(float64(rows*cols)))
		case GroupedCardinality:
			if len(net.Groups[l]) != rows {
				return nc, fmt.Errorf("bounds: weight matrix %d has %d rows but %d group labels", l, rows, len(net.Groups[l]))
			}
			m = groupedLayer(net.Groups[l], cols, net.Unweighted)
		}
		nc.LayerM = append(nc.LayerM, m)
	}
	nc.MG = slices.Max(nc.LayerM)
	var ok bool
	if nc.NuMin, ok = NuMin(nc.MG); !ok {
		return nc, fmt.Errorf("bounds: M_G = %g ≥ 1, so no ν satisfies ν ≥ 1/(1 − M_G) (a layer has two rows)", nc.MG)
	}
	nc.Nu = net.Nu
	if nc.Nu == 0 {
		nc.Nu = nc.NuMin
	}
	L, a, x := float64(nc.L), net.ALip, net.XNorm
	s := nc.MG + 1/nc.Nu
	nc.CLip = 2 * math.Pow(a, L) * math.Sqrt(L) * x * math.Pow(2/L*s, L)
	nc.RPrime = nc.CLip * s
	nc.R = math.Max(nc.RPrime, 1)
	n := float64(net.N)
	core := math.Pow(a, 2*L) * x * x * math.Pow(math.Sqrt2/L, 2*L-1) *
		math.Sqrt(math.Log(2*float64(nc.P))) * math.Log(2*n) / math.Sqrt(n)
	nc.Lambda = nc.C * (nc.MG + 1) * core
	nc.LambdaL1 = nc.C * core
	nc.LambdaCardinality = nc.C * core
	return nc, nil
}

// RegressionConstants holds the ingredients of Theorem 2's λ for a matrix
// design (L = M = 1): X n×p, Y n×q.
type RegressionConstants struct {
	// S = 2·max_j ‖x_j‖²/N (the maximum over the columns of X; the paper's
	// subscript q is a typo, as its matrix corollary shows).
	S float64
	// LambdaT = 2σ√(N s)·√(2 log(p q / t)) bounds 2‖XᵀU‖_∞ with
	// probability at least 1 − t for U with i.i.d. N(0, σ²) entries.
	LambdaT float64
	// Equivalence = max(M_G, 1/ν), the constant of ‖B‖₁ ≤ max(M_G, 1/ν)·h(B).
	Equivalence float64
	// Lambda = Equivalence·LambdaT, the λ at which the oracle inequality
	// holds. This follows the paper's proof; DESIGN §3's wording
	// "2·max(M_G, 1/ν)·(that bound)" counts the factor 2 of 2‖XᵀU‖_∞ twice.
	Lambda float64
}

// RegressionLambda computes Theorem 2's λ for design x (n×p), q responses,
// noise level sigma, confidence 1 − t, and the penalty's M_G and ν.
func RegressionLambda(x *mat.Dense, q int, sigma, t, mg, nu float64) (RegressionConstants, error) {
	var rc RegressionConstants
	n, p := x.Dims()
	if q < 1 || !(sigma > 0) || !(t > 0 && t < 1) || mg < 0 || !(nu > 0) {
		return rc, errors.New("bounds: need q ≥ 1, σ > 0, 0 < t < 1, M_G ≥ 0 and ν > 0")
	}
	for j := 0; j < p; j++ {
		c := x.ColView(j)
		rc.S = math.Max(rc.S, 2*mat.Dot(c, c)/float64(n))
	}
	rc.LambdaT = 2 * sigma * math.Sqrt(float64(n)*rc.S) * math.Sqrt(2*math.Log(float64(p*q)/t))
	rc.Equivalence = math.Max(mg, 1/nu)
	rc.Lambda = rc.Equivalence * rc.LambdaT
	return rc, nil
}

// EffectiveNoise estimates λ_{h,t}, the (1 − t)-quantile of 2·h*(XᵀU) for
// U with i.i.d. N(0, σ²) entries (n×q), from draws samples generated with
// the given seed: the smallest λ at which B = 0 is optimal for pure noise
// with probability 1 − t. It returns an error when pen has no dual norm.
func EffectiveNoise(x *mat.Dense, q int, sigma, t float64, pen penalty.Penalty, draws int, seed uint64) (float64, error) {
	if !(t > 0 && t < 1) || draws < 1 || q < 1 || !(sigma > 0) {
		return 0, errors.New("bounds: need 0 < t < 1, draws ≥ 1, q ≥ 1 and σ > 0")
	}
	n, _ := x.Dims()
	rng := rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc909))
	u := mat.NewDense(n, q, nil)
	var g mat.Dense
	vals := make([]float64, draws)
	for d := range vals {
		for i := 0; i < n; i++ {
			for j := 0; j < q; j++ {
				u.Set(i, j, sigma*rng.NormFloat64())
			}
		}
		g.Mul(x.T(), u)
		v, ok := penalty.DualNorm(pen, &g)
		if !ok {
			return 0, fmt.Errorf("bounds: %T has no closed-form dual norm", pen)
		}
		vals[d] = 2 * v
	}
	slices.Sort(vals)
	k := int(math.Ceil((1-t)*float64(draws))) - 1
	return vals[max(k, 0)], nil
}

// groupedLayer is M_l for groups of the rows of a weight matrix with cols
// columns, via penalty.Grouped's weights.
func groupedLayer(labels []int, cols int, unweighted bool) float64 {
	g := penalty.NewGrouped(labels, 1)
	g.Unweighted = unweighted
	m, _ := PenaltyKernel(g, len(labels), cols)
	return m
}

// CentreColumns returns x with each column's mean subtracted: the design
// RegressionLambda takes for a model with an intercept.
func CentreColumns(x *mat.Dense) *mat.Dense {
	n, p := x.Dims()
	out := mat.DenseCopyOf(x)
	for j := range p {
		m := mat.Sum(x.ColView(j)) / float64(n)
		for i := range n {
			out.Set(i, j, x.At(i, j)-m)
		}
	}
	return out
}
