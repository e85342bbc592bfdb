package glm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// enetCase is one elastic-net comparison with glmnet: data, α and what
// the fit carries (weights, an offset, penalty factors, standardisation).
type enetCase struct {
	name    string
	fam     datafit.Family
	tb      table
	alpha   float64
	factors []float64 // glmnet's penalty.factor, nil for none
	std     bool
}

// enetCases returns the cases: α = 0.2, 0.5, 0.8 on glmnet's own examples
// and our gaussian data, plain, with weights and an offset, with penalty
// factors (one 0), and standardised.
func enetCases(t *testing.T, alphas ...float64) (string, []enetCase) {
	if alphas == nil {
		alphas = []float64{0.2, 0.5, 0.8}
	}
	dir, sets := glmnetSets(t, 300, 10)
	sets = append(sets, glmnetSet{"own gaussian", datafit.Gaussian{}, own(datafit.Gaussian{}, 300, 10, 3)})
	var out []enetCase
	for _, set := range sets {
		if strings.HasPrefix(set.name, "own") && set.name != "own gaussian" {
			continue // glmnet's examples carry binomial and Poisson
		}
		n, p := set.tb.x.Dims()
		for _, alpha := range alphas {
			for _, v := range []string{"plain", "weights+offset", "factors", "standardized"} {
				c := enetCase{name: fmt.Sprintf("%s α=%v %s", set.name, alpha, v), fam: set.fam, tb: *set.tb, alpha: alpha}
				r := rand.New(rand.NewPCG(uint64(alpha*10), 7))
				switch v {
				case "weights+offset":
					c.tb.w, c.tb.o = make([]float64, n), make([]float64, n)
					for i := range n {
						c.tb.w[i], c.tb.o[i] = 0.2+2*r.Float64(), 0.3*r.NormFloat64()
					}
				case "factors":
					c.factors = make([]float64, p)
					for j := range c.factors {
						c.factors[j] = 0.5 + float64(j%4)/2
					}
					c.factors[1] = 0
				case "standardized":
					c.std = true
				}
				if _, ok := c.fam.(datafit.Gaussian); ok {
					c.tb.unitResponse()
				}
				out = append(out, c)
			}
		}
	}
	return dir, out
}

// penalty returns the case's elastic net (its factors rescaled as glmnet
// rescales them) and options.
func (c *enetCase) penalty(t *testing.T) (penalty.Penalty, *fit.Options) {
	opts := &fit.Options{Family: c.fam, Standardize: c.std,
		Settings: solver.Settings{Tol: 1e-14, MaxIter: 100000}}
	pen := penalty.ElasticNet{Alpha: c.alpha}
	if c.factors != nil {
		wl, free, err := PenaltyFactors(c.factors)
		require.NoError(t, err)
		pen.Factors, opts.Unpenalized = wl.Factors, free
	}
	return pen, opts
}

// rows are the case's data, weights and offset.
func (c *enetCase) rows() *Rows {
	return &Rows{X: c.tb.x, Y: c.tb.y, Weights: c.tb.w, Offset: c.tb.o}
}

// rArgs returns bench/glmnet_enet.R's arguments for mode on the data at
// path, then extra.
func (c *enetCase) rArgs(mode, path string, extra ...string) []string {
	args := []string{"../../bench/glmnet_enet.R", mode, path, c.fam.Name(), strconv.FormatFloat(c.alpha, 'g', -1, 64),
		strings.ToUpper(strconv.FormatBool(c.std)), "-", "-", "-"}
	if c.tb.w != nil {
		args[6] = "w"
	}
	if c.tb.o != nil {
		args[7] = "off"
	}
	if c.factors != nil {
		var fs []string
		for _, f := range c.factors {
			fs = append(fs, strconv.FormatFloat(f, 'g', -1, 64))
		}
		args[8] = strings.Join(fs, ",")
	}
	return append(args, extra...)
}

// TestElasticNetMatchesGlmnet fits the elastic net (α = 0.2, 0.5, 0.8) to
// glmnet's BinomialExample and PoissonExample and to gaussian data of our
// own, plain, with weights and an offset, with penalty factors (one 0) and
// standardised, and checks it against R glmnet (thresh = 1e-14) at three λ
// (λ_glmnet = λ/(2n)): every coefficient and the intercept to 1e-6 of the
// largest, and the fit certified (relative gap ≤ 1e-10). Skipped without
// R's glmnet.
func TestElasticNetMatchesGlmnet(t *testing.T) {
	dir, cases := enetCases(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			pen, opts := c.penalty(t)
			n, _ := c.tb.x.Dims()
			lmax, ok, err := LambdaMax(c.rows(), pen, opts)
			require.NoError(t, err)
			require.True(t, ok)
			var lambdas, gl []string
			for _, f := range []float64{0.5, 0.1, 0.02} {
				lambdas = append(lambdas, strconv.FormatFloat(f*lmax, 'g', -1, 64))
				gl = append(gl, strconv.FormatFloat(f*lmax/(2*float64(n)), 'g', -1, 64))
			}
			path := filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".csv")
			c.tb.write(t, path)
			ref := rscriptRows(t, c.rArgs("fit", path, strings.Join(gl, ","))...)
			require.Len(t, ref, len(lambdas))
			for k, ls := range lambdas {
				lambda, _ := strconv.ParseFloat(ls, 64)
				m, err := Fit(c.rows(), pen, lambda, opts)
				require.NoError(t, err)
				require.True(t, m.Converged, "λ %d: %v, gap %v", k, m.Status, m.Gap)
				require.LessOrEqual(t, m.Gap, 1e-10, "λ %d: certified gap", k)
				scale := math.Abs(ref[k][0])
				for _, v := range ref[k][1:] {
					scale = math.Max(scale, math.Abs(v))
				}
				require.InDelta(t, ref[k][0], m.Intercept[0], 1e-6*scale, "intercept at λ %d", k)
				worst := math.Abs(ref[k][0]-m.Intercept[0]) / scale
				for j, v := range ref[k][1:] {
					require.InDelta(t, v, coef(m)[j], 1e-6*scale, "coefficient %d at λ %d", j+1, k)
					worst = math.Max(worst, math.Abs(v-coef(m)[j])/scale)
				}
				t.Logf("λ %d: largest difference %.2g of the largest coefficient, gap %.2g", k, worst, m.Gap)
				if !c.std { // glmnet's point is no better than ours
					ours := objective(c.fam, &c.tb, m.Intercept[0], coef(m), lambda, pen, opts.Unpenalized)
					theirs := objective(c.fam, &c.tb, ref[k][0], ref[k][1:], lambda, pen, opts.Unpenalized)
					require.LessOrEqual(t, ours, theirs*(1+1e-12), "glmnet's objective below ours at λ %d", k)
				}
			}
		})
	}
}

// TestElasticNetPathMatchesGlmnet fits glmnet's default path of the
// elastic net (its grid from λ_max = max|∇ⱼ|/(αfⱼ) and its stopping rules)
// and ours: the same length, the same λ to 1e-9 and the same deviance
// ratios to 1e-7. α = 0 is ridge, whose grid glmnet tops with α = 0.001.
func TestElasticNetPathMatchesGlmnet(t *testing.T) {
	dir, cases := enetCases(t, 0, 0.2, 0.5, 0.8)
	for _, c := range cases {
		if c.alpha == 0 && c.factors != nil {
			// glmnet tops a ridge grid with the gradient of the model with
			// the intercept alone, the unpenalised predictors left out
			// (its strong set holds every predictor at α = 0, so their
			// gradients are not updated after its first fit), not at the
			// null model that fits them, as for α > 0 and here.
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			pen, opts := c.penalty(t)
			opts.Settings.Tol = 1e-12
			path := filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".csv")
			c.tb.write(t, path)
			ref := rscriptRows(t, c.rArgs("path", path)...)
			ours, err := FitPath(c.rows(), pen, &fit.PathOptions{Options: *opts})
			require.NoError(t, err)
			n, _ := c.tb.x.Dims()
			require.Equal(t, len(ref), len(ours.Models), "path length (ours: %s)", ours.Note)
			// With a predictor left unpenalised, λ_max is the gradient at
			// the null model that fits it, which glmnet iterates to its own
			// tolerance (1.8e-9 relative on BinomialExample).
			tol := 1e-9
			if c.factors != nil {
				tol = 1e-8
			}
			for k, m := range ours.Models {
				require.InEpsilon(t, ref[k][0], ours.Lambdas[k]/(2*float64(n)), tol, "λ %d", k)
				// glmnet reports the null model at the first λ of a ridge
				// path (its λ = ∞); ours is ridge's solution there.
				if c.alpha > 0 || k > 0 {
					require.InDelta(t, ref[k][1], m.DevRatio, 1e-7, "dev ratio %d", k)
				}
			}
		})
	}
}

// TestElasticNetCVMatchesGlmnet cross-validates the elastic net on
// glmnet's default grid with the same folds as cv.glmnet (foldid, and
// lambda = glmnet's default path): the same grid length, λ_min and λ_1se,
// binomial and Poisson, plain and with weights and an offset. Not
// gaussian: glmnet standardises each fold's response, which divides the
// ridge part of the fold's fit by the standard deviation of its training
// rows' response (see unitResponse), a different problem per fold.
func TestElasticNetCVMatchesGlmnet(t *testing.T) {
	dir, cases := enetCases(t)
	for _, c := range cases {
		if _, gaussian := c.fam.(datafit.Gaussian); gaussian || c.std || c.factors != nil {
			continue // 12 cases
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			pen, opts := c.penalty(t)
			opts.Settings.Tol = 1e-12
			n, _ := c.tb.x.Dims()
			folds := make([]int, n)
			fc := make([]float64, n)
			for i := range folds {
				folds[i] = (i * 7) % 5
				fc[i] = float64(folds[i] + 1)
			}
			tb := c.tb
			path := filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".csv")
			withFold(t, &tb, fc, path)
			ref := rscriptRows(t, c.rArgs("cv", path, "fold")...)
			cv, err := CrossValidate(c.rows(), pen, &fit.CVOptions{PathOptions: fit.PathOptions{Options: *opts}, FoldID: folds})
			require.NoError(t, err)
			require.Len(t, ref, 3)
			require.Equal(t, int(ref[2][0]), len(cv.Lambdas), "grid length (ours: %s)", cv.Path.Note)
			scale := 2 * float64(n)
			require.InEpsilon(t, ref[0][0], cv.LambdaMin/scale, 1e-8, "λ_min")
			require.InEpsilon(t, ref[1][0], cv.LambdaSE/scale, 1e-8, "λ_1se")
		})
	}
}

// withFold writes tb with a last column "fold" to path.
func withFold(t *testing.T, tb *table, fold []float64, path string) {
	tb.write(t, path)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	lines[0] += ",fold"
	for i := range fold {
		lines[i+1] += "," + strconv.FormatFloat(fold[i], 'g', -1, 64)
	}
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
}

// unitResponse divides y and the offset by the weighted population
// standard deviation of y − offset (weights summing to 1), as glmnet's
// documentation advises for comparisons: its gaussian fits standardise y
// internally, which divides the ridge part of the elastic net by that
// standard deviation (the lasso is unaffected). cardreg minimises the
// documented objective, as scikit-learn's ElasticNet.
func (tb *table) unitResponse() {
	n := len(tb.y)
	var sw, m float64
	for i := range n {
		sw += weight(tb.w, i)
	}
	r := make([]float64, n)
	for i := range n {
		r[i] = tb.y[i]
		if tb.o != nil {
			r[i] -= tb.o[i]
		}
		m += weight(tb.w, i) / sw * r[i]
	}
	var v float64
	for i := range n {
		v += weight(tb.w, i) / sw * (r[i] - m) * (r[i] - m)
	}
	sd := math.Sqrt(v)
	y := make([]float64, n)
	for i := range n {
		y[i] = tb.y[i] / sd
	}
	tb.y = y
	if tb.o != nil {
		o := make([]float64, n)
		for i := range n {
			o[i] = tb.o[i] / sd
		}
		tb.o = o
	}
}

// TestElasticNetCertificateBoundsGLM checks the elastic net's certificate
// on the families' deviances (binomial, Poisson, gamma): a fit's reported
// gap is the certificate recomputed at its point, and at points perturbed
// from a solution certified to 1e-14 the absolute gap bounds the true
// suboptimality P(β) − P(β*) (the intercept profiled by the loss).
func TestElasticNetCertificateBoundsGLM(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}, datafit.Gamma{}} {
		tb := own(fam, 200, 8, 11)
		for _, alpha := range []float64{0, 0.5, 0.9} {
			pen := penalty.ElasticNet{Alpha: alpha}
			opts := &fit.Options{Family: fam, Settings: solver.Settings{Tol: 1e-14, MaxIter: 100000}}
			lmax, _, err := LambdaMax(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, opts)
			require.NoError(t, err)
			lambda := 0.05 * lmax
			m, err := Fit(&Rows{X: tb.x, Y: tb.y}, pen, lambda, opts)
			require.NoError(t, err)
			require.True(t, m.Converged, "%s α %v: %v gap %v", fam.Name(), alpha, m.Status, m.Gap)
			pb, err := newProblem(&Rows{X: tb.x, Y: tb.y}, opts)
			require.NoError(t, err)
			prob := solver.Problem{Loss: pb.loss, Penalty: pen, Lambda: lambda}
			require.InDelta(t, m.Gap, solver.Certificate(prob, fit.EngineOf(m).Solution), 1e-12)
			opt := prob.Objective(fit.EngineOf(m).Solution)
			for _, scale := range []float64{1e-3, 1e-2, 0.1} {
				pt := mat.DenseCopyOf(fit.EngineOf(m).Solution)
				for i := range 8 {
					pt.Set(i, 0, pt.At(i, 0)+scale*r.NormFloat64())
				}
				obj := prob.Objective(pt)
				gap := solver.Certificate(prob, pt) * obj
				require.GreaterOrEqual(t, gap, (obj-opt)*(1-1e-9)-1e-12*opt, "%s α %v perturbation %v", fam.Name(), alpha, scale)
				require.Greater(t, gap, 0.0)
			}
		}
	}
}

// TestElasticNetRelax: a relaxed elastic-net fit of a family is the
// unpenalised fit on the penalised fit's support (glmnet's relax = TRUE,
// γ = 0): zeros kept, the deviance's gradient zero on the support, and a
// deviance no larger than the penalised fit's.
func TestElasticNetRelax(t *testing.T) {
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}} {
		tb := own(fam, 300, 8, 21)
		pen := penalty.ElasticNet{Alpha: 0.5}
		opts := &fit.Options{Family: fam}
		lmax, _, err := LambdaMax(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, opts)
		require.NoError(t, err)
		plain, err := Fit(&Rows{X: tb.x, Y: tb.y}, pen, 0.6*lmax, opts)
		require.NoError(t, err)
		opts.Relax = true
		m, err := Fit(&Rows{X: tb.x, Y: tb.y}, pen, 0.6*lmax, opts)
		require.NoError(t, err)
		require.True(t, m.Relaxed, "%s: %s", fam.Name(), m.RelaxNote)
		pb, err := newProblem(&Rows{X: tb.x, Y: tb.y}, opts)
		require.NoError(t, err)
		grad := mat.NewDense(8, 1, nil)
		pb.loss.Eval(grad, m.Coef)
		zeros := 0
		for j, b := range coef(plain) {
			if b == 0 {
				zeros++
				require.Zero(t, m.Coef.At(j, 0), "%s: coefficient %d stays at zero", fam.Name(), j)
				continue
			}
			require.InDelta(t, 0, grad.At(j, 0), 1e-6*m.NullDeviance, "%s: gradient %d on the support", fam.Name(), j)
		}
		require.Positive(t, zeros, "%s: a support to refit", fam.Name())
		require.LessOrEqual(t, m.Deviance, plain.Deviance)
	}
}

// TestElasticNetGammaMatchesGlmnet: the gamma family (log link) with the
// elastic net (α = 0.5), plain and with weights and an offset, against
// glmnet's Gamma(link = "log") at three λ (coefficients to 1e-6 of the
// largest) and on its default path (length, λ, deviance ratios).
func TestElasticNetGammaMatchesGlmnet(t *testing.T) {
	dir, _ := glmnetSets(t, 10, 3)
	base := own(datafit.Gamma{}, 300, 8, 14)
	n, _ := base.x.Dims()
	r := rand.New(rand.NewPCG(15, 16))
	wo := *base
	wo.w, wo.o = make([]float64, n), make([]float64, n)
	for i := range n {
		wo.w[i], wo.o[i] = 0.2+2*r.Float64(), 0.3*r.NormFloat64()
	}
	for name, tb := range map[string]table{"plain": *base, "weights+offset": wo} {
		t.Run(name, func(t *testing.T) {
			c := enetCase{fam: datafit.Gamma{}, tb: tb, alpha: 0.5}
			pen, opts := c.penalty(t)
			lmax, _, err := LambdaMax(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, opts)
			require.NoError(t, err)
			var gl []string
			fr := []float64{0.5, 0.1, 0.02}
			for _, f := range fr {
				gl = append(gl, strconv.FormatFloat(f*lmax/(2*float64(n)), 'g', -1, 64))
			}
			path := filepath.Join(dir, "gamma_"+strings.ReplaceAll(name, "+", "_")+".csv")
			tb.write(t, path)
			ref := rscriptRows(t, c.rArgs("fit", path, strings.Join(gl, ","))...)
			for k, f := range fr {
				m, err := Fit(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, f*lmax, opts)
				require.NoError(t, err)
				require.True(t, m.Converged)
				scale := math.Abs(ref[k][0])
				for _, v := range ref[k][1:] {
					scale = math.Max(scale, math.Abs(v))
				}
				require.InDelta(t, ref[k][0], m.Intercept[0], 1e-6*scale, "intercept at λ %d", k)
				for j, v := range ref[k][1:] {
					require.InDelta(t, v, coef(m)[j], 1e-6*scale, "coefficient %d at λ %d", j+1, k)
				}
			}
			rp := rscriptRows(t, c.rArgs("path", path)...)
			opts.Settings.Tol = 1e-12
			ours, err := FitPath(&Rows{X: tb.x, Y: tb.y, Weights: tb.w, Offset: tb.o}, pen, &fit.PathOptions{Options: *opts})
			require.NoError(t, err)
			require.Equal(t, len(rp), len(ours.Models), "path length (ours: %s)", ours.Note)
			for k, m := range ours.Models {
				require.InEpsilon(t, rp[k][0], ours.Lambdas[k]/(2*float64(n)), 1e-9, "λ %d", k)
				require.InDelta(t, rp[k][1], m.DevRatio, 1e-7, "dev ratio %d", k)
			}
		})
	}
}
