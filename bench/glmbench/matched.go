package main

import (
	"bufio"
	"fmt"
	"log"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cardsparse/cardreg/bench/internal/clock"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// matching runs -certify-path or -match when asked and says whether it did.
func matching(certPath, match string, uniform float64, reps int, rows *estimator.Rows, h penalty.Penalty, opts *estimator.Options) bool {
	switch {
	case certPath != "":
		certifyPath(certPath, rows, h, opts)
	case match != "":
		x, ok := rows.X.(solver.DenseDesign)
		if !ok {
			log.Fatal("-match needs dense rows")
		}
		matchedPath(match, opts.Family, x.X, mat.Col(nil, 0, rows.Y), uniform, 1e-8, reps)
	default:
		return false
	}
	return true
}

// matchedPath fits the lasso along the λ of file (lines "λ_glmnet gap":
// glmnet's path and the relative duality gap each of its fits reaches),
// each λ to its own gap (never below floor), warm started through one
// working set as a path is, and prints the CPU and wall seconds, the
// number of λ and the worst ratio of cardreg's gap to the one matched.
// uniform > 0 fits every λ to that gap instead.
func matchedPath(file string, fam datafit.Family, x *mat.Dense, y []float64, uniform, floor float64, reps int) {
	lams, gaps := readMatch(file)
	n, _ := x.Dims()
	loss, err := datafit.NewLoss(fam, &datafit.Data{X: x, Y: y})
	if err != nil {
		log.Fatal(err)
	}
	var times, cpu []float64
	worst := 0.0
	for r := 0; r <= reps; r++ {
		c0, start := clock.CPU(), time.Now()
		ws := &solver.WorkingSet{}
		var warm mat.Matrix
		for i, l := range lams {
			tol := max(gaps[i], floor)
			if uniform > 0 {
				tol = uniform
			}
			p := solver.Problem{Loss: loss, Penalty: penalty.L1{}, Lambda: 2 * float64(n) * l}
			res, err := solver.Minimize(p, warm, &solver.Settings{Tol: tol, MaxIter: 100000}, ws)
			if err != nil {
				log.Fatal(err)
			}
			warm = res.Theta
			if r == 0 {
				worst = max(worst, res.Gap/tol)
			}
		}
		if r > 0 {
			times = append(times, time.Since(start).Seconds())
			cpu = append(cpu, clock.CPU()-c0)
		}
	}
	sort.Float64s(times)
	sort.Float64s(cpu)
	fmt.Printf("cardreg_matched_len %d\ncardreg_matched_worst_ratio %.3g\ncardreg_seconds %.4f\ncardreg_cpu_seconds %.4f\n",
		len(lams), worst, times[len(times)/2], cpu[len(cpu)/2])
}

// readMatch reads the lines "λ gap" of file.
func readMatch(file string) (lams, gaps []float64) {
	f, err := os.Open(file)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 2 {
			continue
		}
		l, err1 := strconv.ParseFloat(fs[0], 64)
		g, err2 := strconv.ParseFloat(fs[1], 64)
		if err1 != nil || err2 != nil {
			log.Fatalf("%s: %q: want λ and gap", file, sc.Text())
		}
		lams, gaps = append(lams, l), append(gaps, g)
	}
	return lams, gaps
}

// certifyPath prints "λ_glmnet gap" for every line "λ_glmnet intercept
// β₁ … β_p" of file (glmnet's path), the gap cardreg's certificate finds
// for those coefficients: the input of -match.
func certifyPath(file string, rows *estimator.Rows, h penalty.Penalty, opts *estimator.Options) {
	b, err := os.ReadFile(file)
	if err != nil {
		log.Fatal(err)
	}
	n, p := rows.X.Dims()
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) != p+2 {
			log.Fatalf("%s: a line of %d fields, want %d", file, len(f), p+2)
		}
		v := make([]float64, len(f))
		for i, s := range f {
			if v[i], err = strconv.ParseFloat(s, 64); err != nil {
				log.Fatal(err)
			}
		}
		gap, err := estimator.Certify(rows, h, estimator.FromGlmnet(v[0], n), v[2:], opts)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%.17g %.3g\n", v[0], gap)
	}
}
