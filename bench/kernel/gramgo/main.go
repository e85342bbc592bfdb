// Command gramgo times internal/kernel's Gram product XᵀX on the shapes of
// bench/kernel/gram.py, for the side-by-side comparison with NumPy run by
// bench/kernel/run.sh.
//
// Usage:
//
//	GOMAXPROCS=1 go run ./bench/kernel/gramgo [-reps 7] [-kernel auto|avx2|go] [-shapes 5000x500,100000x100] [-cpuprofile FILE]
//
// X is n×p with standard normal entries (seed 1). Each shape prints one line
// "go_gram_NxP threads=T WALL ms CPU ms G GFlop/s kernel=K": the median wall and the
// median process CPU time of -reps calls after one warm-up, and GFlop/s
// counting n·p² flops on the wall time, as gram.py does. -shapes keeps the
// shapes named (gram.py's SHAPES); -cpuprofile writes a CPU profile of the
// timed calls (and their warm-ups; generating X is not profiled).
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"

	"github.com/cardsparse/cardreg/bench/internal/clock"
	"github.com/cardsparse/cardreg/internal/kernel"
)

func main() {
	reps := flag.Int("reps", 7, "timed calls per shape (median reported)")
	path := flag.String("kernel", "auto", "micro-kernels: auto (the best this CPU runs), avx2, or go")
	shapes := flag.String("shapes", "", "comma-separated NxP shapes to time (default all four)")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the timed calls")
	flag.Parse()
	switch *path {
	case "auto":
	case "avx2":
		kernel.UseAVX512 = false
	case "go":
		kernel.UseAsm = false
	default:
		fmt.Fprintf(os.Stderr, "gramgo: unknown -kernel %q (auto, avx2 or go)\n", *path)
		os.Exit(2)
	}
	var keep []string
	if *shapes != "" {
		keep = strings.Split(*shapes, ",")
	}
	var prof *os.File
	if *profile != "" {
		var err error
		if prof, err = os.Create(*profile); err != nil {
			log.Fatal(err)
		}
		defer prof.Close()
	}
	for _, s := range [][2]int{{5000, 500}, {100000, 100}, {1000, 50}, {200, 20}} {
		n, p := s[0], s[1]
		if keep != nil && !slices.Contains(keep, fmt.Sprintf("%dx%d", n, p)) {
			continue
		}
		rng := rand.New(rand.NewPCG(1, 1))
		x := make([]float64, n*p)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		dst := make([]float64, p*p)
		if prof != nil {
			if err := pprof.StartCPUProfile(prof); err != nil {
				log.Fatal(err)
			}
		}
		t, _ := clock.Median(*reps, func() error {
			kernel.Gram(dst, p, x, n, p, p)
			return nil
		})
		if prof != nil {
			pprof.StopCPUProfile()
			prof = nil // one profile a file: the first shape timed
		}
		fmt.Printf("go_gram_%dx%d threads=%d %.3f ms %.3f ms_cpu %.2f GFlop/s kernel=%s\n", n, p, runtime.GOMAXPROCS(0),
			t.Wall*1e3, t.CPU*1e3, float64(n)*float64(p)*float64(p)/t.Wall/1e9, *path)
	}
}
