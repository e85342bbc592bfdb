package datafit

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/design"
	"github.com/cardsparse/cardreg/internal/dataerr"
	"github.com/cardsparse/cardreg/suffstat"
	"gonum.org/v1/gonum/mat"
)

// Data are the observations of a generalised linear model.
type Data struct {
	// X is the n×p matrix of predictors. It is not copied.
	X *mat.Dense
	// Design, when X is nil, holds the predictors by columns (dense,
	// sparse or a factor's indicators): the loss keeps them as they are,
	// so a sparse matrix is never densified. It is not copied.
	Design *design.Matrix
	// Y holds the n responses.
	Y []float64
	// Weights holds n observation weights ≥ 0 with a positive sum; nil means
	// all 1. They are rescaled to sum to n (glmnet's convention), so that
	// multiplying every weight by a constant changes nothing.
	Weights []float64
	// Offset holds n known terms added to the linear predictor (glmnet's
	// offset); nil means 0.
	Offset []float64
	// Unpenalized lists the columns of X left out of the penalty: their
	// coefficients are fitted without shrinkage, like the intercept, and
	// take no part in the fusion of the cardinality penalty. Sorted,
	// without repeats.
	Unpenalized []int
	// NoIntercept drops the intercept.
	NoIntercept bool
	// Observations, when positive, is the number of observations the rows
	// stand for: rows that each aggregate identical observations, with the
	// sum of their weights (see Constant). The weights are then rescaled to
	// sum to it, glmnet's n, rather than to the number of rows. If zero,
	// each row is one observation.
	Observations int
	// Constant, when not nil, holds one value ≥ 0 per row, on the scale of
	// Weights: what the row's deviance w·d(y, η) leaves out of the summed
	// deviances of the observations it aggregates, a constant independent of
	// η. The loss adds it back (rescaled with the weights), so that its
	// values, null deviance and duality gap are those of the observations.
	Constant []float64
}

// RowError is a problem with one observation, What naming the field
// ("response", "weight", "offset", "constant" or "predictor"). Its home is
// internal/dataerr, below the readers of package data that name the
// file's column and line behind it.
type RowError = dataerr.RowError

// Check validates the data for family fam: shapes, finite values, valid
// responses, weights and offsets, and a response that a model with an
// intercept can fit (not a single binomial class, not all-zero counts).
func (d *Data) Check(fam Family) error {
	if err := d.checkShape(); err != nil {
		return err
	}
	return d.checkValues(fam, true)
}

// checkShape checks the shapes and the lists of d.
func (d *Data) checkShape() error {
	if d.X == nil && d.Design == nil {
		return errors.New("datafit: no predictors")
	}
	n, p := d.dims()
	if len(d.Y) != n {
		return fmt.Errorf("datafit: %d responses for %d rows of predictors", len(d.Y), n)
	}
	for _, v := range []struct {
		name string
		s    []float64
	}{{"weights", d.Weights}, {"offsets", d.Offset}, {"constants", d.Constant}} {
		if v.s != nil && len(v.s) != n {
			return fmt.Errorf("datafit: %d %s for %d rows", len(v.s), v.name, n)
		}
	}
	if !slices.IsSorted(d.Unpenalized) || len(slices.Compact(slices.Clone(d.Unpenalized))) != len(d.Unpenalized) {
		return errors.New("datafit: unpenalised columns must be sorted and distinct")
	}
	for _, j := range d.Unpenalized {
		if j < 0 || j >= p {
			return fmt.Errorf("datafit: unpenalised column %d outside 0..%d", j, p-1)
		}
	}
	if d.Observations < 0 || d.Observations > 0 && d.Observations < n {
		return fmt.Errorf("datafit: %d rows cannot stand for %d observations", n, d.Observations)
	}
	return nil
}

// checkValues checks d's values, the predictors' too when withX (the
// caller has found them finite otherwise), row by row.
func (d *Data) checkValues(fam Family, withX bool) error {
	for i, c := range d.Constant {
		if !(c >= 0) || math.IsInf(c, 0) {
			return &RowError{Row: i, What: "constant", Err: fmt.Errorf("%v is not a finite number ≥ 0", c)}
		}
	}
	if err := d.checkRows(fam, withX); err != nil {
		return err
	}
	return d.checkFittable(fam)
}

// checkRows applies CheckRow to each row, to its predictors only when
// withX, and checks the weights' spread.
func (d *Data) checkRows(fam Family, withX bool) error {
	n, p := d.dims()
	if withX && d.Design != nil {
		if i, j := designRowCheck(d.Design); i >= 0 {
			return &RowError{Row: i, What: "predictor", Err: fmt.Errorf("column %d is not a finite number", j+1)}
		}
		withX = false
	}
	var ws suffstat.WeightSummary
	curv := newCurvatureCheck(fam)
	for i := range n {
		w, o := 1.0, 0.0
		if d.Weights != nil {
			w = d.Weights[i]
		}
		if d.Offset != nil {
			o = d.Offset[i]
		}
		var x []float64
		if withX {
			x = d.X.RawRowView(i)[:p]
		}
		if err := CheckRow(fam, i, x, d.Y[i], w, o); err != nil {
			return err
		}
		ws.Add(w)
		curv.add(d.Y[i], w, o)
	}
	if d.Weights == nil {
		return curv.err()
	}
	if !ws.Total() {
		return errors.New("datafit: the weights sum to 0")
	}
	if err := ws.Check(); err != nil {
		return &RowError{Row: int(ws.MaxRow), What: "weight", Err: err}
	}
	return curv.err()
}

// MaxOffset bounds the offsets of the binomial and poisson families: e^η
// of a larger |η| leaves float64's range (e^709.8 is its largest number),
// so such an offset alone puts the row's mean at 0, 1 or +Inf whatever
// the coefficients.
const MaxOffset = 709

// MaxNewtonMove bounds the change of a row's η that its Newton (IRLS)
// working response asks for: 2²⁵⁶ (about 1.2e77), so that a working
// response, its square and their weighted sums over any number of rows
// stay far inside float64's range (2¹⁰²⁴). It binds only where a row's
// curvature has all but underflowed beside its gradient; see
// NewtonCurvature.
const MaxNewtonMove = 0x1p256

// NewtonCurvature returns the curvature the Newton (IRLS) models give a
// row whose deviance has derivatives d1 = ∂d/∂η and d2 = ∂²d/∂η²: d2, or
// |d1|/MaxNewtonMove when that is larger, so that the row's working
// response η − d1/d2 lies within MaxNewtonMove of η. Where a row's
// curvature underflows while its gradient does not (binomial offsets of
// ±700 on the wrong side: d2 ≈ e^−1400 = 0, d1 = ±2), the exact model
// either dropped the row (d2 = 0: its gradient unseen, the streamed fits
// stalled at a relative gap of 0.97) or put its working response at
// ~1e300, whose square overflowed the model's value ("the loss is NaN at
// iteration 1"). A larger curvature than the loss's only shortens the
// step, which the line search and the duality gap, taken on the loss
// itself, allow for.
func NewtonCurvature(d1, d2 float64) float64 {
	return math.Max(d2, math.Abs(d1)/MaxNewtonMove)
}

// CheckRow validates observation i (from 0) for family fam: its
// predictors x, response y, weight w and offset o. The error is a
// *RowError naming the field and the cause.
func CheckRow(fam Family, i int, x []float64, y, w, o float64) error {
	if err := fam.Check(y); err != nil {
		return &RowError{Row: i, What: "response", Err: err}
	}
	if !(w >= 0) || math.IsInf(w, 0) {
		return &RowError{Row: i, What: "weight", Err: fmt.Errorf("%v is not a finite number ≥ 0", w)}
	}
	if math.IsNaN(o) || math.IsInf(o, 0) {
		return &RowError{Row: i, What: "offset", Err: fmt.Errorf("%v is not finite", o)}
	}
	// Any link but the identity exponentiates η somewhere (the mean, or
	// the deviance's terms).
	if fam.Link() != "identity" && math.Abs(o) > MaxOffset {
		return &RowError{Row: i, What: "offset", Err: fmt.Errorf("%v is beyond ±%d: e^η of the %s link leaves float64's range there, whatever the coefficients", o, MaxOffset, fam.Link())}
	}
	for j, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &RowError{Row: i, What: "predictor", Err: fmt.Errorf("column %d is %v", j+1, v)}
		}
	}
	return nil
}

// checkFittable refuses responses whose intercept-only fit is at infinity.
func (d *Data) checkFittable(fam Family) error {
	if d.NoIntercept || d.Offset != nil {
		return nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, y := range d.Y {
		if d.Weights == nil || d.Weights[i] > 0 {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
	}
	return InterceptAtInfinity(fam, lo, hi)
}

// InterceptAtInfinity returns an error when responses between lo and hi
// (the smallest and largest with weight) put family fam's intercept-only
// fit at infinity, whatever the offsets: one binomial class, or counts
// all 0 under a log link (an InterceptChecker says).
func InterceptAtInfinity(fam Family, lo, hi float64) error {
	if c, ok := fam.(InterceptChecker); ok {
		return c.InterceptAtInfinity(lo, hi)
	}
	return nil
}

// InterceptChecker is implemented by the families some of whose
// responses put the intercept-only fit at infinity.
type InterceptChecker interface {
	// InterceptAtInfinity returns an error, beginning "datafit: ", when
	// responses between lo and hi (the smallest and largest with weight)
	// do.
	InterceptAtInfinity(lo, hi float64) error
}

// InterceptAtInfinity refuses a single class.
func (Binomial) InterceptAtInfinity(lo, hi float64) error {
	if lo == hi {
		return fmt.Errorf("datafit: every binomial response is %v: a logistic model needs both classes", lo)
	}
	return nil
}

// InterceptAtInfinity refuses counts all 0.
func (f Poisson) InterceptAtInfinity(_, hi float64) error { return allZero(f, "count", hi) }

// allZero is the error of a log-link family whose responses (what), at
// most hi, are all 0: the intercept-only fit is at −∞.
func allZero(fam Family, what string, hi float64) error {
	if hi == 0 {
		return fmt.Errorf("datafit: every %s %s is 0: the log-linear model's intercept is −∞", fam.Name(), what)
	}
	return nil
}

// weights returns the weights rescaled to sum to n (Observations when
// positive) and the constant Σ Constant on the same scale.
func (d *Data) weights() ([]float64, float64) {
	n := len(d.Y)
	target := float64(n)
	if d.Observations > 0 {
		target = float64(d.Observations)
	}
	w := make([]float64, n)
	if d.Weights == nil && d.Observations <= 0 {
		for i := range w {
			w[i] = 1
		}
		return w, sum(d.Constant)
	}
	raw := d.Weights
	if raw == nil {
		raw = make([]float64, n)
		for i := range raw {
			raw[i] = 1
		}
	}
	// Divided by the largest first, so that huge weights do not overflow.
	top := slices.Max(raw)
	var total float64
	for _, v := range raw {
		total += v / top
	}
	for i, v := range raw {
		w[i] = v / top * (target / total)
	}
	var c float64
	for _, v := range d.Constant {
		c += v / top * (target / total)
	}
	return w, c
}

func sum(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}

// MaxPredictorExp bounds the binary exponent of the largest magnitude of a
// predictor column that a fit takes as it is: within 2^±400 (about 4e-121
// to 3e120) the products Xβ, XᵀWX and the gradients that set λ stay
// inside float64's range. Beyond, a fit overflows (NaN losses) or
// underflows (no curvature: Newton steps that never end).
const MaxPredictorExp = 400

// ColumnError is a problem with one predictor column. Its home is
// internal/dataerr, as RowError's.
type ColumnError = dataerr.ColumnError

// CheckColumnScale returns a *ColumnError when column j's largest
// magnitude m is non-zero and outside 2^±MaxPredictorExp.
func CheckColumnScale(j int, m float64) error {
	if _, e := math.Frexp(m); m == 0 || (e-1 >= -MaxPredictorExp && e-1 <= MaxPredictorExp) {
		return nil
	}
	return &ColumnError{Col: j, Err: fmt.Errorf("largest magnitude %.3g is outside [%.3g, %.3g], where the fit's products stay within float64: multiply or divide the column by a power of ten (or standardise it)", m, math.Ldexp(1, -MaxPredictorExp), math.Ldexp(1, MaxPredictorExp))}
}

// CheckScale applies CheckColumnScale to every predictor column (fits
// that standardise their predictors rescale them first instead).
func (d *Data) CheckScale() error {
	if d.Design != nil {
		for j, c := range d.Design.Columns() {
			if err := CheckColumnScale(j, c.MaxAbs()); err != nil {
				return err
			}
		}
		return nil
	}
	n, p := d.X.Dims()
	m := make([]float64, p)
	for i := range n { // by rows, in X's storage order
		for j, v := range d.X.RawRowView(i) {
			if a := math.Abs(v); a > m[j] {
				m[j] = a
			}
		}
	}
	for j, mj := range m {
		if err := CheckColumnScale(j, mj); err != nil {
			return err
		}
	}
	return nil
}

// RowChecker checks the rows of a data set read one at a time (a streamed
// fit's first pass): each row by CheckRow, then, when all are read, the
// weights (none outweighs the others beyond float64's precision) and each
// column's scale (CheckColumnScale).
type RowChecker struct {
	fam     Family
	weights suffstat.WeightSummary
	curv    *curvatureCheck
	top     []float64 // each column's largest magnitude
}

// NewRowChecker returns a checker of rows of p predictors for family fam.
func NewRowChecker(fam Family, p int) *RowChecker {
	return &RowChecker{fam: fam, top: make([]float64, p), curv: newCurvatureCheck(fam)}
}

// Add checks row i (from 0) and records it.
func (c *RowChecker) Add(i int, x []float64, y, w, o float64) error {
	if err := CheckRow(c.fam, i, x, y, w, o); err != nil {
		return err
	}
	c.weights.Add(w)
	c.curv.add(y, w, o)
	for j, v := range x {
		c.top[j] = math.Max(c.top[j], math.Abs(v))
	}
	return nil
}

// Check checks the rows added as a whole.
func (c *RowChecker) Check() error {
	if err := c.weights.Check(); err != nil {
		return &RowError{Row: int(c.weights.MaxRow), What: "weight", Err: err}
	}
	if err := c.curv.err(); err != nil {
		return err
	}
	for j, m := range c.top {
		if err := CheckColumnScale(j, m); err != nil {
			return err
		}
	}
	return nil
}
