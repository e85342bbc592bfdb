package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cardsparse/cardreg/data"
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
	dataPath := "../../examples/cardinality.csv"
	tab, err := data.Read(dataPath, data.Options{})
	require.NoError(t, err)
	var cols []string
	for _, n := range tab.Names() {
		cols = append(cols, n+" Float64")
	}
	var rows [2]strings.Builder
	for i := range tab.Rows() {
		var f []string
		for j := range tab.Names() {
			f = append(f, fmt.Sprint(tab.Cols()[j][i]))
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
		mem := decodeFit(t, cardreg(t, append(append([]string{"fit", "--format", "json", "--tol", "1e-11"}, args...), dataPath)...).stdout)
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

// fakeClickHouse answers the queries of --db from answers: the first key
// found in a query gives the body of the answer (TabSeparated). It
// records the queries.
func fakeClickHouse(t *testing.T, answers map[string]string) (url string, queries *[]string) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, string(body))
		mu.Unlock()
		for key, ans := range answers {
			if strings.Contains(string(body), key) {
				io.WriteString(w, ans)
				return
			}
		}
		http.Error(w, "Code: 62, e.displayText() = DB::Exception: unexpected query", http.StatusBadRequest)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/?user=u&password=secret", &got
}

const schemaQuery = "LIMIT 0 FORMAT TabSeparatedWithNamesAndTypes"

// A column that does not hold numbers is named before the statistics
// query runs, with what to do: --drop for a predictor, a cast in --query
// for the response.
func TestDBColumnTypes(t *testing.T) {
	url, queries := fakeClickHouse(t, map[string]string{schemaQuery: "id\tx1\tname\ty\nUInt64\tNullable(Float64)\tString\tFloat64\n"})
	res := cardreg(t, "fit", "--lambda", "1", "--db", url, "--table", "t")
	oneLine(t, res, 1, `table t: column "name" has type String, not a number type: leave it out with --drop name (or list --predictors), or convert it in --query 'SELECT toFloat64(`+"`name`"+`) AS`)
	require.NotContains(t, res.stderr, "secret")
	require.Len(t, *queries, 1, "no statistics query is sent")
	res = cardreg(t, "cv", "--db", url, "--table", "t", "--target", "name", "--drop", "id")
	oneLine(t, res, 1, `column "name" has type String`, "convert it in --query")
	require.NotContains(t, res.stderr, "--drop name")
	// Dropped, the text column is no obstacle: the means query is sent.
	res = cardreg(t, "fit", "--lambda", "1", "--db", url, "--table", "t", "--drop", "name")
	require.Equal(t, 1, res.code)
	require.Contains(t, (*queries)[len(*queries)-1], "count(*)")
}

// NULL, NaN and infinite values are named by column, with the way to
// leave them out, whether the folds are hashed (cv) or not (fit).
func TestDBBadValues(t *testing.T) {
	const diag = "IS NULL THEN 1 ELSE 0 END), sum(CASE WHEN NOT isFinite"
	schema := "x1\tx2\ty\nFloat64\tNullable(Float64)\tFloat64\n"
	for _, c := range []struct {
		name  string
		args  []string
		means string
		bad   string
		want  []string
	}{
		{"NaN, fit", []string{"fit", "--lambda", "1"}, "0\t10\t1\t0\t10\t1\tnan\t3\n", "0\t0\t0\t1\t0\t0\n",
			[]string{`column "x2": 1 rows hold NaN or an infinite value (from the server)`, "WHERE isFinite(`x2`)", "--drop x2"}},
		{"Inf, cv", []string{"cv"}, "0\t5\t0\t0\t5\t1\t2\t3\n1\t5\t2\t0\t5\t1\tinf\t3\n", "0\t0\t0\t2\t0\t0\n",
			[]string{`column "x2": 2 rows hold NaN or an infinite value`, "WHERE isFinite(`x2`)"}},
		{"NULL, cv", []string{"cv"}, "0\t8\t0\t0\t8\t1\t2\t3\n\\N\t2\t2\t0\t2\t1\t2\t3\n", "0\t0\t2\t0\t0\t0\n",
			[]string{`column "x2": 2 rows hold NULL (from the server)`, "WHERE `x2` IS NOT NULL", "--drop x2"}},
	} {
		url, _ := fakeClickHouse(t, map[string]string{schemaQuery: schema, "count(*)": c.means, diag: c.bad})
		res := cardreg(t, append(c.args, "--db", url, "--table", "t")...)
		oneLine(t, res, 1, c.want...)
		require.NotContains(t, res.stderr, "overflow", c.name)
		require.NotContains(t, res.stderr, "not a number", c.name)
	}
}

// A server that accepts the connection and never answers, or sends the
// header and stalls, is given up after the timeout that applies; the
// message names it, the server and the flag that raises it. A bad
// --db-timeout is a usage error.
func TestDBTimeouts(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	mute := "http://" + ln.Addr().String() + "/?password=secret"
	start := time.Now()
	res := cardreg(t, "fit", "--lambda", "1", "--db", mute, "--table", "t", "--db-timeout", "first-byte=300ms")
	oneLine(t, res, 1, ln.Addr().String()+"/ table t: connected, but no answer within 300ms (the first-byte timeout", "raise it with --db-timeout first-byte=600ms")
	require.NotContains(t, res.stderr, "secret")
	require.Less(t, time.Since(start), 10*time.Second)

	release := make(chan struct{})
	stall := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "x\ty\n")
		w.(http.Flusher).Flush()
		<-release
	}))
	defer stall.Close()
	defer close(release)
	start = time.Now()
	res = cardreg(t, "cv", "--db", stall.URL, "--query", "SELECT 1", "--db-timeout", "500ms")
	oneLine(t, res, 1, "query: the query did not complete within 500ms (the query timeout)", "--db-timeout query=1s")
	require.Less(t, time.Since(start), 10*time.Second)

	// The schema came at once; the statistics query is what stalls.
	hold := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if body, _ := io.ReadAll(r.Body); strings.Contains(string(body), schemaQuery) {
			io.WriteString(w, "x\ty\nFloat64\tFloat64\n")
			return
		}
		<-hold
	}))
	defer slow.Close()
	defer close(hold)
	res = cardreg(t, "fit", "--lambda", "1", "--db", slow.URL, "--table", "t", "--db-timeout", "connect=1s,query=400ms")
	oneLine(t, res, 1, " table t: sqlstats: the means query: the query did not complete within 400ms (the query timeout); raise it with --db-timeout query=800ms")
	require.Equal(t, 1, strings.Count(res.stderr, "http://"), "the server is named once")

	for _, bad := range []string{"0", "-5s", "abc", "5", "connect=", "x=1s", "query=1s,first-byte=0s"} {
		oneLine(t, cardreg(t, "fit", "--db", stall.URL, "--table", "t", "--db-timeout", bad), 2, "db-timeout")
	}
	oneLine(t, cardreg(t, "fit", "--db-timeout", "1m", "x.csv"), 2, "--db-timeout needs --db")
}

// TestClickHouseReadmeRecipe runs README's recipe for loading a CSV file
// into ClickHouse, line by line as written (clickhouse-client pointed at
// shard 1's native port, cardreg's URL at its HTTP port), so that the
// recipe cannot rot: the table it loads gives the in-memory fit.
func TestClickHouseReadmeRecipe(t *testing.T) {
	url, tcp := os.Getenv("CARDREG_CLICKHOUSE_URL"), os.Getenv("CARDREG_CLICKHOUSE_TCP1")
	if url == "" || tcp == "" {
		t.Skip("no ClickHouse cluster: run scripts/clickhouse/ci.sh")
	}
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, block, ok := strings.Cut(string(readme), "<!-- clickhouse-recipe")
	require.True(t, ok, "README.md has no clickhouse-recipe block")
	block, _, ok = strings.Cut(block, "<!-- /clickhouse-recipe -->")
	require.True(t, ok)
	require.NoError(t, sqlstats.HTTP{URL: url}.Exec(context.Background(), "DROP TABLE IF EXISTS cardinality"))
	var fits int
	for _, line := range strings.Split(block, "\n") {
		switch {
		case strings.HasPrefix(line, "cardreg "):
			args := strings.Fields(strings.ReplaceAll(line, "http://127.0.0.1:8123/", url))[1:]
			db := cardreg(t, append(args, "--format", "json", "--tol", "1e-11")...)
			require.Equal(t, 0, db.code, db.stderr)
			fits++
			// The same fit in memory at the λ the table's CV chose.
			got := decodeFit(t, db.stdout)
			want := decodeFit(t, cardreg(t, "fit", "--format", "json", "--tol", "1e-11", "--lambda", fmt.Sprint(got.Lambda), "../../examples/cardinality.csv").stdout)
			require.Len(t, got.Names, 12)
			require.Equal(t, want.Names, got.Names)
			require.InDeltaSlice(t, want.Coefficients, got.Coefficients, 2e-9)
		case strings.HasPrefix(line, "clickhouse-client "):
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", `clickhouse-client() { command clickhouse-client --host 127.0.0.1 --port "$TCP" "$@"; }; `+line)
			cmd.Dir = "../.."
			cmd.Env = append(os.Environ(), "TCP="+tcp)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s\n%s", line, out)
		}
	}
	require.Equal(t, 1, fits, "the recipe ends with a fit")
}

// TestClickHouseMessages checks on a real server what TestDBColumnTypes
// and TestDBBadValues check on a fake one: the types as ClickHouse prints
// them, its NaN and NULL as its aggregates and hashes return them.
func TestClickHouseMessages(t *testing.T) {
	url := os.Getenv("CARDREG_CLICKHOUSE_URL")
	if url == "" {
		t.Skip("no ClickHouse cluster: run scripts/clickhouse/ci.sh")
	}
	ch := sqlstats.HTTP{URL: url}
	ctx := context.Background()
	require.NoError(t, ch.Exec(ctx, "DROP TABLE IF EXISTS messages"))
	require.NoError(t, ch.Exec(ctx, "CREATE TABLE messages (name String, x1 Float64, x2 Nullable(Float64), y Float64) ENGINE = MergeTree ORDER BY tuple()"))
	var rows strings.Builder
	for i := range 40 {
		fmt.Fprintf(&rows, "r%d\t%d\t%d\t%d\n", i, i%7, i%5, (i*i)%11)
	}
	require.NoError(t, ch.Exec(ctx, "INSERT INTO messages FORMAT TabSeparated\n"+rows.String()))
	res := cardreg(t, "fit", "--lambda", "1", "--db", url, "--table", "messages")
	oneLine(t, res, 1, `column "name" has type String, not a number type: leave it out with --drop name`)
	res = cardreg(t, "cv", "--db", url, "--table", "messages", "--drop", "name")
	require.Equal(t, 0, res.code, res.stderr)

	require.NoError(t, ch.Exec(ctx, "INSERT INTO messages FORMAT TabSeparated\nbad\t1\t\\N\t2\n"))
	for _, cmd := range []string{"fit", "cv"} {
		res = cardreg(t, cmd, "--lambda", "1", "--db", url, "--table", "messages", "--drop", "name")
		if cmd == "cv" {
			res = cardreg(t, cmd, "--db", url, "--table", "messages", "--drop", "name")
		}
		oneLine(t, res, 1, `column "x2": 1 rows hold NULL (from the server)`, "WHERE `x2` IS NOT NULL")
	}
	res = cardreg(t, "cv", "--db", url, "--query", "SELECT * FROM messages WHERE x2 IS NOT NULL", "--drop", "name")
	require.Equal(t, 0, res.code, res.stderr)
	require.NoError(t, ch.Exec(ctx, "INSERT INTO messages FORMAT TabSeparated\nnan\tnan\t1\t2\n"))
	res = cardreg(t, "cv", "--db", url, "--query", "SELECT * FROM messages WHERE x2 IS NOT NULL", "--drop", "name")
	oneLine(t, res, 1, `column "x1": 1 rows hold NaN or an infinite value (from the server)`, "WHERE isFinite(`x1`)")
}
