package estimator

import (
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/suffstat"
	"gonum.org/v1/gonum/mat"
)

// rowStats gathers rows into sufficient statistics of k folds (fold[i] of
// row i; nil: one fold), the responses less the offset.
func rowStats(r *Rows, fold []int, k int) (*Stats, error) {
	x := denseOf(r.X)
	if x == nil {
		return nil, fmt.Errorf("estimator: weights need a dense design (solver.DenseDesign)")
	}
	n, p := x.Dims()
	_, q := r.Y.Dims()
	f := suffstat.NewFolds(k, p+q)
	z := make([]float64, p+q)
	for i := range n {
		for j := range p {
			z[j] = x.At(i, j)
		}
		for j := range q {
			z[p+j] = r.Y.At(i, j) - at(r.Offset, i, 0)
		}
		g := 0
		if fold != nil {
			g = fold[i]
		}
		if err := checkRow(i, z, at(r.Weights, i, 1)); err != nil {
			return nil, err
		}
		f.Fold[g].Add(z, at(r.Weights, i, 1))
	}
	return &Stats{Folds: f, Q: q}, sumToN(f)
}

// sumToN rescales the weights of statistics gathered from rows to sum to
// the number of rows, as the family routes and glmnet rescale them, so
// that λ means the same whatever the weights' scale.
func sumToN(f *suffstat.Folds) error {
	all := f.All()
	if sumsToN(all) {
		return nil
	}
	if !(all.W > 0) {
		return fmt.Errorf("estimator: every weight is 0")
	}
	c := float64(all.N) / all.W
	for _, m := range f.Fold {
		m.Scale(c)
	}
	return nil
}

// normalised returns statistics s with the weights rescaled to sum to
// the number of rows (a copy when they do not already), as every other
// form is fitted.
func normalised(s *Stats) (*Stats, error) {
	if sumsToN(s.Folds.All()) {
		return s, nil
	}
	f := &suffstat.Folds{Fold: make([]*suffstat.Moments, len(s.Folds.Fold))}
	for k, m := range s.Folds.Fold {
		f.Fold[k] = m.Clone()
	}
	return &Stats{Folds: f, Q: s.Q}, sumToN(f)
}

// sumsToN reports whether the weights of m already sum to its row count,
// to rounding: statistics rescaled once (the command line's) are not
// copied again, which would double their O(k·d²) memory unchecked.
func sumsToN(m *suffstat.Moments) bool {
	return math.Abs(m.W-float64(m.N)) <= 1e-12*float64(m.N)
}

// checkRow refuses what suffstat.Moments.Add cannot take: a value that is
// not finite, a weight that is negative or not finite.
func checkRow(i int, z []float64, w float64) error {
	if err := suffstat.ValidWeight(w); err != nil {
		return fmt.Errorf("estimator: row %d: %w", i+1, err)
	}
	for j, v := range z {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("estimator: row %d, variable %d: %v is not finite", i+1, j+1, v)
		}
	}
	return nil
}

// streamStats gathers a Stream's rows into sufficient statistics of k
// folds, in one pass: row i in fold[i] (when given, one per row), else
// dealt by Folds' assignment under seed.
func streamStats(s *Stream, k int, seed uint64, fold []int) (*Stats, error) {
	f := suffstat.NewFolds(k, s.P+1)
	z := make([]float64, s.P+1)
	folder := suffstat.NewRowFolder(seed, k)
	i := uint64(0)
	err := s.Source.Pass(func(x []float64, y, w, o float64) error {
		if len(x) != s.P {
			return fmt.Errorf("estimator: row %d has %d predictors, not %d", i+1, len(x), s.P)
		}
		copy(z, x)
		z[s.P] = y - o
		if err := checkRow(int(i), z, w); err != nil {
			return err
		}
		g := 0
		switch {
		case fold == nil:
			g = folder.Fold(i)
		case i < uint64(len(fold)):
			g = fold[i]
		default:
			return fmt.Errorf("estimator: more rows than the %d fold ids", len(fold))
		}
		f.Fold[g].Add(z, w)
		i++
		return nil
	})
	if err != nil {
		return nil, err
	}
	if fold != nil && i != uint64(len(fold)) {
		return nil, fmt.Errorf("estimator: %d fold ids for %d rows", len(fold), i)
	}
	return &Stats{Folds: f, Q: 1}, sumToN(f)
}

// shifted returns Y less the offset (Y itself without one).
func shifted(r *Rows) mat.Matrix {
	if r.Offset == nil {
		return r.Y
	}
	n, q := r.Y.Dims()
	y := mat.NewDense(n, q, nil)
	for i := range n {
		for j := range q {
			y.Set(i, j, r.Y.At(i, j)-r.Offset[i])
		}
	}
	return y
}

func at(v []float64, i int, def float64) float64 {
	if v == nil {
		return def
	}
	return v[i]
}
