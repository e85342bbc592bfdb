package glm

import (
	"math"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestPenaltyFactorRatio: a factor of 1e308 among ones was rescaled to
// +Inf (1e308·p overflows) and 4e-308, and the fit then said "λ must be
// finite" though no λ was given. Now the ratio is refused naming both
// factors; huge factors of a sane ratio rescale exactly as small ones.
func TestPenaltyFactorRatio(t *testing.T) {
	_, _, err := PenaltyFactors([]float64{1e308, 1, 1, 0})
	if err == nil || !strings.Contains(err.Error(), "penalty factor 1 (1e+308)") || !strings.Contains(err.Error(), "factor 2 (1)") {
		t.Fatalf("1e308 among ones: %v", err)
	}
	big, free, err := PenaltyFactors([]float64{2e307, 1e307, 1e307, 0})
	if err != nil || len(free) != 1 || free[0] != 3 {
		t.Fatalf("huge factors: %v, free %v", err, free)
	}
	unit, _, err := PenaltyFactors([]float64{2, 1, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	for j := range unit.Factors {
		if math.Abs(big.Factors[j]-unit.Factors[j]) > 1e-15 || math.Abs(unit.Factors[j]-[]float64{2, 1, 1}[j]) > 1e-15 {
			t.Fatalf("factors %v and %v, want 2, 1, 1", big.Factors, unit.Factors)
		}
	}
}

// poissonData is 150 rows of three predictors and counts.
func poissonData() (*mat.Dense, []float64) {
	n := 150
	x := mat.NewDense(n, 3, nil)
	y := make([]float64, n)
	for i := range n {
		for j := range 3 {
			x.Set(i, j, math.Sin(float64(i*(j+2))+float64(j)))
		}
		y[i] = math.Floor(math.Exp(0.5*x.At(i, 0)-0.3*x.At(i, 1)) * float64(1+i%3))
	}
	return x, y
}

// TestPredictorScale: a poisson fit on predictors at 1e-300 ran for
// minutes (no curvature) and at 1e300 stopped on a NaN loss ("badly scaled
// data?"). Now both are refused up front, naming the column; with
// Standardize each column is rescaled exactly and the fit equals the
// unscaled one, the coefficient scaled back (columnScales underflowed to
// a deviation of 0 before, leaving the column unscaled).
func TestPredictorScale(t *testing.T) {
	x, y := poissonData()
	pen := penalty.L1{}
	want, err := Fit(&Rows{X: x, Y: y}, pen, 2, &fit.Options{Family: datafit.Poisson{}, Standardize: true})
	require.NoError(t, err)
	for _, c := range []float64{1e-300, 1e300} {
		xs := mat.DenseCopyOf(x)
		for i := range 150 {
			xs.Set(i, 1, x.At(i, 1)*c)
		}
		_, err := Fit(&Rows{X: xs, Y: y}, pen, 2, &fit.Options{Family: datafit.Poisson{}})
		var ce *datafit.ColumnError
		require.ErrorAs(t, err, &ce, "column at %v", c)
		require.Equal(t, 1, ce.Col)
		got, err := Fit(&Rows{X: xs, Y: y}, pen, 2, &fit.Options{Family: datafit.Poisson{}, Standardize: true})
		require.NoError(t, err, "column at %v, standardised", c)
		for j := range 3 {
			w := coef(want)[j]
			if j == 1 {
				w /= c
			}
			require.InDelta(t, w, coef(got)[j], 1e-6*math.Abs(w)+1e-9, "column at %v, coefficient %d", c, j)
		}
	}
}
