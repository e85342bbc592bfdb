package fit

import (
	"slices"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted model: η = Intercept + X·Coef (+ offset), the mean
// g⁻¹(η) for the family's link, one column per response.
type Model struct {
	// Family is the response distribution.
	Family datafit.Family
	// Penalty and Lambda are what was fitted (Lambda on cardreg's scale:
	// LambdaGlmnet gives glmnet's).
	Penalty penalty.Penalty
	Lambda  float64
	// Coef is the p×q coefficient matrix on the data's scale.
	Coef *mat.Dense
	// Intercept holds one intercept per response (zeros without one).
	Intercept []float64
	// Penalized lists the predictors the penalty acts on (every one when
	// Options.Unpenalized is empty).
	Penalized []int
	// N is the number of observations.
	N int
	// Deviance is Σ wᵢd(yᵢ, ηᵢ) at the fit (weights summing to n),
	// NullDeviance the same for the intercept-only model, DevRatio
	// 1 − Deviance/NullDeviance (glmnet's dev.ratio; R² for the gaussian
	// family, whose deviances are the residual and total sums of squares).
	// A gaussian fit of several responses has DevRatio and the deviances
	// NaN: R2 holds each response's.
	Deviance, NullDeviance, DevRatio float64
	// R2 holds each response's coefficient of determination (gaussian).
	R2 []float64
	// Objective is the deviance plus λh on the solver's scale
	// (standardised predictors with Standardize); Gap its certified
	// relative duality gap (NaN when the penalty has neither a dual norm
	// nor a conjugate, penalty.Conjugator).
	Objective, Gap float64
	// Iterations, Converged and Status report the solver.
	Iterations int
	Converged  bool
	Status     solver.Status
	// RoundingLambda, when Status is solver.Uncertifiable, is the λ above
	// which the gradient's rounding no longer prevents a certificate; else 0.
	RoundingLambda float64
	// Residuals is Y − fitted, n×q, when the route kept the rows (nil
	// from statistics, from a stream, and for the models of a path fitted
	// in Gram form).
	Residuals *mat.Dense
	// Relaxed reports whether Coef is the unpenalised refit on the
	// penalised solution's clusters (Options.Relax); RelaxNote says why a
	// refit asked for was not used (it diverges: separation; or, least
	// squares, it has no unique solution). When Relaxed, Coef, Intercept,
	// R2, Deviance and DevRatio are the refit's, while Objective, Gap and
	// the convergence fields describe the penalised fit, whose deviance is
	// PenalizedDeviance (NaN otherwise, and for several responses).
	Relaxed           bool
	RelaxNote         string
	PenalizedDeviance float64
	// Penalised holds, when Relaxed, the penalised fit's coefficients of
	// the penalised predictors (rows in the order of Penalized, one column
	// per response) on the scale the penalty acts on (standardised with
	// Standardize): the fit whose clusters the refit kept. Nil otherwise.
	Penalised *mat.Dense
	// Passes counts the passes over a Stream's rows, or the scans of Scans
	// (0 for other forms).
	Passes int

	eng Engine
}

// Engine is what an engine keeps on a model for its own use: to continue
// a path from it and to read its clusters.
type Engine struct {
	// Solution is the solver's penalised solution (rows in the order of
	// Penalized) on the solver's scale: the next fit's warm start.
	Solution *mat.Dense
	// Fitted holds the penalised predictors' coefficients (rows in the
	// order of Penalized) on the scale the penalty acts on: the solution
	// or its relaxed refit. Clusters and DistinctValues read it.
	Fitted *mat.Dense
	// PathRatio is the penalised fit's deviance ratio (pooled over
	// responses), the one a path's stopping rules read: DevRatio unless
	// Coef is a relaxed refit, as glmnet's rules read the penalised path.
	PathRatio float64
	// TSS holds each response's total sum of squares on the data's scale
	// (the least-squares engine: the null deviance of each response).
	TSS []float64
}

// EngineOf returns m's engine state, for the engines to set and read.
func EngineOf(m *Model) *Engine { return &m.eng }

// LambdaGlmnet returns the model's λ on glmnet's scale, λ/(2n).
func (m *Model) LambdaGlmnet() float64 { return datafit.GlmnetLambda(m.Lambda, m.N) }

// Coefficients returns the coefficients of response j (0 for one
// response) as a slice.
func (m *Model) Coefficients(j int) []float64 {
	return mat.Col(nil, j, m.Coef)
}

// Clusters returns, for response j, the groups of penalised predictors
// sharing one coefficient value on the scale the penalty acts on
// (standardised with Standardize), by decreasing value, each in increasing
// order.
func (m *Model) Clusters(j int) [][]int {
	v := mat.Col(nil, j, m.eng.Fitted)
	idx := make([]int, len(v))
	for a := range idx {
		idx[a] = a
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case v[a] > v[b]:
			return -1
		case v[a] < v[b]:
			return 1
		}
		return a - b
	})
	var out [][]int
	for k := 0; k < len(idx); {
		e := k + 1
		for e < len(idx) && v[idx[e]] == v[idx[k]] {
			e++
		}
		cl := make([]int, e-k)
		for c, a := range idx[k:e] {
			cl[c] = m.Penalized[a]
		}
		slices.Sort(cl)
		out = append(out, cl)
		k = e
	}
	return out
}

// DistinctValues returns the sorted distinct values of response j's
// penalised coefficients on the scale the penalty acts on.
func (m *Model) DistinctValues(j int) []float64 {
	v := mat.Col(nil, j, m.eng.Fitted)
	slices.Sort(v)
	return slices.Compact(v)
}

// EffectiveParams returns the number of distinct nonzero coefficient
// values summed over responses: the free parameters the fit uses.
func (m *Model) EffectiveParams() int {
	_, q := m.Coef.Dims()
	k := 0
	for j := range q {
		for _, v := range m.DistinctValues(j) {
			if v != 0 {
				k++
			}
		}
	}
	return k
}

// Link returns the linear predictor Intercept + X·Coef (+ offset, added
// to every response, when not nil) for new rows, n×q. Like gonum's
// products it panics when x does not have the model's p columns or the
// offset is not one value per row.
func (m *Model) Link(x mat.Matrix, offset []float64) *mat.Dense {
	n, _ := x.Dims()
	_, q := m.Coef.Dims()
	eta := mat.NewDense(n, q, nil)
	eta.Mul(x, m.Coef)
	return m.addIntercept(eta, offset)
}

// LinkOf is Link for new rows given as a design (a sparse or
// column-held one, multiplied by its own product, never densified). It
// panics as Link does.
func (m *Model) LinkOf(x solver.Design, offset []float64) *mat.Dense {
	n, _ := x.Dims()
	_, q := m.Coef.Dims()
	eta := mat.NewDense(n, q, nil)
	x.Mul(eta, m.Coef)
	return m.addIntercept(eta, offset)
}

// addIntercept adds the intercepts and the offset (when not nil) to the
// products X·Coef in eta, which it returns.
func (m *Model) addIntercept(eta *mat.Dense, offset []float64) *mat.Dense {
	n, q := eta.Dims()
	for i := range n {
		for j := range q {
			v := eta.At(i, j) + m.Intercept[j]
			if offset != nil {
				v += offset[i]
			}
			eta.Set(i, j, v)
		}
	}
	return eta
}

// Response returns the fitted means g⁻¹(η) for new rows, n×q.
func (m *Model) Response(x mat.Matrix, offset []float64) *mat.Dense {
	eta := m.Link(x, offset)
	r, c := eta.Dims()
	for i := range r {
		for j := range c {
			eta.Set(i, j, m.Family.Mean(eta.At(i, j)))
		}
	}
	return eta
}

// AllOf returns the indices 0…p−1: Penalized when every predictor is.
func AllOf(p int) []int {
	idx := make([]int, p)
	for j := range idx {
		idx[j] = j
	}
	return idx
}
