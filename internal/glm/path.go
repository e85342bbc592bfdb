package glm

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/pathstop"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// devMax is glmnet's devmax (pathstop.DevMax), which also tells a fit that
// failed on (nearly) separable data.
const devMax = pathstop.DevMax

// minPath is glmnet's mnlam (pathstop.MinPath).
const minPath = pathstop.MinPath

// stopRule is glmnet's rule for the deviance ratio of family fam's path
// (see pathstop): gaussian relative to itself, Poisson over four λ, the
// others (binomial, gamma) absolute.
func stopRule(fam datafit.Family) pathstop.Rule {
	switch fam.(type) {
	case datafit.Gaussian:
		return pathstop.Relative
	case datafit.Poisson:
		return pathstop.Relative4
	}
	return pathstop.Absolute
}

// FitPath fits the model along a decreasing λ grid, each fit warm-started
// at the previous solution. On a generated grid it stops, with a Note, once
// the deviance ratio passes 0.999 or stops moving (glmnet's rules, as
// glmnet applies them per family: see pathstop and stopRule); on any grid it stops when a
// fit fails to converge with coefficients growing without bound.
func FitPath(r *Rows, pen penalty.Penalty, opts *fit.PathOptions) (*fit.Path, error) {
	var po fit.PathOptions
	if opts != nil {
		po = *opts
	}
	pb, err := newProblem(r, &po.Options)
	if err != nil {
		return nil, err
	}
	grid, generated, err := pb.grid(pen, &po)
	if err != nil {
		return nil, err
	}
	return pb.path(pen, grid, generated)
}

// grid returns the user's grid or a generated one.
func (pb *problem) grid(pen penalty.Penalty, po *fit.PathOptions) ([]float64, bool, error) {
	if po.Lambdas != nil {
		return checkGrid(po.Lambdas)
	}
	lmax, ok := pb.lambdaMax(pen)
	if !ok {
		return nil, false, errors.New("glm: the penalty has no dual norm, so λ_max is unknown: give the grid")
	}
	return logGrid(lmax, pb.n, pb.p, po)
}

// checkGrid returns a user's grid, checked and sorted decreasing.
func checkGrid(lambdas []float64) ([]float64, bool, error) {
	grid, err := solver.UserGrid(lambdas)
	if err != nil {
		return nil, false, fmt.Errorf("glm: %w", err)
	}
	return grid, false, nil
}

// logGrid returns po's generated grid below lmax for n observations of p
// predictors (solver.Grid).
func logGrid(lmax float64, n, p int, po *fit.PathOptions) ([]float64, bool, error) {
	grid, err := solver.Grid(lmax, po.NLambda, po.MinRatio, n, p)
	if err != nil {
		return nil, false, fmt.Errorf("glm: %w", err)
	}
	return grid, true, nil
}

// path fits along grid, each fit warm-started at the previous solution.
func (pb *problem) path(pen penalty.Penalty, grid []float64, generated bool) (*fit.Path, error) {
	return pb.pathFrom(pen, grid, generated, nil)
}

// pathFrom is path with the warm start of each fit chosen by start (nil:
// the previous solution): start(i, prev) returns the point the fit at
// grid[i] starts from, given the previous fit's solution prev (nil at the
// first λ). A start is only where the solver begins: every fit is still
// certified at the problem's tolerance. While the previous solution is
// zero, zero is tried first (zeroFit), as on a cold path.
func (pb *problem) pathFrom(pen penalty.Penalty, grid []float64, generated bool, start func(i int, lambda float64, prev *mat.Dense) *mat.Dense) (*fit.Path, error) {
	var warm *mat.Dense
	i := 0
	return runPath(pb.fam, grid, generated, func(l float64) (*fit.Model, error) {
		from := warm
		if start != nil {
			if res := pb.zeroFit(pen, l, warm); res != nil {
				i++
				m := pb.model(pen, l, res)
				warm = res.Theta
				return m, nil
			}
			from = start(i, l, warm)
		}
		i++
		m, err := pb.fit(pen, l, from)
		if err == nil {
			warm = fit.EngineOf(m).Solution
		}
		return m, err
	})
}

// runPath fits along grid with fitAt (which warm-starts itself) by the one
// path driver, fit.RunPath, with the stopping rule of family fam's paths,
// and ends it where a fit diverges: not converged, its deviance ratio above
// glmnet's devmax (separable data).
func runPath(fam datafit.Family, grid []float64, generated bool, fitAt func(lambda float64) (*fit.Model, error)) (*fit.Path, error) {
	diverged := func(i int, m *fit.Model) string {
		if dev := fit.EngineOf(m).PathRatio; !m.Converged && dev > devMax {
			return fmt.Sprintf("stopped after λ = %.6g (%d of %d): the fit did not converge and its deviance ratio is %.4f: the data are (nearly) separable and smaller λ diverge", grid[i], i+1, len(grid), dev)
		}
		return ""
	}
	models, why, note, err := fit.RunPath(grid, generated, stopRule(fam), fitAt, diverged)
	if err != nil {
		return nil, err
	}
	n := len(models)
	out := &fit.Path{Lambdas: slices.Clone(grid[:n]), Models: models, Note: note, LambdaMax: math.NaN(), LambdaFuse: math.NaN()}
	if why != "" {
		out.Note = pathstop.Note(grid[n-1], n, len(grid), why)
	}
	return out, nil
}

// lambdaMax is LambdaMax on a prepared problem.
func (pb *problem) lambdaMax(pen penalty.Penalty) (float64, bool) {
	return solver.LambdaMax(pb.loss, pen)
}
