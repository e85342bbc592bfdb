package estimator_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/suffstat"
	"gonum.org/v1/gonum/mat"
)

// exampleGaussian draws 200 rows of y = 3 + Xβ* + noise with
// β* = (2, 2, 2, −1, −1, −1).
func exampleGaussian() (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	beta := []float64{2, 2, 2, -1, -1, -1}
	x := mat.NewDense(200, 6, nil)
	y := make([]float64, 200)
	for i := range y {
		s := 3.0
		for j, b := range beta {
			v := rng.NormFloat64()
			x.Set(i, j, v)
			s += b * v
		}
		y[i] = s + 0.5*rng.NormFloat64()
	}
	return x, y
}

// exampleCounts draws n rows of Poisson counts over exposures t ∈ {1…5}:
// y ~ Poisson(t·exp(−0.5 + Xβ*)), β* = (0.4, 0.4, 0, 0, −0.3), and returns
// the offsets log t.
func exampleCounts(n int) (x *mat.Dense, y, offset []float64) {
	rng := rand.New(rand.NewPCG(3, 4))
	beta := []float64{0.4, 0.4, 0, 0, -0.3}
	x = mat.NewDense(n, len(beta), nil)
	y, offset = make([]float64, n), make([]float64, n)
	for i := range n {
		offset[i] = math.Log(float64(1 + rng.IntN(5)))
		eta := -0.5 + offset[i]
		for j, b := range beta {
			v := rng.NormFloat64()
			x.Set(i, j, v)
			eta += b * v
		}
		y[i] = float64(poissonDraw(rng, math.Exp(eta)))
	}
	return x, y, offset
}

// poissonDraw is Knuth's Poisson sampler (small means).
func poissonDraw(rng *rand.Rand, mu float64) int {
	k, prod, limit := 0, rng.Float64(), math.Exp(-mu)
	for prod > limit {
		prod *= rng.Float64()
		k++
	}
	return k
}

// The cardinality penalty on a gaussian response: fit at one λ (cardreg's
// scale; LambdaGlmnet gives glmnet's λ/(2n)) and read off the clusters of
// predictors sharing a coefficient. The penalty also shrinks the common
// values towards each other (true values 2 and −1).
func Example() {
	x, y := exampleGaussian()
	m, err := estimator.Fit(estimator.NewRows(x, y), penalty.Cardinality{Nu: 1}, 12, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, cl := range m.Clusters(0) {
		fmt.Printf("predictors %v: %.2f\n", cl, m.Coef.At(cl[0], 0))
	}
	fmt.Printf("intercept %.2f, converged %v, λ_glmnet %.2f\n", m.Intercept[0], m.Converged, m.LambdaGlmnet())
	// Output:
	// predictors [0 1 2]: 1.85
	// predictors [3 4 5]: -0.94
	// intercept 3.05, converged true, λ_glmnet 0.03
}

// A logistic regression with the cardinality penalty: the three predictors
// with the same effect are fused into one value, and the duality gap
// certifies the answer.
func ExampleFit() {
	x := mat.NewDense(8, 3, []float64{
		1, 0, 2, 0, 1, 1, 2, 1, 0, 1, 2, 1,
		0, 0, 1, 2, 2, 2, 1, 1, 1, 0, 2, 0,
	})
	y := []float64{1, 0, 1, 1, 0, 1, 0, 0}
	m, err := estimator.Fit(estimator.NewRows(x, y), penalty.Cardinality{Nu: 1}, 2,
		&estimator.Options{Family: datafit.Binomial{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("coefficients %.3f, intercept %.3f, certified gap below 1e-7: %v\n",
		m.Coefficients(0), m.Intercept[0], m.Gap <= 1e-7)
	// Output:
	// coefficients [0.259 0.259 0.259], intercept -0.773, certified gap below 1e-7: true
}

// A fit from sufficient statistics: the rows are summarised one by one (as
// a file too large for memory would be streamed) and never kept; the fit
// equals the one on the rows (Example).
func ExampleFit_stats() {
	x, y := exampleGaussian()
	folds := suffstat.NewFolds(1, 7) // one fold: six predictors, then the response
	z := make([]float64, 7)
	for i := range y {
		copy(z, x.RawRowView(i))
		z[6] = y[i]
		folds.Fold[0].Add(z, 1) // weight 1
	}
	m, err := estimator.Fit(&estimator.Stats{Folds: folds, Q: 1}, penalty.Cardinality{Nu: 1}, 12, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, cl := range m.Clusters(0) {
		fmt.Printf("%v: %.2f\n", cl, m.Coef.At(cl[0], 0))
	}
	// Output:
	// [0 1 2]: 1.85
	// [3 4 5]: -0.94
}

// A lasso path of logistic regressions, as glmnet computes it: from λ_max,
// where every coefficient is zero, down a log-spaced grid, each fit
// warm-started at the previous one and certified by its duality gap. R's
// glmnet(x, y, "binomial", standardize = FALSE, nlambda = 10,
// lambda.min.ratio = 0.01) prints the same λ, df and dev.ratio.
func ExampleFitPath() {
	rng := rand.New(rand.NewPCG(5, 6))
	beta := []float64{1, -1, 0.5, 0.25, 0, 0, 0, 0}
	x := mat.NewDense(300, len(beta), nil)
	y := make([]float64, 300)
	for i := range y {
		eta := 0.3
		for j, b := range beta {
			v := rng.NormFloat64()
			x.Set(i, j, v)
			eta += b * v
		}
		if rng.Float64() < 1/(1+math.Exp(-eta)) {
			y[i] = 1
		}
	}
	path, err := estimator.FitPath(estimator.NewRows(x, y), penalty.L1{},
		&estimator.PathOptions{Options: estimator.Options{Family: datafit.Binomial{}}, NLambda: 10, MinRatio: 0.01})
	if err != nil {
		fmt.Println(err)
		return
	}
	certified := true
	for _, m := range path.Models {
		certified = certified && m.Gap <= 1e-7
		nonzero := 0
		for _, b := range m.Coefficients(0) {
			if b != 0 {
				nonzero++
			}
		}
		fmt.Printf("λ_glmnet %.4f: %d nonzero, deviance explained %.2f\n", m.LambdaGlmnet(), nonzero, m.DevRatio)
	}
	fmt.Println("every fit certified:", certified)
	// Output:
	// λ_glmnet 0.1861: 0 nonzero, deviance explained 0.00
	// λ_glmnet 0.1116: 3 nonzero, deviance explained 0.14
	// λ_glmnet 0.0669: 3 nonzero, deviance explained 0.22
	// λ_glmnet 0.0401: 5 nonzero, deviance explained 0.27
	// λ_glmnet 0.0240: 5 nonzero, deviance explained 0.29
	// λ_glmnet 0.0144: 6 nonzero, deviance explained 0.31
	// λ_glmnet 0.0086: 8 nonzero, deviance explained 0.31
	// λ_glmnet 0.0052: 8 nonzero, deviance explained 0.32
	// λ_glmnet 0.0031: 8 nonzero, deviance explained 0.32
	// λ_glmnet 0.0019: 8 nonzero, deviance explained 0.32
	// every fit certified: true
}

// Cross-validated Poisson regression of counts observed over different
// exposures: the offset log(exposure) enters the linear predictor with
// coefficient 1, so the coefficients are effects on the rate. Folds are
// dealt by the seed (estimator.Folds), as cv.glmnet's foldid would be.
// glmnet(x, y, "poisson", offset = log(t), standardize = FALSE) at the same
// λ gives the same coefficients.
func ExampleCrossValidate() {
	x, y, offset := exampleCounts(400)
	rows := estimator.NewRows(x, y)
	rows.Offset = offset
	cv, err := estimator.CrossValidate(rows, penalty.L1{}, &estimator.CVOptions{
		PathOptions: estimator.PathOptions{Options: estimator.Options{Family: datafit.Poisson{}}, NLambda: 30},
		Folds:       5, Seed: 1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	m := cv.Path.Models[cv.IndexMin]
	fmt.Println("measure:", cv.Measure, "| λ_1se ≥ λ_min:", cv.LambdaSE >= cv.LambdaMin)
	fmt.Printf("at λ_min: coefficients %.2f, intercept %.2f\n", m.Coefficients(0), m.Intercept[0])
	// Output:
	// measure: deviance | λ_1se ≥ λ_min: true
	// at λ_min: coefficients [0.39 0.40 0.06 0.03 -0.37], intercept -0.55
}

// Cross-validation of the cardinality penalty on a gaussian response picks
// λ; the same seed gives the same folds on every form of the same rows.
func ExampleCrossValidate_cardinality() {
	x, y := exampleGaussian()
	cv, err := estimator.CrossValidate(estimator.NewRows(x, y), penalty.Cardinality{Nu: 1},
		&estimator.CVOptions{Folds: 5, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	m := cv.Path.Models[cv.IndexSE]
	fmt.Println("λ_1se ≥ λ_min:", cv.LambdaSE >= cv.LambdaMin)
	fmt.Println("distinct values at λ_1se:", len(m.DistinctValues(0)))
	// Output:
	// λ_1se ≥ λ_min: true
	// distinct values at λ_1se: 2
}
