package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cardsparse/cardreg/bounds"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/internal/jsonx"
)

// Lambda is a theoretical λ with its ingredients, as cardreg lambda
// prints it: JSON of the fields, or text rows in order.
type Lambda struct {
	Fields map[string]any
	Text   [][2]string
}

// MarshalJSON prints the fields (non-finite numbers as null).
func (r *Lambda) MarshalJSON() ([]byte, error) { return jsonx.MarshalFinite(r.Fields) }

// Write prints the result as JSON ("json") or as a two-column text table.
func (r *Lambda) Write(w io.Writer, format string) error {
	if format == "json" {
		return jsonx.Write(w, r)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, kv := range r.Text {
		fmt.Fprintf(tw, "%s\t%s\n", kv[0], kv[1])
	}
	return tw.Flush()
}

// NetworkInputs are the inputs of Theorem 1 a report names besides the
// constants: the activation's Lipschitz constant, n, ‖x‖ₙ, the penalty's
// name and whether the weight matrices are weighted.
type NetworkInputs struct {
	ALip, XNorm float64
	N           int
	Penalty     string
	Weighted    bool
}

// NetworkLambda reports Theorem 1's λ and its corollaries'.
func NetworkLambda(nc bounds.NetworkConstants, in NetworkInputs) *Lambda {
	r := &Lambda{Fields: map[string]any{"lambda": nc.Lambda, "lambda_theorem1": nc.Lambda, "lambda_l1_corollary": nc.LambdaL1,
		"lambda_cardinality_corollary": nc.LambdaCardinality, "M_G": nc.MG, "M_layers": nc.LayerM,
		"P": nc.P, "L": nc.L, "a_lip": in.ALip, "xnorm": in.XNorm, "n": in.N, "nu_min": nc.NuMin, "nu": nc.Nu,
		"C": nc.C, "c_lip": nc.CLip, "R_prime": nc.RPrime, "R": nc.R, "penalty": in.Penalty, "weighted": in.Weighted}}
	r.Text = [][2]string{
		{"lambda (Theorem 1)", fmt.Sprintf("%.6g", nc.Lambda)},
		{"lambda, l1 corollary", fmt.Sprintf("%.6g", nc.LambdaL1)},
		{"lambda, cardinality corollary", fmt.Sprintf("%.6g", nc.LambdaCardinality)},
		{"C", fmt.Sprintf("%g (the theorem's noise constant; default 1)", nc.C)},
		{"M_G", fmt.Sprintf("%.6g (per weight matrix %v)", nc.MG, fmtFloats(nc.LayerM))},
		{"nu_min = 1/(1 - M_G)", fmt.Sprintf("%.6g (nu used %.6g)", nc.NuMin, nc.Nu)},
		{"P (parameters), L (hidden layers)", fmt.Sprintf("%d, %d", nc.P, nc.L)},
		{"a_Lip, n, ||x||_n", fmt.Sprintf("%g, %d, %.6g", in.ALip, in.N, in.XNorm)},
		{"c_Lip, R', R", fmt.Sprintf("%.6g, %.6g, %.6g", nc.CLip, nc.RPrime, nc.R)},
		{"formula", "C (M_G + 1) a^(2L) ||x||_n^2 (sqrt2/L)^(2L-1) sqrt(log 2P) log(2n)/sqrt(n)"},
	}
	return r
}

// RegressionInputs are the inputs of Theorem 2 a report names besides
// the constants: M_G, ν, σ, t, the design's n×p and the penalty's name.
type RegressionInputs struct {
	MG, Nu, Sigma, T float64
	N, P             int
	Penalty          string
}

// RegressionLambda reports Theorem 2's λ.
func RegressionLambda(rc bounds.RegressionConstants, in RegressionInputs) *Lambda {
	return &Lambda{
		Fields: map[string]any{"lambda": rc.Lambda, "lambda_t": rc.LambdaT, "s": rc.S, "equivalence": rc.Equivalence,
			"M_G": in.MG, "nu": in.Nu, "sigma": in.Sigma, "t": in.T, "n": in.N, "p": in.P, "penalty": in.Penalty},
		Text: [][2]string{
			{"lambda (Theorem 2)", fmt.Sprintf("%.6g = max(M_G, 1/nu) * lambda_t (paper scale; glmnet scale %.6g)", rc.Lambda, datafit.GlmnetLambda(rc.Lambda, in.N))},
			{"lambda_t", fmt.Sprintf("%.6g = 2 sigma sqrt(N s) sqrt(2 log(p q / t)), bounds 2||X'U||_inf w.p. 1 - t", rc.LambdaT)},
			{"s", fmt.Sprintf("%.6g = 2 max_j ||x_j||^2 / N", rc.S)},
			{"max(M_G, 1/nu)", fmt.Sprintf("%.6g (M_G %.6g, nu %.6g)", rc.Equivalence, in.MG, in.Nu)},
		},
	}
}

// AddMonteCarlo adds the Monte-Carlo estimate est of the effective noise
// (draws draws with seed seed) and compares it with Theorem 2's λ.
func (r *Lambda) AddMonteCarlo(est, lambda float64, draws int, seed uint64) {
	r.Fields["effective_noise_mc"] = est
	r.Fields["mc_draws"] = draws
	cmp := "below the Theorem 2 lambda, as it should be"
	if est > lambda {
		cmp = "ABOVE the Theorem 2 lambda"
	}
	r.Text = append(r.Text, [2]string{"Monte Carlo lambda_{h,t}", fmt.Sprintf("%.6g = (1-t)-quantile of 2 h*(X'U), %d draws, seed %d; %s", est, draws, seed, cmp)})
}

// fmtFloats prints v as [a b c] with 6 significant digits.
func fmtFloats(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'g', 6, 64)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
