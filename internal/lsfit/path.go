package lsfit

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/pathstop"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// pathRun is a path under way: the result, and what its Note needs once its
// λ are on the data's scale.
type pathRun struct {
	*fit.Path
	generated bool   // the grid was generated, not the caller's
	gridLen   int    // the generated grid's length
	stopWhy   string // why the path stopped early ("": it did not)
}

// FitPath fits the model along a geometric λ grid of NLambda values from
// the top of the grid down to MinRatio times it. The top is λ_max for the
// lasso and grouped penalties (a penalty without a closed-form dual norm,
// such as penalty.General, needs an explicit PathOptions.Lambdas). For the cardinality penalty it is
// λ_fuse: above it every coefficient takes one common value that merely
// shrinks to zero at λ_max, so a grid from λ_max would spend its points
// where nothing fuses (DESIGN §3). For ridge the grid runs from 10³ to 10⁻³
// times the largest eigenvalue of XᵀX unless MinRatio says otherwise.
func FitPath(x solver.Design, y mat.Matrix, pen penalty.Penalty, opts *fit.PathOptions) (*fit.Path, error) {
	var po fit.PathOptions
	if opts != nil {
		po = *opts
	}
	if err := checkInputs(x, y); err != nil {
		return nil, err
	}
	sc, x, y, err := rescale(x, y, pen, &po.Options)
	if err != nil {
		return nil, err
	}
	x = factorLayout(x, pen, &po.Options)
	po.Lambdas = sc.scaledLambdas(po.Lambdas)
	pr, err := prepare(x, y, &po.Options)
	if err != nil {
		return nil, err
	}
	path, err := pr.gridPath(pen, &po)
	if err != nil {
		return nil, err
	}
	if err := sc.path(path); err != nil {
		return nil, err
	}
	return path.Path, nil
}

// counter serialises progress reports from concurrent fits.
type counter struct {
	mu          sync.Mutex
	done, total int
	report      func(done, total int)
}

// newCounter returns the counter of total fits, reporting 0 of them at
// once: the bar is drawn when the first λ starts, not after it (a first
// fit on a large design can take minutes).
func newCounter(report func(done, total int), total int) *counter {
	if report == nil {
		return nil
	}
	report(0, total)
	return &counter{report: report, total: total}
}

// finish reports the work as done when a path stopped before its grid's
// end: the fits left are not needed.
func (c *counter) finish() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total = c.done
	c.report(c.done, c.total)
}

// resize sets the total to total (cross-validation's, once the full-data
// path has set the folds' grid).
func (c *counter) resize(total int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total = total
}

func (c *counter) step() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done++
	c.report(c.done, c.total)
}

// gridPath computes the grid of po and fits along it, reporting progress.
func (pr *prepared) gridPath(pen penalty.Penalty, po *fit.PathOptions) (*pathRun, error) {
	path, err := pr.grid(pen, po)
	if err != nil {
		return nil, err
	}
	pr.progress = newCounter(po.Progress, len(path.Lambdas))
	if path, err = pr.runPath(pen, path); err != nil {
		return nil, err
	}
	if path.stopWhy != "" {
		pr.progress.finish()
	}
	return path, nil
}

func (pr *prepared) runPath(pen penalty.Penalty, path *pathRun) (*pathRun, error) {
	var warm mat.Matrix
	if h, ok := pen.(penalty.Cardinality); ok && len(path.Lambdas) > 0 {
		// Start from the fused point, which is the exact solution at and
		// above λ_fuse. This is needed, not just faster: from a cold start
		// the solver stops within the gap tolerance with two values a few
		// 1e-6 apart instead of one, since the objective is nearly flat
		// across the fusion boundary.
		warm = pr.fusedPoint(h, path.Lambdas[0])
	}
	method := pr.pathMethod(pen)
	pr.noResiduals = pr.gramForm()
	models, why, _, err := fit.RunPath(path.Lambdas, path.generated, pathstop.Relative, func(lam float64) (*fit.Model, error) {
		m, err := pr.fit(pen, lam, warm, method)
		if err == nil {
			warm = fit.EngineOf(m).Solution
			pr.progress.step()
		}
		return m, err
	}, nil)
	if err != nil {
		return nil, err
	}
	path.Models = models
	if why != "" {
		path.Lambdas, path.stopWhy = path.Lambdas[:len(models)], why
	}
	return path, nil
}

// writeNote writes the Note of a path that stopped early, once its λ are
// on the data's scale.
func (p *pathRun) writeNote() {
	if p.stopWhy != "" {
		p.Note = pathstop.Note(p.Lambdas[len(p.Lambdas)-1], len(p.Lambdas), p.gridLen, p.stopWhy)
	}
}

// grid computes the λ grid of a path.
func (pr *prepared) grid(pen penalty.Penalty, po *fit.PathOptions) (*pathRun, error) {
	path := &pathRun{Path: &fit.Path{LambdaMax: math.NaN(), LambdaFuse: math.NaN()}}
	if pen == nil {
		return nil, errors.New("lsfit: nil penalty")
	}
	lm, hasDual := solver.LambdaMax(pr.loss, pen)
	if hasDual {
		path.LambdaMax = lm
	}
	if len(po.Lambdas) > 0 {
		grid, err := solver.UserGrid(po.Lambdas)
		if err != nil {
			return nil, fmt.Errorf("lsfit: %w", err)
		}
		path.Lambdas = grid
		return path, nil
	}
	n := pr.nobs
	p, _ := pr.loss.Dims()
	ratio := po.MinRatio
	if _, isRidge := pen.(penalty.Ridge); !hasDual && !isRidge {
		return nil, fmt.Errorf("lsfit: %T has no closed-form dual norm, so λ_max is unknown: give the grid in PathOptions.Lambdas", pen)
	}
	top := path.LambdaMax
	switch h := pen.(type) {
	case penalty.Cardinality:
		path.LambdaFuse = pr.fusionLambda(h, path.LambdaMax)
		if path.LambdaFuse > 0 {
			top = path.LambdaFuse
		}
	case penalty.Ridge:
		top = 1e3 * pr.loss.Lipschitz() / 2
		if po.MinRatio == 0 {
			ratio = 1e-6
		}
	}
	if math.IsNaN(top) || math.IsInf(top, 0) {
		return nil, fmt.Errorf("lsfit: the top of the λ grid is %v, beyond float64: λ grows as the predictors' magnitude times the response's (statistics are not rescaled); divide the data by a power of ten", top)
	}
	if top <= 0 {
		return nil, errors.New("lsfit: the response is constant (λ_max = 0): nothing to fit")
	}
	grid, err := solver.Grid(top, po.NLambda, ratio, n, p)
	if err != nil {
		return nil, fmt.Errorf("lsfit: %w", err)
	}
	path.Lambdas, path.generated, path.gridLen = grid, true, len(grid)
	return path, nil
}

// fusionLambda returns the smallest λ at which the cardinality fit is fully
// fused in every column. On the fused set B = 1cᵀ the problem is
// one-dimensional per column: with a = ∇f(0) and d = ∇f(11ᵀ) − a (the
// gradient is affine), c_j(λ) = soft(−1ᵀa_j, λνp)/(1ᵀd_j), and the fused
// point is optimal iff the pairwise part of h* at the gradient a_j + c_j d_j
// is at most λ. That condition is found by bisection on a log scale,
// assuming, as holds on the path, that fusion persists as λ grows.
func (pr *prepared) fusionLambda(h penalty.Cardinality, lmax float64) float64 {
	fl := pr.newFusedLine(h)
	fused := func(lam float64) bool {
		g := make([]float64, fl.p)
		for j, c := range fl.values(lam) {
			for i := range g {
				g[i] = fl.a.At(i, j) + c*fl.d.At(i, j)
			}
			if penalty.FusionDualNorm(g) > lam {
				return false
			}
		}
		return true
	}
	if !(lmax > 0) {
		return lmax
	}
	lo, hi := lmax*1e-12, lmax
	if !fused(hi) {
		return lmax
	}
	if fused(lo) {
		return 0 // fused at every λ (one predictor, or identical columns)
	}
	for it := 0; it < 60 && hi/lo > 1+1e-6; it++ {
		mid := math.Sqrt(lo * hi)
		if fused(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// fusedLine is the cardinality problem restricted to fused coefficients
// B = 1cᵀ: the gradient there is a + d·diag(c), with a = ∇f(0) and
// d = ∇f(11ᵀ) − a, since the gradient is affine.
type fusedLine struct {
	a, d mat.Dense
	p    int
	nu   float64
}

func (pr *prepared) newFusedLine(h penalty.Cardinality) *fusedLine {
	p, q := pr.loss.Dims()
	fl := &fusedLine{p: p, nu: penalty.EffectiveNu(h.Nu)}
	pr.loss.Eval(&fl.a, mat.NewDense(p, q, nil))
	ones := mat.NewDense(p, q, nil)
	ones.Apply(func(int, int, float64) float64 { return 1 }, ones)
	pr.loss.Eval(&fl.d, ones)
	fl.d.Sub(&fl.d, &fl.a)
	return fl
}

// values returns the optimal common value c_j of each column at λ:
// c_j = soft(−1ᵀa_j, λνp)/(1ᵀd_j).
func (fl *fusedLine) values(lam float64) []float64 {
	_, q := fl.a.Dims()
	out := make([]float64, q)
	for j := range out {
		var sa, sd float64
		for i := 0; i < fl.p; i++ {
			sa += fl.a.At(i, j)
			sd += fl.d.At(i, j)
		}
		if sd > 0 {
			out[j] = penalty.SoftThreshold(-sa, lam*fl.nu*float64(fl.p)) / sd
		}
	}
	return out
}

// fusedPoint returns the fused coefficients 1cᵀ optimal among fused ones
// at λ.
func (pr *prepared) fusedPoint(h penalty.Cardinality, lam float64) *mat.Dense {
	fl := pr.newFusedLine(h)
	c := fl.values(lam)
	out := mat.NewDense(fl.p, len(c), nil)
	for i := 0; i < fl.p; i++ {
		out.SetRow(i, c)
	}
	return out
}
