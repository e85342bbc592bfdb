// Command gobench times cardreg's network training on the digits data for
// the side-by-side comparison with PyTorch run by bench/deepreg/run.sh: the
// source paper's setup, a 64-40-10 relu network without biases, softmax
// cross-entropy, full batch, plain gradient steps W ← W − η∇ (η = 0.1),
// inputs divided by 16.
//
// Usage:
//
//	go run ./bench/deepreg/gobench [-iters 1000] [-reps 3] [-init FILE]
//
// It prints "name value" lines: seconds per iteration (median of -reps runs
// from the same initial weights, the figures evaluated only after the last
// iteration; _sec_per_iter is the wall time of the steps, _cpu_sec_per_iter
// the process CPU time of the whole deepreg.Train call, all threads), final
// loss and training accuracy, for the dense input, the compressed input
// (cardmat), and both with the projection of every column onto 8 distinct
// values after each step (the paper's heuristic). -init reads
// the weights {"weights": [W0, W1]} (rows of W^l) that the PyTorch script
// also reads; otherwise they are drawn from a seed and written to -init-out
// when given. Accuracy against wall time (the paper's figure) is the
// experiment simulate.Digits, `cardreg simulate digits`.
package main

import (
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/bench/internal/clock"
	"github.com/cardsparse/cardreg/cardmat"
	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

func main() {
	data := flag.String("data", "../shared/data/digits.csv", "digits CSV (64 pixel columns, then digit)")
	iters := flag.Int("iters", 1000, "gradient steps per run")
	reps := flag.Int("reps", 3, "timed runs (median reported)")
	lr := flag.Float64("lr", 0.1, "learning rate")
	initFile := flag.String("init", "", "initial weights as JSON (else drawn from -seed)")
	initOut := flag.String("init-out", "", "write the initial weights as JSON")
	seed := flag.Uint64("seed", 1, "seed of the initial weights")
	only := flag.String("variants", "dense,compressed,dense_project8,compressed_project8", "comma-separated variants to time")
	flag.Parse()
	x, y, err := readDigits(*data)
	if err != nil {
		fail(err)
	}
	start, err := initial(*initFile, *seed)
	if err != nil {
		fail(err)
	}
	if *initOut != "" {
		if err := writeInit(*initOut, start); err != nil {
			fail(err)
		}
	}
	cx, err := cardmat.Encode(x)
	if err != nil {
		fail(err)
	}
	variants := []variant{
		{"dense", solver.DenseDesign{X: x}, 0},
		{"compressed", cx, 0},
		{"dense_project8", solver.DenseDesign{X: x}, 8},
		{"compressed_project8", cx, 8},
	}
	for _, name := range strings.Split(*only, ",") {
		if !slices.ContainsFunc(variants, func(v variant) bool { return v.name == name }) {
			fail(fmt.Errorf("-variants: unknown variant %q", name))
		}
	}
	for _, v := range variants {
		if !slices.Contains(strings.Split(*only, ","), v.name) {
			continue
		}
		opts := &deepreg.Options{Loss: deepreg.CrossEntropy{}, LearningRate: *lr, Epochs: *iters, ReportEvery: *iters, ProjectK: v.project}
		times := make([]float64, *reps)
		cpu := make([]float64, *reps)
		var last deepreg.Epoch
		for r := range times {
			net := start.Clone()
			var res *deepreg.Result
			t, err := clock.Once(func() (err error) {
				res, err = deepreg.Train(net, v.design, y, opts)
				return err
			})
			if err != nil {
				fail(err)
			}
			last = res.History[len(res.History)-1]
			times[r] = last.Seconds / float64(*iters)
			cpu[r] = t.CPU / float64(*iters)
		}
		slices.Sort(times)
		slices.Sort(cpu)
		fmt.Printf("go_%s_sec_per_iter %.6g\ngo_%s_cpu_sec_per_iter %.6g\ngo_%s_final_loss %.6g\ngo_%s_accuracy %.6g\n",
			v.name, times[len(times)/2], v.name, cpu[len(cpu)/2], v.name, last.Loss, v.name, last.Metric)
	}
}

// variant is one timed configuration: the input's design and the number of
// distinct values each weight column is projected onto (0: none).
type variant struct {
	name    string
	design  solver.Design
	project int
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gobench:", err)
	os.Exit(1)
}

// readDigits reads the 64 pixel columns (divided by 16) and one-hot digits.
func readDigits(path string) (*mat.Dense, *mat.Dense, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) < 2 || len(recs[0]) != 65 {
		return nil, nil, fmt.Errorf("%s: want a header and 65 columns", path)
	}
	x := mat.NewDense(len(recs)-1, 64, nil)
	labels := make([]int, len(recs)-1)
	for i, rec := range recs[1:] {
		for j := 0; j < 65; j++ {
			v, err := strconv.ParseFloat(rec[j], 64)
			if err != nil {
				return nil, nil, fmt.Errorf("%s:%d: column %d: %w", path, i+2, j+1, err)
			}
			if j < 64 {
				x.Set(i, j, v/16)
			} else if v < 0 || v > 9 || v != float64(int(v)) {
				return nil, nil, fmt.Errorf("%s:%d: digit %v is not 0..9", path, i+2, v)
			} else {
				labels[i] = int(v)
			}
		}
	}
	return x, deepreg.OneHot(labels, 10), nil
}

type initJSON struct {
	Weights [][][]float64 `json:"weights"`
}

func initial(path string, seed uint64) (*deepreg.Network, error) {
	net, err := deepreg.New([]int{64, 40, 10}, []deepreg.Activation{deepreg.ReLU{}}, false, seed)
	if err != nil || path == "" {
		return net, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var in initJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(in.Weights) != len(net.Weights) {
		return nil, fmt.Errorf("%s: %d weight matrices, want %d", path, len(in.Weights), len(net.Weights))
	}
	for l, w := range net.Weights {
		r, c := w.Dims()
		if len(in.Weights[l]) != r {
			return nil, fmt.Errorf("%s: W^%d has %d rows, want %d", path, l, len(in.Weights[l]), r)
		}
		for i, row := range in.Weights[l] {
			if len(row) != c {
				return nil, fmt.Errorf("%s: W^%d row %d has %d entries, want %d", path, l, i, len(row), c)
			}
			w.SetRow(i, row)
		}
	}
	return net, nil
}

func writeInit(path string, net *deepreg.Network) error {
	var out initJSON
	for _, w := range net.Weights {
		r, _ := w.Dims()
		var rows [][]float64
		for i := 0; i < r; i++ {
			rows = append(rows, mat.Row(nil, i, w))
		}
		out.Weights = append(out.Weights, rows)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
