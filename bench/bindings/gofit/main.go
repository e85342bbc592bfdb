// Command gofit is the Go side of bench/bindings/run.sh: the same 5000×500
// gaussian cardinality fit at one λ that bench.py times through the Python
// package, here through the Go library directly (estimator.Fit on
// estimator.NewRows), timing only the fit. With -via binding it calls
// package binding instead, the Go function behind cardreg_fit (its checks,
// its JSON document), natively: the difference between the two is the
// binding's own cost, the rest of Python's is cgo's and ctypes'.
//
//	go run ./bench/bindings/gofit -data FILE [-n 5000 -p 500 -lambda 50 -reps 3]
//
// FILE is bench.py's: X (n·p float64, row-major) then y (n float64),
// little-endian. Each repetition prints its wall time and the process's CPU
// time (user + system, syscall.Getrusage) around the fit.
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"syscall"
	"time"

	"github.com/cardsparse/cardreg/binding"
	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"gonum.org/v1/gonum/mat"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("gofit: ")
	file := flag.String("data", "", "the data file bench.py wrote")
	n := flag.Int("n", 5000, "rows")
	p := flag.Int("p", 500, "columns")
	lambda := flag.Float64("lambda", 50, "λ on cardreg's scale")
	reps := flag.Int("reps", 3, "fits to time")
	via := flag.String("via", "estimator", "estimator (the Go library) or binding (package binding, what the C library calls, without cgo)")
	flag.Parse()
	if *via != "estimator" && *via != "binding" {
		log.Fatalf("-via %q: estimator or binding", *via)
	}
	x, y, err := read(*file, *n, *p)
	if err != nil {
		log.Fatal(err)
	}
	// The penalty as the command line and the bindings build it: the
	// cardinality norm with its default ν.
	kind, ok := penalty.Lookup("cardinality")
	if !ok {
		log.Fatal("no cardinality penalty")
	}
	pen, _, err := bounds.Build(kind, penalty.Inputs{P: *p}, false)
	if err != nil {
		log.Fatal(err)
	}
	for r := 1; r <= *reps; r++ {
		if *via == "binding" {
			opts := fmt.Appendf(nil, `{"lambda": %v, "penalty": %q}`, *lambda, kind.Name)
			c0, w0 := cpu(), time.Now()
			res, err := binding.Fit(&binding.Input{X: x, N: *n, P: *p, Y: y}, opts)
			w1, c1 := time.Now(), cpu()
			if err != nil {
				log.Fatal(err)
			}
			_, gap, _, _ := res.Status(0)
			fmt.Printf("binding rep=%d wall_seconds=%.4f cpu_seconds=%.4f gap=%.3g\n", r, w1.Sub(w0).Seconds(), c1-c0, gap)
			continue
		}
		c0, w0 := cpu(), time.Now()
		m, err := estimator.Fit(estimator.NewRows(mat.NewDense(*n, *p, x), y), pen, *lambda, &estimator.Options{})
		w1, c1 := time.Now(), cpu()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("go rep=%d wall_seconds=%.4f cpu_seconds=%.4f iterations=%d gap=%.3g clusters=%d\n",
			r, w1.Sub(w0).Seconds(), c1-c0, m.Iterations, m.Gap, len(m.Clusters(0)))
	}
}

// read returns X (row-major, n×p) and y from file.
func read(file string, n, p int) ([]float64, []float64, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	if len(b) != 8*(n*p+n) {
		return nil, nil, fmt.Errorf("%s: %d bytes, not 8·(n·p + n) = %d", file, len(b), 8*(n*p+n))
	}
	v := make([]float64, n*p+n)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return v[:n*p], v[n*p:], nil
}

// cpu returns the process's user + system CPU time in seconds.
func cpu() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		log.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
