package penalty

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Cardinality is the cardinality penalty, G = A the all-pairs difference
// matrix. On each column v of length n it is
//
//	h(v) = Σ_{i<j} |v_i − v_j| + ν·n·|mean(v)|,
//
// since Π_A v repeats the column mean. The value of Θ is the sum over its
// columns. A is never built: value, prox and dual norm take O(n log n) time
// and O(n) memory per column.
type Cardinality struct {
	// Nu is the weight ν > 0 of the kernel term. If zero, 1 is used; a
	// negative or NaN ν makes every method panic.
	Nu float64
}

var (
	_ Penalty         = Cardinality{}
	_ DualNormer      = Cardinality{}
	_ KernelProjector = Cardinality{}
	_ Piecewise       = Cardinality{}
)

// Value returns h(Θ).
func (c Cardinality) Value(theta mat.Matrix) float64 { return valueCols(c, theta) }

// Prox writes prox_{τh}(Θ) into dst. It is exact: the pairwise part by sort
// and PAVA, the mean by soft-thresholding at τν (DESIGN §3).
func (c Cardinality) Prox(dst *mat.Dense, theta mat.Matrix, tau float64) {
	proxCols(c, dst, theta, tau)
}

// DualNorm returns h*(g), the maximum over columns of
// max(max_{1≤k<n} S_k(g⊥)/(k(n−k)), |ḡ|/ν).
func (c Cardinality) DualNorm(g mat.Matrix) float64 { return dualCols(c, g) }

// ProjectKernel writes Π_A Θ into dst: every entry replaced by its column
// mean.
func (c Cardinality) ProjectKernel(dst *mat.Dense, theta mat.Matrix) {
	projectGroupMeans(dst, theta, nil)
}

func (c Cardinality) colValue(v []float64, _ int) float64 {
	w := getWorkspace(len(v))
	defer putWorkspace(w)
	return pairwiseValue(v, w) + nuOrOne(c.Nu)*math.Abs(sum(v))
}

func (c Cardinality) colProx(v []float64, tau float64, _ int, w *workspace) {
	fullProx(v, tau, 1, nuOrOne(c.Nu), w)
}

func (c Cardinality) colDual(g []float64, _ int, w *workspace) float64 {
	return fullDual(g, 1, nuOrOne(c.Nu), w)
}

// fullProx is the prox of τ(weight·pairwise + ν·n·|mean|) on one block: the
// two parts act on orthogonal subspaces, so the pairwise prox (which keeps
// the mean) is followed by moving the mean m to SoftThreshold(m, τν).
func fullProx(v []float64, tau, weight, nu float64, w *workspace) {
	m := sum(v) / float64(len(v))
	pairwiseProx(v, tau*weight, w)
	target := SoftThreshold(m, tau*nu)
	if constant(v) {
		// Fully fused: set the common value exactly, so that a zero mean
		// gives exact zeros rather than rounding residue.
		for i := range v {
			v[i] = target
		}
		return
	}
	shift := target - m
	for i := range v {
		v[i] += shift
	}
}

func constant(v []float64) bool {
	for _, x := range v {
		if x != v[0] {
			return false
		}
	}
	return true
}

// fullDual is the dual norm of weight·pairwise + ν·n·|mean| on one block.
func fullDual(g []float64, weight, nu float64, w *workspace) float64 {
	m := sum(g) / float64(len(g))
	return math.Max(pairwiseDual(g, m, w)/weight, math.Abs(m)/nu)
}

// projectGroupMeans writes into dst the matrix whose entries are replaced by
// the mean of their column over their group; groups == nil means one group.
func projectGroupMeans(dst *mat.Dense, theta mat.Matrix, groups [][]int) {
	p, q := theta.Dims()
	sizeLike(dst, p, q)
	if groups == nil {
		all := make([]int, p)
		for i := range all {
			all[i] = i
		}
		groups = [][]int{all}
	}
	v := make([]float64, p)
	for j := 0; j < q; j++ {
		mat.Col(v, j, theta)
		for _, g := range groups {
			var s float64
			for _, i := range g {
				s += v[i]
			}
			s /= float64(len(g))
			for _, i := range g {
				v[i] = s
			}
		}
		dst.SetCol(j, v)
	}
}

// FusionDualNorm returns the dual norm of the pairwise part
// Σ_{i<j}|v_i − v_j| evaluated on the centred g: max_{1≤k<n} S_k(g⊥)/(k(n−k)).
// The cardinality fit is fully fused (all coefficients of a column equal)
// exactly when this part of the gradient's dual norm is at most λ; path
// algorithms use it to place their grid (DESIGN §3).
func FusionDualNorm(g []float64) float64 {
	if len(g) < 2 {
		return 0
	}
	w := getWorkspace(len(g))
	defer putWorkspace(w)
	return pairwiseDual(g, sum(g)/float64(len(g)), w)
}

// Validate refuses a negative, NaN or infinite ν.
func (h Cardinality) Validate() error { return checkNu("cardinality", h.Nu) }
