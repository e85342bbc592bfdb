package deepreg

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/cardsparse/cardreg/deepreg/kproject"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Options configure Train. The zero value trains with squared error, no
// penalty, full batch, learning rate 0.1, for 100 epochs.
type Options struct {
	// Loss is SquaredError (the default) or CrossEntropy.
	Loss Loss
	// Penalty h acts on the columns of every W^l; nil trains without a
	// penalty. The objective is Loss + Lambda·Σ_l h(W^l).
	Penalty penalty.Penalty
	// LayerPenalties, when set, holds one penalty per weight matrix (nil
	// entries: none) and replaces Penalty, for penalties whose shape
	// depends on the layer, such as penalty.Grouped with row labels of
	// length p_{l+1}.
	LayerPenalties []penalty.Penalty
	Lambda         float64
	// LearningRate is the step η (default 0.1).
	LearningRate float64
	// Epochs is the number of passes over the training rows (default 100).
	Epochs int
	// BatchSize is the rows per step; 0 (the default) is full batch.
	BatchSize int
	// Adam uses Adam's moment estimates for the gradient step, followed by
	// the prox at step η·λ (a proximal Adam; the prox is exact for the
	// scalar step, the scaling by the moments is Adam's).
	Adam bool
	// ProjectK > 0 projects every column of every W^l onto vectors with at
	// most ProjectK distinct values after each step: exactly (optimal 1-D
	// k-means) when ProjectExact is set, else by the source paper's
	// heuristic (sort, cut into k equal parts, take means).
	ProjectK     int
	ProjectExact bool
	// Seed drives the batch order and the validation split.
	Seed uint64
	// Validation is the share of rows held out for early stopping and the
	// validation figures (0: none).
	Validation float64
	// Patience stops training after that many epochs without a lower
	// validation loss, keeping the best network (0: never stop early).
	Patience int
	// ReportEvery evaluates the figures every that many epochs (and after
	// the last); 0 means every epoch. Evaluation costs a forward pass.
	ReportEvery int
	// Progress, when set, is called after every evaluated epoch.
	Progress func(Epoch)
}

// Epoch holds the figures of one epoch, on the training rows (and the
// validation rows when there are some; NaN otherwise).
type Epoch struct {
	Epoch int
	// Loss is the data loss, Penalty is λ·Σ_l h(W^l), Objective their sum.
	Loss, Penalty, Objective float64
	// Metric is the accuracy (cross-entropy) or mean squared error.
	Metric float64
	// ValLoss and ValMetric are the validation figures.
	ValLoss, ValMetric float64
	// Projection is the squared distance moved by the last projection.
	Projection float64
	// Seconds is the wall time since training started.
	Seconds float64
}

// Result is the outcome of Train.
type Result struct {
	// Network is the trained network (the best on validation when
	// early stopping is on).
	Network *Network
	History []Epoch
	// BestEpoch is the epoch whose network was kept.
	BestEpoch int
	// Stopped reports an early stop.
	Stopped bool
}

// RowSelector is solver.RowSelector: mini-batches and validation splits
// need it on a design that is not dense (cardmat.Matrix implements it).
type RowSelector = solver.RowSelector

// Train fits the network in place to (x, y) by proximal gradient descent
// on Loss + λ·Σ_l h(W^l): a gradient step on the loss, then the exact prox
// of the penalty at step η·λ, then the optional projection. A training
// that diverges (see DivergedError; judged at the evaluated epochs) is an
// error, not a result.
func Train(net *Network, x solver.Design, y *mat.Dense, opts *Options) (*Result, error) {
	t, err := newTrainer(net, x, y, opts)
	if err != nil {
		return nil, err
	}
	return t.run()
}

// trainer holds one training: the network, the options with their
// defaults, the training and validation rows, the step and the early
// stopping's best network so far.
type trainer struct {
	net    *Network
	o      Options
	rng    *rand.Rand
	nTrain int
	tx, vx solver.Design // vx nil: no validation rows
	ty, vy *mat.Dense
	s      *stepper
	full   []chunk // full batch: the chunks are the same every epoch

	best     *Network
	bestLoss float64
	since    int // evaluated epochs since the best validation loss
}

// newTrainer checks Train's arguments and splits the rows.
func newTrainer(net *Network, x solver.Design, y *mat.Dense, opts *Options) (*trainer, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := net.check(); err != nil {
		return nil, err
	}
	if o.LayerPenalties != nil && len(o.LayerPenalties) != len(net.Weights) {
		return nil, fmt.Errorf("deepreg: %d layer penalties for %d weight matrices", len(o.LayerPenalties), len(net.Weights))
	}
	if err := net.checkData(x, y); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	t := &trainer{net: net, o: o, rng: rand.New(rand.NewPCG(o.Seed, 0x747261696e))}
	train, val := split(n, o.Validation, t.rng)
	if len(train) == 0 {
		return nil, fmt.Errorf("deepreg: a validation share of %v leaves no training rows out of %d (keep at least one: share < %.3g)", o.Validation, n, 1-0.5/float64(n))
	}
	if err := t.setRows(x, y, train, val); err != nil {
		return nil, err
	}
	t.s = newStepper(net, o)
	if o.BatchSize == 0 || o.BatchSize >= len(train) {
		t.full = chunks(t.tx, t.ty)
	}
	return t, nil
}

// setRows takes the training rows train and the validation rows val
// (possibly none) of (x, y).
func (t *trainer) setRows(x solver.Design, y *mat.Dense, train, val []int) error {
	var err error
	t.nTrain = len(train)
	if t.tx, t.ty, err = subset(x, y, train); err != nil {
		return err
	}
	if len(val) > 0 {
		t.vx, t.vy, err = subset(x, y, val)
	}
	return err
}

// run trains for the epochs, evaluating, watching for divergence and
// stopping early as the options say.
func (t *trainer) run() (*Result, error) {
	net, o := t.net, &t.o
	res := &Result{Network: net}
	t.best, t.bestLoss, t.since = net.Clone(), math.Inf(1), 0
	initial, stuck := o.evaluate(net, t.tx, t.ty, nil, nil)
	if !isFinite(initial.Loss) {
		return nil, initialLossError(initial.Loss, t.ty)
	}
	w := newWatch(initial, stuck)
	start := time.Now()
	for e := 1; e <= o.Epochs; e++ {
		moved, err := t.epoch(e)
		if err != nil {
			return nil, err
		}
		if !o.evaluated(e) {
			continue
		}
		ep, stuck := o.evaluate(net, t.tx, t.ty, t.vx, t.vy)
		ep.Epoch, ep.Projection, ep.Seconds = e, moved, time.Since(start).Seconds()
		if err := w.check(net, ep, stuck); err != nil {
			return nil, err
		}
		res.History = append(res.History, ep)
		if o.Progress != nil {
			o.Progress(ep)
		}
		if t.stop(res, ep) {
			break
		}
	}
	if t.earlyStopping() {
		*net = *t.best
	}
	return res, nil
}

// epoch makes the steps of epoch e, one per batch, and returns the
// distance moved by the last projection.
func (t *trainer) epoch(e int) (moved float64, err error) {
	for _, batch := range batches(t.nTrain, t.o.BatchSize, t.rng) {
		cs := t.full
		if cs == nil {
			bx, by, err := subset(t.tx, t.ty, batch)
			if err != nil {
				return 0, err
			}
			cs = chunks(bx, by)
		}
		_, g := t.net.gradientChunks(cs, t.o.Loss)
		moved = t.s.step(g)
	}
	return moved, t.net.finite(e)
}

// earlyStopping reports whether training keeps the network with the lowest
// validation loss (validation rows and a patience).
func (t *trainer) earlyStopping() bool {
	return t.vx != nil && t.o.Patience > 0
}

// stop records the evaluated epoch ep for early stopping, setting
// res.BestEpoch, and reports whether the patience ran out (setting
// res.Stopped).
func (t *trainer) stop(res *Result, ep Epoch) bool {
	if !t.earlyStopping() {
		res.BestEpoch = ep.Epoch
		return false
	}
	if ep.ValLoss < t.bestLoss {
		t.best, t.bestLoss, t.since, res.BestEpoch = t.net.Clone(), ep.ValLoss, 0, ep.Epoch
		return false
	}
	t.since++
	res.Stopped = t.since >= t.o.Patience
	return res.Stopped
}

// evaluated reports whether the figures are evaluated after epoch e: every
// ReportEvery epochs, and after the last.
func (o *Options) evaluated(e int) bool {
	return o.ReportEvery <= 1 || e%o.ReportEvery == 0 || e == o.Epochs
}

// DivergedError is returned by Train when the weights or the loss stop
// being finite numbers, when the training loss explodes (see watch), or
// when every unit of a hidden layer dies (ReLU units that all output 0,
// tanh units that are all saturated, on every training row): the
// step size is too large for the data's scale (or the data overflow), and
// the network is left as it was at that epoch.
type DivergedError struct {
	// Epoch is the epoch (1-based) at which it was seen.
	Epoch int
	// What says what was seen, with the recent training losses.
	What string
	// Remedy is what to try, in the caller's terms; empty: lower the
	// learning rate (or standardise the inputs).
	Remedy string
}

func (e *DivergedError) Error() string {
	remedy := e.Remedy
	if remedy == "" {
		remedy = "lower the learning rate (or standardise the inputs)"
	}
	return fmt.Sprintf("deepreg: training diverged at epoch %d: %s; %s", e.Epoch, e.What, remedy)
}

// The training loss has exploded when it exceeds both divergeLowest times
// the lowest so far and divergeInitial times the initial loss (the second,
// so that the noise of a near-perfect fit is no explosion): a step size
// that is too large multiplies the loss by orders of magnitude within a few
// epochs, an oscillating but converging one does not.
const (
	divergeLowest  = 100
	divergeInitial = 10
)

// watch tells a diverging training from a slow or noisy one, from the
// training figures of the evaluated epochs.
type watch struct {
	initial, lowest float64
	alive           []bool   // hidden layers that were not stuck at the start
	trail           []string // the initial and the last three training losses
	skipped         bool     // whether losses were dropped from the trail
}

// newWatch starts from the figures of the initial network.
func newWatch(ep Epoch, stuck []string) *watch { // ep.Loss is finite (Train checks)
	w := &watch{initial: ep.Loss, lowest: ep.Loss, trail: []string{fmt.Sprintf("%.3g at the start", ep.Loss)}}
	for _, s := range stuck {
		w.alive = append(w.alive, s == "")
	}
	return w
}

// check returns a DivergedError when the epoch's training loss is not
// finite or has exploded, or when a hidden layer that was alive at the
// start is stuck (see Network.stuck) although its incoming weights are not
// all zero (all zero: the penalty switched the layer off).
func (w *watch) check(net *Network, ep Epoch, stuck []string) error {
	w.trail = append(w.trail, fmt.Sprintf("%.3g at epoch %d", ep.Loss, ep.Epoch))
	if len(w.trail) > 4 {
		w.trail, w.skipped = slices.Delete(w.trail, 1, 2), true
	}
	var what string
	switch limit := max(divergeLowest*w.lowest, divergeInitial*w.initial); {
	case !isFinite(ep.Loss):
		what = fmt.Sprintf("the training loss is %v", ep.Loss)
	case ep.Loss > limit && limit > 0: // 0: a perfect initial fit, no scale
		what = fmt.Sprintf("the training loss exploded to %.3g, over %d times its lowest so far (%.3g)", ep.Loss, divergeLowest, w.lowest)
	default:
		what = w.dead(net, stuck)
	}
	if what != "" {
		return &DivergedError{Epoch: ep.Epoch, What: what + " (training loss " + w.history() + ")"}
	}
	w.lowest = min(w.lowest, ep.Loss)
	return nil
}

// dead describes the first hidden layer that died, or returns "".
func (w *watch) dead(net *Network, stuck []string) string {
	for l, s := range stuck {
		if s != "" && w.alive[l] && !allZero(net.Weights[l].RawMatrix().Data) {
			return fmt.Sprintf("every unit of hidden layer %d (%s) %s", l+1, net.Activations[l], s)
		}
	}
	return ""
}

// history lists the training losses of the trail.
func (w *watch) history() string {
	if !w.skipped {
		return strings.Join(w.trail, ", ")
	}
	return w.trail[0] + ", …, " + strings.Join(w.trail[1:], ", ")
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// initialLossError is the error for a training loss that is not finite
// before any step: no step size can help there, the data's magnitude is
// the cause: targets whose squares overflow float64 (from about 1e154 on),
// else inputs too large for the network's outputs.
func initialLossError(loss float64, y *mat.Dense) error {
	top := 0.0
	r, c := y.Dims()
	for i := range r {
		for j := range c {
			top = max(top, math.Abs(y.At(i, j)))
		}
	}
	cause := fmt.Sprintf("the inputs are too large for the network's outputs in float64 (the targets reach only %.3g)", top)
	if top > 1e150 {
		cause = fmt.Sprintf("the targets reach %.3g, beyond what the loss can hold in float64", top)
	}
	return fmt.Errorf("deepreg: the training loss is %v before any step, whatever the step size: %s; divide the data by a power of ten", loss, cause)
}

// finite returns a DivergedError when a weight or bias is NaN or infinite.
func (net *Network) finite(epoch int) error {
	for l, w := range net.Weights {
		for _, v := range w.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &DivergedError{Epoch: epoch, What: fmt.Sprintf("weight matrix %d holds %v", l+1, v)}
			}
		}
	}
	for l, b := range net.Biases {
		for _, v := range b.RawVector().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &DivergedError{Epoch: epoch, What: fmt.Sprintf("bias %d holds %v", l+1, v)}
			}
		}
	}
	return nil
}

func (o *Options) withDefaults() (Options, error) {
	var out Options
	if o != nil {
		out = *o
	}
	if out.Loss == nil {
		out.Loss = SquaredError{}
	}
	if out.LearningRate == 0 {
		out.LearningRate = 0.1
	}
	if out.Epochs == 0 {
		out.Epochs = 100
	}
	switch lambdaErr := solver.CheckLambda(out.Lambda); {
	case !(out.LearningRate > 0) || math.IsInf(out.LearningRate, 0):
		return out, fmt.Errorf("deepreg: learning rate %v must be positive", out.LearningRate)
	case lambdaErr != nil:
		return out, fmt.Errorf("deepreg: %w", lambdaErr)
	case out.Epochs < 0 || out.BatchSize < 0 || out.ProjectK < 0 || out.Patience < 0 || out.ReportEvery < 0:
		return out, errors.New("deepreg: epochs, batch size, projection k, patience and report interval must be ≥ 0")
	case out.Validation < 0 || out.Validation >= 1:
		return out, fmt.Errorf("deepreg: validation share %v must be in [0, 1)", out.Validation)
	case out.Lambda > 0 && out.Penalty == nil && out.LayerPenalties == nil:
		return out, errors.New("deepreg: lambda > 0 needs a penalty")
	}
	return out, nil
}

// layerPenalty is the penalty of W^l, or nil.
func (o *Options) layerPenalty(l int) penalty.Penalty {
	if o.LayerPenalties != nil {
		return o.LayerPenalties[l]
	}
	return o.Penalty
}

// evaluate computes an epoch's figures, and which hidden layers are stuck
// on the training rows (see Network.stuck).
func (o *Options) evaluate(net *Network, x solver.Design, y *mat.Dense, vx solver.Design, vy *mat.Dense) (Epoch, []string) {
	t := net.forward(x, true)
	defer t.release()
	out := t.z[len(t.z)-1]
	ep := Epoch{Loss: o.Loss.Value(out, y), Metric: o.Loss.Metric(out, y), ValLoss: math.NaN(), ValMetric: math.NaN()}
	for l, w := range net.Weights {
		if h := o.layerPenalty(l); h != nil {
			ep.Penalty += o.Lambda * h.Value(w)
		}
	}
	ep.Objective = ep.Loss + ep.Penalty
	if vx != nil {
		vo, _ := net.Output(vx)
		ep.ValLoss, ep.ValMetric = o.Loss.Value(vo, vy), o.Loss.Metric(vo, vy)
	}
	return ep, net.stuck(t)
}

// stepper applies one update: gradient (or Adam) step, prox, projection.
type stepper struct {
	net  *Network
	o    Options
	t    int
	m, v []*mat.Dense // Adam's moments per weight matrix
	mb   []*mat.VecDense
	vb   []*mat.VecDense
}

func newStepper(net *Network, o Options) *stepper {
	s := &stepper{net: net, o: o}
	if o.Adam {
		for _, w := range net.Weights {
			r, c := w.Dims()
			s.m = append(s.m, mat.NewDense(r, c, nil))
			s.v = append(s.v, mat.NewDense(r, c, nil))
		}
		for _, b := range net.Biases {
			s.mb = append(s.mb, mat.NewVecDense(b.Len(), nil))
			s.vb = append(s.vb, mat.NewVecDense(b.Len(), nil))
		}
	}
	return s
}

// Adam's constants, the usual ones.
const (
	adamBeta1 = 0.9
	adamBeta2 = 0.999
	adamEps   = 1e-8
)

// step updates the network and returns the squared distance moved by the
// projection (0 without one).
func (s *stepper) step(g *Gradients) float64 {
	s.t++
	eta := s.o.LearningRate
	for l, w := range s.net.Weights {
		d := g.Weights[l]
		if s.o.Adam {
			d = s.adam(s.m[l].RawMatrix().Data, s.v[l].RawMatrix().Data, d.RawMatrix().Data, d)
		}
		w.Add(w, scaled(-eta, d))
		if h := s.o.layerPenalty(l); h != nil && s.o.Lambda > 0 {
			h.Prox(w, w, eta*s.o.Lambda)
		}
	}
	for l, b := range s.net.Biases {
		d := g.Biases[l]
		if s.o.Adam {
			dir := s.adam(s.mb[l].RawVector().Data, s.vb[l].RawVector().Data, d.RawVector().Data, mat.NewDense(d.Len(), 1, nil))
			d = mat.VecDenseCopyOf(dir.ColView(0))
		}
		b.AddScaledVec(b, -eta, d)
	}
	var moved float64
	if s.o.ProjectK > 0 {
		for _, w := range s.net.Weights {
			moved += kproject.Columns(w, s.o.ProjectK, s.o.ProjectExact)
		}
	}
	return moved
}

// adam updates the moments m, v with the gradient g and writes the
// bias-corrected direction m̂/(√v̂ + ε) into dst (same length as g).
func (s *stepper) adam(m, v, g []float64, dst *mat.Dense) *mat.Dense {
	c1 := 1 - math.Pow(adamBeta1, float64(s.t))
	c2 := 1 - math.Pow(adamBeta2, float64(s.t))
	out := make([]float64, len(g))
	for i, gi := range g {
		m[i] = adamBeta1*m[i] + (1-adamBeta1)*gi
		v[i] = adamBeta2*v[i] + (1-adamBeta2)*gi*gi
		out[i] = (m[i] / c1) / (math.Sqrt(v[i]/c2) + adamEps)
	}
	r, c := dst.Dims()
	return mat.NewDense(r, c, out)
}

func scaled(a float64, m *mat.Dense) *mat.Dense {
	var out mat.Dense
	out.Scale(a, m)
	return &out
}

// split draws the validation rows (a share of n) and returns the training
// and validation rows, each in increasing order.
func split(n int, share float64, rng *rand.Rand) (train, val []int) {
	k := int(math.Round(share * float64(n)))
	held := make([]bool, n)
	for _, i := range rng.Perm(n)[:k] {
		held[i] = true
	}
	for i := 0; i < n; i++ {
		if held[i] {
			val = append(val, i)
		} else {
			train = append(train, i)
		}
	}
	return train, val
}

// batches returns the rows of one epoch in batches: all rows in order for
// full batch, else a fresh permutation cut into pieces of size b.
func batches(n, b int, rng *rand.Rand) [][]int {
	if b == 0 || b >= n {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return [][]int{all}
	}
	perm := rng.Perm(n)
	var out [][]int
	for lo := 0; lo < n; lo += b {
		out = append(out, perm[lo:min(n, lo+b)])
	}
	return out
}

// subset returns the given rows of x and y; all rows in order return x
// and y themselves.
func subset(x solver.Design, y *mat.Dense, rows []int) (solver.Design, *mat.Dense, error) {
	n, _ := x.Dims()
	if len(rows) == n && isIdentity(rows) {
		return x, y, nil
	}
	_, q := y.Dims()
	sy := mat.NewDense(len(rows), q, nil)
	for t, i := range rows {
		sy.SetRow(t, y.RawRowView(i))
	}
	switch d := x.(type) {
	case solver.DenseDesign:
		_, p := d.X.Dims()
		sx := mat.NewDense(len(rows), p, nil)
		for t, i := range rows {
			sx.SetRow(t, d.X.RawRowView(i))
		}
		return solver.DenseDesign{X: sx}, sy, nil
	case RowSelector:
		return d.SelectRows(rows), sy, nil
	}
	return nil, nil, errors.New("deepreg: mini-batches and validation splits need a dense design or a RowSelector")
}

func isIdentity(rows []int) bool {
	for t, i := range rows {
		if t != i {
			return false
		}
	}
	return true
}
