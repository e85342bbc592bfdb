package simulate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/cardsparse/cardreg/cardmat"
	"github.com/cardsparse/cardreg/internal/matmulbase"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// Powers is the source paper's graph-power experiment (§6, "Cardinality
// sparsity beyond machine learning"): the successive powers A, A², …, A^30
// of the adjacency matrix of a random undirected graph on 200 nodes (each
// pair joined independently with probability 0.1, no loops), each power
// computed as A·A^(s−1). cardreg encodes A once (the paper: "preprocessing
// only needs to be done once") and multiplies with Matrix.Mul; the baselines
// are gonum's Dense.Mul and the textbook triple loop. The times are
// cumulative over the powers, the encoding counted in cardreg's first power.
// Every power of cardreg and of the triple loop is checked against gonum's:
// exactly while the entries (numbers of walks) are integers below 2^53,
// which float64 holds exactly, and to 1e-10 relative beyond, where both
// round; a mismatch fails the run.
func Powers() Experiment {
	return Experiment{
		Name:         "powers",
		Summary:      "powers A…A^30 of a random 200-node adjacency matrix: cumulative time, compressed once vs gonum and naive",
		DefaultSeeds: 5,
		run:          runPowers,
	}
}

// Markov is the source paper's multivariate Markov chain (§6): 500 chains
// on 200 states advanced 100 steps, the distributions updated as
// X_{t+1} = X_t·P with a fixed transition matrix P. Each state i has an
// out-degree d_i uniform on {5, 10, 20}, a teleport weight α_i uniform on
// {0.05, 0.1, 0.2} and d_i out-neighbours drawn uniformly without
// replacement; P[i, j] = α_i/200 + (1−α_i)/d_i for a neighbour j and α_i/200
// otherwise. Every row of P holds two distinct values and every column at
// most twelve. The initial distributions are uniform draws normalised to
// sum to one. cardreg encodes once and multiplies with the encoded P at
// every step in two ways: "cardreg" carries Y_t = X_tᵀ and computes
// Y_{t+1} = Pᵀ·Y_t with Pᵀ encoded by columns (the rows of P, two values
// each), and "cardreg LeftMul" computes X_t·P with P encoded by columns
// (Matrix.LeftMul). gonum's Dense.Mul is the dense baseline. Times are
// cumulative, step 0 being the preprocessing (encoding, transposes). Every
// step is checked against gonum's to 1e-12 (the entries are probabilities);
// a mismatch fails the run.
func Markov() Experiment {
	return Experiment{
		Name:         "markov",
		Summary:      "multivariate Markov chain, 200 states, 500 chains, 100 steps: cumulative time, compressed vs gonum",
		DefaultSeeds: 5,
		run:          runMarkov,
	}
}

// ChainSummary is the summary of the powers and markov experiments.
type ChainSummary struct {
	// Cumulative holds the median cumulative times and the median ratios
	// of cumulative times to cardreg's, PerStep the same per step.
	Cumulative TimingPanel `json:"cumulative"`
	PerStep    TimingPanel `json:"per_step"`
	// Total and TotalRatio are Cumulative's last point.
	Total      map[string]float64 `json:"total_seconds"`
	TotalRatio map[string]float64 `json:"total_ratio_to_cardreg"`
	// MaxDiff is the largest difference from gonum's result: relative for
	// powers, absolute for markov.
	MaxDiff float64 `json:"max_diff"`
	// ExactThrough (powers only) is the last power whose entries stay at
	// most 2^53, where the check is exact, in every repetition.
	ExactThrough *int `json:"exact_through_power,omitempty"`
}

func newChainSummary(cum, step TimingPanel, maxDiff float64) *ChainSummary {
	last := cum.Points[len(cum.Points)-1]
	return &ChainSummary{Cumulative: cum, PerStep: step, Total: last.Median, TotalRatio: last.Ratio, MaxDiff: maxDiff}
}

// chainTimes collects the step times of every method and repetition.
type chainTimes struct {
	methods []string
	steps   []int
	// secs[method][rep][i] is the time of steps[i].
	secs map[string][][]float64
}

func newChainTimes(methods []string, steps []int, reps int) *chainTimes {
	c := &chainTimes{methods: methods, steps: steps, secs: map[string][][]float64{}}
	for _, m := range methods {
		c.secs[m] = make([][]float64, reps)
		for r := range c.secs[m] {
			c.secs[m][r] = make([]float64, len(steps))
		}
	}
	return c
}

func cumulative(xs []float64) []float64 {
	out := make([]float64, len(xs))
	var s float64
	for i, x := range xs {
		s += x
		out[i] = s
	}
	return out
}

// panels returns the cumulative and the per-step TimingPanel: medians over
// repetitions and the median ratio to cardreg.
func (c *chainTimes) panels(id, title, xlabel, cardreg string) (cum, step TimingPanel) {
	cum = TimingPanel{Panel: id, Title: title + ": cumulative time", XLabel: xlabel, Cardreg: cardreg, Methods: c.methods}
	step = TimingPanel{Panel: id + "-step", Title: title + ": time per step", XLabel: xlabel, Cardreg: cardreg, Methods: c.methods}
	cums := map[string][][]float64{}
	for _, m := range c.methods {
		for _, s := range c.secs[m] {
			cums[m] = append(cums[m], cumulative(s))
		}
	}
	for i, x := range c.steps {
		pc := TimingPoint{X: x, Median: map[string]float64{}, Ratio: map[string]float64{}}
		ps := TimingPoint{X: x, Median: map[string]float64{}, Ratio: map[string]float64{}}
		for _, m := range c.methods {
			var vc, vs, rc, rs []float64
			for rep := range c.secs[m] {
				vc = append(vc, cums[m][rep][i])
				vs = append(vs, c.secs[m][rep][i])
				if ref := cums[mCardreg][rep][i]; ref > 0 {
					rc = append(rc, cums[m][rep][i]/ref)
				}
				if ref := c.secs[mCardreg][rep][i]; ref > 0 {
					rs = append(rs, c.secs[m][rep][i]/ref)
				}
			}
			pc.Median[m], ps.Median[m] = median(vc), median(vs)
			if len(rc) > 0 {
				pc.Ratio[m] = median(rc)
			}
			if len(rs) > 0 {
				ps.Ratio[m] = median(rs)
			}
		}
		cum.Points = append(cum.Points, pc)
		step.Points = append(step.Points, ps)
	}
	return cum, step
}

// chainFigure draws the cumulative and per-step medians, log y.
func chainFigure(panels ...TimingPanel) (*Figure, error) {
	var plots []*plot.Plot
	for _, tp := range panels {
		var series []Series
		for _, m := range timingMethods {
			s := Series{Name: m}
			if slices.Contains(tp.Methods, m) {
				for _, pt := range tp.Points {
					s.XY = append(s.XY, plotter.XY{X: float64(pt.X), Y: math.Max(pt.Median[m], 1e-9)})
				}
			}
			series = append(series, s)
		}
		p, err := LinePanel(tp.Title, tp.XLabel, "seconds (median over repetitions)", false, true, series...)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tp.Panel, err)
		}
		p.Legend.Left = true
		plots = append(plots, p)
	}
	return NewFigure(len(plots), plots...), nil
}

// adjacency returns the adjacency matrix of a random undirected graph on n
// nodes, each pair joined with probability prob, no loops.
func adjacency(rng *rand.Rand, n int, prob float64) *mat.Dense {
	a := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if rng.Float64() < prob {
				a.Set(i, j, 1)
				a.Set(j, i, 1)
			}
		}
	}
	return a
}

// exactLimit is 2^53: integers up to it are exact in float64.
const exactLimit = 1 << 53

// maxRelDiff returns max |got − want| / max(1, |want|) over the entries.
func maxRelDiff(got, want *mat.Dense) float64 {
	r, c := want.Dims()
	var d float64
	for i := 0; i < r; i++ {
		g, w := got.RawRowView(i), want.RawRowView(i)
		for j := 0; j < c; j++ {
			d = math.Max(d, math.Abs(g[j]-w[j])/math.Max(1, math.Abs(w[j])))
		}
	}
	return d
}

// powersTrajectory computes A, A², …, A^steps with method m, writing each
// power's wall time into secs (power 1 includes mCardreg's encoding of A,
// which the later powers reuse).
func powersTrajectory(m string, a *mat.Dense, steps int, secs []float64) ([]*mat.Dense, error) {
	n, _ := a.Dims()
	out := make([]*mat.Dense, steps)
	for i := range out {
		out[i] = mat.NewDense(n, n, nil)
	}
	var enc *cardmat.Matrix
	for s := 0; s < steps; s++ {
		start := time.Now()
		switch {
		case s == 0 && m == mCardreg:
			var err error
			if enc, err = cardmat.Encode(a); err != nil {
				return nil, err
			}
			out[0].Copy(a)
		case s == 0:
			out[0].Copy(a)
		case m == mNaive:
			out[s] = matmulbase.Naive(a, out[s-1])
		case m == mGonum:
			out[s].Mul(a, out[s-1])
		default:
			enc.Mul(out[s], out[s-1])
		}
		secs[s] = time.Since(start).Seconds()
	}
	return out, nil
}

func runPowers(cfg Config) (*Result, error) {
	n, steps, prob := 200, 30, 0.1
	if cfg.Quick {
		n, steps = 60, 10
	}
	methods := []string{mNaive, mGonum, mCardreg}
	powers := make([]int, steps)
	for i := range powers {
		powers[i] = i + 1
	}
	ct := newChainTimes(methods, powers, cfg.Seeds)
	r := &Result{
		Columns: []string{"power", "method", "rep", "seed", "edges", "max_entry", "exact_range", "max_rel_diff", "seconds", "cumulative_seconds"},
		Timing:  []string{"seconds", "cumulative_seconds"},
		Params: map[string]any{
			"nodes": n, "powers": steps, "edge_probability": prob,
			"graph":   "undirected, no loops, each pair joined independently",
			"product": "A^s = A·A^(s−1); cardreg encodes A once (cardmat.Encode, timed in power 1) and uses Matrix.Mul; gonum writes into preallocated outputs; naive (internal/matmulbase.Naive) allocates",
			"check":   "cardreg and naive equal gonum exactly while the largest entry is at most 2^53, to 1e-10 relative beyond",
		},
	}
	exactThrough, worst := steps, 0.0
	for rep := 0; rep < cfg.Seeds; rep++ {
		seed := cfg.SeedFor(rep)
		rng := rand.New(rand.NewPCG(seed, 0x706f77657273))
		a := adjacency(rng, n, prob)
		edges := int(mat.Sum(a)) / 2
		res := map[string][]*mat.Dense{}
		for _, m := range methods {
			out, err := powersTrajectory(m, a, steps, ct.secs[m][rep])
			if err != nil {
				return nil, err
			}
			res[m] = out
		}
		cum := map[string][]float64{}
		for _, m := range methods {
			cum[m] = cumulative(ct.secs[m][rep])
		}
		for s := 0; s < steps; s++ {
			want := res[mGonum][s]
			maxEntry := mat.Max(want)
			exact := maxEntry <= exactLimit
			if !exact && exactThrough > s {
				exactThrough = s
			}
			for _, m := range methods {
				d := maxRelDiff(res[m][s], want)
				if (exact && d != 0) || d > 1e-10 {
					return nil, fmt.Errorf("seed %d, power %d: %s differs from gonum by %g (relative; largest entry %g)", seed, s+1, m, d, maxEntry)
				}
				worst = math.Max(worst, d)
				r.Add(s+1, m, rep, seed, edges, maxEntry, b2i(exact), d, ct.secs[m][rep][s], cum[m][s])
			}
		}
		cfg.progress(rep+1, cfg.Seeds)
	}
	title := fmt.Sprintf("Powers of a %d-node adjacency matrix", n)
	cum, step := ct.panels("powers", title, "power s (A^s)", "Matrix.Mul with A encoded once")
	r.Summary = newChainSummary(cum, step, worst)
	r.Summary.(*ChainSummary).ExactThrough = &exactThrough
	fig, err := chainFigure(cum, step)
	if err != nil {
		return nil, err
	}
	r.Figure = fig
	return r, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// transition returns the Markov experiment's transition matrix (see
// Markov).
func transition(rng *rand.Rand, states int) *mat.Dense {
	p := mat.NewDense(states, states, nil)
	degrees := []int{5, 10, 20}
	alphas := []float64{0.05, 0.1, 0.2}
	for i := 0; i < states; i++ {
		d := degrees[rng.IntN(len(degrees))]
		alpha := alphas[rng.IntN(len(alphas))]
		row := p.RawRowView(i)
		for j := range row {
			row[j] = alpha / float64(states)
		}
		for _, j := range rng.Perm(states)[:d] {
			row[j] = alpha/float64(states) + (1-alpha)/float64(d)
		}
	}
	return p
}

// initialDistributions returns chains×states rows of independent uniforms,
// each normalised to sum 1.
func initialDistributions(rng *rand.Rand, chains, states int) *mat.Dense {
	x0 := mat.NewDense(chains, states, nil)
	for i := 0; i < chains; i++ {
		row := x0.RawRowView(i)
		var s float64
		for j := range row {
			row[j] = rng.Float64()
			s += row[j]
		}
		for j := range row {
			row[j] /= s
		}
	}
	return x0
}

// markovTrajectory runs the chains from x0 for steps steps with method m,
// writing each step's wall time into secs (step 0 is the preprocessing:
// encoding and the first copy). mCardreg keeps the distributions transposed
// (states×chains) and multiplies by Pᵀ encoded once; mLeftMul multiplies
// X·P with P encoded; mGonum multiplies densely.
func markovTrajectory(m string, p, x0 *mat.Dense, steps int, secs []float64) ([]*mat.Dense, error) {
	chains, states := x0.Dims()
	out := make([]*mat.Dense, steps+1)
	for i := range out {
		if m == mCardreg {
			out[i] = mat.NewDense(states, chains, nil)
		} else {
			out[i] = mat.NewDense(chains, states, nil)
		}
	}
	var enc *cardmat.Matrix
	for s := 0; s <= steps; s++ {
		start := time.Now()
		var err error
		switch {
		case s == 0 && m == mCardreg:
			if enc, err = cardmat.Encode(p.T()); err != nil {
				return nil, err
			}
			out[0].Copy(x0.T())
		case s == 0 && m == mLeftMul:
			if enc, err = cardmat.Encode(p); err != nil {
				return nil, err
			}
			out[0].Copy(x0)
		case s == 0:
			out[0].Copy(x0)
		case m == mGonum:
			out[s].Mul(out[s-1], p)
		case m == mCardreg:
			enc.Mul(out[s], out[s-1])
		default:
			enc.LeftMul(out[s], out[s-1])
		}
		secs[s] = time.Since(start).Seconds()
	}
	return out, nil
}

func runMarkov(cfg Config) (*Result, error) {
	states, chains, steps := 200, 500, 100
	if cfg.Quick {
		states, chains, steps = 50, 40, 20
	}
	methods := []string{mGonum, mCardreg, mLeftMul}
	xs := make([]int, steps+1)
	for i := range xs {
		xs[i] = i
	}
	ct := newChainTimes(methods, xs, cfg.Seeds)
	r := &Result{
		Columns: []string{"step", "method", "rep", "seed", "max_abs_diff", "seconds", "cumulative_seconds"},
		Timing:  []string{"seconds", "cumulative_seconds"},
		Params: map[string]any{
			"states": states, "chains": chains, "steps": steps,
			"transition": "per state i: out-degree d_i uniform on {5,10,20}, teleport α_i uniform on {0.05,0.1,0.2}, d_i distinct out-neighbours uniform; P[i,j] = α_i/S + (1−α_i)/d_i for neighbours, α_i/S otherwise (2 distinct values per row, at most 12 per column)",
			"initial":    "each chain's distribution: independent uniforms normalised to sum 1",
			"update":     "X_{t+1} = X_t·P (chains × states); gonum Dense.Mul into preallocated outputs; cardreg: Y = Xᵀ, Y_{t+1} = Pᵀ·Y_t with Pᵀ encoded by columns (Matrix.Mul); cardreg LeftMul: X_t·P with P encoded by columns (Matrix.LeftMul)",
			"step_0":     "preprocessing: gonum copies X_0; cardreg encodes Pᵀ and transposes X_0; cardreg LeftMul encodes P and copies X_0",
			"check":      "every step equals gonum's to 1e-12 (absolute), and gonum's rows sum to 1 within 1e-9",
		},
	}
	worst := 0.0
	for rep := 0; rep < cfg.Seeds; rep++ {
		seed := cfg.SeedFor(rep)
		rng := rand.New(rand.NewPCG(seed, 0x6d61726b6f76))
		p := transition(rng, states)
		x0 := initialDistributions(rng, chains, states)
		traj := map[string][]*mat.Dense{}
		for _, m := range methods {
			out, err := markovTrajectory(m, p, x0, steps, ct.secs[m][rep])
			if err != nil {
				return nil, err
			}
			traj[m] = out
		}
		cum := map[string][]float64{}
		for _, m := range methods {
			cum[m] = cumulative(ct.secs[m][rep])
		}
		for s := 0; s <= steps; s++ {
			want := traj[mGonum][s]
			for i := 0; i < chains; i++ {
				if sum := floatsSum(want.RawRowView(i)); math.Abs(sum-1) > 1e-9 {
					return nil, fmt.Errorf("seed %d, step %d: chain %d sums to %v", seed, s, i+1, sum)
				}
			}
			for _, m := range methods {
				got := traj[m][s]
				if m == mCardreg {
					got = mat.DenseCopyOf(got.T())
				}
				var d float64
				for i := 0; i < chains; i++ {
					g, w := got.RawRowView(i), want.RawRowView(i)
					for j := range w {
						d = math.Max(d, math.Abs(g[j]-w[j]))
					}
				}
				if d > 1e-12 {
					return nil, fmt.Errorf("seed %d, step %d: %s differs from gonum by %g", seed, s, m, d)
				}
				worst = math.Max(worst, d)
				r.Add(s, m, rep, seed, d, ct.secs[m][rep][s], cum[m][s])
			}
		}
		cfg.progress(rep+1, cfg.Seeds)
	}
	title := fmt.Sprintf("Markov chain, %d states, %d chains", states, chains)
	cum, step := ct.panels("markov", title, "step t", "Matrix.Mul: Y_{t+1} = Pᵀ·Y_t with Pᵀ encoded once")
	r.Summary = newChainSummary(cum, step, worst)
	fig, err := chainFigure(cum, step)
	if err != nil {
		return nil, err
	}
	r.Figure = fig
	return r, nil
}

func floatsSum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}
