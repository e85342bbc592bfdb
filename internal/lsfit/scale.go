package lsfit

import (
	"fmt"
	"math"
	"slices"

	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Data far from unit scale break float64 arithmetic silently: at 1e-160
// the products in XᵀY underflow, λ_max becomes 0 and every coefficient 0;
// near 1e200 the squares overflow. A fit is equivariant under a common
// scaling of X by sx and of Y by sy (DESIGN §3: with X = X'/sx, Y = Y'/sy
// and B = (sx/sy)·B',
//
//	‖Y − XB‖² + λh(B) = [‖Y' − X'B'‖² + λ·sx·sy·h(B')] / sy²),
//
// so such data are fitted at unit scale and the results mapped back.
// sx and sy are powers of two, so the scaling itself is exact; one factor
// for all of X keeps the penalty's structure (equal coefficients stay
// equal). Data within [2^-safeExp, 2^safeExp] are left exactly as they
// are.

// safeExp bounds the binary exponent of the largest entry of X or Y that
// is fitted as it is: squares and n-fold sums of such numbers stay normal
// floats.
const safeExp = 120

// scaling holds the powers of two applied to X and Y (1 and 1: none).
// With standardised predictors the penalty acts on the standardised
// coefficients, which do not depend on sx: λ then scales by sy alone.
//
// Ridge, ‖B‖², has degree 2 rather than 1: with B = (sx/sy)·B' (B' the
// scaled problem's) its term is λ·(sx/sy)²‖B'‖², so λ scales by sx² (and
// not at all when standardised).
//
// Standardised fits scale each predictor column by its own power of two
// (cols; nil when every factor is 1): standardising divides each column
// by its own deviation anyway, so columns of any relative scale fit, and
// coefficient j maps back by cols[j]/sy.
type scaling struct {
	sx, sy float64
	cols   []float64
	std    bool
	ridge  bool
}

// colScale is the factor applied to predictor column j.
func (sc scaling) colScale(j int) float64 {
	if sc.cols != nil {
		return sc.cols[j]
	}
	return sc.sx
}

// lambdaFactor is how λ scales: λ' = λ·a·b.
func (sc scaling) lambdaFactor() (float64, float64) {
	switch {
	case sc.ridge && sc.std:
		return 1, 1
	case sc.ridge:
		return sc.sx, sc.sx
	case sc.std:
		return 1, sc.sy
	}
	return sc.sx, sc.sy
}

// unitScale returns the power of two that brings the largest magnitude m
// near 1, or 1 when m is within the safe range (or zero).
func unitScale(m float64) float64 {
	if m == 0 {
		return 1
	}
	_, e := math.Frexp(m)
	if e >= -safeExp && e <= safeExp {
		return 1
	}
	return math.Ldexp(1, -e)
}

// maxAbs returns the largest magnitude of the entries of m.
func maxAbs(m mat.Matrix) float64 {
	var out float64
	if d, ok := m.(*mat.Dense); ok {
		for _, v := range columnMaxAbs(d) {
			out = math.Max(out, v)
		}
		return out
	}
	r, c := m.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			out = math.Max(out, math.Abs(m.At(i, j)))
		}
	}
	return out
}

// rescale returns the scaling of a dense design and its response and the
// scaled copies (x and y themselves when no scaling is needed). Designs
// other than dense ones are left as they are. It refuses predictors whose
// scales differ so much that no common scale keeps their squares in
// float64's range (say one column near 1e200, another near 1).
func rescale(x solver.Design, y mat.Matrix, pen penalty.Penalty, opts *fit.Options) (scaling, solver.Design, mat.Matrix, error) {
	_, ridge := pen.(penalty.Ridge)
	sc := scaling{sx: 1, sy: unitScale(maxAbs(y)), std: opts != nil && opts.Standardize, ridge: ridge}
	dd, ok := x.(solver.DenseDesign)
	var size []float64
	if ok {
		// The one pass over a dense X before it is centred: its column
		// sizes and, at once, the finiteness checkInputs leaves to it.
		if size, ok = columnMaxAbsFinite(dd.X); !ok {
			return sc, nil, nil, finite("design", dd.X, math.Inf(1))
		}
	}
	if ok && sc.std {
		if sc.cols = columnScales(size); sc.cols != nil {
			xs := mat.DenseCopyOf(dd.X)
			r, _ := xs.Dims()
			for i := range r {
				row := xs.RawRowView(i)
				for j := range row {
					row[j] *= sc.cols[j]
				}
			}
			x = solver.DenseDesign{X: xs}
		}
	} else if ok {
		top, small, smallMax := columnRange(dd.X, size, opts == nil || !opts.NoIntercept)
		sc.sx = unitScale(top)
		if small >= 0 && scaledExp(smallMax, top) < -safeExp {
			return sc, nil, nil, &ScaleError{Small: small, SmallMax: smallMax, Big: bigCol(dd.X, top), BigMax: top}
		}
		if sc.sx != 1 {
			var xs mat.Dense
			xs.Scale(sc.sx, dd.X)
			x = solver.DenseDesign{X: &xs}
		}
	}
	if sc.sy != 1 {
		var ys mat.Dense
		ys.Scale(sc.sy, y)
		y = &ys
	}
	return sc, x, y, nil
}

// columnRange returns the largest magnitude of x (size: each column's,
// columnMaxAbs), the column whose largest magnitude is smallest among the
// non-zero columns (-1 when none), and that column's largest magnitude. With an intercept, constant columns
// (zero once centred) are left out of the smallest; which columns are
// constant (two more passes over x) is asked only when a column is small
// enough against the largest to fail rescale's test, the only use of the
// smallest.
func columnRange(x *mat.Dense, size []float64, intercept bool) (top float64, small int, smallMax float64) {
	for _, m := range size {
		top = math.Max(top, m)
	}
	small, smallMax = smallestColumn(size, nil)
	if intercept && small >= 0 && scaledExp(smallMax, top) < -safeExp {
		small, smallMax = smallestColumn(size, constantColumns(x, size))
	}
	return top, small, smallMax
}

// scaledExp returns the binary exponent of m once the data are scaled by
// unitScale(top), computed from the exponents: the product itself may
// underflow to 0, whose exponent (0) would pass a column far too small.
func scaledExp(m, top float64) int {
	_, e := math.Frexp(m)
	_, s := math.Frexp(unitScale(top)) // a power of two 2^k: s = k + 1
	return e + s - 1
}

// smallestColumn returns the column of smallest non-zero size, less the
// skip ones (nil: none), and its size; -1 when there is none.
func smallestColumn(size []float64, skip []bool) (int, float64) {
	small, smallMax := -1, 0.0
	for j, m := range size {
		if skip != nil && skip[j] {
			continue
		}
		if m > 0 && (small < 0 || m < smallMax) {
			small, smallMax = j, m
		}
	}
	return small, smallMax
}

// colMax returns the largest magnitude of column j.
func colMax(x *mat.Dense, j int) float64 {
	return maxAbs(x.Slice(0, x.RawMatrix().Rows, j, j+1))
}

// bigCol returns the first column holding magnitude top.
func bigCol(x *mat.Dense, top float64) int {
	_, p := x.Dims()
	for j := 0; j < p; j++ {
		if colMax(x, j) == top {
			return j
		}
	}
	return 0
}

func (sc scaling) identity() bool { return sc.sx == 1 && sc.sy == 1 && sc.cols == nil }

// columnScales returns the unitScale of each column of largest magnitude
// size (which it overwrites), or nil when all are 1.
func columnScales(size []float64) []float64 {
	cols := size
	scaled := false
	for j, m := range cols {
		cols[j] = unitScale(m)
		scaled = scaled || cols[j] != 1
	}
	if !scaled {
		return nil
	}
	return cols
}

// ScaleError refuses predictors whose scales differ so much that no
// common power of two keeps both within float64's range (fits that
// standardise scale each column on its own and never return it).
type ScaleError struct {
	// Small and Big are the columns (from 0) of smallest and largest
	// magnitude; SmallMax and BigMax their sizes: largest magnitudes, or
	// root mean squares when RMS (a fit from statistics).
	Small, Big       int
	SmallMax, BigMax float64
	RMS              bool
}

// Size names what SmallMax and BigMax measure.
func (e *ScaleError) Size() string {
	if e.RMS {
		return "root mean square"
	}
	return "largest magnitude"
}

func (e *ScaleError) Error() string {
	return fmt.Sprintf("lsfit: predictor column %d (%s %.3g) and column %d (%.3g) differ in scale by more than float64 can fit at once: rescale them, or standardise", e.Small+1, e.Size(), e.SmallMax, e.Big+1, e.BigMax)
}

// lambda maps a user's λ to the scaled problem.
func (sc scaling) lambda(l float64) float64 {
	a, b := sc.lambdaFactor()
	return l * a * b
}

// lambdas maps a grid of the scaled problem back (in place).
func (sc scaling) lambdas(ls []float64) {
	for i := range ls {
		ls[i] = sc.unlambda(ls[i])
	}
}

// unlambda maps a λ of the scaled problem back (dividing twice: sx·sy
// itself may overflow).
func (sc scaling) unlambda(l float64) float64 {
	a, b := sc.lambdaFactor()
	return l / a / b
}

// model maps a model of the scaled problem back to the data's scale.
func (sc scaling) model(m *fit.Model) error {
	if sc.identity() {
		return nil
	}
	m.Lambda = sc.unlambda(m.Lambda)
	r, c := m.Coef.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			// Multiply, then divide: sx/sy itself may overflow.
			v := m.Coef.At(i, j) * sc.colScale(i) / sc.sy
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return fmt.Errorf("lsfit: on the data's scale coefficient %d is beyond float64 (the response is %.3g times larger than the predictor): rescale the data", i+1, sc.colScale(i)/sc.sy)
			}
			m.Coef.Set(i, j, v)
		}
	}
	for j := range m.Intercept {
		m.Intercept[j] /= sc.sy
	}
	m.Objective = m.Objective / sc.sy / sc.sy // sy² itself may overflow
	tss := fit.EngineOf(m).TSS
	for j := range tss {
		tss[j] = tss[j] / sc.sy / sc.sy
	}
	deviances(m)
	if m.Residuals != nil {
		m.Residuals.Scale(1/sc.sy, m.Residuals)
	}
	if m.Relaxed { // the penalised fit's deviance; NaN otherwise
		m.PenalizedDeviance = m.PenalizedDeviance / sc.sy / sc.sy
	}
	// The values the penalty fused (and, relaxed, the penalised fit's):
	// coefficients (scaled as Coef) or, when standardised, coefficient ×
	// standard deviation (scaled by 1/sy).
	fit.EngineOf(m).Fitted = sc.penaltyScale(fit.EngineOf(m).Fitted)
	if m.Penalised != nil {
		m.Penalised = sc.penaltyScale(m.Penalised)
	}
	return nil
}

// penaltyScale maps values on the scale the penalty acts on back to the
// data's (a copy).
func (sc scaling) penaltyScale(v *mat.Dense) *mat.Dense {
	out := mat.DenseCopyOf(v)
	out.Apply(func(_, _ int, v float64) float64 {
		if sc.std {
			return v / sc.sy
		}
		return v * sc.sx / sc.sy
	}, out)
	return out
}

// path maps a path of the scaled problem back.
func (sc scaling) path(p *pathRun) error {
	defer p.writeNote()
	if sc.identity() {
		return nil
	}
	scaled := slices.Clone(p.Lambdas)
	sc.lambdas(p.Lambdas)
	p.OutOfRange = sc.inRange("the λ grid", scaled, p.Lambdas)
	p.LambdaMax = sc.unlambda(p.LambdaMax)
	p.LambdaFuse = sc.unlambda(p.LambdaFuse)
	for _, m := range p.Models {
		if err := sc.model(m); err != nil {
			return err
		}
	}
	return nil
}

// scaledLambdas returns the user's grid mapped to the scaled problem.
func (sc scaling) scaledLambdas(ls []float64) []float64 {
	if ls == nil || sc.identity() {
		return ls
	}
	out := make([]float64, len(ls))
	for i, l := range ls {
		out[i] = sc.lambda(l)
	}
	return out
}

// cv maps a cross-validation of the scaled problem back: λ as in path, the
// mean squared errors by 1/sy².
func (sc scaling) cv(cv *fit.CV, p *pathRun) error {
	if sc.identity() {
		p.writeNote()
		return nil
	}
	// cv.Lambdas is the full path's grid: mapped once, with the path.
	if err := sc.path(p); err != nil {
		return err
	}
	if &cv.Lambdas[0] != &cv.Path.Lambdas[0] {
		sc.lambdas(cv.Lambdas)
	}
	scaled := slices.Clone(cv.Mean)
	for l := range cv.Mean {
		// divided twice: sy² itself may overflow
		cv.Mean[l] = cv.Mean[l] / sc.sy / sc.sy
		cv.SE[l] = cv.SE[l] / sc.sy / sc.sy
	}
	cv.OutOfRange = cv.Path.OutOfRange
	if cv.OutOfRange == nil {
		cv.OutOfRange = sc.inRange("the cross-validated mean squared errors", scaled, cv.Mean)
	}
	cv.LambdaMin, cv.LambdaSE = cv.Lambdas[cv.IndexMin], cv.Lambdas[cv.IndexSE]
	return nil
}

// inRange reports values that were positive and finite on the fitted
// scale but are not on the data's (scaled mapped to back): +Inf, 0 or
// subnormal, where float64 cannot say them. λ scales as the predictors'
// magnitude times the response's, the errors as the response's squared.
func (sc scaling) inRange(what string, scaled, back []float64) error {
	for i, v := range scaled {
		if b := back[i]; v > 0 && !math.IsInf(v, 0) && (math.IsInf(b, 0) || b < minNormal) {
			return fmt.Errorf("lsfit: on the data's scale %s would hold %v, beyond float64 (predictors near %s, a response near %s): divide the data by a power of ten", what, b, magnitude(sc.sx), magnitude(sc.sy))
		}
	}
	return nil
}

// minNormal is the smallest normal float64: below it numbers lose digits.
const minNormal = 0x1p-1022

// magnitude writes 1/s, a power of two that may be beyond float64, as a
// power of ten.
func magnitude(s float64) string {
	_, e := math.Frexp(s)
	return fmt.Sprintf("1e%d", int(math.Round(-float64(e-1)*math.Log10(2))))
}
