package main

import (
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/report"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
)

// The warning of a fit that did not converge gives advice that fits the
// cause (more --max-iter cannot help a stalled fit), and a failed --relax
// refit does not hide that the penalised fit did not converge either.
func TestFitWarning(t *testing.T) {
	gap := 0.3
	for _, c := range []struct {
		name      string
		r         report.Fit
		want, not []string
	}{
		{"iteration limit", report.Fit{Status: solver.IterationLimit.String(), Iterations: 9, DualityGap: &gap},
			[]string{"did not converge (iteration limit", "raise --max-iter or --tol"}, []string{"stalled fit"}},
		{"stalled", report.Fit{Status: solver.Stalled.String(), Iterations: 9},
			[]string{"did not converge (stalled", "raise --tol (or λ, when it is many orders below the deviance's scale", "or rescale the data", "more --max-iter does not help"}, []string{"raise --max-iter or"}},
		{"relax only", report.Fit{Status: "the relaxed refit failed: separation", RelaxNote: "separation"},
			[]string{"--relax: separation"}, []string{"did not converge"}},
		{"relax and penalised", report.Fit{Status: "the relaxed refit failed: separation", RelaxNote: "separation",
			PenalisedStatus: solver.IterationLimit.String(), Iterations: 7},
			[]string{"--relax: separation", "the penalised fit did not converge either (iteration limit", "raise --max-iter"}, nil},
		{"converged", report.Fit{Converged: true, Status: solver.GapConverged.String()}, nil, []string{"warning"}},
	} {
		var b strings.Builder
		warnFit(&b, &c.r, false)
		for _, w := range c.want {
			require.Contains(t, b.String(), w, c.name)
		}
		for _, w := range c.not {
			require.NotContains(t, b.String(), w, c.name)
		}
		require.LessOrEqual(t, strings.Count(b.String(), "\n"), 1, c.name)
	}
}

// Standard input is named <stdin> in every message, as its rows' errors
// are (a whole-data error said "-: …").
func TestStdinNamedInMessages(t *testing.T) {
	const constant = "x,y\n1,1\n2,1\n3,1\n"
	file := writeFile(t, t.TempDir(), "c.csv", constant)
	for _, cmd := range []string{"path", "cv"} {
		withStdin(t, file, func() {
			res := cardreg(t, cmd, "-")
			oneLine(t, res, 1, data.StdinName+": ")
			require.NotContains(t, res.stderr, " -: ")
		})
	}
}
