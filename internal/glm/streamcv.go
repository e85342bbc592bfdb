package glm

import (
	"errors"
	"fmt"
	"slices"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/cvcurve"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/suffstat"
)

// CrossValidateSource runs CrossValidate's K-fold cross-validation from a
// RowSource of p predictors in O(p²) memory: the full path from the
// source (FitPathSource) gives the grid; each fold's training rows, a
// filter of the source, are fitted along it scaled by n_train/n; one last
// pass scores every held-out row with its fold's fits. Row i (in the
// source's order) is in fold opts.FoldID[i] when given (one per row), else
// suffstat.RowFold(i, Seed, K), as the streamed least-squares statistics
// and estimator.Folds deal them. The measures are CrossValidate's but "auc", which needs the
// held-out predictions together. Passes: about K + 1 streamed paths and
// one.
func CrossValidateSource(src RowSource, p int, pen penalty.Penalty, opts *fit.CVOptions) (*fit.CV, error) {
	var co fit.CVOptions
	if opts != nil {
		co = *opts
	}
	fam := co.Family
	if fam == nil {
		fam = datafit.Gaussian{}
	}
	if co.Measure == "" {
		co.Measure = Measures(fam)[0]
	}
	if co.Measure == "auc" {
		return nil, errors.New("glm: a streamed cross-validation cannot score auc (it needs every held-out prediction at once)")
	}
	if !slices.Contains(Measures(fam), co.Measure) {
		return nil, fmt.Errorf("glm: measure %q is not one of %v for the %s family", co.Measure, Measures(fam), fam.Name())
	}
	deal, err := newDealer(&co)
	if err != nil {
		return nil, err
	}
	k := deal.k
	counted := &countingSource{src: src}
	full, err := FitPathSource(counted, p, pen, &co.PathOptions)
	if err != nil {
		return nil, err
	}
	n := full.Models[0].N
	if err := deal.check(n); err != nil {
		return nil, err
	}
	cv := &fit.CV{Measure: co.Measure, Lambdas: full.Lambdas, Path: full}
	sizes := deal.sizes(n)
	paths := make([]*fit.Path, k)
	for f := range k {
		train := &foldSource{src: counted, folds: deal, skip: f}
		po := co.PathOptions
		po.Lambdas = foldGrid(cv.Lambdas, n-sizes[f], n)
		sp, err := FitPathSource(train, p, pen, &po)
		if err != nil {
			return nil, foldFailure(counted, fam, deal, f, err)
		}
		cv.Unconverged += unconverged(sp, len(cv.Lambdas))
		paths[f] = sp
	}
	errs, weights, err := scoreSource(counted, paths, len(cv.Lambdas), deal, co.Measure)
	if err != nil {
		return nil, err
	}
	c := cvcurve.Summarise(errs, weights, false)
	cv.Mean, cv.SE, cv.IndexMin, cv.IndexSE = c.Mean, c.SE, c.IndexMin, c.IndexSE
	cv.LambdaMin, cv.LambdaSE = cv.Lambdas[c.IndexMin], cv.Lambdas[c.IndexSE]
	cv.Passes = counted.passes
	return cv, nil
}

// foldFailure returns the error of fold f (0-based, of k) whose fit
// failed with err: a *FoldError when its training rows hold one class, a
// *FoldWeightError when one weight outweighs them (one more pass finds
// out, and the heavy row's number in the data), else err with the fold's
// number.
func foldFailure(src RowSource, fam datafit.Family, folds *dealer, f int, err error) error {
	k := folds.k
	a := newFoldResponses(fam)
	var re *datafit.RowError
	if a == nil && !(errors.As(err, &re) && re.What == "weight") {
		return foldErr(f, err)
	}
	var fw foldWeights
	var i uint64
	perr := src.Pass(func(_ []float64, y, w, _ float64) error {
		train := folds.Fold(i) != f
		if a != nil {
			a.add(y, w, train)
		}
		fw.add(w, train)
		i++
		return nil
	})
	if perr != nil {
		return foldErr(f, err)
	}
	if a != nil {
		if fe := a.err(f, k); fe != nil {
			return fe
		}
	}
	if fe := fw.err(f, k); fe != nil {
		return fe
	}
	return foldErr(f, err)
}

// dealer deals a stream's rows to folds: by the user's fold ids, else by
// suffstat.RowFold under the seed.
type dealer struct {
	ids []int
	rf  *suffstat.RowFolder
	k   int
}

// newDealer returns the dealer of co's folds.
func newDealer(co *fit.CVOptions) (*dealer, error) {
	if co.FoldID != nil {
		k, err := cvcurve.CheckIDs(co.FoldID, len(co.FoldID))
		if err != nil {
			return nil, fmt.Errorf("glm: %w", err)
		}
		return &dealer{ids: co.FoldID, k: k}, nil
	}
	k := foldCount(co)
	if err := checkFoldCount(k, -1); err != nil {
		return nil, err
	}
	return &dealer{rf: suffstat.NewRowFolder(co.Seed, k), k: k}, nil
}

// Fold returns row i's fold; with fold ids, the last fold for a row
// beyond them (check refuses that count first).
func (d *dealer) Fold(i uint64) int {
	if d.ids == nil {
		return d.rf.Fold(i)
	}
	return d.ids[min(i, uint64(len(d.ids)-1))]
}

// check checks the folds against the n rows the stream holds.
func (d *dealer) check(n int) error {
	if d.ids != nil && len(d.ids) != n {
		return fmt.Errorf("glm: %d fold ids for %d rows", len(d.ids), n)
	}
	return checkFoldCount(d.k, n)
}

// sizes counts the rows of each fold among n: RowFold deals every whole
// block of k rows one to each fold, so only the last, partial block needs
// looking at.
func (d *dealer) sizes(n int) []int {
	sizes := make([]int, d.k)
	if d.ids != nil {
		for _, f := range d.ids {
			sizes[f]++
		}
		return sizes
	}
	for f := range sizes {
		sizes[f] = n / d.k
	}
	for i := n - n%d.k; i < n; i++ {
		sizes[d.Fold(uint64(i))]++
	}
	return sizes
}

// scoreSource is the scoring pass: every row's measure under each of the
// nl λ's fit of its own fold (the last fit where a fold's path stopped
// short, as CrossValidate scores it), summed per fold with the weights.
func scoreSource(src RowSource, paths []*fit.Path, nl int, rf *dealer, measure string) ([][]float64, []float64, error) {
	k := len(paths)
	sums := make([][]float64, k)
	weights := make([]float64, k)
	for f := range sums {
		sums[f] = make([]float64, nl)
	}
	var i uint64
	y1, eta1, w1 := make([]float64, 1), make([]float64, 1), make([]float64, 1)
	err := src.Pass(func(x []float64, y, w, o float64) error {
		f := rf.Fold(i)
		i++
		if w == 0 {
			return nil
		}
		weights[f] += w
		y1[0], w1[0] = y, w
		for l := range sums[f] {
			m := paths[f].Models[min(l, len(paths[f].Models)-1)]
			eta1[0] = o + m.Intercept[0]
			coef := m.Coef.RawMatrix().Data // one column: stride 1
			for j, v := range x {
				eta1[0] += coef[j] * v
			}
			sums[f][l] += w * score(measure, m.Family, y1, eta1, w1, 0)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	errs := make([][]float64, k)
	for f := range errs {
		if !(weights[f] > 0) {
			return nil, nil, fmt.Errorf("glm: fold %d has no weight", f+1)
		}
		errs[f] = make([]float64, len(sums[f]))
		for l, s := range sums[f] {
			errs[f][l] = s / weights[f]
		}
	}
	return errs, weights, nil
}

// countingSource counts the passes over a source.
type countingSource struct {
	src    RowSource
	passes int
}

func (c *countingSource) Pass(row func(x []float64, y, w, o float64) error) error {
	c.passes++
	return c.src.Pass(row)
}

// foldSource is a source's rows outside one fold.
type foldSource struct {
	src   RowSource
	folds *dealer
	skip  int
}

func (s *foldSource) Pass(row func(x []float64, y, w, o float64) error) error {
	var i uint64
	return s.src.Pass(func(x []float64, y, w, o float64) error {
		f := s.folds.Fold(i)
		i++
		if f == s.skip {
			return nil
		}
		return row(x, y, w, o)
	})
}
