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

// matching runs -match: the lasso along glmnet's path, each λ fitted to
// the gap glmnet reached there (or to -uniform).
func matching(match string, uniform float64, reps int, rows *estimator.Rows, opts *estimator.Options) {
	x, ok := rows.X.(solver.DenseDesign)
	if !ok {
		log.Fatal("glmbench: -match needs dense rows")
	}
	matchedPath(match, opts.Family, x.X, mat.Col(nil, 0, rows.Y), uniform, 1e-8, reps)
}

// matchedPath fits the lasso along the λ of file (-certify-path's output:
// its lines "glmnet_path_gap_at λ_glmnet gap" give glmnet's path and the
// relative duality gap each of its fits reaches),
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
	stop := startProfile()
	defer stop()
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

// readMatch reads the lines "glmnet_path_gap_at λ gap" of file.
func readMatch(file string) (lams, gaps []float64) {
	f, err := os.Open(file)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3 || fs[0] != "glmnet_path_gap_at" {
			continue
		}
		l, err1 := strconv.ParseFloat(fs[1], 64)
		g, err2 := strconv.ParseFloat(fs[2], 64)
		if err1 != nil || err2 != nil {
			log.Fatalf("%s: %q: want λ and gap", file, sc.Text())
		}
		lams, gaps = append(lams, l), append(gaps, g)
	}
	return lams, gaps
}
