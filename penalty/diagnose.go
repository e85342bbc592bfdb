package penalty

import "math"

// LambdaMaxCause names the input that makes λ_max, the dual norm of the
// gradient at the null model, overflow float64.
type LambdaMaxCause int

// The causes DiagnoseLambdaMax and DiagnoseGridTop report.
const (
	// Finite is no overflow.
	Finite LambdaMaxCause = iota
	// Factors is a WeightedL1 whose factors differ so much in size that
	// dividing the gradient by the smallest overflows, while equal
	// factors do not.
	Factors
	// SmallNu is a ν given below the default: λ_max grows like 1/ν, and
	// the default ν does not overflow.
	SmallNu
	// DataScale is the data: neither the factors nor ν explain it.
	DataScale
)

// DiagnoseLambdaMax says why lmax(pen), λ_max for the fitted penalty pen,
// is not finite: Finite when it is; Factors when pen is a WeightedL1 and
// the lasso with equal factors gives a finite λ_max; SmallNu when def()
// (called only then), the same penalty with its default ν (nil when ν was
// not given), does; else DataScale.
func DiagnoseLambdaMax(lmax func(Penalty) float64, pen Penalty, def func() Penalty) LambdaMaxCause {
	finite := func(p Penalty) bool {
		v := lmax(p)
		return !math.IsInf(v, 0) && !math.IsNaN(v)
	}
	if finite(pen) {
		return Finite
	}
	if w, ok := pen.(WeightedL1); ok && finite(evenFactors(len(w.Factors))) {
		return Factors
	}
	if d := def(); d != nil && finite(d) {
		return SmallNu
	}
	return DataScale
}

// DiagnoseGridTop says whether the top of a generated grid fails with the
// fitted penalty pen and fits with def() (called only then), the same
// penalty with its default ν (nil when ν was not given), fits reporting
// whether it fits for a penalty: SmallNu then, Finite otherwise (the
// failure, if any, has another cause). It is for fits whose λ_max the
// caller cannot compute without the data (streamed).
func DiagnoseGridTop(fits func(Penalty) bool, pen Penalty, def func() Penalty) LambdaMaxCause {
	if fits(pen) {
		return Finite
	}
	if d := def(); d == nil || !fits(d) {
		return Finite
	}
	return SmallNu
}

// evenFactors is the lasso on p predictors as a WeightedL1 (factors 1).
func evenFactors(p int) WeightedL1 {
	w := WeightedL1{Factors: make([]float64, p)}
	for j := range w.Factors {
		w.Factors[j] = 1
	}
	return w
}
