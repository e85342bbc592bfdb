package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/internal/outfile"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/report"
	"github.com/cardsparse/cardreg/request"
	"gonum.org/v1/gonum/mat"
)

type lambdaFlags struct {
	arch, penalty, activation, data, target, format, groups string
	n, mc                                                   int
	xnorm, alip, slope, c, sigma, t                         float64
	nu                                                      optFloat
	weighted, unweighted, regression, noIntercept           bool
	seed                                                    uint64
}

// activationLip returns a_Lip of a named activation, from package deepreg
// (the one table of activations); --slope sets leaky relu's slope.
func activationLip(name string, slope float64) (float64, error) {
	if name == "leaky-relu" {
		name = "leaky-relu:" + strconv.FormatFloat(slope, 'g', -1, 64)
	}
	a, err := deepreg.ParseActivation(name)
	if err != nil {
		return 0, fmt.Errorf("--activation: %v; or give --alip", strings.TrimPrefix(err.Error(), "deepreg: "))
	}
	return a.Lipschitz(), nil
}

func newLambdaFlags() (*flag.FlagSet, *lambdaFlags) {
	fs := flag.NewFlagSet("lambda", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := &lambdaFlags{}
	fs.StringVar(&f.arch, "arch", "", "network widths p0,...,p_{L+1} (W^l is p_{l+1} x p_l; L hidden layers)")
	fs.StringVar(&f.penalty, "penalty", "cardinality", request.OrList(penalty.Names(func(k penalty.Kind) bool { return k.NetworkLambda })))
	fs.StringVar(&f.groups, "groups", "", "grouped: row labels of each weight matrix, layers separated by ';' (e.g. 0,0,1;0,1;0)")
	fs.BoolVar(&f.unweighted, "unweighted", false, "grouped: drop the sqrt(P_k) weights")
	fs.BoolVar(&f.weighted, "weighted", false, "use sqrt(P_l)*A^l instead of A^l")
	fs.StringVar(&f.activation, "activation", "relu", "relu, identity, leaky-relu, isru or arctan")
	fs.Float64Var(&f.slope, "slope", 0.01, "leaky-relu slope")
	fs.Float64Var(&f.alip, "alip", 0, "activation Lipschitz constant (overrides --activation)")
	fs.IntVar(&f.n, "n", 0, "number of samples")
	fs.Float64Var(&f.xnorm, "xnorm", 0, "||x||_n = sqrt(sum ||x_i||^2 / n)")
	fs.StringVar(&f.data, "data", "", "CSV file: n and ||x||_n from its predictor columns (networks), or the design (--regression)")
	fs.StringVar(&f.target, "target", "", "response column of --data (default: the last)")
	fs.Var(&f.nu, "nu", "nu > 0 (default: the smallest admissible, 1/(1 - M_G))")
	fs.Float64Var(&f.c, "C", 1, "the theorem's noise constant")
	fs.BoolVar(&f.regression, "regression", false, "Theorem 2 (linear regression) instead of Theorem 1 (networks)")
	fs.Float64Var(&f.sigma, "sigma", 0, "--regression: noise standard deviation")
	fs.Float64Var(&f.t, "t", 0.05, "--regression: the bound holds with probability 1 - t")
	fs.IntVar(&f.mc, "mc", 0, "--regression: Monte-Carlo draws of the effective noise 2 h*(X'U)")
	fs.Uint64Var(&f.seed, "seed", 1, "--regression: seed of the Monte-Carlo draws")
	fs.BoolVar(&f.noIntercept, "no-intercept", false, "--regression: do not centre the predictors")
	fs.StringVar(&f.format, "format", "text", "text or json")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: cardreg lambda [flags]

The theoretical tuning parameter of the source paper, with every ingredient.
Networks (Theorem 1 and its corollaries):
  cardreg lambda --arch 64,40,1 --n 1797 --xnorm 6.2 --penalty cardinality --activation relu
  cardreg lambda --arch 64,40,10 --data digits.csv --penalty cardinality
Linear regression (Theorem 2), on the paper's scale ||y - X b||^2 + lambda h(b):
  cardreg lambda --regression --data FILE.csv --sigma 1 --t 0.05 [--mc 2000]

Flags:
`)
		fs.PrintDefaults()
	}
	fs.SetOutput(io.Discard)
	return fs, f
}

func runLambda(args []string, stdout, stderr io.Writer) int {
	fs, f := newLambdaFlags()
	err := parseNoArgs(fs, args)
	if helped(fs, err, stdout) {
		return 0
	}
	if err == nil {
		err = f.validate()
	}
	if err != nil {
		return usageFailure(stderr, "lambda", err, "")
	}
	var out *report.Lambda
	if f.regression {
		out, err = regressionLambda(f)
	} else {
		out, err = networkLambda(f)
	}
	if err == nil {
		err = outfile.Write("", "", stdout, func(w io.Writer) error { return out.Write(w, f.format) })
	}
	return exitStatus(stderr, "lambda", err)
}

// validate checks the flags that do not depend on the data.
func (f *lambdaFlags) validate() error {
	if err := checkNu(f.nu); err != nil {
		return err
	}
	if f.format != "text" && f.format != "json" {
		return fmt.Errorf("unknown --format %q (text or json)", f.format)
	}
	kind, err := lookupPenalty(f.penalty, "unknown --penalty", func(k penalty.Kind) bool { return k.NetworkLambda })
	if err != nil {
		return err
	}
	if f.regression && kind.Needs != penalty.NeedsNothing {
		names := penalty.Names(func(k penalty.Kind) bool { return k.NetworkLambda && k.Theory && k.Needs == penalty.NeedsNothing })
		return errors.New("--regression supports " + request.JoinNames(names, "and"))
	}
	return nil
}

func networkLambda(f *lambdaFlags) (*report.Lambda, error) {
	widths, err := parseArch(f.arch)
	if err != nil {
		return nil, err
	}
	aLip := f.alip
	if aLip == 0 {
		if aLip, err = activationLip(f.activation, f.slope); err != nil {
			return nil, usagef("%v", err)
		}
	}
	n, xnorm := f.n, f.xnorm
	if f.data != "" {
		x, _, err := loadDesign(f.data, f.target)
		if err != nil {
			return nil, err
		}
		n, _ = x.Dims()
		xnorm = bounds.XNorm(x)
	}
	if n < 1 || !(xnorm > 0) {
		return nil, usagef("give --n and --xnorm, or --data")
	}
	net := bounds.Network{Widths: widths, ALip: aLip, N: n, XNorm: xnorm, Nu: f.nu.v, C: f.c, Unweighted: f.unweighted}
	kind, _ := penalty.Lookup(f.penalty) // known: checked by validate
	net.Penalty, _ = bounds.LayerPenaltyOf(kind, f.weighted)
	if net.Penalty == bounds.GroupedCardinality {
		if net.Groups, err = parseLayerGroups(f.groups); err != nil {
			return nil, err
		}
	}
	nc, err := bounds.NetworkLambda(net)
	if err == nil {
		err = networkOverflow(nc, aLip, xnorm)
	}
	if err != nil {
		return nil, err
	}
	return report.NetworkLambda(nc, report.NetworkInputs{ALip: aLip, XNorm: xnorm, N: n, Penalty: f.penalty, Weighted: f.weighted}), nil
}

func regressionLambda(f *lambdaFlags) (*report.Lambda, error) {
	if f.data == "" || !(f.sigma > 0) {
		return nil, usagef("--regression needs --data and --sigma > 0")
	}
	x, q, err := loadDesign(f.data, f.target)
	if err != nil {
		return nil, err
	}
	if !f.noIntercept {
		x = bounds.CentreColumns(x)
	}
	_, p := x.Dims()
	pen, nu, _, err := buildPenalty(penaltySpec{penalty: f.penalty, nu: f.nu}, p)
	if err != nil {
		return nil, err
	}
	mg, _ := bounds.PenaltyKernel(pen, p, 1)
	rc, err := bounds.RegressionLambda(x, q, f.sigma, f.t, mg, nu)
	if err != nil {
		return nil, usagef("%v", err)
	}
	th := &report.Theory{Lambda: rc.Lambda, LambdaT: rc.LambdaT, S: rc.S, Equivalence: rc.Equivalence, Sigma: f.sigma, SigmaFrom: "--sigma", T: f.t}
	if err := request.TheoryOverflow(th, p, q, request.CommandLine); err != nil {
		return nil, err
	}
	r := report.RegressionLambda(rc, report.RegressionInputs{MG: mg, Nu: nu, Sigma: f.sigma, T: f.t, N: x.RawMatrix().Rows, P: p, Penalty: f.penalty})
	if f.mc > 0 {
		est, err := bounds.EffectiveNoise(x, q, f.sigma, f.t, pen, f.mc, f.seed)
		if err != nil {
			return nil, err
		}
		r.AddMonteCarlo(est, rc.Lambda, f.mc, f.seed)
	}
	return r, nil
}

// parseLayerGroups reads "0,0,1;0,1;0": the row labels of each weight
// matrix, layers separated by semicolons.
func parseLayerGroups(s string) ([][]int, error) {
	if s == "" {
		return nil, usagef("--penalty grouped needs --groups (row labels per weight matrix, layers separated by ';')")
	}
	var out [][]int
	for _, layer := range strings.Split(s, ";") {
		var labels []int
		for _, f := range strings.Split(layer, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return nil, usagef("--groups: %q is not an integer label", f)
			}
			labels = append(labels, v)
		}
		out = append(out, labels)
	}
	return out, nil
}

func parseArch(s string) ([]int, error) {
	if s == "" {
		return nil, usagef("give --arch p0,...,p_{L+1}")
	}
	out, bad, ok := positiveInts(s)
	if !ok {
		return nil, usagef("--arch: %q is not a positive width", bad)
	}
	if len(out) < 3 {
		return nil, usagef("--arch needs at least three widths (input, one hidden layer, output)")
	}
	return out, nil
}

// loadDesign reads the predictors of a CSV file (every column but the
// target) and the number of responses (1).
func loadDesign(path, target string) (*mat.Dense, int, error) {
	t, err := readTableWith(path, data.Options{})
	if err != nil {
		return nil, 0, err
	}
	ti := len(t.Names()) - 1
	if target != "" {
		if ti, err = t.Index(target); err != nil {
			return nil, 0, usagef("%s: %v", path, err)
		}
	}
	if len(t.Names()) < 2 {
		return nil, 0, data.NoPredictors(path, "")
	}
	return t.DenseExcept(ti), 1, nil
}

// networkOverflow explains a Theorem 1 λ (or a corollary's) that
// overflows float64 by the ingredient bounds blames, or returns nil when
// all three are finite.
func networkOverflow(nc bounds.NetworkConstants, aLip, xnorm float64) error {
	factor, over := nc.Overflowing(aLip, xnorm)
	if !over {
		return nil
	}
	what := map[bounds.NetworkFactor]string{
		bounds.NoiseConstant: fmt.Sprintf("--C %g", nc.C),
		bounds.InputNorm:     fmt.Sprintf("||x||_n = %.3g (squared; --xnorm or --data)", xnorm),
		bounds.Activation:    fmt.Sprintf("a_Lip^(2L) = %.3g^%d (--alip or --activation)", aLip, 2*nc.L),
		bounds.KernelTerm:    fmt.Sprintf("M_G + 1 = %.3g", nc.MG+1),
	}[factor]
	return usagef("the theoretical lambda (Theorem 1) overflows float64, mostly because of %s", what)
}
