package deepreg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cardsparse/cardreg/cardmat"
	"github.com/cardsparse/cardreg/deepreg/kproject"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/cardsparse/cardreg/tensorreg"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestTrainLassoMatchesTensorreg: a network without hidden layers is a
// linear model; proximal gradient training with the ℓ1 penalty reaches the
// lasso solution found by the regression package (objective ×n there).
func TestTrainLassoMatchesTensorreg(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	x, _ := randomData(rng, 120, 6, 1, false)
	y := mat.NewDense(120, 1, nil)
	for i := 0; i < 120; i++ {
		y.Set(i, 0, 2*x.At(i, 0)-x.At(i, 3)+0.5*rng.NormFloat64())
	}
	net, err := New([]int{6, 1}, nil, false, 1)
	require.NoError(t, err)
	const lambda = 0.05
	var sv mat.SVD
	require.True(t, sv.Factorize(x, mat.SVDNone))
	lip := 2 * sv.Values(nil)[0] * sv.Values(nil)[0] / 120
	_, err = Train(net, solver.DenseDesign{X: x}, y, &Options{
		Penalty: penalty.L1{}, Lambda: lambda, LearningRate: 1 / lip, Epochs: 5000,
	})
	require.NoError(t, err)
	m, err := tensorreg.Fit(solver.DenseDesign{X: x}, y, penalty.L1{}, 120*lambda,
		&tensorreg.Options{NoIntercept: true, Settings: solver.Settings{Tol: 1e-12}})
	require.NoError(t, err)
	for j := 0; j < 6; j++ {
		require.InDelta(t, m.Coef.At(j, 0), net.Weights[0].At(0, j), 1e-7, "coefficient %d", j)
	}
}

// TestTrainOptions: determinism, projection, mini-batches on a compressed
// input, early stopping and bad options.
func TestTrainOptions(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	x := mat.NewDense(200, 5, nil)
	x.Apply(func(_, _ int, _ float64) float64 { return float64(rng.IntN(5)) }, x)
	labels := make([]int, 200)
	for i := range labels {
		labels[i] = int(x.At(i, 0)+x.At(i, 1)) % 3
	}
	y := OneHot(labels, 3)
	opts := &Options{Loss: CrossEntropy{}, Penalty: penalty.Cardinality{Nu: 1}, Lambda: 1e-3,
		Epochs: 30, BatchSize: 32, ProjectK: 3, ProjectExact: true, Seed: 4, Adam: true, LearningRate: 0.01}
	run := func(d solver.Design) (*Network, *Result) {
		net, err := New([]int{5, 8, 3}, []Activation{ReLU{}}, true, 2)
		require.NoError(t, err)
		res, err := Train(net, d, y, opts)
		require.NoError(t, err)
		return net, res
	}
	a, ra := run(solver.DenseDesign{X: x})
	b, _ := run(solver.DenseDesign{X: x})
	require.True(t, mat.Equal(a.Weights[0], b.Weights[0]), "same seed, same network")
	cx, err := cardmat.Encode(x)
	require.NoError(t, err)
	c, _ := run(cx)
	require.True(t, mat.EqualApprox(a.Weights[1], c.Weights[1], 1e-9), "compressed input")
	for _, w := range a.Weights {
		r, cols := w.Dims()
		for j := 0; j < cols; j++ {
			require.LessOrEqual(t, kproject.Distinct(mat.Col(nil, j, w)), 3, "%d rows", r)
		}
	}
	require.Len(t, ra.History, 30)
	require.Less(t, ra.History[29].Loss, ra.History[0].Loss)

	opts.Validation, opts.Patience, opts.Epochs, opts.LearningRate = 0.3, 2, 500, 0.5
	net, _ := New([]int{5, 8, 3}, []Activation{ReLU{}}, false, 2)
	res, err := Train(net, solver.DenseDesign{X: x}, y, opts)
	require.NoError(t, err)
	require.True(t, res.Stopped)
	best := slices.MinFunc(res.History, func(p, q Epoch) int { return cmpFloat(p.ValLoss, q.ValLoss) })
	require.Equal(t, best.Epoch, res.BestEpoch)

	for _, bad := range []*Options{{LearningRate: -1}, {Lambda: 1}, {Validation: 1}, {Epochs: -1}} {
		_, err := Train(net, solver.DenseDesign{X: x}, y, bad)
		require.Error(t, err)
	}
	_, err = Train(net, solver.DenseDesign{X: x}, mat.NewDense(3, 3, nil), nil)
	require.ErrorContains(t, err, "target rows")
	_, err = Train(net, solver.DenseDesign{X: x}, mat.NewDense(200, 2, nil), nil)
	require.ErrorContains(t, err, "target has 2 columns, the network 3 outputs")
	_, err = FitScale(net, solver.DenseDesign{X: x}, mat.NewDense(200, 2, nil), penalty.L1{Nu: 1}, 0.1, nil)
	require.ErrorContains(t, err, "target has 2 columns")
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestProjectBall: the projection onto {Σ h ≤ 1} satisfies the
// variational inequality ⟨v − p, z − p⟩ ≤ 0 for feasible z, and for the ℓ1
// norm equals the sort-based ℓ1-ball projection.
func TestProjectBall(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, h := range []penalty.Penalty{penalty.L1{Nu: 1}, penalty.Cardinality{Nu: 1.5}} {
		for trial := 0; trial < 20; trial++ {
			v := []*mat.Dense{mat.NewDense(4, 3, nil), mat.NewDense(2, 4, nil)}
			for _, w := range v {
				w.Apply(func(_, _ int, _ float64) float64 { return 2 * rng.NormFloat64() }, w)
			}
			p := []*mat.Dense{mat.DenseCopyOf(v[0]), mat.DenseCopyOf(v[1])}
			ProjectBall(p, h)
			require.InDelta(t, 1, h.Value(p[0])+h.Value(p[1]), 1e-9)
			for k := 0; k < 50; k++ {
				z := []*mat.Dense{mat.NewDense(4, 3, nil), mat.NewDense(2, 4, nil)}
				s := 0.0
				for _, w := range z {
					w.Apply(func(_, _ int, _ float64) float64 { return rng.NormFloat64() }, w)
					s += h.Value(w)
				}
				inner := 0.0
				for l := range z {
					z[l].Scale(rng.Float64()/s, z[l])
					var a, b mat.Dense
					a.Sub(v[l], p[l])
					b.Sub(z[l], p[l])
					inner += mat.Sum(mulElem(&a, &b))
				}
				require.LessOrEqual(t, inner, 1e-9)
			}
			if _, ok := h.(penalty.L1); ok {
				all := append(append([]float64{}, v[0].RawMatrix().Data...), v[1].RawMatrix().Data...)
				want := l1BallProjection(all)
				got := append(append([]float64{}, p[0].RawMatrix().Data...), p[1].RawMatrix().Data...)
				require.InDeltaSlice(t, want, got, 1e-9)
			}
		}
	}
	inside := []*mat.Dense{mat.NewDense(1, 2, []float64{0.1, -0.2})}
	require.Zero(t, ProjectBall(inside, penalty.L1{Nu: 1}))
	require.Equal(t, []float64{0.1, -0.2}, inside[0].RawMatrix().Data)
}

func mulElem(a, b *mat.Dense) *mat.Dense {
	var out mat.Dense
	out.MulElem(a, b)
	return &out
}

// l1BallProjection projects onto {‖x‖₁ ≤ 1} by sorting |v| and finding the
// threshold θ with Σ max(|v_i| − θ, 0) = 1.
func l1BallProjection(v []float64) []float64 {
	u := make([]float64, len(v))
	for i, x := range v {
		u[i] = math.Abs(x)
	}
	slices.Sort(u)
	slices.Reverse(u)
	var cum, theta float64
	for k, x := range u {
		cum += x
		if t := (cum - 1) / float64(k+1); x > t {
			theta = t
		}
	}
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Copysign(math.Max(math.Abs(x)-theta, 0), x)
	}
	return out
}

// TestKappaAndFitScale: κ minimises the objective for fixed Ω (checked on a
// fine grid), and FitScale lowers the objective and stays in the ball.
func TestKappaAndFitScale(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	x, _ := randomData(rng, 80, 3, 1, false)
	teacher, _ := New([]int{3, 4, 1}, []Activation{Tanh{}}, false, 11)
	y, _ := teacher.Predict(x)
	y.Apply(func(_, _ int, v float64) float64 { return 3*v + 0.1*rng.NormFloat64() }, y)
	start, _ := New([]int{3, 4, 1}, []Activation{Tanh{}}, false, 12)
	h := penalty.Cardinality{Nu: 2}
	const lambda = 1e-4
	dir := start.Clone()
	ProjectBall(dir.Weights, h)
	out, _ := dir.Predict(x)
	if mat.Dot(flat(y), flat(out)) < 0 {
		out.Scale(-1, out)
	}
	k := Kappa(out, y, lambda)
	best := scaleObjective(out, y, k, lambda)
	require.Greater(t, k, 0.0)
	for i := 0; i <= 10000; i++ {
		c := float64(i) * (10*k + 1) / 10000
		require.GreaterOrEqual(t, scaleObjective(out, y, c, lambda), best-1e-12)
	}
	res, err := FitScale(start, solver.DenseDesign{X: x}, y, h, lambda, &ScaleOptions{Iterations: 300, LearningRate: 0.05})
	require.NoError(t, err)
	require.Less(t, res.Objective, best)
	s := 0.0
	for _, w := range res.Direction.Weights {
		s += h.Value(w)
	}
	require.LessOrEqual(t, s, 1+1e-9)
	require.Greater(t, res.Kappa, 0.0)
	_, err = FitScale(start, solver.DenseDesign{X: x}, y, penalty.Ridge{}, lambda, nil)
	require.Error(t, err)
}

// TestLayerPenalties: a grouped penalty per layer (row labels of each
// layer's width) trains, and its value is what Train reports.
func TestLayerPenalties(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	x, y := randomData(rng, 60, 4, 1, false)
	net, _ := New([]int{4, 6, 1}, []Activation{Tanh{}}, false, 1)
	g0 := penalty.NewGrouped([]int{0, 0, 0, 1, 1, 1}, 1)
	opts := &Options{LayerPenalties: []penalty.Penalty{g0, penalty.L1{Nu: 1}}, Lambda: 0.01, Epochs: 20}
	res, err := Train(net, solver.DenseDesign{X: x}, y, opts)
	require.NoError(t, err)
	last := res.History[19]
	require.InDelta(t, 0.01*(g0.Value(net.Weights[0])+penalty.L1{Nu: 1}.Value(net.Weights[1])), last.Penalty, 1e-12)
	opts.LayerPenalties = opts.LayerPenalties[:1]
	_, err = Train(net, solver.DenseDesign{X: x}, y, opts)
	require.ErrorContains(t, err, "1 layer penalties for 2 weight matrices")
}

// TestAdamMovesBiases: with Adam, biases move by about η in the first
// step (Adam's first direction is the sign of the gradient).
func TestAdamMovesBiases(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	x, y := randomData(rng, 50, 3, 2, false)
	net, _ := New([]int{3, 4, 2}, []Activation{Tanh{}}, true, 1)
	_, g := net.Gradient(solver.DenseDesign{X: x}, y, SquaredError{})
	_, err := Train(net, solver.DenseDesign{X: x}, y, &Options{Adam: true, LearningRate: 0.01, Epochs: 1})
	require.NoError(t, err)
	for l, b := range net.Biases {
		for i := 0; i < b.Len(); i++ {
			want := -0.01 * math.Copysign(1, g.Biases[l].AtVec(i))
			require.InDelta(t, want, b.AtVec(i), 1e-6)
		}
	}
}

// Bad settings are errors, never a panic or NaN weights: a validation
// share that leaves no training rows, and a step size that diverges.
func TestTrainRefusesDegenerateRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	x, y := mat.NewDense(50, 3, nil), mat.NewDense(50, 1, nil)
	for i := range 50 {
		for j := range 3 {
			x.Set(i, j, rng.NormFloat64())
		}
		y.Set(i, 0, x.At(i, 0)-2*x.At(i, 2))
	}
	for _, share := range []float64{0.99, 0.9999} {
		net, _ := New([]int{3, 4, 1}, []Activation{ReLU{}}, false, 1)
		_, err := Train(net, solver.DenseDesign{X: x}, y, &Options{Validation: share, Epochs: 2})
		require.ErrorContains(t, err, "no training rows")
	}
	net, _ := New([]int{3, 4, 1}, []Activation{Tanh{}}, true, 1)

	_, err := Train(net, solver.DenseDesign{X: x}, y, &Options{LearningRate: 1e6, Epochs: 50})
	var de *DivergedError
	require.ErrorAs(t, err, &de)
	require.Positive(t, de.Epoch)
	require.Contains(t, err.Error(), "learning rate")

	// Overflowing data diverge too, and say so.
	big := mat.DenseCopyOf(x)
	big.Scale(1e200, big)
	net, _ = New([]int{3, 4, 1}, []Activation{ReLU{}}, false, 1)
	_, err = Train(net, solver.DenseDesign{X: big}, y, &Options{Epochs: 5})
	require.ErrorAs(t, err, &de)
}
