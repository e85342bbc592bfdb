package datafit

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// GradientRounding calls f with each row's penalised predictors x (a
// scratch slice, valid during the call) and a bound r on the rounding
// error of its scalar factor wᵢ∂d/∂ηᵢ of the gradient Eval returns at
// β = theta (rows of bound 0 skipped): the gradient's error is Σ eᵢxᵢ with
// |eᵢ| ≤ rᵢ (RowGradientRounding, the terms of η being the offset,
// x_a β_a and X_U a). For a
// Poisson count of 9e15 (μ ≈ 9e15, η ≈ 36.7) one ulp of η moves μ by
// about 64, so no representable β has a gradient known to better than
// ~100|x| there (solver.RoundingLambda).
func (l *Loss) GradientRounding(theta mat.Matrix, f func(x []float64, r float64)) {
	l.evaluate(theta)
	beta := mat.Col(nil, 0, theta)
	c := l.units()
	// mag is each row's sum of the magnitudes of η's terms.
	mag := make([]float64, len(l.y))
	for i, o := range l.o {
		mag[i] = math.Abs(o)
		if l.xu != nil {
			for k, v := range l.xu.RawRowView(i) {
				mag[i] += math.Abs(v * l.free[k])
			}
		}
	}
	for a, v := range beta {
		if v != 0 {
			l.xp[a].Each(func(i int, x float64) { mag[i] += math.Abs(x * v) })
		}
	}
	// The rows' predictors, row by row (a stalled fit's diagnosis).
	eachRow(l.xp, len(l.y), func(i int, x []float64) {
		if r := RowGradientRounding(l.w[i], c.d1[i], c.d2[i], mag[i]); r > 0 {
			f(x, r)
		}
	})
}

// RowGradientRounding returns the bound on the rounding error of a row's
// factor w·∂d/∂η of the gradient, for derivatives d1 = ∂d/∂η and
// d2 = ∂²d/∂η² at an η whose terms (offset, intercept, x_j β_j) sum to mag
// in magnitude: η is rounded to ε(1 + mag) (ε = 2⁻⁵²), which moves ∂d/∂η
// by d2 times that, and ∂d/∂η's own subtraction rounds to ε|d1|.
func RowGradientRounding(w, d1, d2, mag float64) float64 {
	const eps = 0x1p-52
	return eps * w * (d2*(1+mag) + math.Abs(d1))
}
