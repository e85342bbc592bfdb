package main

import (
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/cardmat"
	"github.com/cardsparse/cardreg/internal/matmulbase"
	"gonum.org/v1/gonum/mat"
)

// naiveLimit is the largest M·P·N timed with the naive triple loop (about a
// second here).
const naiveLimit = 1 << 28

// method is one timed way of computing a product, preprocessing included.
type method struct {
	name string
	run  func()
}

// table prints a Markdown table: one row per setting, the median time in
// milliseconds of every method (– when skipped) and gonum's time divided by
// the last method's (a cardreg method, never skipped).
type table struct {
	reps    int
	methods []string
}

func (t *table) header(title, setting string) {
	fmt.Printf("\n### %s\n\n| %s | %s | gonum / %s |\n|---|%s--:|\n", title, setting,
		strings.Join(t.methods, " | "), t.methods[len(t.methods)-1], strings.Repeat("--:|", len(t.methods)))
}

// row times the methods given (a nil run is skipped) in the table's order.
func (t *table) row(setting string, ms ...method) {
	times := map[string]float64{}
	for _, m := range ms {
		if m.run != nil {
			times[m.name] = median(t.reps, m.run)
		}
	}
	cells := []string{setting}
	for _, name := range t.methods {
		if v, ok := times[name]; ok {
			cells = append(cells, fmt.Sprintf("%.2f", 1e3*v))
		} else {
			cells = append(cells, "–")
		}
	}
	ratio := "–"
	if g, ok := times["gonum"]; ok {
		ratio = fmt.Sprintf("%.2f", g/times[t.methods[len(t.methods)-1]])
	}
	fmt.Printf("| %s | %s |\n", strings.Join(cells, " | "), ratio)
}

// paperMatrix fills r×c with integers uniform on 1..k minus one standard
// normal draw, the source paper's construction.
func paperMatrix(rng *rand.Rand, r, c, k int) *mat.Dense {
	shift := rng.NormFloat64()
	a := mat.NewDense(r, c, nil)
	a.Apply(func(_, _ int, _ float64) float64 { return float64(1+rng.IntN(k)) - shift }, a)
	return a
}

func normal(rng *rand.Rand, r, c int) *mat.Dense {
	a := mat.NewDense(r, c, nil)
	a.Apply(func(_, _ int, _ float64) float64 { return rng.NormFloat64() }, a)
	return a
}

// output returns the reused r×n output of a setting: every method writes
// into an output allocated once, so that no timing includes the page
// faults of a fresh allocation.
func output(a, b mat.Matrix) *mat.Dense {
	r, _ := a.Dims()
	_, n := b.Dims()
	return mat.NewDense(r, n, nil)
}

func gonumMul(a, b mat.Matrix) method {
	c := output(a, b)
	return method{"gonum", func() { c.Mul(a, b) }}
}

func naiveMul(a, b *mat.Dense) method {
	r, p := a.Dims()
	_, n := b.Dims()
	if r*p*n > naiveLimit {
		return method{name: "naive"}
	}
	return method{"naive", func() { matmulbase.Naive(a, b) }}
}

func strassenMul(a, b *mat.Dense, limit int) method {
	r, p := a.Dims()
	_, n := b.Dims()
	if r*p*n > limit {
		return method{name: "Strassen"}
	}
	return method{"Strassen", func() { matmulbase.Strassen(a, b, matmulbase.DefaultStrassenCutoff) }}
}

// compressedDense is cardreg's X·B with X encoded column-wise, encoding
// included.
func compressedDense(name string, a, b *mat.Dense) method {
	c := output(a, b)
	return method{name, func() {
		m, err := cardmat.Encode(a)
		if err != nil {
			fail(err)
		}
		m.Mul(c, b)
	}}
}

// compressedBoth is the paper's Algorithm 3 with both factors encoded,
// encoding included.
func compressedBoth(name string, a, b *mat.Dense) method {
	c := output(a, b)
	return method{name, func() {
		w, err := cardmat.Encode(a)
		if err != nil {
			fail(err)
		}
		v, err := cardmat.EncodeRows(b)
		if err != nil {
			fail(err)
		}
		cardmat.MulCompressed(c, w, v)
	}}
}

func runPaper(reps int, seed uint64, data string) error {
	rng := rand.New(rand.NewPCG(seed, 2))
	fmt.Printf("# cardreg matmul benchmarks: median of %d runs after one warm-up, ms; preprocessing (encoding, packing) included; gonum and cardreg write into outputs allocated once per setting; GOMAXPROCS %d\n", reps, runtime.GOMAXPROCS(0))
	square(reps, rng)
	binary(reps, rng)
	if err := realData(reps, rng, data); err != nil {
		return err
	}
	shapes(reps, rng)
	sweep(reps, rng)
	powers(reps, rng)
	markov(reps, rng)
	return nil
}

func square(reps int, rng *rand.Rand) {
	t := &table{reps, []string{"naive", "Strassen", "gonum", "X·B", "Algorithm 3"}}
	t.header("Square, k = 10 distinct values per column (non-binary)", "n")
	for _, n := range []int{256, 512, 1024, 2048} {
		a, b := paperMatrix(rng, n, n, 10), paperMatrix(rng, n, n, 10)
		t.row(strconv.Itoa(n), naiveMul(a, b), strassenMul(a, b, 1<<30), gonumMul(a, b),
			compressedDense("X·B", a, b), compressedBoth("Algorithm 3", a, b))
	}
}

func binary(reps int, rng *rand.Rand) {
	t := &table{reps, []string{"naive", "Strassen", "Four Russians (mod 2)", "gonum", "tables mod 2", "popcount counts"}}
	t.header("Square binary (fair bits)", "n")
	for _, n := range []int{256, 512, 1024, 2048, 4096} {
		a, b := randomBinaryRng(rng, n), randomBinaryRng(rng, n)
		gon := gonumMul(a, b)
		if n > 2048 {
			gon.run = nil
		}
		fr := method{"Four Russians (mod 2)", func() {
			if _, err := matmulbase.FourRussiansDense(a, b); err != nil {
				fail(err)
			}
		}}
		mod2 := method{"tables mod 2", func() { cardmat.MulMod2(mustBinary(a), mustBinary(b)) }}
		counts := method{"popcount counts", func() { cardmat.PopcountMul(mustBinary(a), mustBinary(b)) }}
		t.row(strconv.Itoa(n), naiveMul(a, b), strassenMul(a, b, 1<<30), fr, gon, mod2, counts)
	}
}

func randomBinaryRng(rng *rand.Rand, n int) *mat.Dense { return randomBinary(rng, n, n) }

func mustBinary(a *mat.Dense) *cardmat.Binary {
	b, err := cardmat.EncodeBinary(a)
	if err != nil {
		fail(err)
	}
	return b
}

// realData multiplies the paper's data sets by standard normal weights.
func realData(reps int, rng *rand.Rand, dir string) error {
	t := &table{reps, []string{"naive", "Strassen", "gonum", "X·W"}}
	t.header("Data times weights (X·W, W standard normal P×n)", "data, n")
	for _, d := range []struct {
		file string
		cols int
	}{{"digits.csv", 64}, {"letter_recognition.csv", 16}, {"clave_direction.csv", 20}} {
		x, err := readColumns(filepath.Join(dir, d.file), d.cols)
		if err != nil {
			return err
		}
		r, _ := x.Dims()
		for _, n := range []int{64, 256, 1024} {
			w := normal(rng, d.cols, n)
			t.row(fmt.Sprintf("%s %d×%d·%d×%d", strings.TrimSuffix(d.file, ".csv"), r, d.cols, d.cols, n),
				naiveMul(x, w), strassenMul(x, w, 1<<27), gonumMul(x, w), compressedDense("X·W", x, w))
		}
	}
	return nil
}

// readColumns reads the first cols columns of a CSV with a header row.
func readColumns(path string, cols int) (*mat.Dense, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("%s: no data rows", path)
	}
	x := mat.NewDense(len(recs)-1, cols, nil)
	for i, rec := range recs[1:] {
		if len(rec) < cols {
			return nil, fmt.Errorf("%s:%d: %d fields, want at least %d", path, i+2, len(rec), cols)
		}
		for j := 0; j < cols; j++ {
			v, err := strconv.ParseFloat(rec[j], 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: column %d: %w", path, i+2, j+1, err)
			}
			x.Set(i, j, v)
		}
	}
	return x, nil
}

// shapes: the paper's Figure with P ≪ M, N (Algorithm 3) and P ≫ M, N
// (Algorithm 2) over the number of distinct values k.
func shapes(reps int, rng *rand.Rand) {
	t := &table{reps, []string{"naive", "gonum", "X·B", "Algorithm 3"}}
	t.header("2000×40 · 40×2000 (P ≪ M, N)", "k")
	for _, k := range []int{2, 5, 10, 20, 40} {
		a, b := paperMatrix(rng, 2000, 40, k), paperMatrix(rng, 40, 2000, k)
		t.row(strconv.Itoa(k), naiveMul(a, b), gonumMul(a, b), compressedDense("X·B", a, b), compressedBoth("Algorithm 3", a, b))
	}
	t = &table{reps, []string{"naive", "gonum", "Algorithm 2"}}
	t.header("100×10000 · 10000×100 (P ≫ M, N)", "k")
	for _, k := range []int{2, 5, 10, 20, 40} {
		a, b := paperMatrix(rng, 100, 10000, k), paperMatrix(rng, 10000, 100, k)
		c := output(a, b)
		alg2 := method{"Algorithm 2", func() {
			w, err := cardmat.EncodeRows(a)
			if err != nil {
				fail(err)
			}
			w.Mul(c, b)
		}}
		t.row(strconv.Itoa(k), naiveMul(a, b), gonumMul(a, b), alg2)
	}
}

// sweep: the paper's cardinality sweep at 512×80 · 80×512, where the
// crossover between compressed and dense is read off.
func sweep(reps int, rng *rand.Rand) {
	t := &table{reps, []string{"gonum", "Algorithm 3", "X·B"}}
	t.header("Cardinality sweep, 512×80 · 80×512", "k")
	for _, k := range []int{2, 4, 8, 16, 32, 64, 128, 256, 512} {
		a, b := paperMatrix(rng, 512, 80, k), paperMatrix(rng, 80, 512, k)
		t.row(strconv.Itoa(k), gonumMul(a, b), compressedBoth("Algorithm 3", a, b), compressedDense("X·B", a, b))
	}
}

// powers: A, A², …, A^30 of a random 200-node adjacency matrix (edge
// probability 0.05), cumulative; A is encoded once.
func powers(reps int, rng *rand.Rand) {
	const n, steps = 200, 30
	adj := mat.NewDense(n, n, nil)
	adj.Apply(func(i, j int, _ float64) float64 {
		if i != j && rng.Float64() < 0.05 {
			return 1
		}
		return 0
	}, adj)
	t := &table{reps, []string{"gonum", "compressed"}}
	t.header(fmt.Sprintf("Powers A¹…A^%d of a %d-node adjacency matrix, cumulative", steps, n), "powers")
	dense := method{"gonum", func() {
		p, next := mat.DenseCopyOf(adj), mat.NewDense(n, n, nil)
		for s := 1; s < steps; s++ {
			next.Mul(adj, p)
			p, next = next, p
		}
	}}
	comp := method{"compressed", func() {
		m, err := cardmat.Encode(adj)
		if err != nil {
			fail(err)
		}
		p, next := mat.DenseCopyOf(adj), mat.NewDense(n, n, nil)
		for s := 1; s < steps; s++ {
			m.Mul(next, p)
			p, next = next, p
		}
	}}
	t.row(strconv.Itoa(steps), dense, comp)
}

// markov: 500 chains on 200 states for 100 steps, Y ← Pᵀ·Y, with a fixed
// transition matrix P = 0.9·(random 10-regular out-neighbours)/10 + 0.1/200
// (two distinct values per row); Pᵀ is encoded once.
func markov(reps int, rng *rand.Rand) {
	const states, chains, steps = 200, 500, 100
	pt := mat.NewDense(states, states, nil) // Pᵀ: column i is row i of P
	for i := 0; i < states; i++ {
		for j := 0; j < states; j++ {
			pt.Set(j, i, 0.1/states)
		}
		for _, j := range rng.Perm(states)[:10] {
			pt.Set(j, i, 0.9/10+0.1/states)
		}
	}
	y0 := mat.NewDense(states, chains, nil)
	for c := 0; c < chains; c++ {
		y0.Set(rng.IntN(states), c, 1)
	}
	t := &table{reps, []string{"gonum", "compressed"}}
	t.header(fmt.Sprintf("Markov chain, %d states, %d chains, %d steps, cumulative", states, chains, steps), "steps")
	dense := method{"gonum", func() {
		y, next := mat.DenseCopyOf(y0), mat.NewDense(states, chains, nil)
		for s := 0; s < steps; s++ {
			next.Mul(pt, y)
			y, next = next, y
		}
	}}
	comp := method{"compressed", func() {
		m, err := cardmat.Encode(pt)
		if err != nil {
			fail(err)
		}
		y, next := mat.DenseCopyOf(y0), mat.NewDense(states, chains, nil)
		for s := 0; s < steps; s++ {
			m.Mul(next, y)
			y, next = next, y
		}
	}}
	t.row(strconv.Itoa(steps), dense, comp)
}
