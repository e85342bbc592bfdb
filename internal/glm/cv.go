package glm

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/cvcurve"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/suffstat"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Measures lists the valid type.measure names of a family.
func Measures(fam datafit.Family) []string {
	if datafit.Classes(fam) {
		return []string{"deviance", "mse", "mae", "class", "auc"}
	}
	if _, ok := fam.(datafit.Gaussian); ok {
		return []string{"mse", "deviance", "mae"} // cv.glmnet's default: the same values
	}
	return []string{"deviance", "mse", "mae"}
}

// CrossValidate runs K-fold cross-validation as cv.glmnet does: the grid
// from the full data, each fold fitted on the rest at λ·n_train/n (the
// same λ_glmnet = λ/(2n) as the full fit, since weights are rescaled to
// sum to each fit's row count), the held-out measure averaged per fold
// with the observation weights, and the curve weighted by the folds'
// total weights (cvcurve). With Rows.Counts, n and n_train count the
// observations the rows stand for, and the held-out deviance (the
// gaussian's mse) adds the held-out rows' Constant.
//
// Unlike cv.glmnet's, each fold's fit at λ starts from the full data's
// path (fullStarts.starts): the folds' fits are certified at the same
// tolerance as cold ones, so the curve is theirs to that tolerance, in
// fewer reweightings.
func CrossValidate(r *Rows, pen penalty.Penalty, opts *fit.CVOptions) (*fit.CV, error) {
	return crossValidate(r, pen, opts, true)
}

// crossValidate is CrossValidate, the folds started from the full data's
// path when warm, else each from its own previous λ (cv.glmnet's way).
func crossValidate(r *Rows, pen penalty.Penalty, opts *fit.CVOptions, warm bool) (*fit.CV, error) {
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
	if !slices.Contains(Measures(fam), co.Measure) {
		return nil, fmt.Errorf("glm: measure %q is not one of %v for the %s family", co.Measure, Measures(fam), fam.Name())
	}
	if r == nil {
		return nil, errors.New("glm: nil design")
	}
	r = r.byColumns() // the folds select rows of the columns
	full, err := newProblem(r, &co.Options)
	if err != nil {
		return nil, err
	}
	grid, generated, err := full.grid(pen, &co.PathOptions)
	if err != nil {
		return nil, err
	}
	n, _ := r.dims()
	folds, k, err := foldsOf(&co, n)
	if err != nil {
		return nil, err
	}
	path, err := full.path(pen, grid, generated)
	if err != nil {
		return nil, err
	}
	grid = path.Lambdas
	cv := &fit.CV{Measure: co.Measure, Lambdas: grid, Path: path, Folds: folds}
	for f := range k {
		if err := checkFoldResponses(fam, r.Y, r.Weights, folds, f, k); err != nil {
			return nil, err
		}
		if err := checkFoldWeights(r.Weights, folds, f, k); err != nil {
			return nil, err
		}
	}
	var fs *fullStarts
	if warm {
		fs = newFullStarts(full, path)
	}
	errs, weights, err := foldFits(cv, r, pen, &co, k, fs)
	if err != nil {
		return nil, err
	}
	c := cvcurve.Summarise(errs, weights, co.Measure == "auc")
	cv.Mean, cv.SE, cv.IndexMin, cv.IndexSE = c.Mean, c.SE, c.IndexMin, c.IndexSE
	cv.LambdaMin, cv.LambdaSE = grid[c.IndexMin], grid[c.IndexSE]
	return cv, nil
}

// foldErr returns err of fold f (0-based) with the fold's number, without
// a second "glm: " prefix; errors.Is and errors.As still see err.
func foldErr(f int, err error) error {
	return &prefixed{msg: fmt.Sprintf("glm: fold %d: %s", f+1, strings.TrimPrefix(err.Error(), "glm: ")), err: err}
}

// prefixed is an error whose message replaces its cause's.
type prefixed struct {
	msg string
	err error
}

func (e *prefixed) Error() string { return e.msg }
func (e *prefixed) Unwrap() error { return e.err }

// FoldError reports a fold whose training rows (the other folds) the
// family cannot fit: a binomial response of one class only, or Poisson
// counts all zero, because the rows that differ all fall in the fold.
type FoldError struct {
	// Fold is the fold (1…K) and Folds is K.
	Fold, Folds int
	// Only says what the training rows hold ("only y = 0"); Rest of the
	// N rows hold something else, all in the fold.
	Only    string
	Rest, N int
}

// Error implements error.
func (e *FoldError) Error() string {
	head := fmt.Sprintf("glm: fold %d of %d has %s in its training rows (the other folds)", e.Fold, e.Folds, e.Only)
	if e.Rest == 1 {
		return fmt.Sprintf("%s: the only row of the %d with another response is in fold %d; cross-validation needs at least 2 such rows, spread over the folds", head, e.N, e.Fold)
	}
	fewer := ""
	if e.Folds > cvcurve.MinFolds {
		fewer = ", or fewer folds"
	}
	return fmt.Sprintf("%s: all %d of the %d rows with another response are in fold %d; use fold ids that spread those rows over the folds (stratified)%s", head, e.Rest, e.N, e.Fold, fewer)
}

// checkFoldResponses returns a *FoldError when the training rows of fold
// f (0-based, of k) with positive weight hold a single binomial class or
// only zero Poisson counts while other rows differ.
func checkFoldResponses(fam datafit.Family, y, w []float64, folds []int, f, k int) error {
	a := newFoldResponses(fam)
	if a == nil {
		return nil
	}
	for i, g := range folds {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		a.add(y[i], wi, g != f)
	}
	return a.err(f, k)
}

// foldResponses accumulates, row by row, what checkFoldResponses needs:
// whether the training rows' responses are all one value (with poisson,
// zero: the log-link families) and how many rows hold another.
type foldResponses struct {
	poisson     bool
	ref         float64   // the first training response
	seen, mixed bool      // a training row seen; two values among them
	pending     []float64 // held-out responses before the first training row
	rest, n     int
}

// newFoldResponses returns an accumulator for the families some of whose
// responses put the intercept-only fit at infinity
// (datafit.InterceptAtInfinity): one value alone (binomial's single
// class), or zeros alone (the log-link counts and amounts), nil for the
// others.
func newFoldResponses(fam datafit.Family) *foldResponses {
	switch {
	case datafit.InterceptAtInfinity(fam, 1, 1) != nil:
		return &foldResponses{}
	case datafit.InterceptAtInfinity(fam, 0, 0) != nil:
		return &foldResponses{poisson: true}
	}
	return nil
}

// add records a row's response y and weight w, in training or held out.
func (a *foldResponses) add(y, w float64, train bool) {
	a.n++
	if !(w > 0) {
		return
	}
	if !a.seen {
		if !train {
			a.pending = append(a.pending, y)
			return
		}
		a.ref, a.seen = y, true
		a.mixed = a.poisson && y != 0
		for _, v := range a.pending {
			if v != y {
				a.rest++
			}
		}
		a.pending = nil
		return
	}
	if y != a.ref {
		a.rest++
		a.mixed = a.mixed || train
	}
}

// err returns the *FoldError of fold f (0-based, of k), or nil.
func (a *foldResponses) err(f, k int) error {
	if !a.seen || a.mixed || a.rest == 0 {
		return nil // fittable, or the data themselves are degenerate
	}
	only := fmt.Sprintf("only y = %v", a.ref)
	if a.poisson {
		only = "only zero responses"
	}
	return &FoldError{Fold: f + 1, Folds: k, Only: only, Rest: a.rest, N: a.n}
}

// FoldWeightError reports a fold whose training rows (the other folds)
// one weight outweighs, though it does not outweigh the data as a whole:
// the rows that balance it are in the fold.
type FoldWeightError struct {
	// Fold is the fold (1…K) and Folds is K.
	Fold, Folds int
	// Row is the heavy row's index in the data (from 0), Weight its
	// weight, Rest the sum of the other training rows' weights.
	Row          int
	Weight, Rest float64
}

// Error implements error.
func (e *FoldWeightError) Error() string {
	return fmt.Sprintf("glm: fold %d of %d: in its training rows (the other folds) the weight %.3g of data row %d outweighs all the others together: they sum to %.3g, below its rounding, so a fit would rest on that one row, though the data's other rows do count: the rows that balance it are all in fold %d; use folds that spread the heavy rows", e.Fold, e.Folds, e.Weight, e.Row+1, e.Rest, e.Fold)
}

// foldWeights accumulates, row by row, the training weights of a fold
// and which data row holds the largest.
type foldWeights struct {
	ws      suffstat.WeightSummary
	added   int64
	heavy   int // the data row of ws.Max
	dataRow int
}

// add records the next data row's weight w, in training or held out.
func (a *foldWeights) add(w float64, train bool) {
	defer func() { a.dataRow++ }()
	if !train {
		return
	}
	a.ws.Add(w)
	if a.ws.MaxRow == a.added {
		a.heavy = a.dataRow
	}
	a.added++
}

// err returns the *FoldWeightError of fold f (0-based, of k), or nil.
func (a *foldWeights) err(f, k int) error {
	if a.ws.Check() == nil {
		return nil
	}
	return &FoldWeightError{Fold: f + 1, Folds: k, Row: a.heavy, Weight: a.ws.Max, Rest: a.ws.Rest()}
}

// checkFoldWeights returns a *FoldWeightError when one weight outweighs
// the other training rows of fold f (0-based, of k).
func checkFoldWeights(w []float64, folds []int, f, k int) error {
	if w == nil {
		return nil
	}
	var a foldWeights
	for i, g := range folds {
		a.add(w[i], g != f)
	}
	return a.err(f, k)
}

func foldsOf(co *fit.CVOptions, n int) ([]int, int, error) {
	if co.FoldID != nil {
		k, err := cvcurve.CheckIDs(co.FoldID, n)
		if err != nil {
			return nil, 0, fmt.Errorf("glm: %w", err)
		}
		return co.FoldID, k, nil
	}
	k := foldCount(co)
	if err := checkFoldCount(k, n); err != nil {
		return nil, 0, err
	}
	return cvcurve.Assign(n, k, co.Seed), k, nil
}

// foldCount is K: co.Folds, or cv.glmnet's 10.
func foldCount(co *fit.CVOptions) int {
	if co.Folds == 0 {
		return cvcurve.DefaultFolds
	}
	return co.Folds
}

// checkFoldCount checks K for n observations (n < 0: not known yet).
func checkFoldCount(k, n int) error {
	switch {
	case n < 0 && k < cvcurve.MinFolds:
		return fmt.Errorf("glm: %d folds: need at least %d", k, cvcurve.MinFolds)
	case k < cvcurve.MinFolds || n >= 0 && k > n:
		return fmt.Errorf("glm: %d folds for %d observations: need %d ≤ K ≤ n", k, n, cvcurve.MinFolds)
	}
	return nil
}

// foldGrid is fit.FoldGrid for train of n observations.
func foldGrid(grid []float64, train, n int) []float64 {
	return fit.FoldGrid(grid, float64(train)/float64(n))
}

// unconverged counts the λ of the grid (nl values) whose fold fit did not
// converge, the last fit standing in where the path stopped short. A fit
// whose only failure is a relaxed refit without a minimum (RelaxNote)
// converged: it is scored with its penalised coefficients.
func unconverged(p *fit.Path, nl int) int {
	k := 0
	for l := range nl {
		if m := p.Models[min(l, len(p.Models)-1)]; !m.Converged && m.RelaxNote == "" {
			k++
		}
	}
	return k
}

// foldFits fits the k folds (fit.RunFolds: two at a time, or one at a
// time with a caller's Method), and returns each
// fold's held-out measure per λ and total weight; it adds the folds'
// unconverged fits to cv.Unconverged.
func foldFits(cv *fit.CV, r *Rows, pen penalty.Penalty, co *fit.CVOptions, k int, fs *fullStarts) ([][]float64, []float64, error) {
	errs, weights, unconv := make([][]float64, k), make([]float64, k), make([]int, k)
	if f, err := fit.RunFolds(k, co.Method, func(f int) (err error) {
		errs[f], weights[f], unconv[f], err = foldFit(cv, r, pen, co, f, fs)
		return err
	}); err != nil {
		return nil, nil, foldErr(f, err)
	}
	for _, u := range unconv {
		cv.Unconverged += u
	}
	return errs, weights, nil
}

// foldFit fits the training rows of fold f along the scaled grid and returns
// the held-out measure per λ, the fold's total weight and how many of its
// fits did not converge. It only reads cv.
func foldFit(cv *fit.CV, r *Rows, pen penalty.Penalty, co *fit.CVOptions, f int, fs *fullStarts) ([]float64, float64, int, error) {
	var train, test []int
	for i, g := range cv.Folds {
		if g == f {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	n, nTrain := len(cv.Folds), len(train)
	rt := r.pick(train)
	if r.Counts != nil {
		n, nTrain = observations(r.Counts), observations(rt.Counts)
	}
	if r.Merge != nil {
		rt = r.Merge(rt)
	}
	pb, err := newProblem(rt, &co.Options)
	if err != nil {
		return nil, 0, 0, err
	}
	pb.noPolish = true
	path, err := pb.pathFrom(pen, foldGrid(cv.Lambdas, nTrain, n), false, fs.starts(pb))
	if err != nil {
		return nil, 0, 0, err
	}
	held := r.pick(test)
	yt, wt := held.Y, held.Weights
	if wt == nil {
		wt = make([]float64, len(test))
		for i := range wt {
			wt[i] = 1
		}
	}
	// The held-out rows' constants: their deviance (the gaussian's mse)
	// leaves them out of the observations'.
	var extra float64
	if _, gaussian := pb.fam.(datafit.Gaussian); co.Measure == "deviance" || gaussian && co.Measure == "mse" {
		extra = floats.Sum(pick(r.Constant, test))
	}
	out := make([]float64, len(cv.Lambdas))
	for l := range out {
		m := path.Models[min(l, len(path.Models)-1)]
		out[l] = score(co.Measure, pb.fam, yt, held.linkOf(m), wt, extra)
	}
	var wsum float64
	for _, v := range wt {
		wsum += v
	}
	return out, wsum, unconverged(path, len(cv.Lambdas)), nil
}

// pick returns v's entries at idx, nil for a nil v.
func pick[T any](v []T, idx []int) []T {
	if v == nil {
		return nil
	}
	out := make([]T, len(idx))
	for k, i := range idx {
		out[k] = v[i]
	}
	return out
}

func rows(x *mat.Dense, idx []int) *mat.Dense {
	_, p := x.Dims()
	out := mat.NewDense(len(idx), p, nil)
	for k, i := range idx {
		out.SetRow(k, x.RawRowView(i))
	}
	return out
}

// probMin is cv.glmnet's clipping of probabilities in the binomial
// deviance.
const probMin = 1e-5

// score returns the weighted mean of the held-out measure (or the fold's
// AUC), computed as cv.glmnet computes it for the family, with extra
// added to the weighted sum (the constants of aggregated rows).
func score(measure string, fam datafit.Family, y, eta, w []float64, extra float64) float64 {
	if measure == "auc" {
		return auc(y, eta, w)
	}
	binomial := datafit.Classes(fam) // cv.glmnet's binomial measures
	s, sw := extra, 0.0
	for i, e := range eta {
		mu := fam.Mean(e)
		var v float64
		switch measure {
		case "mse":
			v = (y[i] - mu) * (y[i] - mu)
		case "mae":
			v = math.Abs(y[i] - mu)
		case "class":
			if y[i] == 0 && mu >= 0.5 || y[i] == 1 && mu <= 0.5 {
				v = 1
			}
		default: // deviance
			if binomial {
				mu = math.Min(math.Max(mu, probMin), 1-probMin)
				v = -2 * (y[i]*math.Log(mu) + (1-y[i])*math.Log(1-mu))
			} else {
				v = fam.Deviance(y[i], e)
			}
		}
		if binomial && (measure == "mse" || measure == "mae") {
			v *= 2 // cv.glmnet scores both columns of the two-class response
		}
		s += w[i] * v
		sw += w[i]
	}
	return s / sw
}

// auc returns the weighted area under the ROC curve: the weighted share of
// (positive, negative) pairs ordered correctly, ties counting one half.
func auc(y, eta, w []float64) float64 {
	idx := make([]int, len(y))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return eta[idx[a]] < eta[idx[b]] })
	var negBelow, pos, neg, good float64
	for a := 0; a < len(idx); {
		b := a
		var tp, tn float64
		for ; b < len(idx) && eta[idx[b]] == eta[idx[a]]; b++ {
			if y[idx[b]] == 1 {
				tp += w[idx[b]]
			} else {
				tn += w[idx[b]]
			}
		}
		good += tp * (negBelow + tn/2)
		negBelow += tn
		pos += tp
		neg += tn
		a = b
	}
	return good / (pos * neg)
}
