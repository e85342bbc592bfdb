package solver

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// DefaultNLambda is the length of a generated λ grid (glmnet's nlambda).
const DefaultNLambda = 100

// Grid returns the generated λ grid of a path: nlambda values (0:
// DefaultNLambda) from top down to minRatio·top (0: MinRatio(n, p)),
// evenly spaced in log scale, for n observations of p predictors. It is
// the one grid of every fit, whatever the family or the form of the data;
// only the top differs by penalty (λ_max, or λ_fuse for the cardinality
// penalty where it is known).
func Grid(top float64, nlambda int, minRatio float64, n, p int) ([]float64, error) {
	if nlambda == 0 {
		nlambda = DefaultNLambda
	}
	if minRatio == 0 {
		minRatio = MinRatio(n, p)
	}
	if !(minRatio > 0 && minRatio < 1) || nlambda < 1 {
		return nil, fmt.Errorf("a grid of %d values down to %v times its top", nlambda, minRatio)
	}
	grid := make([]float64, nlambda)
	for k := range grid {
		grid[k] = top
		if nlambda > 1 {
			grid[k] = top * math.Pow(minRatio, float64(k)/float64(nlambda-1))
		}
	}
	return grid, nil
}

// UserGrid returns a copy of a given grid sorted decreasing, or an error
// when a value is negative or not finite.
func UserGrid(lambdas []float64) ([]float64, error) {
	for _, l := range lambdas {
		if err := CheckLambda(l); err != nil {
			return nil, fmt.Errorf("in the grid: %w", err)
		}
	}
	grid := slices.Clone(lambdas)
	slices.SortFunc(grid, func(a, b float64) int { return cmp.Compare(b, a) })
	return grid, nil
}
