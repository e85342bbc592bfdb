package glm

import (
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/cardsparse/cardreg/glmscan"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// roundModel is one λ of one training set, fitted in rounds.
type roundModel struct {
	set    *trainSet
	lambda float64
	b0     float64   // the current iterate: intercept
	beta   []float64 // and standardised coefficients
	g      []float64 // the full gradient at the last iterate scanned
	// target is the gradient the last step's model predicts at the
	// current iterate (standardised, penalised part): a subgradient of the
	// penalty there, the dual point's aim.
	target []float64
	prev   *iterate // the last iterate scanned, awaiting its dual
	best   *iterate // the certified iterate, else the one of smallest gap
	done   bool
	steps  int
}

// iterate is an iterate with what the scans said of it.
type iterate struct {
	b0              float64
	beta            []float64
	obj, dev, score float64
	alpha           []float64 // the dual point's correction
	conj            float64   // the penalty's share of its dual objective
	gap             float64
}

// sampleRows returns the sample's rows in set s, standardised by its
// scales: the design, responses, weights and offsets (a copy for the
// sample's fit).
func (r *rounds) sampleRows(s *trainSet) (*mat.Dense, []float64, []float64, []float64) {
	idx := s.sample
	x := mat.NewDense(max(len(idx), 1), r.p, nil)
	y, w, o := make([]float64, len(idx)), make([]float64, len(idx)), make([]float64, len(idx))
	for a, i := range idx {
		row := x.RawRowView(a)
		for j, v := range r.smp.X[i] {
			row[j] = v / s.sd[j]
		}
		y[a], w[a], o[a] = r.smp.Y[i], r.smp.W[i], r.smp.O[i]
	}
	return x, y, w, o
}

// sampleFit fits set s's path (grid) on the sample, its loss scaled to the
// full data's, and starts its models there with the sample's Hessians.
// Where the sample cannot be fitted (one class in it, say) the models start
// at the null model.
func (r *rounds) sampleFit(s *trainSet, grid []float64) error {
	var ws float64
	for i, f := range r.smp.Fold {
		if f != s.hold {
			s.sample = append(s.sample, i)
			ws += r.smp.W[i]
		}
	}
	s.hscale = float64(s.n) / ws
	x, y, w, o := r.sampleRows(s)
	m := len(y)
	for _, l := range grid {
		s.models = append(s.models, &roundModel{set: s, lambda: l, b0: s.null.B0, beta: make([]float64, r.p)})
	}
	if m > 1 {
		r.startOnSample(s, grid, x, y, w, o)
	}
	return nil
}

// step takes the next proximal Newton step of each model in mds, in
// parallel (each with its own sample Hessian).
func (r *rounds) step(mds []*roundModel) error {
	jobs := make(chan *roundModel)
	errs := make(chan error, len(mds))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for md := range jobs {
				errs <- r.newton(md)
			}
		}()
	}
	for _, md := range mds {
		jobs <- md
	}
	close(jobs)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// startOnSample starts s's models at the sample's path along grid, λ
// scaled by the sample's share of the rows; a sample that cannot be fitted
// leaves them at the null model.
func (r *rounds) startOnSample(s *trainSet, grid []float64, x *mat.Dense, y, w, o []float64) {
	scaled := make([]float64, len(grid))
	for k, l := range grid {
		scaled[k] = l * float64(len(y)) / float64(s.n)
	}
	set := r.o.Settings
	set.Tol = r.tol / 10
	pb, err := newProblem(&Rows{X: x, Y: y, Weights: w, Offset: o}, &fit.Options{Family: r.fam, Settings: set})
	if err != nil {
		return
	}
	pb.noPolish = true
	pth, err := pb.path(r.pen, scaled, false)
	if err != nil {
		return
	}
	for k, md := range s.models {
		m := pth.Models[min(k, len(pth.Models)-1)]
		md.b0, md.beta = m.Intercept[0], mat.Col(nil, 0, m.Coef)
	}
}

// hessian returns the Hessian of the deviance at md's current point in the
// standardised coordinates (1, x/sd), from the sample's rows of its set,
// rescaled to the full data's: n/Σw over the sample times
// Σ wᵢ ∂²d/∂η² (1, xᵢ)(1, xᵢ)ᵀ.
func (r *rounds) hessian(md *roundModel) *mat.SymDense {
	s := md.set
	h := mat.NewSymDense(r.p+1, nil)
	if len(s.sample) == 0 {
		h.SetSym(0, 0, 1)
		return h
	}
	z := mat.NewDense(r.p+1, len(s.sample), nil)
	for a, i := range s.sample {
		x, y, w := r.smp.X[i], r.smp.Y[i], r.smp.W[i]
		e := md.b0 + r.smp.O[i]
		for j, v := range x {
			e += v / s.sd[j] * md.beta[j]
		}
		_, d2 := r.fam.Derivs(y, e)
		c := math.Sqrt(math.Max(w*d2, 0))
		z.Set(0, a, c)
		for j, v := range x {
			z.Set(j+1, a, c*v/s.sd[j])
		}
	}
	h.SymOuterK(s.hscale, z)
	return h
}

// point returns md's current iterate as a scan point on the data's scale.
func (md *roundModel) point(b0 float64, beta []float64) glmscan.Point {
	raw := make([]float64, len(beta))
	for j, v := range beta {
		raw[j] = v / md.set.sd[j]
	}
	return glmscan.Point{B0: b0, Beta: raw, Holdout: md.set.hold}
}

// newton moves md's iterate by one proximal Newton step with the full
// data's gradient g (intercept first, standardised and rescaled) and the
// sample's Hessian: the intercept is profiled out of the quadratic model
// (its Schur complement), the penalised model is solved in Gram form, and
// the intercept follows.
func (r *rounds) newton(md *roundModel) error {
	p, g, dev := r.p, md.g, md.prev.dev
	h := r.hessian(md)
	h00 := h.At(0, 0)
	if !(h00 > 0) {
		return nil // no curvature in the sample: stay
	}
	schur := mat.NewSymDense(p, nil)
	gt := make([]float64, p)
	for a := range p {
		ha := h.At(a+1, 0)
		gt[a] = g[a+1] - ha*g[0]/h00
		for b := a; b < p; b++ {
			schur.SetSym(a, b, (h.At(a+1, b+1)-ha*h.At(b+1, 0)/h00)/2)
		}
	}
	// ½(β−βₜ)ᵀS(β−βₜ) + g̃ᵀ(β−βₜ) = βᵀ(S/2)β − 2cᵀβ + const with
	// c = (Sβₜ − g̃)/2, valued dev at βₜ.
	bt := mat.NewVecDense(p, slices.Clone(md.beta))
	var sb mat.VecDense
	sb.MulVec(schur, bt)
	c := mat.NewDense(p, 1, nil)
	for a := range p {
		c.Set(a, 0, sb.AtVec(a)-gt[a]/2)
	}
	yy := math.Max(dev-mat.Dot(bt, &sb)+2*mat.Dot(bt, c.ColView(0)), 0)
	ls := solver.NewGramLeastSquares(schur, c, yy)
	prob := solver.Problem{Loss: ls, Penalty: r.pen, Lambda: md.lambda}
	set := &solver.Settings{Tol: math.Min(1e-10, r.tol/100), MaxIter: max(r.o.Settings.MaxIter, 10000)}
	res, err := solver.Minimize(prob, mat.NewDense(p, 1, slices.Clone(md.beta)), set, solver.DefaultMethod(prob, solver.Hints{}))
	if err != nil {
		return err
	}
	next := mat.Col(nil, 0, res.Theta)
	d0 := g[0]
	for a := range p {
		d0 += h.At(a+1, 0) * (next[a] - md.beta[a])
	}
	d0 /= -h00
	md.target = make([]float64, p)
	for a := range p {
		t := g[a+1] + h.At(a+1, 0)*d0
		for b := range p {
			t += h.At(a+1, b+1) * (next[b] - md.beta[b])
		}
		md.target[a] = t
	}
	md.b0 += d0
	md.beta = next
	md.steps++
	return nil
}
