package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/sqlstats"
	"github.com/stretchr/testify/require"
)

// loadExample puts a bundled example in a Distributed table over the two
// shards, with a fold column (1…k, row i in fold i mod k + 1), and writes
// the same rows with their folds to a CSV file, whose path it returns.
func loadExample(t *testing.T, shards []sqlstats.HTTP, example, table string, k int) string {
	return loadTable(t, shards, filepath.Join("../../examples", example), table, k)
}

// loadTable is loadExample of the numeric CSV file at path.
func loadTable(t *testing.T, shards []sqlstats.HTTP, path, table string, k int) string {
	ctx := context.Background()
	example := filepath.Base(path)
	tab, err := data.Read(path, data.Options{})
	require.NoError(t, err)
	var cols []string
	for _, n := range tab.Names() {
		cols = append(cols, n+" Float64")
	}
	cols = append(cols, "fold UInt8")
	var rows [2]strings.Builder
	var csv strings.Builder
	csv.WriteString(strings.Join(append(tab.Names(), "fold"), ",") + "\n")
	for i := range tab.Rows() {
		var f []string
		for j := range tab.Names() {
			f = append(f, strconv.FormatFloat(tab.Cols()[j][i], 'g', -1, 64))
		}
		f = append(f, strconv.Itoa(i%k+1))
		rows[i%2].WriteString(strings.Join(f, "\t") + "\n")
		csv.WriteString(strings.Join(f, ",") + "\n")
	}
	for s, sh := range shards {
		require.NoError(t, sh.Exec(ctx, "DROP TABLE IF EXISTS "+table+"_local"))
		require.NoError(t, sh.Exec(ctx, "CREATE TABLE "+table+"_local ("+strings.Join(cols, ", ")+") ENGINE = MergeTree() ORDER BY tuple()"))
		require.NoError(t, sh.Exec(ctx, "DROP TABLE IF EXISTS "+table))
		require.NoError(t, sh.Exec(ctx, "CREATE TABLE "+table+" AS "+table+"_local ENGINE = Distributed(cardreg, default, "+table+"_local, rand())"))
		require.NoError(t, sh.Exec(ctx, "INSERT INTO "+table+"_local FORMAT TabSeparated\n"+rows[s].String()))
	}
	out := filepath.Join(t.TempDir(), example)
	require.NoError(t, os.WriteFile(out, []byte(csv.String()), 0o644))
	return out
}

// cvCurve returns a cv table's λ, mean and mark columns by row.
func cvCurve(t *testing.T, table string) [][3]string {
	var out [][3]string
	for _, line := range strings.Split(strings.TrimSpace(table), "\n")[1:] {
		f := strings.Split(line, ",")
		require.Len(t, f, 6, table)
		out = append(out, [3]string{f[0], f[2], f[5]})
	}
	return out
}

// TestClickHouseFamilyCV: binomial and Poisson (with an offset) paths with
// cross-validation from a Distributed table over two shards are fitted in
// rounds of scans, in at most 6, and give the in-memory cv of the same
// rows and folds: the same λ, curve (to 1e-4) and λ_min and λ_1se. Bad
// input gets a message: a missing response, a column of text, a response
// out of the family's range, a server that stops answering between rounds
// (nothing written to --out).
func TestClickHouseFamilyCV(t *testing.T) {
	u := os.Getenv("CARDREG_CLICKHOUSE_URL")
	if u == "" {
		t.Skip("no ClickHouse cluster: run scripts/clickhouse/ci.sh, or start.sh and set CARDREG_CLICKHOUSE_URL")
	}
	shards := []sqlstats.HTTP{{URL: u}, {URL: strings.Replace(u, os.Getenv("CARDREG_CLICKHOUSE_PORT1"), os.Getenv("CARDREG_CLICKHOUSE_PORT2"), 1)}}
	for _, c := range []struct {
		example, table string
		args           []string
	}{
		{"credit.csv", "credit", []string{"--family", "binomial", "--target", "default", "--standardize"}},
		{"claims.csv", "claims", []string{"--family", "poisson", "--target", "claims", "--offset", "log_exposure", "--drop", "exposure"}},
	} {
		path := loadExample(t, shards, c.example, c.table, 5)
		args := append([]string{"cv", "--nlambda", "40", "--foldid", "fold"}, c.args...)
		db := cardreg(t, append(args, "--db", u, "--table", c.table)...)
		require.Zero(t, db.code, db.stderr)
		m := regexp.MustCompile(`(\d+) scans of`).FindStringSubmatch(db.stderr)
		require.NotNil(t, m, db.stderr)
		scans, _ := strconv.Atoi(m[1])
		require.LessOrEqual(t, scans, 6, db.stderr)
		mem := cardreg(t, append(args, path)...)
		require.Zero(t, mem.code, mem.stderr)
		got, want := cvCurve(t, db.stdout), cvCurve(t, mem.stdout)
		require.Len(t, got, len(want))
		for l := range want {
			require.Equal(t, want[l][0], got[l][0], "λ %d", l)
			gv, _ := strconv.ParseFloat(got[l][1], 64)
			wv, _ := strconv.ParseFloat(want[l][1], 64)
			require.InEpsilon(t, wv, gv, 1e-4, "%s λ %d", c.table, l) // each fold fit within its gap (1e-7)
			require.Equal(t, want[l][2], got[l][2], "%s λ %d", c.table, l)
		}
	}
	db := []string{"--db", u, "--table", "credit", "--family", "binomial"}
	fit := cardreg(t, append([]string{"fit", "--target", "default", "--drop", "fold", "--format", "json", "--lambda", "5"}, db...)...)
	require.Zero(t, fit.code, fit.stderr)
	require.Regexp(t, `"scans": [1-9]`, fit.stdout)
	oneLine(t, cardreg(t, append([]string{"cv", "--target", "nope"}, db...)...), 2, "nope")
	oneLine(t, cardreg(t, append([]string{"cv", "--target", "late_payments"}, db...)...), 1, "late_payments", "not 0 or 1")
	ctx := context.Background()
	require.NoError(t, shards[0].Exec(ctx, "DROP TABLE IF EXISTS texty"))
	require.NoError(t, shards[0].Exec(ctx, "CREATE TABLE texty (name String, x Float64, y Float64) ENGINE = MergeTree ORDER BY tuple()"))
	require.NoError(t, shards[0].Exec(ctx, "INSERT INTO texty FORMAT TabSeparated\na\t1\t0\nb\t2\t1\nc\t3\t1\n"))
	oneLine(t, cardreg(t, "cv", "--db", u, "--table", "texty", "--family", "poisson", "--target", "y"), 1, `column "name" has type String`)

	// A server that stops answering after the first scan.
	target, err := url.Parse(u)
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var scans atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if strings.Contains(string(body)+r.URL.RawQuery, "sumForEach") && scans.Add(1) > 1 {
			http.Error(w, "Code: 210. DB::NetException: Connection refused (shard down)", http.StatusInternalServerError)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "cv.csv")
	require.NoError(t, os.WriteFile(out, []byte("old\n"), 0o644))
	res := cardreg(t, "cv", "--db", srv.URL, "--table", "credit", "--family", "binomial", "--target", "default", "--out", out)
	require.Equal(t, 1, res.code, res.stderr)
	require.Contains(t, res.stderr, "shard down")
	before, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, "old\n", string(before), "the output is not replaced by a partial one")
	require.EqualValues(t, 2, scans.Load(), "the first scan went through, the second failed")
}
