package datafit

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// sample draws n rows of p predictors and a response of family f from a
// model whose coefficients take the values in beta.
func sample(f Family, n int, beta []float64, seed uint64) *Data {
	r := rand.New(rand.NewPCG(seed, 1))
	p := len(beta)
	x := mat.NewDense(n, p, nil)
	y := make([]float64, n)
	w := make([]float64, n)
	o := make([]float64, n)
	for i := range n {
		eta := 0.2
		for j := range p {
			v := r.NormFloat64()
			x.Set(i, j, v)
			eta += beta[j] * v
		}
		o[i] = 0.3 * r.NormFloat64()
		eta += o[i]
		w[i] = 0.5 + r.Float64()
		switch f.(type) {
		case Binomial:
			if r.Float64() < f.Mean(eta) {
				y[i] = 1
			}
		case Poisson:
			y[i] = float64(poisson(r, f.Mean(eta)))
		case Gamma:
			y[i] = gammaDraw(r, f.Mean(eta))
		case Tweedie: // zero or a gamma amount: a compound Poisson–gamma stand-in
			if r.Float64() < 0.6 {
				y[i] = gammaDraw(r, f.Mean(eta)/0.6)
			}
		case NegBin: // Poisson of a gamma mean of shape θ
			y[i] = float64(poisson(r, f.Mean(eta)*r.ExpFloat64()))
		default:
			y[i] = eta + r.NormFloat64()
		}
	}
	return &Data{X: x, Y: y, Weights: w, Offset: o}
}

func poisson(r *rand.Rand, mu float64) int {
	l, k, p := math.Exp(-mu), 0, 1.0
	for {
		p *= r.Float64()
		if p <= l {
			return k
		}
		k++
	}
}

// gammaDraw returns a gamma variate of shape 2 and mean mu: half the sum
// of two exponentials of mean mu.
func gammaDraw(r *rand.Rand, mu float64) float64 {
	return mu / 2 * (r.ExpFloat64() + r.ExpFloat64())
}

// TestLossGradient checks the profiled gradient against central differences
// and that the profiled intercept and unpenalised coefficients are at their
// minimum (the loss does not decrease when they move).
func TestLossGradient(t *testing.T) {
	for _, f := range families {
		d := sample(f, 60, []float64{0.5, -0.5, 0.5, 0, 0.2}, 3)
		d.Unpenalized = []int{1}
		l, err := NewLoss(f, d)
		if err != nil {
			t.Fatal(err)
		}
		theta := mat.NewDense(4, 1, []float64{0.3, 0.1, -0.2, 0.05})
		var g mat.Dense
		l.Eval(&g, theta)
		for a := range 4 {
			h := 1e-6
			tp, tm := mat.DenseCopyOf(theta), mat.DenseCopyOf(theta)
			tp.Set(a, 0, tp.At(a, 0)+h)
			tm.Set(a, 0, tm.At(a, 0)-h)
			num := (l.Eval(nil, tp) - l.Eval(nil, tm)) / (2 * h)
			if math.Abs(num-g.At(a, 0)) > 1e-5*(1+math.Abs(num)) {
				t.Errorf("%s: ∂/∂β%d = %v, difference %v", f.Name(), a, g.At(a, 0), num)
			}
		}
		// The profile is a minimum: the free gradient vanishes.
		l.Eval(nil, theta)
		gf, _ := l.freeDerivs()
		for a, v := range gf {
			if math.Abs(v) > 1e-9*l.nullDev {
				t.Errorf("%s: free gradient %d = %v", f.Name(), a, v)
			}
		}
	}
}

// TestWeakDuality checks D(s·u) ≤ F at random points for dual-feasible s,
// and that the gap closes at a solution found by FISTA and by proximal
// Newton, which agree.
func TestWeakDuality(t *testing.T) {
	for _, f := range families {
		d := sample(f, 80, []float64{0.4, 0.4, -0.3, 0, 0, 0.4}, 7)
		l, err := NewLoss(f, d)
		if err != nil {
			t.Fatal(err)
		}
		pen := penalty.Cardinality{Nu: 1}
		lmax, _ := solver.LambdaMax(l, pen)
		lambda := 0.1 * lmax
		prob := solver.Problem{Loss: l, Penalty: pen, Lambda: lambda}
		r := rand.New(rand.NewPCG(1, 2))
		for range 20 {
			theta := mat.NewDense(6, 1, nil)
			for a := range 6 {
				theta.Set(a, 0, 0.5*r.NormFloat64())
			}
			var g mat.Dense
			fv := l.Eval(&g, theta)
			dn, _ := penalty.DualNorm(pen, &g)
			s := math.Min(1, lambda/dn)
			if dual, primal := l.Dual(theta, fv, s), prob.Objective(theta); dual > primal+1e-9*primal {
				t.Errorf("%s: dual %v above primal %v", f.Name(), dual, primal)
			}
		}
		set := &solver.Settings{Tol: 1e-10, MaxIter: 200000}
		a, err := solver.Minimize(prob, nil, set, &solver.FISTA{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := solver.Minimize(prob, nil, set, &solver.ProxNewton{})
		if err != nil {
			t.Fatal(err)
		}
		if !a.Converged || !b.Converged {
			t.Fatalf("%s: FISTA %v (gap %v), proximal Newton %v (gap %v)", f.Name(), a.Status, a.Gap, b.Status, b.Gap)
		}
		if math.Abs(a.Objective-b.Objective) > 1e-9*a.Objective {
			t.Errorf("%s: objectives %v and %v", f.Name(), a.Objective, b.Objective)
		}
		var diff mat.Dense
		diff.Sub(a.Theta, b.Theta)
		if mat.Norm(&diff, math.Inf(1)) > 1e-4 {
			t.Errorf("%s: solutions differ by %v:\n%v\n%v", f.Name(), mat.Norm(&diff, math.Inf(1)), mat.Formatted(a.Theta.T()), mat.Formatted(b.Theta.T()))
		}
		t.Logf("%s: FISTA %d iterations, proximal Newton %d", f.Name(), a.Iterations, b.Iterations)
	}
}

// TestCheck checks the refusals of bad data.
func TestCheck(t *testing.T) {
	x := mat.NewDense(3, 1, []float64{1, 2, 3})
	cases := []struct {
		f Family
		d Data
	}{
		{Binomial{}, Data{X: x, Y: []float64{0, 2, 1}}},
		{Binomial{}, Data{X: x, Y: []float64{1, 1, 1}}},
		{Poisson{}, Data{X: x, Y: []float64{0, -1, 1}}},
		{Poisson{}, Data{X: x, Y: []float64{0, 0, 0}}},
		{Gamma{}, Data{X: x, Y: []float64{1, 0, 2}}},
		{Gaussian{}, Data{X: x, Y: []float64{0, 1, 1}, Weights: []float64{1, -1, 1}}},
		{Gaussian{}, Data{X: x, Y: []float64{0, 1, 1}, Weights: []float64{0, 0, 0}}},
		{Gaussian{}, Data{X: x, Y: []float64{0, 1, 1}, Offset: []float64{0, math.NaN(), 1}}},
		{Gaussian{}, Data{X: x, Y: []float64{0, 1}}},
		{Gaussian{}, Data{X: x, Y: []float64{0, 1, 1}, Unpenalized: []int{3}}},
	}
	for i, c := range cases {
		if err := c.d.Check(c.f); err == nil {
			t.Errorf("case %d accepted", i)
		} else {
			t.Logf("case %d: %v", i, err)
		}
	}
}

// TestNewLossChecks checks that NewLoss, which checks the predictors as
// it copies them, refuses what Data.Check refuses with the same error
// (the first bad value in the rows' order), and that Loss.CheckScale
// agrees with Data.CheckScale.
func TestNewLossChecks(t *testing.T) {
	base := func() *Data {
		return &Data{X: mat.NewDense(4, 3, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 0, 2}), Y: []float64{0, 1, 1, 0}}
	}
	for _, c := range []struct {
		row, col int
		v        float64
		unpen    []int
		badY     int // a response outside 0…1 at this row (−1: none)
	}{
		{1, 2, math.NaN(), nil, -1},
		{3, 0, math.Inf(1), nil, -1},
		{2, 1, math.Inf(-1), []int{1}, -1},
		{2, 1, math.NaN(), nil, 1},  // the response's row comes first
		{1, 2, math.NaN(), nil, 3},  // the predictor's row comes first
		{0, 0, 1e200, nil, -1},      // finite: a scale error, from CheckScale
		{0, 1, 1e150, []int{1}, -1}, // in an unpenalised column
	} {
		d := base()
		d.X.Set(c.row, c.col, c.v)
		d.Unpenalized = c.unpen
		if c.badY >= 0 {
			d.Y[c.badY] = 2
		}
		want := d.Check(Binomial{})
		l, err := NewLoss(Binomial{}, d)
		if want != nil {
			if err == nil || err.Error() != want.Error() {
				t.Errorf("%+v: NewLoss %v, Check %v", c, err, want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%+v: NewLoss %v", c, err)
		}
		got, wantScale := l.CheckScale(), d.CheckScale()
		if wantScale == nil || got == nil || got.Error() != wantScale.Error() {
			t.Errorf("%+v: Loss.CheckScale %v, Data.CheckScale %v", c, got, wantScale)
		}
	}
}

// TestColumnStatsLazy checks that the column statistics a restriction
// computes for its columns alone (columnStats of keep) are those the loss
// computes for all its columns, an off-centre column and a copy included.
func TestColumnStatsLazy(t *testing.T) {
	d := sample(Binomial{}, 60, []float64{0.5, -0.5, 0.3, 0.2}, 9)
	n, _ := d.X.Dims()
	for i := range n {
		d.X.Set(i, 1, 300+d.X.At(i, 1)) // off centre
		d.X.Set(i, 3, -d.X.At(i, 0))    // a copy of column 0
	}
	f := []float64{1, 1, 1, 1}
	all, err := NewLoss(Binomial{}, d)
	if err != nil {
		t.Fatal(err)
	}
	full := all.IRLSDesign(f)
	for _, keep := range [][]int{{1, 3}, {0, 3}, {0, 1, 2, 3}, {2}} {
		l, err := NewLoss(Binomial{}, d)
		if err != nil {
			t.Fatal(err)
		}
		sub := l.Restrict(keep).(*Loss).IRLSDesign(f[:len(keep)])
		for a, k := range keep {
			if sub.MaxAbs[a] != full.MaxAbs[k] || sub.OffCentre[a] != full.OffCentre[k] {
				t.Errorf("keep %v: column %d: %v %v, from all the columns %v %v", keep, k, sub.MaxAbs[a], sub.OffCentre[a], full.MaxAbs[k], full.OffCentre[k])
			}
		}
		if slices.Equal(keep, []int{0, 3}) && sub.Twin[1] != 0 {
			t.Errorf("keep %v: the copy is not found (Twin %v)", keep, sub.Twin)
		}
	}
	if !full.OffCentre[1] || full.MaxAbs[1] < 300 || full.Twin[3] != 0 {
		t.Errorf("the full design: OffCentre %v MaxAbs %v Twin %v", full.OffCentre, full.MaxAbs, full.Twin)
	}
}

// TestRowCache checks that the rows' values the loss keeps between calls
// (rowCache) never leak from one linear predictor to another: the same
// calls in another order, interleaved with IRLS reweightings at other
// points, a Settle and a restriction's Adopt, give what a fresh loss gives.
func TestRowCache(t *testing.T) {
	for _, f := range families {
		d := sample(f, 80, []float64{0.5, -0.5, 0.5, 0, 0.2}, 5)
		d.Unpenalized = []int{1}
		l, err := NewLoss(f, d)
		if err != nil {
			t.Fatal(err)
		}
		points := []*mat.Dense{
			mat.NewDense(4, 1, []float64{0.3, 0.1, -0.2, 0.05}),
			mat.NewDense(4, 1, []float64{-0.1, 0, 0.4, 0}),
			mat.NewDense(4, 1, []float64{0.3, 0.1, -0.2, 0.05}),
		}
		n := len(d.Y)
		v, r := make([]float64, n), make([]float64, n)
		for k, th := range points {
			fresh, err := NewLoss(f, d)
			if err != nil {
				t.Fatal(err)
			}
			var g, want mat.Dense
			wantF := fresh.Eval(&want, th)
			wantD := fresh.Dual(th, 0, 0.9)
			// An IRLS reweighting elsewhere, then at the loss's own η.
			other := make([]float64, n)
			for i := range other {
				other[i] = 0.1 * float64(i%7)
			}
			l.Reweight(other, v, r)
			got := l.Eval(&g, th)
			eta, free := l.Point(th)
			dev := l.Reweight(eta, v, r)
			gotD := l.Dual(th, 0, 0.9)
			// The profile starts where the last one ended: rounding apart.
			if !nearly(got, wantF) || !mat.EqualApprox(&g, &want, 1e-10*wantF) || !nearly(gotD, wantD) {
				t.Errorf("%s point %d: value %v gradient %v dual %v, fresh %v %v %v", f.Name(), k, got, mat.Formatted(g.T()), gotD, wantF, mat.Formatted(want.T()), wantD)
			}
			if !nearly(dev, fresh.value()) {
				t.Errorf("%s point %d: Reweight's deviance %v, the loss's %v", f.Name(), k, dev, fresh.value())
			}
			// Settle at a moved η, then back through Eval.
			moved := slices.Clone(eta)
			for i := range moved {
				moved[i] += 0.01
			}
			l.Reweight(moved, v, r)
			l.Settle(mat.Col(nil, 0, th), moved, free)
			l.Eval(nil, th)
			l.Settle(mat.Col(nil, 0, th), moved, free) // the cache was l.eta's
			if got, want := l.value(), direct(l); !nearly(got, want) {
				t.Errorf("%s point %d: after Settle value %v, at its η %v", f.Name(), k, got, want)
			}
			sub := l.Restrict([]int{0, 2})
			sub.Eval(nil, mat.NewDense(2, 1, []float64{0.2, 0.1}))
			sub.(*Loss).Reweight(other, v, r) // its cache is not at its η
			l.Eval(nil, th)
			l.Adopt(sub, mat.NewDense(4, 1, []float64{0.2, 0, 0.1, 0}))
			if got, want := l.value(), direct(l); !nearly(got, want) {
				t.Errorf("%s point %d: after Adopt value %v, at its η %v", f.Name(), k, got, want)
			}
			if got := l.Eval(nil, th); !nearly(got, wantF) {
				t.Errorf("%s point %d: after Settle and Adopt value %v, fresh %v", f.Name(), k, got, wantF)
			}
		}
	}
}

// nearly reports whether a and b agree to 1e-12 relative.
func nearly(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }

// direct returns the deviance at l.eta, evaluated row by row.
func direct(l *Loss) float64 {
	f := l.constant
	for i, e := range l.eta {
		if l.w[i] != 0 {
			f += l.w[i] * l.fam.Deviance(l.y[i], e)
		}
	}
	return f
}

// TestRestrictStartsAtParent: a restriction to predictors holding the
// parent's whole point starts there (its η copied, not rebuilt) and
// evaluates as a restriction of a fresh loss does; one that drops a
// nonzero coefficient starts afresh.
func TestRestrictStartsAtParent(t *testing.T) {
	for _, f := range families {
		d := sample(f, 70, []float64{0.5, -0.5, 0.5, 0, 0.2}, 9)
		l, err := NewLoss(f, d)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := NewLoss(f, d)
		if err != nil {
			t.Fatal(err)
		}
		l.Eval(nil, mat.NewDense(5, 1, []float64{0.4, 0, -0.3, 0, 0}))
		keep := []int{0, 2, 3}
		sub := l.Restrict(keep).(*Loss)
		if want := []float64{0.4, -0.3, 0}; !slices.Equal(sub.last, want) {
			t.Fatalf("%s: restriction starts at %v, want %v", f.Name(), sub.last, want)
		}
		for _, th := range [][]float64{{0.4, -0.3, 0}, {0.1, 0.2, -0.1}} {
			var g, wg mat.Dense
			got := sub.Eval(&g, mat.NewDense(3, 1, th))
			want := fresh.Restrict(keep).Eval(&wg, mat.NewDense(3, 1, th))
			if !nearly(got, want) || !mat.EqualApprox(&g, &wg, 1e-10*want) {
				t.Errorf("%s at %v: value %v gradient %v, fresh %v %v", f.Name(), th, got, mat.Formatted(g.T()), want, mat.Formatted(wg.T()))
			}
		}
		if other := l.Restrict([]int{2, 3}).(*Loss); other.last != nil {
			t.Errorf("%s: a restriction dropping a nonzero coefficient starts at %v", f.Name(), other.last)
		}
	}
}
