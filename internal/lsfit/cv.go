package lsfit

import (
	"errors"
	"fmt"

	"github.com/cardsparse/cardreg/internal/cvcurve"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// RowSelector is solver.RowSelector, a design that can restrict itself to
// a subset of its rows (cross-validation needs it).
type RowSelector = solver.RowSelector

// CrossValidate runs K-fold cross-validation of the penalised fit along a λ
// grid (computed once on all data, as glmnet does: the full-data path's,
// ended early by glmnet's rules on a generated grid), fitting the folds
// concurrently (one at a time when Options.Method is set, since a method
// may keep state), and returns the error curve with λ_min and λ_1se
// together with the full-data path.
func CrossValidate(x solver.Design, y mat.Matrix, pen penalty.Penalty, opts *fit.CVOptions) (*fit.CV, error) {
	var co fit.CVOptions
	if opts != nil {
		co = *opts
	}
	k := co.Folds
	if k == 0 {
		k = cvcurve.DefaultFolds
	}
	n, _ := x.Dims()
	if co.FoldID != nil {
		var err error
		if k, err = checkFoldID(co.FoldID, n); err != nil {
			return nil, err
		}
	}
	if k < 2 || k > n {
		return nil, fmt.Errorf("lsfit: %d folds for %d observations: need 2 ≤ K ≤ n", k, n)
	}
	if err := checkInputs(x, y); err != nil {
		return nil, err
	}
	sc, x, y, err := rescale(x, y, pen, &co.Options)
	if err != nil {
		return nil, err
	}
	x = factorLayout(x, pen, &co.Options)
	co.Lambdas = sc.scaledLambdas(co.Lambdas)
	full, err := prepare(x, y, &co.Options)
	if err != nil {
		return nil, err
	}
	path, err := full.grid(pen, &co.PathOptions)
	if err != nil {
		return nil, err
	}
	folds := co.FoldID
	if folds == nil {
		folds = assignFolds(n, k, co.Seed)
	}
	progress := newCounter(co.Progress, (k+1)*len(path.Lambdas))
	full.progress = progress
	full.opts = co.Options
	// The full-data path first, as cv.glmnet: where glmnet's rules end it
	// early, its λ are the folds' grid.
	if path, err = full.runPath(pen, path); err != nil {
		return nil, err
	}
	grid := path.Lambdas
	progress.resize((k + 1) * len(grid))
	errs := make([][]float64, k)
	unconv := make([]int, k)
	if _, err := fit.RunFolds(k, co.Method, func(f int) (err error) {
		errs[f], unconv[f], err = foldErrors(x, full.y, pen, &co.Options, grid, folds, f, progress)
		return err
	}); err != nil {
		return nil, err
	}
	cv := &fit.CV{Measure: co.Measure, Lambdas: grid, Folds: folds, Path: path.Path}
	for _, u := range unconv {
		cv.Unconverged += u
	}
	sizes := make([]float64, k)
	for _, f := range folds {
		sizes[f]++
	}
	curve(cv, errs, sizes)
	if err := sc.cv(cv, path); err != nil {
		return nil, err
	}
	return cv, nil
}

// checkFoldID returns the number of folds of a user's fold assignment.
func checkFoldID(id []int, n int) (int, error) {
	k, err := cvcurve.CheckIDs(id, n)
	if err != nil {
		return 0, fmt.Errorf("lsfit: %w", err)
	}
	return k, nil
}

func assignFolds(n, k int, seed uint64) []int { return cvcurve.Assign(n, k, seed) }

// foldErrors fits the path without fold f (at fit.FoldGrid) and returns the
// held-out MSE at each λ and the number of fits that did not converge.
func foldErrors(x solver.Design, y *mat.Dense, pen penalty.Penalty, opts *fit.Options, grid []float64, folds []int, f int, progress *counter) ([]float64, int, error) {
	var train, test []int
	for i, g := range folds {
		if g == f {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	xTrain, err := selectRows(x, train)
	if err != nil {
		return nil, 0, err
	}
	xTest, _ := selectRows(x, test)
	pr, err := prepare(xTrain, rowsOf(y, train), opts)
	if err != nil {
		return nil, 0, err
	}
	pr.progress = progress
	path, err := pr.runPath(pen, &pathRun{Path: &fit.Path{Lambdas: fit.FoldGrid(grid, float64(len(train))/float64(len(folds)))}})
	if err != nil {
		return nil, 0, err
	}
	unconverged := 0
	yTest := rowsOf(y, test)
	out := make([]float64, len(grid))
	for k, m := range path.Models {
		if !m.Converged && m.RelaxNote == "" {
			unconverged++
		}
		var d mat.Dense
		d.Sub(yTest, predict(m, xTest))
		r, c := d.Dims()
		out[k] = sq(&d) / float64(r*c)
	}
	return out, unconverged, nil
}

func selectRows(x solver.Design, rows []int) (solver.Design, error) {
	switch d := x.(type) {
	case solver.DenseDesign:
		return solver.DenseDesign{X: rowsOf(d.X, rows)}, nil
	case RowSelector:
		return d.SelectRows(rows), nil
	}
	return nil, errors.New("lsfit: cross-validation needs a dense design or a RowSelector")
}

func rowsOf(m *mat.Dense, rows []int) *mat.Dense {
	_, c := m.Dims()
	out := mat.NewDense(len(rows), c, nil)
	for k, i := range rows {
		out.SetRow(k, m.RawRowView(i)[:c])
	}
	return out
}

// curve computes the curve as cv.glmnet does (package cvcurve): the
// mean of the folds' errors weighted by their weights w (rows, or Σw), its
// standard error, λ_min and λ_1se.
func curve(cv *fit.CV, errs [][]float64, w []float64) {
	c := cvcurve.Summarise(errs, w, false)
	cv.Mean, cv.SE = c.Mean, c.SE
	cv.IndexMin, cv.LambdaMin = c.IndexMin, cv.Lambdas[c.IndexMin]
	cv.IndexSE, cv.LambdaSE = c.IndexSE, cv.Lambdas[c.IndexSE]
}
