package deepreg

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/cardsparse/cardreg/cardmat"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func randomData(rng *rand.Rand, n, p, q int, classes bool) (*mat.Dense, *mat.Dense) {
	x := mat.NewDense(n, p, nil)
	x.Apply(func(_, _ int, _ float64) float64 { return rng.NormFloat64() }, x)
	if classes {
		labels := make([]int, n)
		for i := range labels {
			labels[i] = rng.IntN(q)
		}
		return x, OneHot(labels, q)
	}
	y := mat.NewDense(n, q, nil)
	y.Apply(func(_, _ int, _ float64) float64 { return rng.NormFloat64() }, y)
	return x, y
}

// TestGradientFiniteDifferences: back-propagation agrees with central
// differences for every activation, both losses, with and without biases.
func TestGradientFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	acts := []Activation{ReLU{}, LeakyReLU{Slope: 0.1}, Identity{}, ISRU{}, Arctan{}, Tanh{}}
	for _, loss := range []Loss{SquaredError{}, CrossEntropy{}} {
		for _, f := range acts {
			for _, bias := range []bool{false, true} {
				net, err := New([]int{4, 5, 3, 3}, []Activation{f, Tanh{}}, bias, rng.Uint64())
				require.NoError(t, err)
				if bias {
					for _, b := range net.Biases {
						b.SetVec(0, 0.3)
					}
				}
				x, y := randomData(rng, 7, 4, 3, loss.String() == "xent")
				d := solver.DenseDesign{X: x}
				_, g := net.Gradient(d, y, loss)
				const h = 1e-6
				for l, w := range net.Weights {
					r, c := w.Dims()
					for i := 0; i < r; i++ {
						for j := 0; j < c; j++ {
							num := centralDiff(func(v float64) float64 {
								w.Set(i, j, v)
								out, _ := net.Output(d)
								return loss.Value(out, y)
							}, w.At(i, j), h)
							require.InDelta(t, num, g.Weights[l].At(i, j), 1e-6*(1+math.Abs(num)), "%v %v W^%d[%d,%d]", loss, f, l, i, j)
						}
					}
					if bias {
						b := net.Biases[l]
						for i := 0; i < b.Len(); i++ {
							num := centralDiff(func(v float64) float64 {
								b.SetVec(i, v)
								out, _ := net.Output(d)
								return loss.Value(out, y)
							}, b.AtVec(i), h)
							require.InDelta(t, num, g.Biases[l].AtVec(i), 1e-6*(1+math.Abs(num)))
						}
					}
				}
			}
		}
	}
}

func centralDiff(f func(float64) float64, x, h float64) float64 {
	hi := f(x + h)
	lo := f(x - h)
	f(x)
	return (hi - lo) / (2 * h)
}

// TestCompressedInputEqualsDense: the first layer on a compressed input
// (digit-like pixels with 17 levels) gives the dense outputs and gradients
// to rounding.
func TestCompressedInputEqualsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	x := mat.NewDense(300, 12, nil)
	x.Apply(func(_, _ int, _ float64) float64 { return float64(rng.IntN(17)) / 16 }, x)
	labels := make([]int, 300)
	for i := range labels {
		labels[i] = rng.IntN(4)
	}
	y := OneHot(labels, 4)
	net, err := New([]int{12, 8, 4}, []Activation{ReLU{}}, true, 3)
	require.NoError(t, err)
	cx, err := cardmat.Encode(x)
	require.NoError(t, err)
	v1, g1 := net.Gradient(solver.DenseDesign{X: x}, y, CrossEntropy{})
	v2, g2 := net.Gradient(cx, y, CrossEntropy{})
	require.InDelta(t, v1, v2, 1e-12)
	for l := range g1.Weights {
		require.True(t, mat.EqualApprox(g1.Weights[l], g2.Weights[l], 1e-12), "layer %d", l)
	}
}

func TestNewAndParse(t *testing.T) {
	_, err := New([]int{3}, nil, false, 1)
	require.Error(t, err)
	_, err = New([]int{3, 0, 2}, []Activation{ReLU{}}, false, 1)
	require.Error(t, err)
	_, err = New([]int{3, 4, 2}, nil, false, 1)
	require.ErrorContains(t, err, "need 1 activations")
	a, _ := New([]int{3, 4, 2}, []Activation{ReLU{}}, false, 9)
	b, _ := New([]int{3, 4, 2}, []Activation{ReLU{}}, false, 9)
	require.True(t, mat.Equal(a.Weights[0], b.Weights[0]), "same seed, same weights")
	require.Equal(t, []int{3, 4, 2}, a.Arch())
	require.Equal(t, 20, a.Params())
	for _, s := range []string{"relu", "leaky-relu:0.2", "identity", "isru", "arctan", "tanh"} {
		f, err := ParseActivation(s)
		require.NoError(t, err)
		g, err := ParseActivation(f.String())
		require.NoError(t, err)
		require.Equal(t, f, g)
		require.Equal(t, 1.0, f.Lipschitz())
	}
	for _, s := range []string{"sigmoid", "relu:2", "leaky-relu:2", "leaky-relu:x"} {
		_, err := ParseActivation(s)
		require.Error(t, err, s)
	}
}

// TestChunkedGradient: the gradient over per-core chunks of a batch equals
// the gradient of the whole batch, for dense and compressed inputs.
func TestChunkedGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	x, y := randomData(rng, 1001, 6, 3, true)
	x.Apply(func(_, _ int, v float64) float64 { return math.Round(v) }, x)
	net, _ := New([]int{6, 7, 3}, []Activation{Tanh{}}, true, 4)
	cx, err := cardmat.Encode(x)
	require.NoError(t, err)
	for _, d := range []solver.Design{solver.DenseDesign{X: x}, cx} {
		v1, g1 := net.Gradient(d, y, CrossEntropy{})
		cs := []chunk{}
		for _, c := range []struct{ lo, hi int }{{0, 400}, {400, 1001}} {
			rows := make([]int, c.hi-c.lo)
			for i := range rows {
				rows[i] = c.lo + i
			}
			sx, sy, err := subset(d, y, rows)
			require.NoError(t, err)
			cs = append(cs, chunk{sx, sy, float64(len(rows)) / 1001})
		}
		v2, g2 := net.gradientChunks(cs, CrossEntropy{})
		require.InDelta(t, v1, v2, 1e-12)
		for l := range g1.Weights {
			require.True(t, mat.EqualApprox(g1.Weights[l], g2.Weights[l], 1e-12))
			require.True(t, mat.EqualApprox(g1.Biases[l], g2.Biases[l], 1e-12))
		}
		require.Len(t, chunks(d, y), min(runtime.GOMAXPROCS(0), 1001/minChunkRows))
	}
}

// TestCrossEntropyValueGrad: the fused pass equals Value and Grad.
func TestCrossEntropyValueGrad(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	out, y := randomData(rng, 9, 4, 4, true)
	var ce CrossEntropy
	d1, d2 := mat.NewDense(9, 4, nil), mat.NewDense(9, 4, nil)
	ce.Grad(d1, out, y)
	v := ce.ValueGrad(d2, out, y)
	require.InDelta(t, ce.Value(out, y), v, 1e-15)
	require.True(t, mat.EqualApprox(d1, d2, 1e-16))
}

// The ReLU fast paths of the forward and backward passes agree with
// ReLU.Apply and ReLU.Deriv entry by entry, at 0, ±0, infinities and NaN,
// and the generic path is taken for other activations.
func TestActivationFastPaths(t *testing.T) {
	z := []float64{-2, math.Copysign(0, -1), 0, 1e-300, 3, math.Inf(1), math.Inf(-1), math.NaN()}
	for _, f := range []Activation{ReLU{}, LeakyReLU{Slope: 0.1}, ISRU{}} {
		got := make([]float64, len(z))
		applyAll(f, got, z)
		grad := []float64{1, 2, 3, 4, 5, 6, 7, 8}
		derivMul(f, grad, z)
		for i, v := range z {
			want := f.Apply(v)
			if !(got[i] == want || math.IsNaN(got[i]) && math.IsNaN(want)) {
				t.Fatalf("%v: apply(%v) = %v, want %v", f, v, got[i], want)
			}
			if w := float64(i+1) * f.Deriv(v); grad[i] != w && !(math.IsNaN(w) && math.IsNaN(grad[i])) {
				t.Fatalf("%v: deriv at %v gives %v, want %v", f, v, grad[i], w)
			}
		}
	}
}
