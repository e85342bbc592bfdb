package estimator

import (
	"fmt"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/glmscan"

	"github.com/cardsparse/cardreg/internal/cvcurve"
	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
	"gonum.org/v1/gonum/mat"
)

// Data is what a fit reads: *Rows, *Stats or *Stream.
type Data interface {
	// dims returns the number of predictors and of responses.
	dims() (p, q int)
}

// Rows holds observations in memory.
type Rows struct {
	// X is the n×p design: solver.DenseDesign for a dense matrix (NewRows),
	// a *design.Matrix (dense, sparse and factor columns, every family,
	// never densified), or any solver.Design (compressed matrices) for
	// the gaussian family.
	X solver.Design
	// Y is the n×q response matrix (q > 1: a multi-response gaussian fit,
	// the penalty acting on each response's coefficients).
	Y mat.Matrix
	// Weights (≥ 0, any scale; nil: all 1) and Offset (nil: 0) have one
	// value per row.
	Weights, Offset []float64

	// noCompress fits the family route's rows as they are, without
	// grouping identical ones (compress.go): the tests' reference.
	noCompress bool
}

// NewRows returns the rows of a dense design x (n×p) and one response y,
// with no weights or offset.
func NewRows(x *mat.Dense, y []float64) *Rows {
	return &Rows{X: solver.DenseDesign{X: x}, Y: mat.NewDense(len(y), 1, y)}
}

// denseOf returns the matrix of a dense design, or nil.
func denseOf(x solver.Design) *mat.Dense {
	switch d := x.(type) {
	case solver.DenseDesign:
		return d.X
	case *solver.DenseDesign:
		return d.X
	}
	return nil
}

// designOf returns a design held by columns, or nil.
func designOf(x solver.Design) *design.Matrix {
	m, _ := x.(*design.Matrix)
	return m
}

func (r *Rows) dims() (int, int) {
	_, p := r.X.Dims()
	_, q := r.Y.Dims()
	return p, q
}

// Stats holds the sufficient statistics of rows z = (x₁…x_p, y₁…y_Q) per
// fold (one fold without cross-validation), as one streamed pass or one
// SQL query computes them. Only the gaussian family is fitted from them.
type Stats struct {
	// Folds holds the statistics, fold by fold.
	Folds *suffstat.Folds
	// Q is the number of responses, the last Q variables.
	Q int
}

func (s *Stats) dims() (int, int) {
	return s.Folds.Fold[0].Dim() - s.Q, s.Q
}

// Stream is a data set read once per pass: a file too large for memory.
type Stream struct {
	// Source gives the rows, in the same order every pass.
	Source glm.RowSource
	// P is the number of predictors.
	P int
}

func (s *Stream) dims() (int, int) { return s.P, 1 }

// Scans is a data set known only through a scanner's aggregate scans
// (glmscan.Scanner: a table in a SQL engine, package sqlstats), which
// deals its rows to its own folds. Binomial and Poisson paths and
// cross-validations (and fits at one λ, a path of one) are fitted from it
// in rounds (glm.FitRounds).
type Scans struct {
	// Scanner makes the scans.
	Scanner glmscan.Scanner
	// P is the number of predictors.
	P int
}

func (s *Scans) dims() (int, int) { return s.P, 1 }

// Folds returns each of n rows' fold (0…k−1) under seed: the one fold
// assignment of every form, in memory, streamed and from statistics
// gathered by a pass (suffstat.RowFold deals each block of k consecutive
// rows to the k folds by a seeded permutation, so fold sizes differ by at
// most one). SQL tables have no stable row order: their folds are a hash
// of key columns (sqlstats.Source.FoldKey) or a fold column, and differ.
func Folds(n, k int, seed uint64) []int {
	return cvcurve.Assign(n, k, seed)
}

// LambdaGlmnet returns glmnet's (and scikit-learn's) λ for λ on cardreg's
// scale with n observations: λ/(2n), for every family.
func LambdaGlmnet(lambda float64, n int) float64 { return datafit.GlmnetLambda(lambda, n) }

// FromGlmnet is LambdaGlmnet's inverse: cardreg's λ = 2n·λ_glmnet.
func FromGlmnet(lambdaGlmnet float64, n int) float64 { return datafit.FromGlmnet(lambdaGlmnet, n) }

// checkForm refuses a data value the routes cannot read, with one error
// rather than a panic further down: missing parts, weights, offsets or
// responses of another length than the rows, statistics of unequal
// variables or without predictors.
func checkForm(d Data) error {
	switch v := d.(type) {
	case *Rows:
		return checkRows(v)
	case *Stats:
		return checkStats(v)
	case *Stream:
		if v == nil || v.Source == nil || v.P < 1 {
			return fmt.Errorf("estimator: Stream needs a source and P ≥ 1")
		}
	case *Scans:
		if v == nil || v.Scanner == nil || v.P < 1 {
			return fmt.Errorf("estimator: Scans needs a scanner and P ≥ 1")
		}
	case nil:
		return fmt.Errorf("estimator: no data")
	}
	return nil
}

func checkRows(r *Rows) error {
	if r == nil || r.X == nil || r.Y == nil {
		return fmt.Errorf("estimator: Rows needs X and Y")
	}
	n, _ := r.X.Dims()
	switch ny, _ := r.Y.Dims(); {
	case ny != n:
		return fmt.Errorf("estimator: X has %d rows and Y %d", n, ny)
	case r.Weights != nil && len(r.Weights) != n:
		return fmt.Errorf("estimator: %d weights for %d rows", len(r.Weights), n)
	case r.Offset != nil && len(r.Offset) != n:
		return fmt.Errorf("estimator: %d offsets for %d rows", len(r.Offset), n)
	}
	return nil
}

func checkStats(s *Stats) error {
	if s == nil || s.Folds == nil || len(s.Folds.Fold) == 0 {
		return fmt.Errorf("estimator: Stats needs statistics")
	}
	for k, m := range s.Folds.Fold {
		if m == nil || m.Dim() != s.Folds.Fold[0].Dim() {
			return fmt.Errorf("estimator: fold %d of the statistics is missing or has another number of variables", k+1)
		}
	}
	if d := s.Folds.Fold[0].Dim(); s.Q < 1 || s.Q >= d {
		return fmt.Errorf("estimator: %d responses among %d variables: need 1 ≤ Q < variables", s.Q, d)
	}
	return nil
}
