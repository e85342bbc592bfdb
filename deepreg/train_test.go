package deepreg

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cardsparse/cardreg/cardmat"
	"github.com/cardsparse/cardreg/deepreg/kproject"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
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
	m, err := estimator.Fit(&estimator.Rows{X: solver.DenseDesign{X: x}, Y: y}, penalty.L1{}, 120*lambda,
		&estimator.Options{NoIntercept: true, Settings: solver.Settings{Tol: 1e-12}})
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

	// At 0.5 (and 0.2) every hidden unit dies within a few epochs, which
	// Train now reports as a divergence; early stopping needs a live network.
	opts.Validation, opts.Patience, opts.Epochs, opts.LearningRate = 0.3, 2, 500, 0.05
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

	// Overflowing inputs are named as the cause before any step (a smaller
	// step cannot help there, so this is not a DivergedError).
	big := mat.DenseCopyOf(x)
	big.Scale(1e200, big)
	net, _ = New([]int{3, 4, 1}, []Activation{ReLU{}}, false, 1)
	_, err = Train(net, solver.DenseDesign{X: big}, y, &Options{Epochs: 5})
	require.False(t, errors.As(err, &de), "%v", err)
	require.ErrorContains(t, err, "before any step")
	require.ErrorContains(t, err, "the inputs are too large")
}

// offsetData has inputs in {0, …, 4} and a target near 8, far from the
// initial network's outputs: a step that is too large kills every ReLU
// unit (all pre-activations negative), leaving the constant-zero network
// with a flat, finite loss.
func offsetData(n int) (*mat.Dense, *mat.Dense) {
	rng := rand.New(rand.NewPCG(3, 3))
	x, y := mat.NewDense(n, 3, nil), mat.NewDense(n, 1, nil)
	for i := range n {
		for j := range 3 {
			x.Set(i, j, float64(rng.IntN(5)))
		}
		y.Set(i, 0, 7)
		if x.At(i, 0)+x.At(i, 2) > 4 {
			y.Set(i, 0, 9)
		}
	}
	return x, y
}

// A training that diverges without an infinite weight is reported, not
// returned as a result: every hidden unit dead (the flat loss of the
// constant network), or a loss that explodes by orders of magnitude, with
// plain or Adam steps, full batch or mini-batches, with or without a
// penalty and biases, evaluated every epoch or every few.
func TestTrainReportsDivergence(t *testing.T) {
	x, y := offsetData(300)
	d := solver.DenseDesign{X: x}
	relu, tanh := []Activation{ReLU{}}, []Activation{Tanh{}}
	for name, c := range map[string]struct {
		arch []int
		acts []Activation
		bias bool
		opts Options
		want string
	}{
		"relu dies":             {[]int{3, 4, 1}, relu, false, Options{LearningRate: 0.3, Epochs: 50}, "every unit of hidden layer 1 (relu) outputs 0"},
		"relu dies, mini-batch": {[]int{3, 4, 1}, relu, false, Options{LearningRate: 0.3, Epochs: 50, BatchSize: 10, Seed: 1}, "outputs 0"},
		"relu dies, every 10":   {[]int{3, 4, 1}, relu, false, Options{LearningRate: 0.3, Epochs: 50, ReportEvery: 10}, "at epoch 10: every unit"},
		"relu dies, lasso":      {[]int{3, 4, 1}, relu, false, Options{LearningRate: 0.3, Epochs: 50, Penalty: penalty.L1{Nu: 1}, Lambda: 0.01}, "outputs 0"},
		"relu dies, bias":       {[]int{3, 4, 1}, relu, true, Options{LearningRate: 0.3, Epochs: 50, Penalty: penalty.Cardinality{Nu: 1}, Lambda: 0.01}, "outputs 0"},
		"second layer dies":     {[]int{3, 4, 4, 1}, []Activation{Tanh{}, ReLU{}}, false, Options{LearningRate: 0.1, Epochs: 50}, "hidden layer 2 (relu)"},
		"relu explodes":         {[]int{3, 4, 1}, relu, false, Options{LearningRate: 1, Epochs: 50}, "exploded to"},
		"leaky explodes":        {[]int{3, 4, 1}, []Activation{LeakyReLU{Slope: 0.01}}, false, Options{LearningRate: 1, Epochs: 50}, "exploded to"},
		"tanh explodes":         {[]int{3, 4, 1}, tanh, false, Options{LearningRate: 1, Epochs: 50}, "exploded to"},
		"identity explodes":     {[]int{3, 4, 1}, []Activation{Identity{}}, false, Options{LearningRate: 1, Epochs: 50}, "exploded to"},
		"no hidden layer":       {[]int{3, 1}, nil, false, Options{LearningRate: 1, Epochs: 50}, "exploded to"},
		"adam":                  {[]int{3, 8, 1}, relu, false, Options{LearningRate: 100, Epochs: 50, Adam: true}, "diverged"},
		"adam, tanh":            {[]int{3, 8, 1}, tanh, true, Options{LearningRate: 1e4, Epochs: 50, Adam: true}, "diverged"},
		"cross-entropy":         {[]int{3, 4, 2}, tanh, false, Options{LearningRate: 100, Epochs: 50, Loss: CrossEntropy{}}, "exploded to"},
	} {
		t.Run(name, func(t *testing.T) {
			target := y
			if c.opts.Loss != nil {
				labels := make([]int, 300)
				for i := range labels {
					labels[i] = int(y.At(i, 0)-7) / 2
				}
				target = OneHot(labels, 2)
			}
			net, err := New(c.arch, c.acts, c.bias, 1)
			require.NoError(t, err)
			res, err := Train(net, d, target, &c.opts)
			var de *DivergedError
			require.ErrorAs(t, err, &de, "result %+v", res)
			require.Positive(t, de.Epoch)
			require.ErrorContains(t, err, c.want)
			require.ErrorContains(t, err, "at the start")
			require.ErrorContains(t, err, "lower the learning rate")
		})
	}
}

// The same data at a small enough step train without a report, and so do
// layers that a large penalty switches off (all weights zero, the layer's
// output 0 on every row: the null model is the penalty's answer, not a
// divergence).
func TestTrainDivergenceNotFlagged(t *testing.T) {
	x, y := offsetData(300)
	d := solver.DenseDesign{X: x}
	for name, c := range map[string]struct {
		acts []Activation
		bias bool
		opts Options
	}{
		"relu, small step": {[]Activation{ReLU{}}, true, Options{LearningRate: 0.01, Epochs: 300}},
		"tanh, small step": {[]Activation{Tanh{}}, true, Options{LearningRate: 0.02, Epochs: 300, Adam: true}},
		"penalised to zero": {[]Activation{ReLU{}}, false, Options{LearningRate: 0.01, Epochs: 30,
			Penalty: penalty.L1{Nu: 1}, Lambda: 1e3}},
	} {
		t.Run(name, func(t *testing.T) {
			net, err := New([]int{3, 4, 1}, c.acts, c.bias, 1)
			require.NoError(t, err)
			res, err := Train(net, d, y, &c.opts)
			require.NoError(t, err)
			if c.opts.Lambda > 0 {
				require.True(t, allZero(net.Weights[0].RawMatrix().Data), "the penalty zeroed the first layer")
				return
			}
			require.Less(t, res.History[len(res.History)-1].Loss, 60.0, "better than the zero network")
		})
	}
}

// Network.stuck names dead ReLU layers and saturated tanh layers, and
// nothing else; the watch reports a layer that became stuck, not one that
// was stuck from the start.
func TestStuckLayers(t *testing.T) {
	x, _ := offsetData(20)
	x.Apply(func(_, _ int, v float64) float64 { return v + 1 }, x) // every input ≥ 1
	for _, c := range []struct {
		f     Activation
		scale float64
		want  string
	}{
		{ReLU{}, -1, "outputs 0"},
		{LeakyReLU{Slope: 0}, -1, "outputs 0"},
		{Tanh{}, 100, "saturated"},
		{Tanh{}, -100, "saturated"},
		{ReLU{}, 1, ""},
		{LeakyReLU{Slope: 0.1}, -1, ""},
		{Tanh{}, 1, ""},
		{Identity{}, -100, ""},
		{ISRU{}, 100, ""},
	} {
		net, err := New([]int{3, 2, 1}, []Activation{c.f}, false, 1)
		require.NoError(t, err)
		net.Weights[0].Apply(func(_, _ int, _ float64) float64 { return c.scale }, net.Weights[0])
		tr := net.forward(solver.DenseDesign{X: x}, false)
		got := net.stuck(tr)[0]
		if c.want == "" {
			require.Empty(t, got, "%v scale %v", c.f, c.scale)
			continue
		}
		require.Contains(t, got, c.want, "%v scale %v", c.f, c.scale)
		w := newWatch(Epoch{Loss: 1}, []string{""})
		err = w.check(net, Epoch{Epoch: 3, Loss: 1}, net.stuck(tr))
		require.ErrorContains(t, err, "diverged at epoch 3: every unit of hidden layer 1 ("+c.f.String()+") "+got)
		w = newWatch(Epoch{Loss: 1}, net.stuck(tr))
		require.NoError(t, w.check(net, Epoch{Epoch: 3, Loss: 1}, net.stuck(tr)), "stuck from the start")
	}
}

// Targets whose squared loss overflows float64 before any step are named as
// the cause, not reported as a divergence whose remedy is a smaller step:
// at 1e200 the loss is +Inf at the start, and every step size fails alike.
func TestTrainInitialLossNotFinite(t *testing.T) {
	x, y := offsetData(50)
	big := mat.NewDense(50, 1, nil)
	big.Scale(1e200, y)
	for _, lr := range []float64{0.1, 1e-300} {
		net, err := New([]int{3, 4, 1}, []Activation{ReLU{}}, true, 1)
		require.NoError(t, err)
		_, err = Train(net, solver.DenseDesign{X: x}, big, &Options{LearningRate: lr, Epochs: 5})
		var de *DivergedError
		require.False(t, errors.As(err, &de), "lr %g: %v", lr, err)
		require.ErrorContains(t, err, "before any step")
		require.ErrorContains(t, err, "the targets reach 9e+200")
		require.NotContains(t, err.Error(), "learning rate")
	}
}
