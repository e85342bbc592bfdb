package glm

import (
	"errors"
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// PathOptions configure a path of fits along a decreasing λ grid.
type PathOptions struct {
	Options
	// Lambdas is the grid, used as given (sorted decreasing). If nil, NLambda
	// values from λ_max down to MinRatio·λ_max, evenly spaced in log scale.
	Lambdas []float64
	// NLambda is the grid's length. If zero, 100.
	NLambda int
	// MinRatio is the smallest λ over λ_max. If zero, 1e-4 when n > p and
	// 1e-2 otherwise (glmnet's lambda.min.ratio).
	MinRatio float64
}

// Path is a sequence of fits with warm starts.
type Path struct {
	// Lambdas holds the λ of each model (the grid, possibly cut short).
	Lambdas []float64
	// Models holds one fit per λ.
	Models []*Model
	// Note says why the path stopped before the end of the grid ("" when
	// it did not).
	Note string
}

// devMax is glmnet's devmax: a generated path stops once the deviance
// ratio passes it, where a logistic fit of separable data heads to
// infinity and the rest of the grid only chases it.
const devMax = 0.999

// devFrac is glmnet's fdev: a generated path stops once the deviance ratio
// changes by less than this fraction of itself between two λ.
const devFrac = 1e-5

// FitPath fits the model along a decreasing λ grid, each fit warm-started
// at the previous solution. On a generated grid it stops, with a Note, once
// the deviance ratio passes 0.999 or changes by less than 1e-5 of itself
// (glmnet's rules); on any grid it stops when a fit fails to converge with
// coefficients growing without bound.
func FitPath(x *mat.Dense, y []float64, pen penalty.Penalty, opts *PathOptions) (*Path, error) {
	var po PathOptions
	if opts != nil {
		po = *opts
	}
	pb, err := newProblem(x, y, &po.Options)
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
func (pb *problem) grid(pen penalty.Penalty, po *PathOptions) ([]float64, bool, error) {
	if po.Lambdas != nil {
		for i, l := range po.Lambdas {
			if !(l >= 0) || math.IsInf(l, 0) || i > 0 && l > po.Lambdas[i-1] {
				return nil, false, errors.New("glm: the λ grid must be finite, ≥ 0 and decreasing")
			}
		}
		return po.Lambdas, false, nil
	}
	lmax, ok := pb.lambdaMax(pen)
	if !ok {
		return nil, false, errors.New("glm: the penalty has no dual norm, so λ_max is unknown: give the grid")
	}
	nl := po.NLambda
	if nl == 0 {
		nl = 100
	}
	ratio := po.MinRatio
	if ratio == 0 {
		ratio = 1e-2
		if pb.n > pb.p {
			ratio = 1e-4
		}
	}
	if !(ratio > 0 && ratio < 1) || nl < 1 {
		return nil, false, fmt.Errorf("glm: grid of %d values down to %v·λ_max", nl, ratio)
	}
	grid := make([]float64, nl)
	for i := range grid {
		grid[i] = lmax
		if nl > 1 {
			grid[i] = lmax * math.Pow(ratio, float64(i)/float64(nl-1))
		}
	}
	return grid, true, nil
}

func (pb *problem) path(pen penalty.Penalty, grid []float64, generated bool) (*Path, error) {
	out := &Path{}
	var warm *mat.Dense
	for i, l := range grid {
		m, err := pb.fit(pen, l, warm)
		if err != nil {
			return nil, err
		}
		out.Lambdas = append(out.Lambdas, l)
		out.Models = append(out.Models, m)
		warm = m.solution
		if i == len(grid)-1 {
			break
		}
		if generated && i > 0 && m.DevRatio-out.Models[i-1].DevRatio < devFrac*m.DevRatio {
			out.Note = fmt.Sprintf("stopped after λ = %.6g (%d of %d): the deviance ratio moved by less than %g of itself (glmnet's rule)", l, i+1, len(grid), devFrac)
			break
		}
		if generated && m.DevRatio > devMax {
			out.Note = fmt.Sprintf("stopped after λ = %.6g (%d of %d): deviance ratio %.4f > %g, the fit is near-saturated (glmnet's rule)", l, i+1, len(grid), m.DevRatio, devMax)
			break
		}
		if !m.Converged && m.DevRatio > devMax {
			out.Note = fmt.Sprintf("stopped after λ = %.6g (%d of %d): the fit did not converge and its deviance ratio is %.4f: the data are (nearly) separable and smaller λ diverge", l, i+1, len(grid), m.DevRatio)
			break
		}
	}
	return out, nil
}

// lambdaMax is LambdaMax on a prepared problem.
func (pb *problem) lambdaMax(pen penalty.Penalty) (float64, bool) {
	return solver.LambdaMax(pb.loss, pen)
}
