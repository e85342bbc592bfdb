package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/sqlstats"
	"github.com/stretchr/testify/require"
)

// TestClickHouseFit fits the bundled example from a two-shard ClickHouse
// cluster (scripts/clickhouse/ci.sh starts one): the statistics computed
// by SQL give the fit and the path of the rows in memory.
func TestClickHouseFit(t *testing.T) {
	url := os.Getenv("CARDREG_CLICKHOUSE_URL")
	if url == "" {
		t.Skip("no ClickHouse cluster: run scripts/clickhouse/ci.sh, or start.sh and set CARDREG_CLICKHOUSE_URL")
	}
	ctx := context.Background()
	shards := []sqlstats.HTTP{{URL: url}, {URL: strings.Replace(url, os.Getenv("CARDREG_CLICKHOUSE_PORT1"), os.Getenv("CARDREG_CLICKHOUSE_PORT2"), 1)}}
	data := "../../examples/cardinality.csv"
	tab, err := readTable(data, ',')
	require.NoError(t, err)
	var cols []string
	for _, n := range tab.names {
		cols = append(cols, n+" Float64")
	}
	var rows [2]strings.Builder
	for i := range tab.rows() {
		var f []string
		for j := range tab.names {
			f = append(f, fmt.Sprint(tab.cols[j][i]))
		}
		rows[i%2].WriteString(strings.Join(f, "\t") + "\n")
	}
	for s, sh := range shards {
		require.NoError(t, sh.Exec(ctx, "DROP TABLE IF EXISTS example_local"))
		require.NoError(t, sh.Exec(ctx, "CREATE TABLE example_local ("+strings.Join(cols, ", ")+") ENGINE = MergeTree() ORDER BY tuple()"))
		require.NoError(t, sh.Exec(ctx, "DROP TABLE IF EXISTS example"))
		require.NoError(t, sh.Exec(ctx, "CREATE TABLE example AS example_local ENGINE = Distributed(cardreg, default, example_local, rand())"))
		require.NoError(t, sh.Exec(ctx, "INSERT INTO example_local FORMAT TabSeparated\n"+rows[s].String()))
	}
	for _, args := range [][]string{
		{"--penalty", "cardinality", "--lambda", "30"},
		{"--penalty", "lasso", "--standardize", "--lambda", "40", "--drop", "x2"},
		{"--penalty", "cardinality", "--relax", "--lambda", "100"},
	} {
		mem := decodeFit(t, cardreg(t, append(append([]string{"fit", "--format", "json", "--tol", "1e-11"}, args...), data)...).stdout)
		res := cardreg(t, append([]string{"fit", "--format", "json", "--tol", "1e-11", "--db", url, "--table", "example"}, args...)...)
		require.Equal(t, 0, res.code, res.stderr)
		db := decodeFit(t, res.stdout)
		require.Equal(t, mem.Names, db.Names)
		require.InDeltaSlice(t, mem.Coefficients, db.Coefficients, 2e-9)
		require.InDelta(t, mem.Intercept, db.Intercept, 1e-8)
		require.InDelta(t, *mem.R2, *db.R2, 1e-10)
	}
	// A query as the source, and cross-validation on hashed folds.
	res := cardreg(t, "cv", "--nlambda", "6", "--db", url, "--query", "SELECT * FROM example WHERE x1 > -10")
	require.Equal(t, 0, res.code, res.stderr)
	require.Contains(t, res.stdout, "lambda_min")
	res = cardreg(t, "fit", "--db", url+"?user=default&password=secret", "--table", "nope")
	oneLine(t, res, 1, "nope")
	require.NotContains(t, res.stderr, "secret", "credentials stay out of messages")
	oneLine(t, cardreg(t, "fit", "--db", url), 2, "--table")
}
