// Command matmulbench times cardreg's compressed and binary products for the
// side-by-side comparison with NumPy/OpenBLAS and M4RI run by
// bench/matmul/run.sh, and, with -paper, runs the source paper's settings:
// the experiments matmul, powers and markov of package simulate (the same
// as `cardreg simulate matmul|powers|markov`), printed as Markdown tables.
//
// Usage:
//
//	go run ./bench/matmulbench [-reps 5] [-sizes 2048,4096] [-seed 1]
//	go run ./bench/matmulbench -paper [-reps 5] [-seed 1] [-data ../shared/data] [-out DIR]
//
// Without -paper it prints "name value" lines (seconds, the median of -reps
// runs after one warm-up, timed in-process; NAME is the wall time, NAME_cpu
// the process CPU time, all threads). The matrices are those of
// bench/matmul: binary N×N with independent fair bits, and the letter-like
// 20000×16 (integers uniform on 0..9) times 16×1024 (standard normal).
//
// With -paper, -reps is the number of repetitions (new matrices each; the
// tables show medians), -seed the base seed, and -out, when set, a folder
// where each experiment's CSV, JSON, PNG and SVG are saved.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/bench/internal/clock"
	"github.com/cardsparse/cardreg/cardmat"
	"gonum.org/v1/gonum/mat"
)

func main() {
	reps := flag.Int("reps", 5, "timed runs per measurement (median reported)")
	sizes := flag.String("sizes", "2048,4096", "binary matrix sizes")
	seed := flag.Uint64("seed", 1, "random seed")
	paper := flag.Bool("paper", false, "run the source paper's settings (simulate: matmul, powers, markov) and print Markdown tables")
	data := flag.String("data", "../shared/data", "directory of the real data sets (for -paper)")
	out := flag.String("out", "", "with -paper: also save each experiment's CSV, JSON, PNG and SVG in this folder")
	gonumMax := flag.Int("gonum-max", 2048, "largest binary size also timed with gonum's Dense.Mul")
	flag.Parse()
	if *reps < 1 {
		fail(fmt.Errorf("-reps must be at least 1, got %d", *reps))
	}
	if *paper {
		if err := runPaper(*reps, *seed, *data, *out); err != nil {
			fail(err)
		}
		return
	}
	ns, err := parseSizes(*sizes)
	if err != nil {
		fail(err)
	}
	for _, n := range ns {
		binaryLines(n, *reps, *seed, n <= *gonumMax)
	}
	letterLines(*reps, *seed)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "matmulbench:", err)
	os.Exit(1)
}

func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-sizes: %q is not a positive integer", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// median times fn reps times after one warm-up and returns the median wall
// and the median process CPU seconds (bench/internal/clock).
func median(reps int, fn func()) clock.Times {
	t, _ := clock.Median(reps, func() error { fn(); return nil })
	return t
}

// line prints NAME (median wall seconds) and NAME_cpu (median process CPU
// seconds, all threads).
func line(name string, t clock.Times) {
	fmt.Printf("%s %.6g\n%s_cpu %.6g\n", name, t.Wall, name, t.CPU)
}

// randomBinary returns an r×c matrix of fair random bits.
func randomBinary(rng *rand.Rand, r, c int) *mat.Dense {
	a := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		row := a.RawRowView(i)
		for j := range row {
			row[j] = float64(rng.IntN(2))
		}
	}
	return a
}

// binaryLines prints, for N×N fair bits: packing, the GF(2) product packed
// to packed, the integer product, and gonum's product when asked.
func binaryLines(n, reps int, seed uint64, withGonum bool) {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	a, b := randomBinary(rng, n, n), randomBinary(rng, n, n)
	var pa, pb *cardmat.Binary
	line(fmt.Sprintf("cardreg_binary_encode_%d", n), median(reps, func() {
		pa, _ = cardmat.EncodeBinary(a)
		pb, _ = cardmat.EncodeBinary(b)
	}))
	line(fmt.Sprintf("cardreg_binary_mod2_%d", n), median(reps, func() { cardmat.MulMod2(pa, pb) }))
	procs := runtime.GOMAXPROCS(1) // M4RI from Debian runs on one thread
	line(fmt.Sprintf("cardreg_binary_mod2_1thread_%d", n), median(reps, func() { cardmat.MulMod2(pa, pb) }))
	runtime.GOMAXPROCS(procs)
	line(fmt.Sprintf("cardreg_binary_counts_%d", n), median(reps, func() { cardmat.PopcountMul(pa, pb) }))
	if withGonum {
		line(fmt.Sprintf("gonum_binary_%d", n), median(reps, func() {
			var c mat.Dense
			c.Mul(a, b)
		}))
	}
}

// letterLike returns the 20000×16 · 16×1024 pair of bench/matmul.
func letterLike(seed uint64) (*mat.Dense, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 20000))
	x := mat.NewDense(20000, 16, nil)
	x.Apply(func(_, _ int, _ float64) float64 { return float64(rng.IntN(10)) }, x)
	v := mat.NewDense(16, 1024, nil)
	v.Apply(func(_, _ int, _ float64) float64 { return rng.NormFloat64() }, v)
	return x, v
}

// letterLines prints the letter-like product: gonum's, cardreg's with
// encoding included (fresh output, like gonum's), encoding alone, and the
// product alone into a reused output.
func letterLines(reps int, seed uint64) {
	x, v := letterLike(seed)
	line("gonum_letter", median(reps, func() {
		var c mat.Dense
		c.Mul(x, v)
	}))
	line("cardreg_letter", median(reps, func() {
		m, err := cardmat.Encode(x)
		if err != nil {
			fail(err)
		}
		var c mat.Dense
		m.Mul(&c, v)
	}))
	var m *cardmat.Matrix
	line("cardreg_letter_encode", median(reps, func() { m, _ = cardmat.Encode(x) }))
	out := mat.NewDense(20000, 1024, nil)
	line("cardreg_letter_product_reused", median(reps, func() { m.Mul(out, v) }))
	line("gonum_letter_reused", median(reps, func() { out.Mul(x, v) }))
}
