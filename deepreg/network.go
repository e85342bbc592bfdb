package deepreg

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Network is the feed-forward network of the source paper,
//
//	g_Θ(x) = W^L f^L(… W^1 f^1(W^0 x)),
//
// with L hidden layers and L+1 weight matrices W^l ∈ ℝ^{p_{l+1}×p_l}. Biases
// are optional and off by default, because the theory (and its M_G and λ)
// has none; when present, b^l is added after W^l and is never penalised.
type Network struct {
	// Weights holds W^0, …, W^L; W^l is p_{l+1}×p_l.
	Weights []*mat.Dense
	// Biases is nil, or holds b^0, …, b^L with b^l of length p_{l+1}.
	Biases []*mat.VecDense
	// Activations holds f^1, …, f^L, one per hidden layer.
	Activations []Activation
}

// New returns a network with layer widths arch = (p_0, …, p_{L+1}), one
// activation per hidden layer (len(arch)−2 of them), and weights drawn
// i.i.d. N(0, 1/p_l) from the seed (biases start at zero).
func New(arch []int, acts []Activation, bias bool, seed uint64) (*Network, error) {
	if len(arch) < 2 {
		return nil, fmt.Errorf("deepreg: architecture %v needs at least an input and an output width", arch)
	}
	for _, p := range arch {
		if p < 1 {
			return nil, fmt.Errorf("deepreg: architecture %v has a width below 1", arch)
		}
	}
	if len(acts) != len(arch)-2 {
		return nil, fmt.Errorf("deepreg: %d hidden layers need %d activations, got %d", len(arch)-2, len(arch)-2, len(acts))
	}
	rng := rand.New(rand.NewPCG(seed, 0x6e6574))
	n := &Network{Activations: acts}
	for l := 0; l+1 < len(arch); l++ {
		w := mat.NewDense(arch[l+1], arch[l], nil)
		sd := 1 / math.Sqrt(float64(arch[l]))
		w.Apply(func(_, _ int, _ float64) float64 { return sd * rng.NormFloat64() }, w)
		n.Weights = append(n.Weights, w)
		if bias {
			n.Biases = append(n.Biases, mat.NewVecDense(arch[l+1], nil))
		}
	}
	return n, nil
}

// Arch returns the layer widths (p_0, …, p_{L+1}).
func (n *Network) Arch() []int {
	_, p0 := n.Weights[0].Dims()
	arch := []int{p0}
	for _, w := range n.Weights {
		r, _ := w.Dims()
		arch = append(arch, r)
	}
	return arch
}

// Params returns the number of weights P (biases not counted).
func (n *Network) Params() int {
	s := 0
	for _, w := range n.Weights {
		r, c := w.Dims()
		s += r * c
	}
	return s
}

// Clone returns a deep copy.
func (n *Network) Clone() *Network {
	out := &Network{Activations: append([]Activation(nil), n.Activations...)}
	for _, w := range n.Weights {
		out.Weights = append(out.Weights, mat.DenseCopyOf(w))
	}
	for _, b := range n.Biases {
		out.Biases = append(out.Biases, mat.VecDenseCopyOf(b))
	}
	return out
}

// check reports a network whose shapes do not chain.
func (n *Network) check() error {
	if len(n.Weights) == 0 {
		return errors.New("deepreg: network has no weights")
	}
	if len(n.Activations) != len(n.Weights)-1 {
		return fmt.Errorf("deepreg: %d weight matrices need %d activations, got %d", len(n.Weights), len(n.Weights)-1, len(n.Activations))
	}
	for l := 1; l < len(n.Weights); l++ {
		_, c := n.Weights[l].Dims()
		r, _ := n.Weights[l-1].Dims()
		if c != r {
			return fmt.Errorf("deepreg: W^%d has %d columns but W^%d has %d rows", l, c, l-1, r)
		}
	}
	if n.Biases != nil && len(n.Biases) != len(n.Weights) {
		return fmt.Errorf("deepreg: %d weight matrices need %d biases, got %d", len(n.Weights), len(n.Weights), len(n.Biases))
	}
	return nil
}

// checkData reports inputs and targets whose shapes do not fit the
// network: x must have p_0 columns, y as many rows as x and p_{L+1}
// columns.
func (n *Network) checkData(x solver.Design, y *mat.Dense) error {
	rows, p := x.Dims()
	yr, yc := y.Dims()
	arch := n.Arch()
	switch {
	case yr != rows:
		return fmt.Errorf("deepreg: %d input rows but %d target rows", rows, yr)
	case p != arch[0]:
		return fmt.Errorf("deepreg: input has %d columns, the network %d", p, arch[0])
	case yc != arch[len(arch)-1]:
		return fmt.Errorf("deepreg: target has %d columns, the network %d outputs", yc, arch[len(arch)-1])
	}
	return nil
}

// trace keeps what back-propagation needs: the pre-activations Z^l and
// activations H^l (H^0 is the input, not stored).
type trace struct {
	z []*mat.Dense // z[l] = Z^{l+1} = H^l W^lᵀ (+ b^l), n×p_{l+1}
	h []*mat.Dense // h[l] = H^{l+1} = f^{l+1}(Z^{l+1}), for hidden layers
}

// forward runs the network on the rows of x. The first layer's product
// goes through x's Mul, so a compressed design (cardmat) stays compressed.
// With pooled set, the matrices of the trace come from the scratch pool
// (see release).
func (n *Network) forward(x solver.Design, pooled bool) *trace {
	rows, _ := x.Dims()
	t := &trace{}
	var in *mat.Dense
	for l, w := range n.Weights {
		r, _ := w.Dims()
		z := newDense(rows, r, pooled)
		if l == 0 {
			x.Mul(z, w.T())
		} else {
			solver.Mul(z, in, w.T())
		}
		if n.Biases != nil {
			addBias(z, n.Biases[l])
		}
		t.z = append(t.z, z)
		if l == len(n.Weights)-1 {
			break
		}
		f := n.Activations[l]
		h := newDense(rows, r, pooled)
		applyAll(f, h.RawMatrix().Data, z.RawMatrix().Data)
		t.h = append(t.h, h)
		in = h
	}
	return t
}

// stuck describes, per hidden layer of the trace, a layer that no longer
// learns: one whose units all output 0 on every row (dead ReLU units: the
// network's output no longer depends on its input), or one through which no
// gradient passes, f'(z) = 0 for every unit on every row (tanh units that
// are all saturated: the layers below no longer learn). "" for the others.
func (n *Network) stuck(t *trace) []string {
	out := make([]string, len(t.h))
	for l, h := range t.h {
		switch {
		case allZero(h.RawMatrix().Data):
			out[l] = "outputs 0 on every training row, so the network's output no longer depends on its input"
		case noDeriv(n.Activations[l], t.z[l].RawMatrix().Data):
			out[l] = "is saturated on every training row, so no gradient reaches the layers below it"
		}
	}
	return out
}

// noDeriv reports whether f'(v) = 0 for every v of z.
func noDeriv(f Activation, z []float64) bool {
	for _, v := range z {
		if f.Deriv(v) != 0 {
			return false
		}
	}
	return true
}

func allZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// scratch recycles the storage of the matrices a gradient evaluation uses
// and drops (the trace and the back-propagated errors), which would
// otherwise be allocated and cleared at every step.
var scratch sync.Pool

// newDense returns an r×c matrix, from the scratch pool when pooled (its
// entries are then arbitrary: every user overwrites them).
func newDense(r, c int, pooled bool) *mat.Dense {
	if pooled {
		if b, ok := scratch.Get().(*[]float64); ok && cap(*b) >= r*c {
			return mat.NewDense(r, c, (*b)[:r*c])
		}
		return mat.NewDense(r, c, make([]float64, r*c))
	}
	return mat.NewDense(r, c, nil)
}

// release hands a matrix from newDense(…, true) back to the pool.
func release(m *mat.Dense) {
	d := m.RawMatrix().Data
	scratch.Put(&d)
}

// release hands the trace's matrices back to the scratch pool.
func (t *trace) release() {
	for _, m := range t.z {
		release(m)
	}
	for _, m := range t.h {
		release(m)
	}
}

// applyAll sets dst[i] = f(z[i]), without a call per entry for ReLU.
func applyAll(f Activation, dst, z []float64) {
	dst = dst[:len(z)]
	if _, ok := f.(ReLU); ok {
		for i, v := range z {
			dst[i] = max(v, 0)
		}
		return
	}
	for i, v := range z {
		dst[i] = f.Apply(v)
	}
}

// derivMul multiplies dst[i] by f'(z[i]), without a call per entry for
// ReLU: zero where ReLU.Deriv is zero (NaN z included), also for an
// infinite dst[i], whose product with 0 would be NaN.
func derivMul(f Activation, dst, z []float64) {
	dst = dst[:len(z)]
	if _, ok := f.(ReLU); ok {
		for i, v := range z {
			if !(v >= 0) {
				dst[i] = 0
			}
		}
		return
	}
	for i, v := range z {
		dst[i] *= f.Deriv(v)
	}
}

func addBias(z *mat.Dense, b *mat.VecDense) {
	rows, _ := z.Dims()
	for i := 0; i < rows; i++ {
		row := z.RawRowView(i)
		for j := range row {
			row[j] += b.AtVec(j)
		}
	}
}

// Output returns g_Θ(x_i) for every row x_i of x, a solver.Design such as
// solver.DenseDesign or a compressed cardmat.Matrix.
func (n *Network) Output(x solver.Design) (*mat.Dense, error) {
	if err := n.check(); err != nil {
		return nil, err
	}
	if _, p := x.Dims(); p != n.Arch()[0] {
		return nil, fmt.Errorf("deepreg: input has %d columns, the network %d", p, n.Arch()[0])
	}
	t := n.forward(x, false)
	return t.z[len(t.z)-1], nil
}

// Predict is Output on a dense matrix.
func (n *Network) Predict(x *mat.Dense) (*mat.Dense, error) {
	return n.Output(solver.DenseDesign{X: x})
}

// Gradients holds ∂/∂W^l and ∂/∂b^l of a loss.
type Gradients struct {
	Weights []*mat.Dense
	Biases  []*mat.VecDense
}

// Gradient returns the loss of the network on (x, y) and its gradients by
// back-propagation. The first layer's gradient Xᵀδ goes through x's
// MulTrans.
func (n *Network) Gradient(x solver.Design, y *mat.Dense, loss Loss) (float64, *Gradients) {
	t := n.forward(x, true)
	defer t.release()
	out := t.z[len(t.z)-1]
	delta := newDense(out.RawMatrix().Rows, out.RawMatrix().Cols, true)
	clear(delta.RawMatrix().Data) // a user's Loss may add to it
	defer func() { release(delta) }()
	var value float64
	if vg, ok := loss.(valueGrader); ok {
		value = vg.ValueGrad(delta, out, y)
	} else {
		value = loss.Value(out, y)
		loss.Grad(delta, out, y)
	}
	g := &Gradients{Weights: make([]*mat.Dense, len(n.Weights))}
	if n.Biases != nil {
		g.Biases = make([]*mat.VecDense, len(n.Biases))
	}
	for l := len(n.Weights) - 1; l >= 0; l-- {
		r, c := n.Weights[l].Dims()
		gw := mat.NewDense(r, c, nil)
		if l == 0 {
			var xt mat.Dense
			x.MulTrans(&xt, delta) // Xᵀδ: p_0×p_1
			gw.Copy(xt.T())
		} else {
			solver.Mul(gw, delta.T(), t.h[l-1])
		}
		g.Weights[l] = gw
		if n.Biases != nil {
			g.Biases[l] = columnSums(delta)
		}
		if l == 0 {
			break
		}
		prev := newDense(delta.RawMatrix().Rows, c, true)
		solver.Mul(prev, delta, n.Weights[l])
		derivMul(n.Activations[l-1], prev.RawMatrix().Data, t.z[l-1].RawMatrix().Data)
		release(delta)
		delta = prev
	}
	return value, g
}

func columnSums(m *mat.Dense) *mat.VecDense {
	r, c := m.Dims()
	s := mat.NewVecDense(c, nil)
	for i := 0; i < r; i++ {
		for j, v := range m.RawRowView(i) {
			s.SetVec(j, s.AtVec(j)+v)
		}
	}
	return s
}

// chunk is a share of a batch: its rows of the input and the target, and
// its weight n_c/n in the batch mean.
type chunk struct {
	x      solver.Design
	y      *mat.Dense
	weight float64
}

// minChunkRows is the fewest rows worth a goroutine of their own.
const minChunkRows = 256

// chunks splits a batch into one chunk per core (when large enough), as
// views for a dense input and by row selection otherwise.
func chunks(x solver.Design, y *mat.Dense) []chunk {
	n, _ := x.Dims()
	k := min(runtime.GOMAXPROCS(0), n/minChunkRows)
	if k < 2 {
		return []chunk{{x, y, 1}}
	}
	out := make([]chunk, 0, k)
	for c := 0; c < k; c++ {
		lo, hi := c*n/k, (c+1)*n/k
		_, q := y.Dims()
		cy := y.Slice(lo, hi, 0, q).(*mat.Dense)
		var cx solver.Design
		switch d := x.(type) {
		case solver.DenseDesign:
			_, p := d.X.Dims()
			cx = solver.DenseDesign{X: d.X.Slice(lo, hi, 0, p).(*mat.Dense)}
		case RowSelector:
			rows := make([]int, hi-lo)
			for i := range rows {
				rows[i] = lo + i
			}
			cx = d.SelectRows(rows)
		default:
			return []chunk{{x, y, 1}}
		}
		out = append(out, chunk{cx, cy, float64(hi-lo) / float64(n)})
	}
	return out
}

// gradientChunks is Gradient over the chunks of a batch, one goroutine per
// chunk, combined with the chunk weights: the batch mean's loss and
// gradients.
func (n *Network) gradientChunks(cs []chunk, loss Loss) (float64, *Gradients) {
	if len(cs) == 1 {
		return n.Gradient(cs[0].x, cs[0].y, loss)
	}
	values := make([]float64, len(cs))
	grads := make([]*Gradients, len(cs))
	var wg sync.WaitGroup
	for c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			values[c], grads[c] = n.Gradient(cs[c].x, cs[c].y, loss)
		}()
	}
	wg.Wait()
	total := grads[0]
	value := cs[0].weight * values[0]
	scaleGradients(total, cs[0].weight)
	for c := 1; c < len(cs); c++ {
		value += cs[c].weight * values[c]
		for l, g := range grads[c].Weights {
			total.Weights[l].Add(total.Weights[l], scaled(cs[c].weight, g))
		}
		for l, g := range grads[c].Biases {
			total.Biases[l].AddScaledVec(total.Biases[l], cs[c].weight, g)
		}
	}
	return value, total
}

func scaleGradients(g *Gradients, a float64) {
	for _, w := range g.Weights {
		w.Scale(a, w)
	}
	for _, b := range g.Biases {
		b.ScaleVec(a, b)
	}
}
