package glm

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/rtest"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
)

// compound draws a response of mean mu for the families with a parameter:
// Tweedie's compound Poisson–gamma (N ~ Poisson(μ^(2−p)/(2−p)) jumps,
// each exponential; φ = 1 up to the jumps' shape), negbin's Poisson of a
// gamma mean of shape 2.
func compound(r *rand.Rand, f datafit.Family, mu float64) float64 {
	poisson := func(m float64) float64 {
		k, l, q := 0.0, math.Exp(-m), r.Float64()
		for ; q > l; q *= r.Float64() {
			k++
		}
		return k
	}
	if tw, ok := f.(datafit.Tweedie); ok {
		rate := math.Pow(mu, 2-tw.P) / (2 - tw.P)
		y := 0.0
		for range int(poisson(rate)) {
			y += r.ExpFloat64() * mu / rate
		}
		return y
	}
	return poisson(mu * (r.ExpFloat64() + r.ExpFloat64()) / 2)
}

// paramTable is own's data of family fam with positive weights and
// offsets when asked (the tests of the families with a parameter).
func paramTable(fam datafit.Family, n, p int, seed uint64, weights, offset bool) *table {
	tb := own(fam, n, p, seed)
	r := rand.New(rand.NewPCG(seed, 78))
	if weights {
		tb.w = make([]float64, n)
		for i := range tb.w {
			tb.w[i] = 0.2 + 2*r.Float64()
		}
	}
	if offset {
		tb.o = make([]float64, n)
		for i := range tb.o {
			tb.o[i] = 0.3 * r.NormFloat64()
		}
	}
	return tb
}

// skipUnlessRPackage skips t without R's glmnet or R package pkg (statmod
// for tweedie, MASS for negbin).
func skipUnlessRPackage(t *testing.T, pkg string) {
	t.Helper()
	rtest.SkipUnlessAvailable(t)
	script := filepath.Join(t.TempDir(), "has.R")
	require.NoError(t, os.WriteFile(script, []byte(`cat(requireNamespace(commandArgs(TRUE)[1], quietly = TRUE), "\n")`), 0o644))
	out, err := rtest.Output(script, pkg)
	require.NoError(t, err, "%s", out)
	if strings.TrimSpace(string(out)) != "TRUE" {
		t.Skipf("R's %s package is not installed (apt-get install r-cran-%s)", pkg, strings.ToLower(pkg))
	}
}

// matchesGlmnet fits the lasso of family fam on tb at three λ (fractions
// of λ_max) and checks it against R's glmnet with the family object that
// bench/glmfamily.R builds from fam.Name() (statmod's tweedie, MASS's
// negative.binomial; standardize = FALSE, IRLS run to a relative change
// of 1e-15, thresh 1e-16).
//
// Scales. For a family object glmnet (glmnet.path) rescales the weights to
// sum to 1 and minimises Σ(wᵢ/Σw)·dev.residsᵢ/2 + λ_g·‖β‖₁, dev.resids
// being the family's unit deviance times the weight: our d (the same
// formulas: statmod's 2[y^(2−p)/((1−p)(2−p)) − yμ^(1−p)/(1−p) +
// μ^(2−p)/(2−p)], MASS's 2[y log(y/μ) − (y+θ)log((y+θ)/(μ+θ))]). With
// weights w̃ = n·w/Σw summing to n (cardreg's), that is
// (1/(2n))·[Σw̃ᵢdᵢ + 2n·λ_g·‖β‖₁]: cardreg's objective Σw̃ᵢdᵢ + λ‖β‖₁ at
// λ = 2n·λ_g, the mapping of the built-in families (datafit.GlmnetLambda).
//
// Agreement: objectives to 1e-12 relative, ours no larger beyond
// rounding, intercept and coefficients to 1e-6 of the largest.
func matchesGlmnet(t *testing.T, fam datafit.Family, tb *table) {
	t.Helper()
	n, _ := tb.x.Dims()
	rows := &Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}
	opts := &fit.Options{Family: fam, Settings: solver.Settings{Tol: 1e-14, MaxIter: 100000}}
	lmax, ok, err := LambdaMax(rows, penalty.L1{}, opts)
	require.NoError(t, err)
	require.True(t, ok)
	var lambdas, glmnetLambdas []float64
	for _, f := range []float64{0.5, 0.15, 0.04} {
		lambdas = append(lambdas, f*lmax)
		glmnetLambdas = append(glmnetLambdas, datafit.GlmnetLambda(f*lmax, n))
	}
	path := filepath.Join(t.TempDir(), "data.csv")
	tb.write(t, path)
	ref := glmnetFit(t, path, fam.Name(), glmnetLambdas, tb.w != nil, tb.o != nil, nil)
	for k, lambda := range lambdas {
		m, err := Fit(rows, penalty.L1{}, lambda, opts)
		require.NoError(t, err)
		require.True(t, m.Converged, "λ %d: %v, gap %v", k, m.Status, m.Gap)
		ours := objective(fam, tb, m.Intercept[0], coef(m), lambda, penalty.L1{}, nil)
		theirs := objective(fam, tb, ref[k][0], ref[k][1:], lambda, penalty.L1{}, nil)
		require.InEpsilon(t, theirs, ours, 1e-12, "objective at λ %d", k)
		require.LessOrEqual(t, ours, theirs*(1+1e-13), "glmnet's objective below ours at λ %d", k)
		scale := math.Abs(ref[k][0])
		for _, v := range ref[k][1:] {
			scale = math.Max(scale, math.Abs(v))
		}
		worst := math.Abs(ref[k][0] - m.Intercept[0])
		for j, v := range ref[k][1:] {
			worst = math.Max(worst, math.Abs(v-coef(m)[j]))
		}
		require.LessOrEqual(t, worst, 1e-6*scale, "λ %d: coefficients differ by %v (scale %v)", k, worst, scale)
		t.Logf("λ %d: %d nonzero, largest coefficient difference %.1e of %.2g, objective %.1e relative", k, nonzero(coef(m)), worst, scale, (theirs-ours)/ours)
	}
}

// certified fits family fam on tb under penalty pen at 0.1·λ_max by the
// default method: it converges to a relative duality gap ≤ 1e-7, Certify
// confirms it from the coefficients alone, and moving a coefficient off
// the solution raises the certificate above the tolerance.
func certified(t *testing.T, fam datafit.Family, tb *table, pen penalty.Penalty) {
	t.Helper()
	rows := &Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}
	opts := &fit.Options{Family: fam, Settings: solver.Settings{Tol: 1e-9, MaxIter: 200000}}
	lmax, ok, err := LambdaMax(rows, pen, opts)
	require.NoError(t, err)
	require.True(t, ok)
	m, err := Fit(rows, pen, 0.1*lmax, opts)
	require.NoError(t, err)
	require.True(t, m.Converged, "%v gap %v", m.Status, m.Gap)
	require.LessOrEqual(t, m.Gap, 1e-7)
	gap, err := Certify(rows, pen, 0.1*lmax, coef(m), opts)
	require.NoError(t, err)
	require.LessOrEqual(t, gap, 1e-7, "certificate of the coefficients")
	off := coef(m)
	off[0] += 0.05
	gap, err = Certify(rows, pen, 0.1*lmax, off, opts)
	require.NoError(t, err)
	require.Greater(t, gap, 1e-7, "certificate of coefficients off the solution")
	t.Logf("%s %T: %d nonzero, %d distinct values, gap %.1e, %d iterations", fam.Name(), pen, nonzero(coef(m)), len(m.DistinctValues(0)), m.Gap, m.Iterations)
}

// factorPenalty is the nominal-factor penalty of p columns in factors of
// three columns each (the last one shorter).
func factorPenalty(t *testing.T, p int) penalty.Penalty {
	var blocks []penalty.Block
	for j := 0; j < p; j += 3 {
		b := penalty.Block{Type: penalty.NominalBlock}
		for k := j; k < min(j+3, p); k++ {
			b.Rows = append(b.Rows, k)
		}
		blocks = append(blocks, b)
	}
	pen, err := penalty.NewBlocks(p, blocks)
	require.NoError(t, err)
	return pen
}

// pathMatchesGlmnet fits family fam's generated lasso path on tb and
// checks it against glmnet's own path with the family object (its grid
// and its stopping rule for a family object: glmnet.path stops when the
// deviance ratio moves by less than fdev absolutely, the rule stopRule
// gives every family but gaussian and Poisson): the same number of λ, the
// same λ (to 1e-9) and deviance ratios within 1e-7.
func pathMatchesGlmnet(t *testing.T, fam datafit.Family, tb *table) {
	t.Helper()
	n, _ := tb.x.Dims()
	p, err := FitPath(&Rows{X: tb.x, Y: tb.y}, penalty.L1{}, &fit.PathOptions{Options: fit.Options{Family: fam, Settings: solver.Settings{Tol: 1e-10}}})
	require.NoError(t, err)
	for k, m := range p.Models {
		require.True(t, m.Converged, "λ %d: %v", k, m.Status)
	}
	path := filepath.Join(t.TempDir(), "path.csv")
	tb.write(t, path)
	ref := rscriptRows(t, "../../bench/glmfamily.R", "path", path, fam.Name())
	require.Equal(t, len(ref), len(p.Models), "path length (ours: %s)", p.Note)
	for k, m := range p.Models {
		require.InEpsilon(t, ref[k][0], datafit.GlmnetLambda(p.Lambdas[k], n), 1e-9, "λ %d", k)
		require.InDelta(t, ref[k][1], m.DevRatio, 1e-7, "dev ratio %d", k)
	}
	t.Logf("%s: %d λ, last deviance ratio %.4f (%s)", fam.Name(), len(p.Models), p.Models[len(p.Models)-1].DevRatio, p.Note)
}
