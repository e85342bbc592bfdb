package deepreg

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Loss is a data-fitting loss averaged over the n rows of a batch.
type Loss interface {
	// Value returns the loss of the outputs out (n×q) against y (n×q).
	Value(out, y *mat.Dense) float64
	// Grad writes ∂Value/∂out into dst (n×q).
	Grad(dst, out, y *mat.Dense)
	// Metric returns the figure reported beside the loss: the mean
	// squared error or the accuracy.
	Metric(out, y *mat.Dense) float64
	// String returns the loss's name.
	String() string
}

// SquaredError is (1/n)Σ_i ‖y_i − g(x_i)‖², the loss of the theory.
type SquaredError struct{}

// Value returns (1/n)Σ_i ‖y_i − out_i‖².
func (SquaredError) Value(out, y *mat.Dense) float64 {
	n, _ := out.Dims()
	var d mat.Dense
	d.Sub(out, y)
	return mat.Norm(&d, 2) * mat.Norm(&d, 2) / float64(n)
}

// Grad writes (2/n)(out − y).
func (SquaredError) Grad(dst, out, y *mat.Dense) {
	n, _ := out.Dims()
	dst.Sub(out, y)
	dst.Scale(2/float64(n), dst)
}

// Metric returns the mean squared error per entry, (1/(n·q))Σ(y − out)².
func (s SquaredError) Metric(out, y *mat.Dense) float64 {
	_, q := out.Dims()
	return s.Value(out, y) / float64(q)
}

func (SquaredError) String() string { return "squared" }

// CrossEntropy is the softmax cross-entropy −(1/n)Σ_i Σ_k y_ik log
// softmax(out_i)_k, for one-hot (or probability) rows y_i.
type CrossEntropy struct{}

// Value returns the mean cross-entropy, computed stably (log-sum-exp).
func (CrossEntropy) Value(out, y *mat.Dense) float64 {
	n, _ := out.Dims()
	var s float64
	for i := 0; i < n; i++ {
		o, t := out.RawRowView(i), y.RawRowView(i)
		lse := logSumExp(o)
		for k, v := range o {
			if t[k] != 0 {
				s -= t[k] * (v - lse)
			}
		}
	}
	return s / float64(n)
}

// Grad writes (1/n)(softmax(out_i) − y_i) row by row.
func (CrossEntropy) Grad(dst, out, y *mat.Dense) {
	n, _ := out.Dims()
	for i := 0; i < n; i++ {
		o, t, d := out.RawRowView(i), y.RawRowView(i), dst.RawRowView(i)
		lse := logSumExp(o)
		for k, v := range o {
			d[k] = (math.Exp(v-lse) - t[k]) / float64(n)
		}
	}
}

// Metric returns the accuracy: the share of rows whose largest output is
// at the largest entry of y.
func (CrossEntropy) Metric(out, y *mat.Dense) float64 {
	n, _ := out.Dims()
	hits := 0
	for i := 0; i < n; i++ {
		if argmax(out.RawRowView(i)) == argmax(y.RawRowView(i)) {
			hits++
		}
	}
	return float64(hits) / float64(n)
}

func (CrossEntropy) String() string { return "xent" }

// ValueGrad returns Value and writes Grad in one pass, computing each
// row's softmax once.
func (CrossEntropy) ValueGrad(dst, out, y *mat.Dense) float64 {
	n, _ := out.Dims()
	var s float64
	for i := 0; i < n; i++ {
		o, t, d := out.RawRowView(i), y.RawRowView(i), dst.RawRowView(i)
		// One exponential per entry: e_k = exp(o_k − max) serves the
		// log-sum-exp and the softmax e_k/Σe.
		m := math.Inf(-1)
		for _, v := range o {
			m = max(m, v)
		}
		var sum float64
		for k, v := range o {
			d[k] = math.Exp(v - m)
			sum += d[k]
		}
		lse, scale := m+math.Log(sum), 1/(sum*float64(n))
		for k, v := range o {
			if t[k] != 0 {
				s -= t[k] * (v - lse)
			}
			d[k] = d[k]*scale - t[k]/float64(n)
		}
	}
	return s / float64(n)
}

// valueGrader is a loss that computes its value and gradient together.
type valueGrader interface {
	ValueGrad(dst, out, y *mat.Dense) float64
}

func logSumExp(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = max(m, x)
	}
	var s float64
	for _, x := range v {
		s += math.Exp(x - m)
	}
	return m + math.Log(s)
}

func argmax(v []float64) int {
	best := 0
	for k, x := range v {
		if x > v[best] {
			best = k
		}
	}
	return best
}

// OneHot returns the n×k indicator matrix of integer labels 0..k−1.
func OneHot(labels []int, k int) *mat.Dense {
	y := mat.NewDense(len(labels), k, nil)
	for i, c := range labels {
		y.Set(i, c, 1)
	}
	return y
}
