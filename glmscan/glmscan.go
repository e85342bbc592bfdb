// Package glmscan is what the rounds of a generalised linear fit at scale
// ask of the full data (rows in a file or a table in a cluster): one scan
// that returns per-fold totals and a uniform sample, then scans that each
// evaluate many models at once (every λ of a path and every fold of a
// cross-validation) and return only aggregates: gradients, deviances, dual
// objectives and held-out scores. A Scanner runs them; RowScanner over rows
// read in passes is the reference the SQL scanners are tested against.
//
// Sums of x are taken about a shift (one row's values, the first scan's):
// numbers never come back as raw sums whose difference cancels.
package glmscan

import (
	"errors"
	"fmt"

	"github.com/cardsparse/cardreg/datafit"
)

// Point is one model a scan evaluates: η = B0 + xᵀBeta + offset, on the
// data's scale.
type Point struct {
	B0   float64
	Beta []float64
	// Holdout is the fold the model is not trained on (−1: none): the
	// rows of that fold are scored, the others summed.
	Holdout int
	// Dual, when set, asks only for the dual objective at this point (no
	// gradient, deviance or score).
	Dual *DualPoint
}

// DualPoint is the dual point of a model: each training row's
// v = ∂d/∂η − (Alpha₀ + Σⱼ Alphaⱼ xⱼ), the derivatives corrected by a
// linear function of the row so that Σ w v (1, x) is a feasible dual
// gradient.
type DualPoint struct{ Alpha []float64 }

// Request is one scan's work.
type Request struct {
	Points []Point
	// Measure names the held-out score (cv.glmnet's type.measure:
	// "deviance", "mse", "mae" or "class"); Score computes it for one row
	// (Go scanners use it, SQL scanners the name).
	Measure string
	Score   func(y, eta float64) float64
}

// Sums are a scan's aggregates, one entry per point of its Request. The
// training rows of a point are those outside its Holdout; every sum is
// weighted by the rows' weights as given (not rescaled).
type Sums struct {
	// Grad holds Σ w ∂d/∂η and Σ w ∂d/∂η xⱼ (p+1 values) over the training
	// rows (nil for a Dual point).
	Grad [][]float64
	// Dev is Σ w d(y, η) over the training rows.
	Dev []float64
	// Dual is Σ w [o·v − d*(y, v)] over the training rows with v the
	// point's DualPoint (Dual points only).
	Dual []float64
	// Score is Σ w score(y, η) over the Holdout fold's rows.
	Score []float64
}

// Totals are the first scan's sums, fold by fold (fold k at index k), with
// x taken about Shift. The offsets enter with the family's power a
// (OffsetPower: 1 but for gamma and Tweedie): then the intercept-only fit
// and its gradient follow from the totals exactly (glm's rounds).
type Totals struct {
	Shift []float64
	N     []int
	W     []float64   // Σ w
	WY    []float64   // Σ w y e^((a−1)o)
	WE    []float64   // Σ w e^(a·o)
	WXY   [][]float64 // Σ w (x − shift) y e^((a−1)o)
	WXE   [][]float64 // Σ w (x − shift) e^(a·o)
	// XX is Σ w z zᵀ with z = (1, x − shift), (p+1)×(p+1) row-major (its
	// upper triangle at least): Σ w (x − shift) is its first row, Σ w
	// (x − shift)² its diagonal (Sum, Square).
	XX [][]float64
	// Offset says whether some row has a nonzero offset.
	Offset bool
}

// OffsetPower returns the power a of family fam's totals: the a of its
// datafit.AggregatePower (the log-link families whose deviance's terms
// in η are multiples of y·μ^(a−1) and μ^a: Poisson 1, gamma 0, Tweedie
// 2 − P), else 1 (Σ w y and Σ w e^o).
func OffsetPower(fam datafit.Family) float64 {
	if a := datafit.AggregationOf(fam); a.Kind == datafit.AggregatePower {
		return a.Power
	}
	return 1
}

// Sample is a uniform sample of rows, with each row's fold.
type Sample struct {
	X    [][]float64
	Y, W []float64
	O    []float64
	Fold []int
}

// Scanner makes the scans over the full data.
type Scanner interface {
	// First makes the first scan: the totals fold by fold and a uniform
	// sample of about m rows (all of them when there are at most m).
	First(m int) (*Totals, *Sample, error)
	// Scan evaluates req's points over every row.
	Scan(req *Request) (*Sums, error)
	// Folds returns the number of folds rows are dealt to (1: no
	// cross-validation).
	Folds() int
	// Scans counts the scans made so far.
	Scans() int
}

// NewTotals returns zero totals of k folds and p predictors.
func NewTotals(k, p int) *Totals {
	t := &Totals{N: make([]int, k), W: make([]float64, k), WY: make([]float64, k), WE: make([]float64, k)}
	for _, m := range []*[][]float64{&t.WXY, &t.WXE} {
		*m = make([][]float64, k)
		for f := range k {
			(*m)[f] = make([]float64, p)
		}
	}
	t.XX = make([][]float64, k)
	for f := range k {
		t.XX[f] = make([]float64, (p+1)*(p+1))
	}
	return t
}

// Over returns the totals of the folds in train summed: its N, W, WY, WE
// and per-column WXY, WXE and XX (fold 0 of the result).
func (t *Totals) Over(train []int) *Totals {
	p := len(t.Shift)
	out := NewTotals(1, p)
	out.Shift, out.Offset = t.Shift, t.Offset
	for _, f := range train {
		out.N[0] += t.N[f]
		out.W[0] += t.W[f]
		out.WY[0] += t.WY[f]
		out.WE[0] += t.WE[f]
		for j := range p {
			out.WXY[0][j] += t.WXY[f][j]
			out.WXE[0][j] += t.WXE[f][j]
		}
		for a, v := range t.XX[f] {
			out.XX[0][a] += v
		}
	}
	return out
}

// Sum returns fold f's Σ w (xⱼ − shiftⱼ).
func (t *Totals) Sum(f, j int) float64 { return t.XX[f][j+1] }

// Square returns fold f's Σ w (xⱼ − shiftⱼ)².
func (t *Totals) Square(f, j int) float64 {
	d := len(t.Shift) + 1
	return t.XX[f][(j+1)*d+j+1]
}

// CheckRequest refuses points of another length than p predictors or
// holdouts outside the k folds.
func CheckRequest(req *Request, p, k int) error {
	if req == nil {
		return errors.New("glmscan: no request")
	}
	for i, pt := range req.Points {
		if len(pt.Beta) != p {
			return fmt.Errorf("glmscan: point %d has %d coefficients, want %d", i, len(pt.Beta), p)
		}
		if pt.Holdout < -1 || pt.Holdout >= k {
			return fmt.Errorf("glmscan: point %d holds out fold %d of %d", i, pt.Holdout, k)
		}
		if pt.Dual != nil && len(pt.Dual.Alpha) != p+1 {
			return fmt.Errorf("glmscan: point %d's dual correction has %d values, want %d", i, len(pt.Dual.Alpha), p+1)
		}
	}
	if req.Score == nil {
		return errors.New("glmscan: the request has no score")
	}
	return nil
}
