package estimator

import (
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/internal/rtest"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// munichRent is the Munich rent survey of ../shared/data (see its README).
const munichRent = "../../shared/data/munich_rent2003_catdata.csv"

// pathSet is one data set of the gaussian path comparison with glmnet.
type pathSet struct {
	name string
	x    *mat.Dense
	y, w []float64
}

// writeCSV writes the set as x1…xp, y (and w) for bench/glmfamily.R.
func (s pathSet) writeCSV(t *testing.T, path string) {
	t.Helper()
	n, p := s.x.Dims()
	var b strings.Builder
	for j := range p {
		fmt.Fprintf(&b, "x%d,", j+1)
	}
	b.WriteString("y")
	if s.w != nil {
		b.WriteString(",w")
	}
	b.WriteString("\n")
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for i := range n {
		for j := range p {
			b.WriteString(g(s.x.At(i, j)) + ",")
		}
		b.WriteString(g(s.y[i]))
		if s.w != nil {
			b.WriteString("," + g(s.w[i]))
		}
		b.WriteString("\n")
	}
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
}

// munichSets reads the Munich rent survey: rent and rent per m² (rentm)
// against the other eleven columns, or nothing when the data are missing.
func munichSets(t *testing.T) []pathSet {
	t.Helper()
	f, err := os.Open(munichRent)
	if err != nil {
		t.Logf("Munich rent left out: %v", err)
		return nil
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	head, rows := recs[0], recs[1:]
	var sets []pathSet
	for _, target := range []string{"rent", "rentm"} {
		x := mat.NewDense(len(rows), len(head)-2, nil)
		y := make([]float64, len(rows))
		for i, rec := range rows {
			j := 0
			for c, cell := range rec {
				v, err := strconv.ParseFloat(cell, 64)
				require.NoError(t, err)
				switch head[c] {
				case target:
					y[i] = v
				case "rent", "rentm":
				default:
					x.Set(i, j, v)
					j++
				}
			}
		}
		sets = append(sets, pathSet{name: "Munich " + target, x: x, y: y})
	}
	return sets
}

// generatedSet draws n rows of p standard normal predictors (scaled by
// column) and y = Xβ + N(0, σ²) with k non-zero β, and weights when asked.
func generatedSet(name string, n, p, k int, sigma float64, weights bool, seed uint64) pathSet {
	rng := rand.New(rand.NewPCG(seed, 35))
	x := mat.NewDense(n, p, nil)
	for i := range n {
		for j := range p {
			x.Set(i, j, float64(j+1)*rng.NormFloat64())
		}
	}
	s := pathSet{name: name, x: x, y: make([]float64, n)}
	for i := range n {
		for j := range k {
			s.y[i] += float64(j%3-1) * x.At(i, j) / float64(j+1)
		}
		s.y[i] += 5 + sigma*rng.NormFloat64()
	}
	if weights {
		s.w = make([]float64, n)
		for i := range s.w {
			s.w[i] = 0.2 + 2*rng.Float64()
		}
	}
	return s
}

// TestGaussianPathMatchesGlmnet: a generated gaussian lasso path stops
// where glmnet's does (glmnet's own grid and rules, thresh = 1e-14), with
// and without standardisation, in memory (the Gram route) and weighted
// (the statistics route): the same number of λ, the same λ and the same
// deviance ratios. Munich rent's paths were 100 λ long against glmnet's
// 69 and 60 standardised.
func TestGaussianPathMatchesGlmnet(t *testing.T) {
	rtest.SkipUnlessAvailable(t)
	sets := append(munichSets(t),
		generatedSet("generated n > p", 300, 10, 6, 1, false, 1),
		generatedSet("generated p > n", 60, 100, 8, 0.5, false, 2),
		generatedSet("generated, weighted", 250, 12, 7, 2, true, 3))
	dir := t.TempDir()
	for _, set := range sets {
		for _, std := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, standardize %v", set.name, std), func(t *testing.T) {
				path := filepath.Join(dir, strings.NewReplacer(" ", "_", ",", "", ">", "gt", "/", "_").Replace(t.Name())+".csv")
				set.writeCSV(t, path)
				wcol := "-"
				if set.w != nil {
					wcol = "w"
				}
				out, err := rtest.Output("../bench/glmfamily.R", "path", path, "gaussian", strings.ToUpper(strconv.FormatBool(std)), wcol)
				require.NoError(t, err, "%s", out)
				ref := parseRows(t, out)
				d := NewRows(set.x, set.y)
				d.Weights = set.w
				ours, err := FitPath(d, penalty.L1{}, &PathOptions{Options: Options{Standardize: std}})
				require.NoError(t, err)
				n, _ := set.x.Dims()
				require.Equal(t, len(ref), len(ours.Models), "path length (ours: %q)", ours.Note)
				t.Logf("%d λ (glmnet %d): %s", len(ours.Models), len(ref), ours.Note)
				if len(ref) < 100 {
					require.NotEmpty(t, ours.Note)
				}
				for k, m := range ours.Models {
					require.InEpsilon(t, ref[k][0], ours.Lambdas[k]/(2*float64(n)), 1e-9, "λ %d", k+1)
					require.InDelta(t, ref[k][1], m.DevRatio, 1e-6, "dev ratio %d (our default tolerance)", k+1)
				}
			})
		}
	}
}

// parseRows reads lines of numbers.
func parseRows(t *testing.T, out []byte) [][]float64 {
	t.Helper()
	var res [][]float64
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		var row []float64
		for f := range strings.FieldsSeq(line) {
			v, err := strconv.ParseFloat(f, 64)
			require.NoError(t, err, line)
			row = append(row, v)
		}
		res = append(res, row)
	}
	return slices.Clip(res)
}
