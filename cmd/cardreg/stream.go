package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/suffstat"
	"github.com/cardsparse/cardreg/tensorreg"
)

// A problem is held in one of two forms: the rows (x, y), or, streamed
// from the file, the sufficient statistics of each cross-validation fold
// (stats), in O(p²) memory whatever the number of rows. Both give the same
// fits; the methods below hide which.

// rows returns the number of observations.
func (pr *problem) rows() int {
	if pr.stats != nil {
		return int(pr.stats.All().N)
	}
	n, _ := pr.x.Dims()
	return n
}

// foldID deals the rows to k folds by suffstat.RowFold, the assignment
// the streamed statistics use, so both forms cross-validate alike.
func foldID(n, k int, seed uint64) []int {
	id := make([]int, n)
	rf := suffstat.NewRowFolder(seed, k)
	for i := range id {
		id[i] = rf.Fold(uint64(i))
	}
	return id
}

// fit fits at one λ.
func (pr *problem) fit(lambda float64) (*tensorreg.Model, error) {
	if pr.stats != nil {
		m, err := tensorreg.FitStats(pr.stats.All(), len(pr.responses), pr.pen, lambda, &pr.opts)
		return m, pr.named(err)
	}
	m, err := tensorreg.Fit(solver.DenseDesign{X: pr.x}, pr.y, pr.pen, lambda, &pr.opts)
	return m, pr.named(err)
}

// path fits along the grid of po.
func (pr *problem) path(po *tensorreg.PathOptions) (*tensorreg.Path, error) {
	if pr.stats != nil {
		p, err := tensorreg.FitPathStats(pr.stats.All(), len(pr.responses), pr.pen, po)
		return p, pr.named(err)
	}
	p, err := tensorreg.FitPath(solver.DenseDesign{X: pr.x}, pr.y, pr.pen, po)
	return p, pr.named(err)
}

// crossValidate runs K-fold cross-validation on the folds of --foldid, or
// else of suffstat.RowFold with the seed and K of co.
func (pr *problem) crossValidate(co *tensorreg.CVOptions) (*tensorreg.CV, error) {
	if pr.stats != nil {
		cv, err := tensorreg.CrossValidateStats(pr.stats, len(pr.responses), pr.pen, co)
		return cv, pr.named(err)
	}
	c := *co
	c.FoldID = pr.foldID
	if c.FoldID == nil {
		c.FoldID = foldID(pr.rows(), co.Folds, co.Seed)
	}
	cv, err := tensorreg.CrossValidate(solver.DenseDesign{X: pr.x}, pr.y, pr.pen, &c)
	return cv, pr.named(err)
}

// named names the columns of a tensorreg.ScaleError.
func (pr *problem) named(err error) error {
	var se *tensorreg.ScaleError
	if errors.As(err, &se) {
		return fmt.Errorf("predictors %s (%s %.3g) and %s (%.3g) differ in scale by more than float64 can fit at once: rescale them, or use --standardize",
			data.ShortText([]byte(pr.names[se.Small])), se.Size(), se.SmallMax, data.ShortText([]byte(pr.names[se.Big])), se.BigMax)
	}
	return err
}

// checkRows refuses fewer than 2 data rows (a fit needs a spread), in
// memory and streamed alike.
func checkRows(path string, n int) error {
	switch n {
	case 0:
		return fmt.Errorf("%s: no data rows; at least 2 are needed", path)
	case 1:
		return fmt.Errorf("%s: 1 data row; at least 2 are needed", path)
	}
	return nil
}

// streamBudgetShare is the share of the machine's memory a fit may take
// before the data are streamed instead of loaded (--memory's default).
const streamBudgetShare = 0.5

// inMemoryFactor is how many times its float64 size an in-memory
// cross-validated fit peaks at (measured: 15–17× on 10⁶ × 50).
const inMemoryFactor = 17

// shouldStream says whether to stream path: when asked (--stream), or when
// the file as float64 (about its size in bytes for CSV numbers) times the
// peak factor passes the budget (--memory, else half the machine's
// memory); that automatic switch is said in one line on stderr.
func shouldStream(path string, f *fitFlags) bool {
	if f.stream {
		return true
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	b := memoryBudget(f.memory)
	if b.bytes <= 0 || fi.Size()*inMemoryFactor <= b.bytes {
		return false
	}
	fmt.Fprintf(f.stderr, "cardreg: %s: streaming (%s as float64 × %d > %s)\n",
		path, formatBytes(float64(fi.Size())), inMemoryFactor, b)
	return true
}

// streamMatrices is how many d×d matrices (d the predictors and
// responses) a streamed least-squares fit on k folds holds at its peak:
// each fold's statistics and its block buffer's while reading; then the
// folds', the whole data's and one training set's statistics with their
// Gram matrices and the solver's copy.
func streamMatrices(k int) int { return k + max(k, 6) }

// streamAdvice is what to do when streamed statistics do not fit: fewer
// columns, fewer folds (folds says whether they count), or the rows in
// memory when --stream asked for streaming (not the file's size).
func streamAdvice(f *fitFlags, folds bool) string {
	ways := []string{"drop columns (--predictors, --drop)"}
	if f.stream {
		ways = append(ways, "fit in memory without --stream when the rows are few")
	}
	if folds {
		ways = append(ways, "use fewer --folds")
	}
	last := len(ways) - 1
	if last == 0 {
		return ways[0]
	}
	return strings.Join(ways[:last], ", ") + " or " + ways[last]
}

// checkStreamed refuses streamed statistics of d variables on k folds
// that would not fit in the budget, before they are allocated.
func checkStreamed(d, k int, f *fitFlags) error {
	return checkStats("the streamed statistics", d, k, f)
}

// checkStats refuses statistics (named by kind) of d variables on k folds
// that would not fit in the budget, before they are allocated.
func checkStats(kind string, d, k int, f *fitFlags) error {
	what := fmt.Sprintf("%s of %d variables on %d folds", kind, d, k)
	if k == 1 {
		what = fmt.Sprintf("%s of %d variables", kind, d)
	}
	return checkSquares(what, streamMatrices(k), d, memoryBudget(f.memory), streamAdvice(f, k > 1))
}

// newtonMatrices is how many (p+1)×(p+1) matrices a streamed logistic or
// Poisson Newton step holds: the weighted statistics and their block
// buffer's, the quadratic model's Gram matrix and the solver's copy, with
// one to spare.
const newtonMatrices = 5

// checkNewton refuses a streamed generalised linear fit of p predictors
// whose Newton statistics would not fit in the budget.
func checkNewton(p int, f *fitFlags) error {
	what := fmt.Sprintf("the streamed Newton statistics of %d predictors", p)
	return checkSquares(what, newtonMatrices, p+1, memoryBudget(f.memory), streamAdvice(f, false))
}

// gramMatrices is how many p×p matrices an in-memory least-squares fit
// holds when it works in Gram form (n ≥ p): XᵀX and its full copy for the
// whole data and for each of two cross-validation folds fitted at once.
const gramMatrices = 6

// checkGram refuses an in-memory fit of n rows and p predictors whose Gram
// matrices would not fit in the budget (they are formed only when n ≥ p).
func checkGram(n, p int, f *fitFlags) error {
	if n < p {
		return nil
	}
	what := fmt.Sprintf("the Gram matrices of %d predictors", p)
	return checkSquares(what, gramMatrices, p, memoryBudget(f.memory), "drop columns (--predictors, --drop)")
}

// loadStreamed reads the file once, row by row, into per-fold statistics
// of (predictors, responses) on k folds (data.ReadStats): the rows are
// never held.
func loadStreamed(path string, f *fitFlags, k int) (*problem, error) {
	check := func(d, k int) error { return checkStreamed(d, k, f) }
	st, err := data.ReadStats(path, f.spec(), data.StatsOptions{Folds: k, Seed: f.seed, Check: check})
	if err != nil {
		return nil, err
	}
	pr := &problem{stats: st.Folds, names: st.Names, responses: st.Responses, target: st.Responses[0], dropped: st.Dropped}
	return pr, pr.finishStreamed(path, f)
}

// finishStreamed checks the statistics as loadProblem checks the rows and
// builds the penalty.
func (pr *problem) finishStreamed(path string, f *fitFlags) error {
	if len(pr.names) == 0 {
		return data.NoPredictors(path, "")
	}
	all := pr.stats.All()
	if err := checkRows(path, int(all.N)); err != nil {
		return err
	}
	if f.weights != "" {
		// The weights are rescaled to sum to n, as glmnet and package glm
		// do, so that λ_glmnet = λ/(2n) holds for weighted fits too.
		if !(all.W > 0) {
			return fmt.Errorf("%s: column %s: every weight is 0 (--weights)", path, data.ShortText([]byte(f.weights)))
		}
		c := float64(all.N) / all.W
		for _, m := range pr.stats.Fold {
			m.Scale(c)
		}
		all = pr.stats.All()
	}
	if err := all.Check(); err != nil {
		return pr.rangeError(path, err)
	}
	p := len(pr.names)
	for j, name := range pr.names {
		if constantStats(all, j) && !f.noIntercept {
			pr.constant = append(pr.constant, name)
		}
	}
	for j, name := range pr.responses {
		if constantStats(all, p+j) {
			return fmt.Errorf("%s: the response %q is constant: there is nothing to fit", path, name)
		}
	}
	var err error
	if pr.pen, pr.nu, pr.note, err = buildPenalty(f.penaltySpec(), p); err != nil {
		return err
	}
	pr.opts = tensorreg.Options{NoIntercept: f.noIntercept, Standardize: f.standardize, Relax: f.relax,
		Settings: solver.Settings{Tol: f.tol, MaxIter: f.maxIter}}
	return nil
}

// constantStats applies tensorreg's rule of constancy to variable j of the
// statistics, its root mean square standing for its magnitude.
func constantStats(m *suffstat.Moments, j int) bool {
	d := m.Dim()
	v := m.C[j*d+j] / m.W
	return tensorreg.NegligibleSpread(math.Sqrt(v), math.Sqrt(v+m.Mean[j]*m.Mean[j]))
}

// rangeError names the column whose statistics left float64's range.
func (pr *problem) rangeError(path string, err error) error {
	var re *suffstat.RangeError
	if !errors.As(err, &re) {
		return fmt.Errorf("%s: %v", path, err)
	}
	name := slices.Concat(pr.names, pr.responses)[re.Var]
	return fmt.Errorf("%s: column %s: its weighted %s is %v, beyond float64: streamed statistics need values below about 1e154 (their squares are summed); divide the column by a power of ten (unweighted fits in memory rescale by themselves)", path, data.ShortText([]byte(name)), re.What, re.Value)
}
