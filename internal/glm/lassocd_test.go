package glm

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// offCentre is n rows of ai4i's pathology: predictors far from zero
// relative to their spread (temperatures near 300 K varying by a few
// kelvin, a speed near 1500 varying by 10%), the first two correlated,
// and a binomial response.
func offCentre(n int, seed uint64) (*mat.Dense, []float64) {
	r := rand.New(rand.NewPCG(seed, 3))
	x := mat.NewDense(n, 4, nil)
	y := make([]float64, n)
	for i := range n {
		z1, z2 := r.NormFloat64(), r.NormFloat64()
		row := []float64{300 + 2*z1, 310 + 1.5*(0.8*z1+0.6*z2), 1500 + 180*r.NormFloat64(), 40 + 10*r.NormFloat64()}
		x.SetRow(i, row)
		eta := -3 + 0.7*(row[0]-300) - 0.6*(row[1]-310) + 0.01*(row[2]-1500) + 0.08*(row[3]-40)
		if r.Float64() < 1/(1+math.Exp(-eta)) {
			y[i] = 1
		}
	}
	return x, y
}

// TestLassoOffCentreColumns: on predictors far from zero relative to
// their spread the lasso's coordinate descent alternated between the
// intercept and columns nearly parallel to it (cosine 0.99998), moving
// each by rounding, for up to a million sweeps per reweighting: the ai4i
// fit at λ = 10 ran for minutes, --max-iter did not stop it. Now the
// columns are centred in each weighted model (as glmnet does), the fit
// converges in a few reweightings and agrees with proximal Newton; and
// Settings.MaxIter bounds the sweeps in all.
func TestLassoOffCentreColumns(t *testing.T) {
	x, y := offCentre(2000, 1)
	for _, std := range []bool{false, true} {
		for _, lambda := range []float64{10, 1} {
			opts := &fit.Options{Family: datafit.Binomial{}, Standardize: std}
			start := time.Now()
			m := fitWithin(t, 20*time.Second, func() (*fit.Model, error) { return Fit(&Rows{X: x, Y: y}, penalty.L1{}, lambda, opts) })
			require.True(t, m.Converged, "standardize %v λ %v: status %v", std, lambda, m.Status)
			require.Less(t, time.Since(start), 5*time.Second)
			ref := *opts
			ref.Method, ref.Settings = &solver.ProxNewton{}, solver.Settings{Tol: 1e-12}
			r, err := Fit(&Rows{X: x, Y: y}, penalty.L1{}, lambda, &ref)
			require.NoError(t, err)
			require.InDelta(t, r.Intercept[0], m.Intercept[0], 1e-4*math.Max(1, math.Abs(r.Intercept[0])))
			for j := range coef(r) {
				require.InDelta(t, coef(r)[j], coef(m)[j], 1e-4*math.Max(1, math.Abs(coef(r)[j])), "coefficient %d", j)
			}
		}
	}
	// MaxIter bounds the sweeps, not only the reweightings (each of which
	// could run a million sweeps): the fit stops, said unconverged, with
	// a certified gap.
	opts := &fit.Options{Family: datafit.Binomial{}, Settings: solver.Settings{MaxIter: 5}}
	start := time.Now()
	m := fitWithin(t, 20*time.Second, func() (*fit.Model, error) { return Fit(&Rows{X: x, Y: y}, penalty.L1{}, 1, opts) })
	require.Less(t, time.Since(start), time.Second)
	require.False(t, m.Converged)
	require.Equal(t, solver.IterationLimit, m.Status)
	require.Greater(t, m.Gap, 0.0)
}

// fitWithin runs fitFn and fails the test when it has not returned after d.
func fitWithin(t *testing.T, d time.Duration, fitFn func() (*fit.Model, error)) *fit.Model {
	t.Helper()
	type out struct {
		m   *fit.Model
		err error
	}
	done := make(chan out, 1)
	go func() {
		m, err := fitFn()
		done <- out{m, err}
	}()
	select {
	case o := <-done:
		require.NoError(t, o.err)
		return o.m
	case <-time.After(d):
		t.Fatalf("the fit did not return within %v", d)
	}
	return nil
}

// withCopy returns x with its first column times sign appended as the
// last.
func withCopy(x *mat.Dense, sign float64) *mat.Dense {
	n, p := x.Dims()
	out := mat.NewDense(n, p+1, nil)
	for i := range n {
		row := out.RawRowView(i)
		copy(row, x.RawRowView(i))
		row[p] = sign * row[0]
	}
	return out
}

// TestLassoCopyStaysZero: with a column duplicated, the copy's correlation
// equals the threshold once the original is active (a tie), and its
// rounding moved the copy to ±1e-16 at some λ of a logistic lasso path:
// a nonzero that made distinct_values 4 instead of 3. Now a coefficient
// at zero stays there within rounding of the threshold: along the path
// the copy is exactly zero (or the original is), for both families, with
// and without standardisation, a negated copy too, multiples of the
// column once standardised (equal but for the rounding of the scaling),
// and through the working set (p > 64).
func TestLassoCopyStaysZero(t *testing.T) {
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}} {
		for _, p := range []int{4, 80} {
			tb := own(fam, 300, p, 11)
			for _, c := range []struct {
				sign float64
				std  bool
			}{{1, false}, {1, true}, {-1, false}, {3, true}, {-0.1, true}} {
				x, std := withCopy(tb.x, c.sign), c.std
				path, err := FitPath(&Rows{X: x, Y: tb.y}, penalty.L1{}, &fit.PathOptions{Options: fit.Options{Family: fam, Standardize: std}, NLambda: 40})
				require.NoError(t, err)
				for i, m := range path.Models {
					require.True(t, coef(m)[0] == 0 || coef(m)[p] == 0, "%s p %d std %v λ %d: original %v, copy %v", fam.Name(), p, std, i, coef(m)[0], coef(m)[p])
					require.True(t, m.Converged)
				}
			}
		}
	}
}

// TestLassoMixedCentring: columns off centre (centred by the sweeps)
// mixed with columns near zero (not centred). An uncentred column's step
// moves Σ v⊙r, which the centred columns' gradients read: with a stale
// value the next off-centre coefficient was wrong by its mean times that
// change, and the fit ended refused as collinear. Shifting a column by a
// constant changes nothing with an intercept, so the fit on the columns
// shifted to mean 0 is the reference.
func TestLassoMixedCentring(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 4))
	n, p := 2000, 40
	x, shifted := mat.NewDense(n, p, nil), mat.NewDense(n, p, nil)
	y := make([]float64, n)
	for i := range n {
		eta := -0.5
		for j := range p {
			z := r.NormFloat64()
			v := z
			if j%2 == 0 {
				v = 300 + 2*z
			}
			x.Set(i, j, v)
			if j < 6 {
				eta += 0.4 * z
			}
		}
		if r.Float64() < 1/(1+math.Exp(-eta)) {
			y[i] = 1
		}
	}
	for j := range p {
		col := mat.Col(nil, j, x)
		var m float64
		for _, v := range col {
			m += v
		}
		m /= float64(n)
		for i, v := range col {
			shifted.Set(i, j, v-m)
		}
	}
	opts := &fit.Options{Family: datafit.Binomial{}, Settings: solver.Settings{Tol: 1e-10}}
	for _, lambda := range []float64{200, 40, 8} {
		start := time.Now()
		got, err := Fit(&Rows{X: x, Y: y}, penalty.L1{}, lambda, opts)
		require.NoError(t, err, "λ %v", lambda)
		require.True(t, got.Converged, "λ %v: %v", lambda, got.Status)
		require.Less(t, time.Since(start), 5*time.Second, "λ %v", lambda)
		want, err := Fit(&Rows{X: shifted, Y: y}, penalty.L1{}, lambda, opts)
		require.NoError(t, err)
		require.InEpsilon(t, want.Objective, got.Objective, 1e-8, "λ %v", lambda)
		for j := range p {
			require.InDelta(t, coef(want)[j], coef(got)[j], 1e-4, "λ %v, coefficient %d", lambda, j)
		}
	}
}
