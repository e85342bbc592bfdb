package bounds

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/floats"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// MaxExactColumns is the largest column count for which Kernel computes M_G
// exactly: the linear-programming method solves 2^(p−1) programs.
const MaxExactColumns = 14

// AllPairs returns M_A = 2/(n·w) for the all-pairs difference matrix on n
// rows scaled by the weight w (w = 1 unweighted, w = √P with the paper's
// weight): y = e₁ − 1/n attains the bound ‖A⁺‖₁→₁ = 2/n (DESIGN §3). A
// matrix with fewer than two rows has no differences and M_A = 0.
func AllPairs(n int, w float64) float64 {
	if n < 2 {
		return 0
	}
	return 2 / (float64(n) * w)
}

// Grouped returns M_G for the block-diagonal ⊕_k w_k A_k over groups of the
// given sizes: the maximum of AllPairs over the blocks (the blocks act on
// disjoint coordinates, so the worst block decides).
func Grouped(sizes []int, weights []float64) float64 {
	var m float64
	for k, n := range sizes {
		m = math.Max(m, AllPairs(n, weights[k]))
	}
	return m
}

// Kernel is M_G = max{‖y‖₁ : y ⊥ ker G, ‖Gy‖₁ ≤ 1} with how it was found.
type Kernel struct {
	// Lower and Upper bracket M_G; they are equal when Exact.
	Lower, Upper float64
	// Exact reports whether M_G was computed exactly.
	Exact bool
	// Method names the computation.
	Method string
}

// Value returns M_G when exact and the upper end of the interval otherwise,
// the value that keeps the theory's requirements safe.
func (k Kernel) Value() float64 { return k.Upper }

// KernelOf computes M_G for an explicit m×p matrix G (nil or all zero means
// G = 0, M_G = 0). For p ≤ MaxExactColumns it is exact, by linear programs
// over the sign vectors s: M_G = max_s max{sᵀy : y ⊥ ker G, ‖Gy‖₁ ≤ 1}.
// Beyond that it returns the interval from the upper bound ‖G⁺‖₁→₁ (the
// largest column ℓ1 norm of the pseudo-inverse) and the best ratio
// ‖y‖₁/‖Gy‖₁ over the columns of G⁺, improved by one linear program at that
// point's sign vector.
func KernelOf(g *mat.Dense) (Kernel, error) {
	if g == nil || mat.Norm(g, 1) == 0 {
		return Kernel{Exact: true, Method: "G = 0"}, nil
	}
	if !finiteMatrix(g) {
		return Kernel{}, errors.New("bounds: G has a non-finite entry")
	}
	r, err := newRange(g)
	if err != nil {
		return Kernel{}, err
	}
	_, p := g.Dims()
	if p <= MaxExactColumns {
		v, err := r.exact()
		if err != nil {
			return Kernel{}, err
		}
		return Kernel{Lower: v, Upper: v, Exact: true,
			Method: fmt.Sprintf("linear programs over the %d sign vectors", 1<<(p-1))}, nil
	}
	lo, err := r.lower()
	if err != nil {
		return Kernel{}, err
	}
	return Kernel{Lower: lo, Upper: math.Max(r.upper(), lo),
		Method: "interval: upper ‖G⁺‖₁→₁, lower from the columns of G⁺ and one linear program"}, nil
}

// PenaltyKernel returns M_G in closed form for a penalty acting on p×q
// matrices: 0 for the lasso, 2/p for the cardinality penalty, and the worst
// block max_k 2/(w_k|B_k|) for the grouped one. It reports false for a
// penalty without a closed form (use KernelOf on its G).
func PenaltyKernel(pen penalty.Penalty, p, q int) (float64, bool) {
	switch h := pen.(type) {
	case penalty.L1:
		return 0, true
	case penalty.Cardinality:
		return AllPairs(p, 1), true
	case *penalty.Grouped:
		var m float64
		for k, rows := range h.Groups() {
			m = math.Max(m, AllPairs(len(rows), h.Weight(k, q)))
		}
		return m, true
	}
	return 0, false
}

// KernelOfLayers returns M_G for a network, the maximum of KernelOf over
// its layers' matrices; it is exact only when every layer's is.
func KernelOfLayers(gs []*mat.Dense) (Kernel, error) {
	out := Kernel{Exact: true, Method: "maximum over layers"}
	for l, g := range gs {
		k, err := KernelOf(g)
		if err != nil {
			return Kernel{}, fmt.Errorf("layer %d: %w", l, err)
		}
		out.Lower = math.Max(out.Lower, k.Lower)
		out.Upper = math.Max(out.Upper, k.Upper)
		out.Exact = out.Exact && k.Exact
	}
	return out, nil
}

// rangeSpace holds G restricted to ker(G)^⊥ in an orthonormal basis B:
// y = Bz, M = GB has full column rank, and G⁺ for the bounds.
type rangeSpace struct {
	g, b, m, pinv *mat.Dense
}

func newRange(g *mat.Dense) (*rangeSpace, error) {
	var svd mat.SVD
	if !svd.Factorize(g, mat.SVDThin) {
		return nil, errors.New("bounds: SVD of G failed")
	}
	vals := svd.Values(nil)
	var v mat.Dense
	svd.VTo(&v)
	tol := 1e-10 * vals[0]
	rank := 0
	for _, s := range vals {
		if s > tol {
			rank++
		}
	}
	_, p := g.Dims()
	b := mat.DenseCopyOf(v.Slice(0, p, 0, rank))
	var m mat.Dense
	m.Mul(g, b)
	// G⁺ = V Σ⁻¹ Uᵀ on the range.
	var u mat.Dense
	svd.UTo(&u)
	rows, _ := g.Dims()
	pinv := mat.NewDense(p, rows, nil)
	for k := 0; k < rank; k++ {
		var outer mat.Dense
		outer.Outer(1/vals[k], v.ColView(k), u.ColView(k))
		pinv.Add(pinv, &outer)
	}
	return &rangeSpace{g: g, b: b, m: &m, pinv: pinv}, nil
}

// upper returns ‖G⁺‖₁→₁, the largest column ℓ1 norm of G⁺.
func (r *rangeSpace) upper() float64 { return mat.Norm(r.pinv, 1) }

// exact maximises the sign-vector programs; s and −s give the same value,
// so the first coordinate's sign is fixed.
// The programs are independent and spread over the cores.
func (r *rangeSpace) exact() (float64, error) {
	p, _ := r.b.Dims()
	workers := runtime.GOMAXPROCS(0)
	best := make([]float64, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			s := make([]float64, p)
			for code := w; code < 1<<(p-1); code += workers {
				s[0] = 1
				for i := 1; i < p; i++ {
					s[i] = 1
					if code>>(i-1)&1 == 1 {
						s[i] = -1
					}
				}
				v, err := r.signValue(s)
				if err != nil {
					errs[w] = err
					return
				}
				best[w] = math.Max(best[w], v)
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	return floats.Max(best), nil
}

// lower returns a certified lower bound: the ratio ‖y‖₁/‖Gy‖₁ at the best
// column y of G⁺ (which lies in ker(G)^⊥), then the program at its sign
// vector, whose value is attained by a feasible point.
func (r *rangeSpace) lower() (float64, error) {
	p, cols := r.pinv.Dims()
	var best float64
	var bestY []float64
	gy := mat.NewVecDense(r.g.RawMatrix().Rows, nil)
	for j := 0; j < cols; j++ {
		y := mat.Col(nil, j, r.pinv)
		gy.MulVec(r.g, mat.NewVecDense(p, y))
		if n := vecL1(gy.RawVector().Data); n > 0 {
			if v := vecL1(y) / n; v > best {
				best, bestY = v, y
			}
		}
	}
	if bestY == nil {
		return 0, nil
	}
	s := make([]float64, p)
	for i, v := range bestY {
		s[i] = math.Copysign(1, v)
	}
	v, err := r.signValue(s)
	if err != nil {
		return 0, err
	}
	return math.Max(best, v), nil
}

// signValue returns max{sᵀBz : ‖Mz‖₁ ≤ 1} through its dual
// min{‖u‖∞ : Mᵀu = Bᵀs}, as the standard-form program in the variables
// (u⁺, u⁻, w, τ) ≥ 0 with Mᵀ(u⁺ − u⁻) = Bᵀs and u⁺ + u⁻ + w = τ·1. The
// zero right-hand sides make it degenerate; see simplex.
func (r *rangeSpace) signValue(s []float64) (float64, error) {
	m, rank := r.m.Dims()
	c := mat.NewVecDense(rank, nil)
	c.MulVec(r.b.T(), mat.NewVecDense(len(s), s))
	nv := 3*m + 1
	a := mat.NewDense(rank+m, nv, nil)
	bvec := make([]float64, rank+m)
	obj := make([]float64, nv)
	obj[nv-1] = 1
	for i := 0; i < rank; i++ {
		for k := 0; k < m; k++ {
			a.Set(i, k, r.m.At(k, i))
			a.Set(i, m+k, -r.m.At(k, i))
		}
		bvec[i] = c.AtVec(i)
	}
	for k := 0; k < m; k++ {
		row := rank + k
		a.Set(row, k, 1)
		a.Set(row, m+k, 1)
		a.Set(row, 2*m+k, 1)
		a.Set(row, nv-1, -1)
	}
	return simplex(obj, a, bvec)
}

// simplex solves min cᵀx, Ax = b, x ≥ 0 with gonum's simplex method, which
// has no iteration limit and can cycle or stop on a near-singular basis on
// degenerate programs like these. It first solves with b perturbed by
// distinct positive amounts, which makes the program nondegenerate, reads
// the optimal basis off the nonzero entries, and re-solves the exact
// program from that basis: reduced costs do not depend on b, so the basis
// stays optimal, and gonum checks it. Several perturbation sizes are tried
// before giving up.
func simplex(c []float64, a *mat.Dense, b []float64) (float64, error) {
	rows, _ := a.Dims()
	bp := make([]float64, rows)
	var last error
	for _, eps := range []float64{1e-7, 1e-9, 1e-5, 1e-8} {
		for i := range b {
			bp[i] = b[i] + eps*(1+float64((i*7919)%rows)/float64(rows))
		}
		_, x, err := lp.Simplex(c, a, bp, 1e-12, nil)
		if err != nil {
			last = err
			continue
		}
		var basis []int
		for j, v := range x {
			if v != 0 {
				basis = append(basis, j)
			}
		}
		if len(basis) != rows {
			last = errors.New("degenerate even after perturbation")
			continue
		}
		if v, err := simplexFrom(c, a, b, basis); err == nil {
			return v, nil
		} else {
			last = err
		}
	}
	return 0, fmt.Errorf("bounds: linear program failed: %v", last)
}

// simplexFrom runs gonum's simplex from an initial basis, turning its panic
// on an unusable basis into an error.
func simplexFrom(c []float64, a *mat.Dense, b []float64, basis []int) (v float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("basis rejected: %v", r)
		}
	}()
	v, _, err = lp.Simplex(c, a, b, 1e-12, basis)
	return v, err
}

func vecL1(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += math.Abs(x)
	}
	return s
}

func finiteMatrix(m *mat.Dense) bool {
	r, c := m.Dims()
	for i := 0; i < r; i++ {
		for _, v := range m.RawRowView(i)[:c] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}

// NuMin returns 1/(1 − M_G), the smallest ν the theorems allow (DESIGN §3:
// ν ≥ 1/(1 − M_G)), and false when M_G ≥ 1 leaves no admissible ν. It is
// the one home of that default: the command line, the network λ and the
// networks' penalty all take it from here.
func NuMin(mg float64) (float64, bool) {
	if !(mg < 1) {
		return 0, false
	}
	return 1 / (1 - mg), true
}
