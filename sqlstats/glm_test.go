package sqlstats

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/glmscan"
	"github.com/cardsparse/cardreg/internal/fit"
	"github.com/cardsparse/cardreg/internal/glm"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// glmRows are rows in memory with their folds, a glmscan row source.
type glmRows struct {
	x       [][]float64
	y, w, o []float64
	fold    []int
}

func (r *glmRows) Pass(row func(x []float64, y, w, o float64) error) error {
	for i := range r.y {
		if err := row(r.x[i], r.y[i], r.w[i], r.o[i]); err != nil {
			return err
		}
	}
	return nil
}

// newGLMRows draws n rows of p predictors (one far from zero) for family
// fam, with weights, offsets (Poisson) and k folds.
func newGLMRows(fam datafit.Family, n, p, k int) *glmRows {
	rng := rand.New(rand.NewPCG(5, 6))
	r := &glmRows{}
	for i := range n {
		x := make([]float64, p)
		eta := -0.2
		for j := range x {
			x[j] = rng.NormFloat64()
			eta += 0.3 * float64(j%3-1) * x[j]
		}
		x[0] += 1000
		o := 0.0
		if _, ok := fam.(datafit.Poisson); ok {
			o = 0.2 * rng.NormFloat64()
		}
		mu := fam.Mean(eta + o)
		y := 0.0
		if _, ok := fam.(datafit.Binomial); ok {
			if rng.Float64() < mu {
				y = 1
			}
		} else {
			for q := rng.Float64(); q > math.Exp(-mu); q *= rng.Float64() {
				y++
			}
		}
		w := 0.5 + rng.Float64()
		if i%97 == 0 {
			w = 0 // rows of weight 0 count for nothing, whatever their values
		}
		r.x, r.y, r.w, r.o = append(r.x, x), append(r.y, y), append(r.w, w), append(r.o, o)
		r.fold = append(r.fold, i%k)
	}
	return r
}

// load puts the rows in a table spread over the cluster's two shards,
// behind a Distributed table named table.
func (r *glmRows) load(t *testing.T, shards []HTTP, table string) {
	ctx := context.Background()
	p := len(r.x[0])
	var cols []string
	for j := range p {
		cols = append(cols, fmt.Sprintf("x%d Float64", j+1))
	}
	cols = append(cols, "y Float64", "w Float64", "o Float64", "fold UInt8")
	var ins [2]strings.Builder
	for i := range r.y {
		var f []string
		for _, v := range r.x[i] {
			f = append(f, literal(v))
		}
		f = append(f, literal(r.y[i]), literal(r.w[i]), literal(r.o[i]), fmt.Sprint(r.fold[i]+1))
		ins[i%2].WriteString(strings.Join(f, "\t") + "\n")
	}
	for s, sh := range shards {
		require.NoError(t, sh.Exec(ctx, "DROP TABLE IF EXISTS "+table+"_local"))
		require.NoError(t, sh.Exec(ctx, "CREATE TABLE "+table+"_local ("+strings.Join(cols, ", ")+") ENGINE = MergeTree() ORDER BY tuple()"))
		require.NoError(t, sh.Exec(ctx, "DROP TABLE IF EXISTS "+table))
		require.NoError(t, sh.Exec(ctx, "CREATE TABLE "+table+" AS "+table+"_local ENGINE = Distributed(cardreg, default, "+table+"_local, rand())"))
		require.NoError(t, sh.Exec(ctx, "INSERT INTO "+table+"_local FORMAT TabSeparated\n"+ins[s].String()))
	}
}

// clusterShards returns the integration cluster's two shards, or skips.
func clusterShards(t *testing.T) []HTTP {
	url := os.Getenv("CARDREG_CLICKHOUSE_URL")
	if url == "" {
		t.Skip("no ClickHouse cluster: run scripts/clickhouse/ci.sh, or start.sh and set CARDREG_CLICKHOUSE_URL")
	}
	shards := []HTTP{{URL: url}, {URL: strings.Replace(url, os.Getenv("CARDREG_CLICKHOUSE_PORT1"), os.Getenv("CARDREG_CLICKHOUSE_PORT2"), 1)}}
	require.NotEqual(t, shards[0].URL, shards[1].URL, "set CARDREG_CLICKHOUSE_PORT1 and _PORT2 (start.sh's HTTP ports)")
	return shards
}

// TestIntegrationClickHouseGLMScan: the SQL scanner's totals and sums,
// on a Distributed table over two shards, are the Go scanner's on the
// same rows and folds (to rounding), for both families, every kind of
// point (gradient, holdout, dual), and every measure.
func TestIntegrationClickHouseGLMScan(t *testing.T) {
	shards := clusterShards(t)
	const n, p, k = 3000, 4, 4
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}} {
		rows := newGLMRows(fam, n, p, k)
		table := "glmscan_" + fam.Name()
		rows.load(t, shards, table)
		src := Source{Table: table, Columns: []string{"x1", "x2", "x3", "x4", "y"}, Weight: "w", Folds: k, FoldColumn: "fold"}
		sq, err := NewGLMScanner(context.Background(), shards[0], src, "o", fam)
		require.NoError(t, err)
		gs := glmscan.NewRowScanner(rows, fam, p, k, func(i uint64) int { return rows.fold[i] }, 1)
		tq, smp, err := sq.First(500)
		require.NoError(t, err)
		tg, _, err := gs.First(500)
		require.NoError(t, err)
		require.InDelta(t, 500, len(smp.Y), 100)
		for f := range k {
			require.Equal(t, tg.N[f], tq.N[f])
			require.InEpsilon(t, tg.W[f], tq.W[f], 1e-12)
			require.InEpsilon(t, tg.WE[f], tq.WE[f], 1e-12)
			all := tq.Over([]int{f})
			gAll := tg.Over([]int{f})
			for j := range p {
				// Shifts differ (one row each): compare the shift-free sums.
				require.InEpsilon(t, gAll.Sum(0, j)+tg.Shift[j]*tg.W[f], all.Sum(0, j)+tq.Shift[j]*tq.W[f], 1e-12)
			}
		}
		rng := rand.New(rand.NewPCG(7, 8))
		req := &glmscan.Request{Measure: glm.Measures(fam)[0]}
		for i := range 9 {
			pt := glmscan.Point{B0: rng.NormFloat64() * 0.3, Beta: make([]float64, p), Holdout: i%(k+1) - 1}
			for j := range pt.Beta {
				pt.Beta[j] = 0.2 * rng.NormFloat64()
			}
			pt.B0 -= 1000 * pt.Beta[0]
			if i%3 == 2 {
				pt.Dual = &glmscan.DualPoint{Alpha: make([]float64, p+1)}
				for j := range pt.Dual.Alpha {
					pt.Dual.Alpha[j] = 1e-4 * rng.NormFloat64()
				}
				pt.Dual.Alpha[0] -= 1000 * pt.Dual.Alpha[1]
			}
			req.Points = append(req.Points, pt)
		}
		for _, measure := range glm.Measures(fam) {
			if measure == "auc" {
				continue
			}
			req.Measure = measure
			req.Score = glm.UnitScore(measure, fam)
			want, err := gs.Scan(req)
			require.NoError(t, err)
			got, err := sq.Scan(req)
			require.NoError(t, err)
			for i, pt := range req.Points {
				if pt.Dual != nil {
					require.InEpsilon(t, want.Dual[i], got.Dual[i], 1e-9, "%s dual %d", fam.Name(), i)
					continue
				}
				require.InEpsilon(t, want.Dev[i], got.Dev[i], 1e-10, "%s dev %d", fam.Name(), i)
				require.InDelta(t, want.Score[i], got.Score[i], 1e-9*math.Abs(want.Score[i])+1e-12, "%s %s %d", fam.Name(), measure, i)
				for j := range want.Grad[i] {
					require.InDelta(t, want.Grad[i][j], got.Grad[i][j], 1e-8*(1+math.Abs(want.Grad[i][0])*1000), "%s grad %d %d", fam.Name(), i, j)
				}
			}
		}
		require.Equal(t, 1+len(glm.Measures(fam))-boolInt(fam.Name() == "binomial"), sq.Scans())
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestIntegrationClickHouseFitRounds: a binomial and a Poisson (offset)
// path with 4-fold cross-validation fitted in rounds from the cluster is
// the in-memory CrossValidate on the same rows and folds: the same grid,
// λ_min and λ_1se, objectives within the certificate, in at most 6 scans.
func TestIntegrationClickHouseFitRounds(t *testing.T) {
	shards := clusterShards(t)
	const n, p, k = 6000, 4, 4
	for _, fam := range []datafit.Family{datafit.Binomial{}, datafit.Poisson{}} {
		rows := newGLMRows(fam, n, p, k)
		table := "rounds_" + fam.Name()
		rows.load(t, shards, table)
		src := Source{Table: table, Columns: []string{"x1", "x2", "x3", "x4", "y"}, Weight: "w", Folds: k, FoldColumn: "fold"}
		sq, err := NewGLMScanner(context.Background(), shards[0], src, "o", fam)
		require.NoError(t, err)
		po := fit.PathOptions{Options: fit.Options{Family: fam, Standardize: true, Settings: solver.Settings{Tol: 1e-6}}, NLambda: 12}
		got, err := glm.FitRounds(sq, p, penalty.L1{}, &glm.RoundsOptions{CVOptions: fit.CVOptions{PathOptions: po}, CV: true, SampleSize: 2000})
		require.NoError(t, err)
		x := mat.NewDense(n, p, nil)
		for i := range n {
			x.SetRow(i, rows.x[i])
		}
		po.Settings.Tol = 1e-9
		want, err := glm.CrossValidate(&glm.Rows{X: x, Y: rows.y, Weights: rows.w, Offset: rows.o}, penalty.L1{}, &fit.CVOptions{PathOptions: po, FoldID: rows.fold})
		require.NoError(t, err)
		t.Logf("%s: %d scans, sample %d", fam.Name(), got.Scans, got.SampleRows)
		require.LessOrEqual(t, got.Scans, 6)
		require.Equal(t, len(want.Lambdas), len(got.CV.Lambdas))
		for l := range want.Lambdas {
			require.InEpsilon(t, want.Lambdas[l], got.CV.Lambdas[l], 1e-9)
			require.True(t, got.Path.Models[l].Converged)
			require.InDelta(t, want.Path.Models[l].Objective, got.Path.Models[l].Objective, 1e-6*want.Path.Models[l].Objective)
		}
		require.Equal(t, want.IndexMin, got.CV.IndexMin)
		require.Equal(t, want.IndexSE, got.CV.IndexSE)
	}
}

// FuzzArrays: the parsers of the engine's arrays never panic, and an
// array they accept has the numbers asked for.
func FuzzArrays(f *testing.F) {
	for _, s := range []string{"[1,2]", "[[1,2],[3,4]]", "[]", "[[]]", "[inf,-inf,nan]", "[[1,2],[3", "]][[", "[1,,2]"} {
		f.Add(s, 2)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n%8 + 1
		if n < 1 {
			n = 1
		}
		if v, err := array(s, n); err == nil && len(v) != n {
			t.Fatalf("array(%q, %d) gave %d numbers", s, n, len(v))
		}
		rows, err := nested(s, n)
		if err != nil {
			return
		}
		for _, r := range rows {
			if len(r) != n {
				t.Fatalf("nested(%q, %d) gave a row of %d numbers", s, n, len(r))
			}
		}
	})
}
