package sqlstats

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/suffstat"
	"github.com/stretchr/testify/require"
)

// The SQL: identifiers quoted, the provisional mean inlined, no raw
// second moments, folds from the fold column or a hash.
func TestQueries(t *testing.T) {
	b := builder{d: ClickHouse, s: Source{Table: "t", Columns: []string{"x`1", "y"}, Weight: "w", Folds: 5, FoldColumn: "f"}}
	q := b.meansQuery()
	require.Contains(t, q, "FROM `t`")
	require.Contains(t, q, "`x\\`1`")
	require.Contains(t, q, "(`f` - 1) AS cardreg_fold")
	require.Contains(t, q, "GROUP BY cardreg_fold")
	m := b.momentsQuery([]float64{1e8 + 0.5, -3}, b.tiles()[0])
	require.Contains(t, m, "(toFloat64(`x\\`1`) - 100000000.5)")
	require.NotContains(t, m, "varPop")
	b.s.FoldColumn = ""
	require.Contains(t, b.meansQuery(), "cityHash64(0, `x\\`1`, `y`) % 5")
	b.s.Query, b.s.Table = "SELECT 1 AS a", ""
	require.Contains(t, b.meansQuery(), "FROM (SELECT 1 AS a) AS cardreg_source")
	// Tiles: 3 variables have 6 pairs; at most 4 sums a query gives 2.
	b.s.Columns, b.s.MaxExprs = []string{"a", "b", "c"}, 4
	require.Len(t, b.tiles(), 2)
	require.Equal(t, "3.0", literal(3))
	require.Equal(t, "100000000.5", literal(1e8+0.5))
}

// fakeEngine answers the two queries from rows held in Go, as an engine
// would, so that the assembly is tested without a server: it parses
// nothing, but computes what each select list asks for.
type fakeEngine struct {
	rows [][]float64 // columns: variables…, weight, fold (0-based)
	dim  int
}

func (f fakeEngine) Query(_ context.Context, sql string) ([][]string, error) {
	out := map[int][]float64{}
	means := strings.Contains(sql, "count(*)")
	shifts := parseShifts(sql, f.dim)
	for _, r := range f.rows {
		k := int(r[f.dim+1])
		w := r[f.dim]
		var v []float64
		if means {
			v = append(v, 1, 0, 0, w)
			for i := range f.dim {
				v = append(v, w*r[i])
			}
		} else {
			if shifts.first {
				for i := range f.dim {
					v = append(v, w*(r[i]-shifts.m[i]))
				}
			}
			for _, p := range shifts.pairs {
				v = append(v, w*(r[p.i]-shifts.m[p.i])*(r[p.j]-shifts.m[p.j]))
			}
		}
		if out[k] == nil {
			out[k] = make([]float64, len(v))
		}
		for i := range v {
			out[k][i] += v[i]
		}
	}
	var rows [][]string
	for k := 0; k < 100; k++ {
		if v, ok := out[k]; ok {
			row := []string{fmt.Sprint(k)}
			for _, x := range v {
				row = append(row, literal(x))
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

type shiftInfo struct {
	m     []float64
	pairs []pair
	first bool
}

// parseShifts reads the provisional means and the pairs back from a
// co-moments query of builder (variables named c0, c1, …).
func parseShifts(sql string, dim int) shiftInfo {
	var s shiftInfo
	s.m = make([]float64, dim)
	terms := strings.Split(sql, "sum(")[1:]
	for _, term := range terms {
		var idx []int
		for i := range dim {
			tag := fmt.Sprintf("toFloat64(`c%d`) - ", i)
			for rest := term; ; {
				at := strings.Index(rest, tag)
				if at < 0 {
					break
				}
				rest = rest[at+len(tag):]
				end := strings.IndexByte(rest, ')')
				fmt.Sscan(rest[:end], &s.m[i])
				idx = append(idx, i)
			}
		}
		switch len(idx) {
		case 1:
			s.first = true
		case 2:
			i, j := min(idx[0], idx[1]), max(idx[0], idx[1])
			if strings.Count(term, fmt.Sprintf("`c%d`", i)) == 2 && i != j {
				j = i
			}
			s.pairs = append(s.pairs, pair{i, j})
		}
	}
	return s
}

// Compute's assembly (shifted sums, centring, folds, tiles) against
// suffstat fed the same rows, on a column 1e8 + U(0, 1).
func TestComputeMatchesSuffstat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, dim, k = 500, 3, 4
	eng := fakeEngine{dim: dim}
	want := suffstat.NewFolds(k, dim)
	cols := make([]string, dim)
	for i := range cols {
		cols[i] = fmt.Sprintf("c%d", i)
	}
	for range n {
		r := []float64{1e8 + rng.Float64(), rng.NormFloat64(), 3 + 2*rng.NormFloat64()}
		w, f := rng.Float64()*2, rng.IntN(k)
		want.Fold[f].Add(r, w)
		eng.rows = append(eng.rows, append(r, w, float64(f)))
	}
	for _, most := range []int{0, 2} {
		got, err := Compute(context.Background(), eng, ClickHouse, Source{Table: "t", Columns: cols, Weight: "w", Folds: k, FoldColumn: "f", MaxExprs: most})
		require.NoError(t, err)
		// 1e-7: the offset 1e8 leaves 8 of float64's digits to U(0, 1),
		// and West's running mean in suffstat rounds at that level too.
		requireSameFolds(t, want, got, 1e-7)
	}
}

func requireSameFolds(t *testing.T, want, got *suffstat.Folds, tol float64) {
	t.Helper()
	require.Len(t, got.Fold, len(want.Fold))
	for k := range want.Fold {
		a, b := want.Fold[k], got.Fold[k]
		require.Equal(t, a.N, b.N)
		require.InEpsilon(t, a.W, b.W, tol)
		d := a.Dim()
		for i := range d {
			require.InDelta(t, a.Mean[i], b.Mean[i], tol*(math.Abs(a.Mean[i])+1))
			for j := i; j < d; j++ {
				scale := math.Sqrt(a.C[i*d+i] * a.C[j*d+j])
				require.InDelta(t, a.C[i*d+j], b.C[i*d+j], tol*scale, "fold %d C[%d,%d]", k, i, j)
			}
		}
	}
}

// TestIntegrationClickHouse runs against a real cluster started by
// scripts/clickhouse/start.sh (CARDREG_CLICKHOUSE_URL is shard 1's HTTP
// address): rows split over two shards, queried through a Distributed
// table, compared with suffstat in Go.
func TestIntegrationClickHouse(t *testing.T) {
	url := os.Getenv("CARDREG_CLICKHOUSE_URL")
	if url == "" {
		t.Skip("no ClickHouse cluster: run scripts/clickhouse/ci.sh, or start.sh and set CARDREG_CLICKHOUSE_URL")
	}
	ctx := context.Background()
	shards := []HTTP{{URL: url}, {URL: strings.Replace(url, os.Getenv("CARDREG_CLICKHOUSE_PORT1"), os.Getenv("CARDREG_CLICKHOUSE_PORT2"), 1)}}
	require.NotEqual(t, shards[0].URL, shards[1].URL, "set CARDREG_CLICKHOUSE_PORT1 and _PORT2 (start.sh's HTTP ports)")
	for _, s := range shards {
		require.NoError(t, s.Exec(ctx, "DROP TABLE IF EXISTS sqlstats_local"))
		require.NoError(t, s.Exec(ctx, "CREATE TABLE sqlstats_local (big Float64, x Float64, y Float64, w Float64, fold UInt8) ENGINE = MergeTree() ORDER BY tuple()"))
		require.NoError(t, s.Exec(ctx, "DROP TABLE IF EXISTS sqlstats_all"))
		require.NoError(t, s.Exec(ctx, "CREATE TABLE sqlstats_all AS sqlstats_local ENGINE = Distributed(cardreg, default, sqlstats_local, rand())"))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	const n, k = 20000, 5
	want := suffstat.NewFolds(k, 3)
	var ins [2]strings.Builder
	var big []float64
	for i := range n {
		r := []float64{1e8 + rng.Float64(), rng.NormFloat64(), 2 + rng.NormFloat64()}
		w, f := 0.5+rng.Float64(), rng.IntN(k)
		want.Fold[f].Add(r, w)
		big = append(big, r[0])
		fmt.Fprintf(&ins[i%2], "%s\t%s\t%s\t%s\t%d\n", literal(r[0]), literal(r[1]), literal(r[2]), literal(w), f+1)
	}
	for s, shard := range shards {
		require.NoError(t, shard.Exec(ctx, "INSERT INTO sqlstats_local FORMAT TabSeparated\n"+ins[s].String()))
	}
	src := Source{Table: "sqlstats_all", Columns: []string{"big", "x", "y"}, Weight: "w", Folds: k, FoldColumn: "fold"}
	q := shards[0]
	cols, err := q.Columns(ctx, ClickHouse, src)
	require.NoError(t, err)
	require.Equal(t, []string{"big", "x", "y", "w", "fold"}, cols)
	for _, most := range []int{0, 2} {
		src.MaxExprs = most
		got, err := Compute(ctx, q, ClickHouse, src)
		require.NoError(t, err)
		requireSameFolds(t, want, got, 1e-7)
	}
	// The engine's own population variance of big, against the centred
	// statistics' (unweighted): the reason for the two-query centring.
	rows, err := q.Query(ctx, "SELECT varPop(big) FROM sqlstats_all")
	require.NoError(t, err)
	one := suffstat.New(1)
	for _, v := range big {
		one.Add([]float64{v}, 1)
	}
	t.Logf("variance of 1e8 + U(0,1) over %d rows: ClickHouse varPop %s, centred %.6g (exact 1/12 = %.6g)", n, rows[0][0], one.C[0]/one.W, 1.0/12)
	// A query as the source, hashing a key into folds.
	src = Source{Query: "SELECT big, x, y FROM sqlstats_all WHERE x > 0", Columns: []string{"x", "y"}, Folds: 3, FoldKey: []string{"big"}}
	got, err := Compute(ctx, q, ClickHouse, src)
	require.NoError(t, err)
	var total int64
	for _, f := range got.Fold {
		require.Positive(t, f.N)
		total += f.N
	}
	require.InDelta(t, n/2, total, 0.05*n)
	// Errors carry the server's message.
	_, err = Compute(ctx, q, ClickHouse, Source{Table: "no_such_table", Columns: []string{"a", "b"}, Folds: 1})
	require.ErrorContains(t, err, "no_such_table")
}

// A connection error does not print the URL's credentials.
func TestHTTPErrorHidesCredentials(t *testing.T) {
	_, err := HTTP{URL: "http://127.0.0.1:1/?user=u&password=secret"}.Query(context.Background(), "SELECT 1")
	require.Error(t, err)
	require.NotContains(t, err.Error(), "secret")
	require.Contains(t, err.Error(), "127.0.0.1:1")
}
