package simulate

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cardsparse/cardreg/cardmat"
	"github.com/cardsparse/cardreg/internal/matmulbase"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// Matmul is the source paper's speed figures (§6: square non-binary and
// binary products, the three data sets times weights, the shapes P ≪ M, N
// and P ≫ M, N over the number of distinct values k, and the cardinality
// sweep at 512×80·80×512), timed on this machine. Every method computes
// A·B from the dense factors, so cardreg's time includes its preprocessing
// (encoding, bit packing). Methods: the textbook triple loop, Strassen's
// recursion, gonum's Dense.Mul, for binary matrices the Four Russians (over
// GF(2)) and cardmat's bit-packed popcount product, and cardreg's product:
// Algorithm 3 (MulCompressed, both factors encoded) for the synthetic
// non-binary settings, X·W (Matrix.Mul, the data encoded, the weights
// dense) for the data sets, Algorithm 2 (RowMatrix.Mul) for P ≫ M, N, and
// the paper's tables on bit-packed rows (MulMod2, over GF(2)) for binary.
// Methods that would take more than about a second are skipped and recorded
// as missing. Each repetition draws new matrices.
func Matmul() Experiment {
	return Experiment{
		Name:         "matmul",
		Summary:      "the paper's multiplication speed figures: square, binary, data times weights, shapes over k, cardinality sweep",
		DefaultSeeds: 5,
		run:          runMatmul,
	}
}

// Method names, in the figures' order (each keeps its colour).
const (
	mNaive        = "naive"
	mStrassen     = "Strassen"
	mGonum        = "gonum"
	mFourRussians = "Four Russians"
	mBitPacked    = "bit-packed"
	mCardreg      = "cardreg"
	mLeftMul      = "cardreg LeftMul"
)

// cardreg takes the vermillion of Palette, far from gonum's sky blue.
var timingMethods = []string{mNaive, mStrassen, mGonum, mFourRussians, mCardreg, mBitPacked, mLeftMul}

// Work limits (M·P·N) beyond which a baseline is skipped: each is about a
// second on the 2-core reference machine.
const (
	naiveLimit    = 1 << 28
	strassenLimit = 1 << 30
	gonumLimit    = 1 << 33
	// warmLimit is the largest M·P·N whose methods get one untimed warm-up
	// run before the timed one.
	warmLimit = 1 << 26
)

// mmRun is one way of computing a product.
type mmRun struct {
	name string
	// mod2 marks a product over GF(2) (Four Russians, MulMod2).
	mod2 bool
	// run computes the product; nil means skipped.
	run func() error
	// result returns the last product as a dense matrix, for the check.
	result func() *mat.Dense
}

// mmCase is one point of a panel: the factors' shape and the methods.
type mmCase struct {
	m, p, n  int
	distinct int // the largest number of distinct values of a column of A
	product  string
	runs     []mmRun
}

// mmPanel is one setting of the paper: a panel of the figure.
type mmPanel struct {
	id, title, xlabel string
	logX              bool
	xs, quickXs       []int
	// cardreg names the cardmat product behind the "cardreg" line.
	cardreg string
	build   func(rng *rand.Rand, x int, quick bool) (mmCase, error)
}

// TimingPanel summarises one panel of a timing experiment: the median time
// of every method at every x, and the median over repetitions of each
// method's time divided by cardreg's.
type TimingPanel struct {
	Panel   string `json:"panel"`
	Title   string `json:"title"`
	XLabel  string `json:"x_label"`
	Cardreg string `json:"cardreg"`
	// Methods lists the methods timed in this panel, in the figure's order.
	Methods []string      `json:"methods"`
	Points  []TimingPoint `json:"points"`
	// CrossoverX is the smallest x at which gonum's median time is below
	// cardreg's (nil when it never is); used for the cardinality sweep.
	CrossoverX *int `json:"crossover_x,omitempty"`
}

// TimingPoint is one x of a TimingPanel. Skipped methods are absent.
type TimingPoint struct {
	X int `json:"x"`
	// Median is the median time in seconds of each method.
	Median map[string]float64 `json:"median_seconds"`
	// Ratio is the median over repetitions of method time / cardreg time.
	Ratio map[string]float64 `json:"ratio_to_cardreg"`
}

func square(rng *rand.Rand, n, k int) (*mat.Dense, *mat.Dense) {
	return paperMatrix(rng, n, n, k), paperMatrix(rng, n, n, k)
}

// paperMatrix fills r×c with integers uniform on 1..k minus one standard
// normal draw shared by all entries: the source paper's construction.
func paperMatrix(rng *rand.Rand, r, c, k int) *mat.Dense {
	shift := rng.NormFloat64()
	a := mat.NewDense(r, c, nil)
	raw := a.RawMatrix().Data
	for i := range raw {
		raw[i] = float64(1+rng.IntN(k)) - shift
	}
	return a
}

func normalMatrix(rng *rand.Rand, r, c int) *mat.Dense {
	a := mat.NewDense(r, c, nil)
	raw := a.RawMatrix().Data
	for i := range raw {
		raw[i] = rng.NormFloat64()
	}
	return a
}

func bitsMatrix(rng *rand.Rand, r, c int) *mat.Dense {
	a := mat.NewDense(r, c, nil)
	raw := a.RawMatrix().Data
	for i := range raw {
		raw[i] = float64(rng.IntN(2))
	}
	return a
}

// denseRuns returns the naive, Strassen and gonum runs of a·b, each skipped
// beyond its work limit (strassenMax for Strassen).
func denseRuns(a, b *mat.Dense, strassenMax int) []mmRun {
	m, p := a.Dims()
	_, n := b.Dims()
	work := m * p * n
	var naive, strassen, gonum *mat.Dense
	runs := []mmRun{
		{name: mNaive, result: func() *mat.Dense { return naive }},
		{name: mStrassen, result: func() *mat.Dense { return strassen }},
		{name: mGonum, result: func() *mat.Dense { return gonum }},
	}
	if work <= naiveLimit {
		runs[0].run = func() error { naive = matmulbase.Naive(a, b); return nil }
	}
	if work <= strassenMax {
		runs[1].run = func() error {
			strassen = matmulbase.Strassen(a, b, matmulbase.DefaultStrassenCutoff)
			return nil
		}
	}
	if work <= gonumLimit {
		gonum = mat.NewDense(m, n, nil)
		runs[2].run = func() error { gonum.Mul(a, b); return nil }
	}
	return runs
}

// algorithm3 is MulCompressed with both factors encoded, encoding included.
func algorithm3(a, b *mat.Dense) mmRun {
	m, _ := a.Dims()
	_, n := b.Dims()
	c := mat.NewDense(m, n, nil)
	return mmRun{name: mCardreg, result: func() *mat.Dense { return c }, run: func() error {
		w, err := cardmat.Encode(a)
		if err != nil {
			return err
		}
		v, err := cardmat.EncodeRows(b)
		if err != nil {
			return err
		}
		cardmat.MulCompressed(c, w, v)
		return nil
	}}
}

// encodedMul is Matrix.Mul (A encoded by columns, B dense), encoding
// included.
func encodedMul(a, b *mat.Dense) mmRun {
	m, _ := a.Dims()
	_, n := b.Dims()
	c := mat.NewDense(m, n, nil)
	return mmRun{name: mCardreg, result: func() *mat.Dense { return c }, run: func() error {
		x, err := cardmat.Encode(a)
		if err != nil {
			return err
		}
		x.Mul(c, b)
		return nil
	}}
}

// algorithm2 is RowMatrix.Mul (A encoded by rows), encoding included.
func algorithm2(a, b *mat.Dense) mmRun {
	m, _ := a.Dims()
	_, n := b.Dims()
	c := mat.NewDense(m, n, nil)
	return mmRun{name: mCardreg, result: func() *mat.Dense { return c }, run: func() error {
		w, err := cardmat.EncodeRows(a)
		if err != nil {
			return err
		}
		w.Mul(c, b)
		return nil
	}}
}

// binaryRuns are the packed methods for 0/1 factors, packing included.
func binaryRuns(a, b *mat.Dense) []mmRun {
	var fr *mat.Dense
	var counts *mat.Dense
	var mod2 *cardmat.Binary
	return []mmRun{
		{name: mFourRussians, mod2: true, result: func() *mat.Dense { return fr }, run: func() error {
			pa, err := matmulbase.PackBits(a)
			if err != nil {
				return err
			}
			pb, err := matmulbase.PackBits(b)
			if err != nil {
				return err
			}
			fr = matmulbase.FourRussians(pa, pb, matmulbase.DefaultFourRussiansK).Dense()
			return nil
		}},
		{name: mBitPacked, result: func() *mat.Dense { return counts }, run: func() error {
			pa, pb, err := packBoth(a, b)
			if err == nil {
				counts = cardmat.PopcountMul(pa, pb)
			}
			return err
		}},
		{name: mCardreg, mod2: true, result: func() *mat.Dense { return mod2.Dense() }, run: func() error {
			pa, pb, err := packBoth(a, b)
			if err == nil {
				mod2 = cardmat.MulMod2(pa, pb)
			}
			return err
		}},
	}
}

// packBoth packs the rows of both 0/1 factors (cardmat.EncodeBinary).
func packBoth(a, b *mat.Dense) (*cardmat.Binary, *cardmat.Binary, error) {
	pa, err := cardmat.EncodeBinary(a)
	if err != nil {
		return nil, nil, err
	}
	pb, err := cardmat.EncodeBinary(b)
	return pa, pb, err
}

// dataSet is one real data set of the paper's data-times-weights figures.
type dataSet struct {
	id, label, file string
	cols            int
}

var matmulData = []dataSet{
	{"digits", "digits", "digits.csv", 64},
	{"letter", "letter recognition", "letter_recognition.csv", 16},
	{"clave", "clave direction", "clave_direction.csv", 20},
}

func matmulPanels(data map[string]*mat.Dense) []mmPanel {
	ks := []int{2, 5, 10, 20, 40}
	panels := []mmPanel{
		{id: "square", title: "Square non-binary, k = 10", xlabel: "n (n×n · n×n)", logX: true,
			xs: []int{128, 256, 512, 1024, 2048}, quickXs: []int{32, 64},
			cardreg: "Algorithm 3 (MulCompressed, both factors encoded)",
			build: func(rng *rand.Rand, n int, _ bool) (mmCase, error) {
				a, b := square(rng, n, 10)
				return mmCase{n, n, n, 10, "real", append(denseRuns(a, b, strassenLimit), algorithm3(a, b))}, nil
			}},
		{id: "binary", title: "Square binary (fair bits)", xlabel: "n (n×n · n×n)", logX: true,
			xs: []int{128, 256, 512, 1024, 2048, 4096}, quickXs: []int{64, 128},
			cardreg: "tables on bit-packed rows over GF(2) (MulMod2), packing included; bit-packed = PopcountMul (integer counts)",
			build: func(rng *rand.Rand, n int, _ bool) (mmCase, error) {
				a, b := bitsMatrix(rng, n, n), bitsMatrix(rng, n, n)
				return mmCase{n, n, n, 2, "integer / mod 2", append(denseRuns(a, b, strassenLimit), binaryRuns(a, b)...)}, nil
			}},
	}
	for _, d := range matmulData {
		x := data[d.id]
		rows, cols := x.Dims()
		distinct := maxDistinct(x)
		panels = append(panels, mmPanel{id: d.id, logX: true,
			title:  fmt.Sprintf("%s: %d×%d · %d×n N(0,1)", d.label, rows, cols, cols),
			xlabel: "n (columns of the weights)",
			xs:     []int{64, 128, 256, 512, 1024}, quickXs: []int{8, 16},
			cardreg: "X·W (Matrix.Mul: data encoded by columns, weights dense)",
			build: func(rng *rand.Rand, n int, _ bool) (mmCase, error) {
				w := normalMatrix(rng, cols, n)
				return mmCase{rows, cols, n, distinct, "real", append(denseRuns(x, w, naiveLimit), encodedMul(x, w))}, nil
			}})
	}
	shape := func(m, p, n int, quick bool) (int, int, int) {
		if quick {
			return m / 10, p / 4, n / 10
		}
		return m, p, n
	}
	panels = append(panels,
		mmPanel{id: "wide", title: "P << M, N: 2000×40 · 40×2000", xlabel: "k (distinct values)",
			xs: ks, quickXs: []int{2, 5},
			cardreg: "Algorithm 3 (MulCompressed, both factors encoded)",
			build: func(rng *rand.Rand, k int, quick bool) (mmCase, error) {
				m, p, n := shape(2000, 40, 2000, quick)
				a, b := paperMatrix(rng, m, p, k), paperMatrix(rng, p, n, k)
				return mmCase{m, p, n, k, "real", append(denseRuns(a, b, strassenLimit), algorithm3(a, b))}, nil
			}},
		mmPanel{id: "long", title: "P >> M, N: 100×10000 · 10000×100", xlabel: "k (distinct values)",
			xs: ks, quickXs: []int{2, 5},
			cardreg: "Algorithm 2 (RowMatrix.Mul, A encoded by rows)",
			build: func(rng *rand.Rand, k int, quick bool) (mmCase, error) {
				m, p, n := shape(100, 10000, 100, quick)
				a, b := paperMatrix(rng, m, p, k), paperMatrix(rng, p, n, k)
				return mmCase{m, p, n, k, "real", append(denseRuns(a, b, strassenLimit), algorithm2(a, b))}, nil
			}},
		mmPanel{id: "sweep", title: "Cardinality sweep: 512×80 · 80×512", xlabel: "k (distinct values)", logX: true,
			xs: []int{2, 4, 8, 16, 32, 64, 128, 256, 512}, quickXs: []int{2, 8, 32},
			cardreg: "Algorithm 3 (MulCompressed, both factors encoded)",
			build: func(rng *rand.Rand, k int, quick bool) (mmCase, error) {
				m, p, n := 512, 80, 512
				if quick {
					m, n = 128, 128
				}
				a, b := paperMatrix(rng, m, p, k), paperMatrix(rng, p, n, k)
				return mmCase{m, p, n, k, "real", append(denseRuns(a, b, strassenLimit), algorithm3(a, b))}, nil
			}},
	)
	return panels
}

func maxDistinct(x *mat.Dense) int {
	m, err := cardmat.Encode(x)
	if err != nil {
		return 0
	}
	return slices.Max(m.Distinct())
}

func runMatmul(cfg Config) (*Result, error) {
	data := map[string]*mat.Dense{}
	for _, d := range matmulData {
		loaded, err := LoadCSV(cfg.dataFile(d.file), d.cols)
		if err != nil {
			return nil, err
		}
		data[d.id] = loaded.X
	}
	panels := matmulPanels(data)
	r := &Result{
		Columns: []string{"panel", "x", "method", "rep", "seed", "rows", "inner", "cols", "distinct", "product", "status", "seconds"},
		Timing:  []string{"seconds"},
	}
	params := map[string]any{
		"timing":         "one timed call per (panel, x, method, repetition), after one untimed warm-up when M·P·N ≤ 2^26; every repetition draws new matrices (data: new weights)",
		"preprocessing":  "included in cardreg's time (encoding, bit packing); gonum and cardreg write into outputs allocated once per point, naive and Strassen allocate",
		"synthetic":      "integers uniform on 1..k minus one N(0,1) draw shared by all entries (the paper's construction); binary: independent fair bits",
		"limits_MPN":     map[string]int{"naive": naiveLimit, "Strassen": strassenLimit, "gonum": gonumLimit},
		"skipped":        "a method beyond its limit is recorded with status skipped and seconds NA",
		"check":          "every product is compared with gonum's (or, when gonum is skipped, the bit-packed counts): equal to 1e-9 relative, mod 2 for the GF(2) methods; a mismatch fails the run",
		"binary_methods": "naive, Strassen, gonum and bit-packed (cardmat.PopcountMul) compute integer counts; Four Russians (internal/matmulbase) and cardreg (cardmat.MulMod2, the paper's tables on bit-packed rows) compute the product over GF(2)",
	}
	var pp []map[string]any
	total := 0
	for _, p := range panels {
		xs := p.xs
		if cfg.Quick {
			xs = p.quickXs
		}
		total += len(xs) * cfg.Seeds
		pp = append(pp, map[string]any{"panel": p.id, "title": p.title, "x": xs, "cardreg": p.cardreg})
	}
	params["panels"] = pp
	r.Params = params
	done := 0
	for pi, p := range panels {
		xs := p.xs
		if cfg.Quick {
			xs = p.quickXs
		}
		for _, x := range xs {
			for rep := 0; rep < cfg.Seeds; rep++ {
				seed := cfg.SeedFor(rep)
				rng := rand.New(rand.NewPCG(seed, uint64(pi)<<32|uint64(x)))
				c, err := p.build(rng, x, cfg.Quick)
				if err != nil {
					return nil, fmt.Errorf("%s, x = %d: %w", p.id, x, err)
				}
				times, err := timeCase(c)
				if err != nil {
					return nil, fmt.Errorf("%s, x = %d: %w", p.id, x, err)
				}
				for _, run := range c.runs {
					status, secs := "ok", math.NaN()
					if run.run == nil {
						status = "skipped"
					} else {
						secs = times[run.name]
					}
					product := "integer"
					switch {
					case run.mod2:
						product = "mod 2"
					case c.product == "real":
						product = "real"
					}
					r.Add(p.id, x, run.name, rep, seed, c.m, c.p, c.n, c.distinct, product, status, secs)
				}
				done++
				cfg.progress(done, total)
			}
		}
	}
	summary, err := timingSummary(r, panels)
	if err != nil {
		return nil, err
	}
	r.Summary = summary
	fig, err := timingFigure(summary, r, 2)
	if err != nil {
		return nil, err
	}
	r.Figure = fig
	return r, nil
}

// timeCase runs every method of c once (after a warm-up for small
// products), checks its product against the reference and returns the
// times in seconds.
func timeCase(c mmCase) (map[string]float64, error) {
	times := map[string]float64{}
	warm := c.m*c.p*c.n <= warmLimit
	// The reference: gonum when it runs, else the first integer method.
	order := slices.Clone(c.runs)
	slices.SortStableFunc(order, func(a, b mmRun) int {
		return rank(a) - rank(b)
	})
	var ref *mat.Dense
	for _, run := range order {
		if run.run == nil {
			continue
		}
		if warm {
			if err := run.run(); err != nil {
				return nil, fmt.Errorf("%s: %w", run.name, err)
			}
		}
		start := time.Now()
		err := run.run()
		times[run.name] = time.Since(start).Seconds()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", run.name, err)
		}
		got := run.result()
		if ref == nil {
			if run.mod2 {
				return nil, errors.New("no integer product to check against")
			}
			ref = got
			continue
		}
		if err := sameProduct(got, ref, run.mod2); err != nil {
			return nil, fmt.Errorf("%s disagrees with the reference: %w", run.name, err)
		}
	}
	return times, nil
}

// rank orders the runs for timing: gonum first (the reference), then the
// other integer products, then the products over GF(2).
func rank(r mmRun) int {
	switch {
	case r.name == mGonum && r.run != nil:
		return 0
	case r.mod2:
		return 2
	}
	return 1
}

// sameProduct reports whether got equals ref to 1e-9 relative to ref's
// largest absolute row sum, ‖ref‖_∞, at least 1 (exactly, mod 2, when mod2
// is set).
func sameProduct(got, ref *mat.Dense, mod2 bool) error {
	gr, gc := got.Dims()
	rr, rc := ref.Dims()
	if gr != rr || gc != rc {
		return fmt.Errorf("%d×%d, want %d×%d", gr, gc, rr, rc)
	}
	scale := math.Max(1, mat.Norm(ref, math.Inf(1)))
	for i := 0; i < rr; i++ {
		g, w := got.RawRowView(i), ref.RawRowView(i)
		for j := range w {
			want := w[j]
			if mod2 {
				want = math.Mod(want, 2)
			}
			if math.Abs(g[j]-want) > 1e-9*scale {
				return fmt.Errorf("entry (%d, %d) is %v, want %v", i+1, j+1, g[j], want)
			}
		}
	}
	return nil
}

// timingKey names the timings of one method at one x of one panel.
type timingKey struct {
	panel, method string
	x             int
}

// timingSummary computes the per-panel medians and ratios from the rows.
func timingSummary(r *Result, panels []mmPanel) ([]TimingPanel, error) {
	times, err := readTimings(r)
	if err != nil {
		return nil, err
	}
	var out []TimingPanel
	for _, p := range panels {
		tp := TimingPanel{Panel: p.id, Title: p.title, XLabel: p.xlabel, Cardreg: p.cardreg}
		xs, methods := panelAxes(r, p.id)
		tp.Methods = methods
		for _, x := range xs {
			pt := timingPoint(times, p.id, x, tp.Methods)
			tp.Points = append(tp.Points, pt)
			if g, ok := pt.Median[mGonum]; ok && tp.CrossoverX == nil && p.id == "sweep" && g < pt.Median[mCardreg] {
				tp.CrossoverX = &x
			}
		}
		out = append(out, tp)
	}
	return out, nil
}

// readTimings returns the seconds of the timed rows of r (not NA), by
// panel, method and x, then by repetition.
func readTimings(r *Result) (map[timingKey]map[string]float64, error) {
	col := func(name string) int { return slices.Index(r.Columns, name) }
	ip, ix, im, irep, is := col("panel"), col("x"), col("method"), col("rep"), col("seconds")
	times := map[timingKey]map[string]float64{}
	for _, row := range r.Rows {
		if row[is] == "NA" {
			continue
		}
		x, err := strconv.Atoi(row[ix])
		if err != nil {
			return nil, err
		}
		s, err := strconv.ParseFloat(row[is], 64)
		if err != nil {
			return nil, err
		}
		k := timingKey{row[ip], row[im], x}
		if times[k] == nil {
			times[k] = map[string]float64{}
		}
		times[k][row[irep]] = s
	}
	return times, nil
}

// panelAxes returns the xs of the panel's rows in their order of first
// appearance, and its methods in the order of timingMethods.
func panelAxes(r *Result, panel string) (xs []int, methods []string) {
	ip, ix, im := slices.Index(r.Columns, "panel"), slices.Index(r.Columns, "x"), slices.Index(r.Columns, "method")
	for _, row := range r.Rows {
		if row[ip] != panel {
			continue
		}
		x, _ := strconv.Atoi(row[ix])
		if !slices.Contains(xs, x) {
			xs = append(xs, x)
		}
		if !slices.Contains(methods, row[im]) {
			methods = append(methods, row[im])
		}
	}
	slices.SortFunc(methods, func(a, b string) int {
		return slices.Index(timingMethods, a) - slices.Index(timingMethods, b)
	})
	return xs, methods
}

// timingPoint returns the median time of each method at x in the panel,
// and the median over repetitions of its time divided by cardreg's (over
// the repetitions where cardreg's time is positive).
func timingPoint(times map[timingKey]map[string]float64, panel string, x int, methods []string) TimingPoint {
	pt := TimingPoint{X: x, Median: map[string]float64{}, Ratio: map[string]float64{}}
	ref := times[timingKey{panel, mCardreg, x}]
	for _, m := range methods {
		t := times[timingKey{panel, m, x}]
		if len(t) == 0 {
			continue
		}
		var vals, ratios []float64
		for rep, v := range t {
			vals = append(vals, v)
			if c, ok := ref[rep]; ok && c > 0 {
				ratios = append(ratios, v/c)
			}
		}
		pt.Median[m] = median(vals)
		if len(ratios) > 0 {
			pt.Ratio[m] = median(ratios)
		}
	}
	return pt
}

// median returns the median of xs (NaN for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// timingFigure draws one log-log panel per TimingPanel: the median time of
// every method against x, with the fastest and slowest repetition as bars.
func timingFigure(panels []TimingPanel, r *Result, cols int) (*Figure, error) {
	spread := timeSpread(r)
	var plots []*plot.Plot
	for _, tp := range panels {
		var series []Series
		for _, m := range timingMethods {
			if !slices.Contains(tp.Methods, m) {
				// keep the colour of each method fixed across panels
				series = append(series, Series{Name: m})
				continue
			}
			s := Series{Name: m}
			for _, pt := range tp.Points {
				v, ok := pt.Median[m]
				if !ok {
					continue
				}
				lo, hi := spread(tp.Panel, m, pt.X)
				s.XY = append(s.XY, plotter.XY{X: float64(pt.X), Y: v})
				s.Low = append(s.Low, lo)
				s.High = append(s.High, hi)
			}
			series = append(series, s)
		}
		logX := tp.Panel != "wide" && tp.Panel != "long"
		p, err := LinePanel(tp.Title, tp.XLabel, "seconds (median; bars: min–max)", logX, true, series...)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tp.Panel, err)
		}
		p.Legend.Left = true
		plots = append(plots, p)
	}
	return NewFigure(cols, plots...), nil
}

// timeSpread returns a lookup of the smallest and largest time of a
// method at one x over the repetitions.
func timeSpread(r *Result) func(panel, method string, x int) (float64, float64) {
	col := func(name string) int { return slices.Index(r.Columns, name) }
	ip, ix, im, is := col("panel"), col("x"), col("method"), col("seconds")
	type key struct {
		panel, method, x string
	}
	lo, hi := map[key]float64{}, map[key]float64{}
	for _, row := range r.Rows {
		v, err := strconv.ParseFloat(row[is], 64)
		if err != nil || math.IsNaN(v) {
			continue
		}
		k := key{row[ip], row[im], row[ix]}
		if l, ok := lo[k]; !ok || v < l {
			lo[k] = v
		}
		if h, ok := hi[k]; !ok || v > h {
			hi[k] = v
		}
	}
	return func(panel, method string, x int) (float64, float64) {
		k := key{panel, method, strconv.Itoa(x)}
		return lo[k], hi[k]
	}
}

// WriteTimingMarkdown writes one Markdown table per panel: the median time
// in milliseconds of every method at every x (– when skipped) and the
// median ratio gonum / cardreg.
func WriteTimingMarkdown(w io.Writer, panels []TimingPanel) error {
	var b strings.Builder
	for _, tp := range panels {
		fmt.Fprintf(&b, "\n### %s\n\ncardreg: %s.\n\n| %s | %s | gonum / cardreg |\n|---|%s--:|\n",
			tp.Title, tp.Cardreg, tp.XLabel, strings.Join(tp.Methods, " | "), strings.Repeat("--:|", len(tp.Methods)))
		for _, pt := range tp.Points {
			cells := []string{strconv.Itoa(pt.X)}
			for _, m := range tp.Methods {
				if v, ok := pt.Median[m]; ok {
					cells = append(cells, fmt.Sprintf("%.2f", 1e3*v))
				} else {
					cells = append(cells, "–")
				}
			}
			ratio := "–"
			if v, ok := pt.Ratio[mGonum]; ok {
				ratio = fmt.Sprintf("%.2f", v)
			}
			fmt.Fprintf(&b, "| %s | %s |\n", strings.Join(cells, " | "), ratio)
		}
		if tp.CrossoverX != nil {
			fmt.Fprintf(&b, "\ngonum is faster from %s = %d on.\n", strings.Fields(tp.XLabel)[0], *tp.CrossoverX)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
