package sqlstats

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// silent accepts connections on loopback and never writes to them, as a
// hung server does; the connections stay open until the test ends.
func silent(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	done := make(chan struct{})
	go func() {
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
			select {
			case <-done:
				return
			default:
			}
		}
	}()
	t.Cleanup(func() { close(done); ln.Close() })
	return "http://" + ln.Addr().String() + "/?user=u&password=secret"
}

// stalling answers 200 with a header and the start of a line, then sends
// nothing more until the test ends.
func stalling(t *testing.T) string {
	t.Helper()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("x\ty\nFloat"))
		w.(http.Flusher).Flush()
		<-release
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	return srv.URL + "/?password=secret"
}

// requireTimeout checks that err is the timeout which, and came in time.
func requireTimeout(t *testing.T, err error, which string, start time.Time, limit time.Duration) {
	t.Helper()
	var te *TimeoutError
	require.True(t, errors.As(err, &te), "want a *TimeoutError, got %v", err)
	require.Equal(t, which, te.Which, err.Error())
	require.Contains(t, err.Error(), "the "+which+" timeout")
	require.Contains(t, err.Error(), "http://127.0.0.1:")
	require.NotContains(t, err.Error(), "secret")
	require.Less(t, time.Since(start), limit+5*time.Second, "the timeout did not bound the wait")
}

// A server that accepts and never answers, or answers the header and
// stalls, is given up after the timeout that applies, which is named.
func TestHTTPTimeouts(t *testing.T) {
	ctx := context.Background()
	src := Source{Table: "t"}
	short := Timeouts{FirstByte: 200 * time.Millisecond, Query: 600 * time.Millisecond}

	mute := HTTP{URL: silent(t), Timeouts: short}
	start := time.Now()
	_, err := mute.Schema(ctx, ClickHouse, src)
	requireTimeout(t, err, "first-byte", start, short.FirstByte)
	require.Less(t, time.Since(start), short.Query, "the first-byte timeout comes before the query's")
	start = time.Now()
	_, err = mute.Query(ctx, "SELECT 1")
	requireTimeout(t, err, "query", start, short.Query)
	start = time.Now()
	requireTimeout(t, mute.Exec(ctx, "SELECT 1"), "query", start, short.Query)

	// The header came: the first-byte timeout is over, the query's is not.
	stall := HTTP{URL: stalling(t), Timeouts: short}
	for name, call := range map[string]func() error{
		"Schema": func() error { _, err := stall.Schema(ctx, ClickHouse, src); return err },
		"Query":  func() error { _, err := stall.Query(ctx, "SELECT 1"); return err },
	} {
		start = time.Now()
		requireTimeout(t, call(), "query", start, short.Query)
		require.GreaterOrEqual(t, time.Since(start), short.Query, name)
	}

	// The caller's own deadline is the caller's, not a timeout of ours.
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	_, err = HTTP{URL: silent(t)}.Query(cctx, "SELECT 1")
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

// Zero timeouts are the documented defaults, each bounded.
func TestTimeoutDefaults(t *testing.T) {
	require.Equal(t, DefaultTimeouts, Timeouts{}.orDefault())
	got := Timeouts{Query: time.Second}.orDefault()
	require.Equal(t, time.Second, got.Query)
	require.Equal(t, DefaultTimeouts.Connect, got.Connect)
	for _, d := range []time.Duration{DefaultTimeouts.Connect, DefaultTimeouts.FirstByte, DefaultTimeouts.Idle, DefaultTimeouts.Query} {
		require.Positive(t, d)
	}
}

// A ClickHouse answer with names and types gives the schema; the types
// say which columns can be regressed on.
func TestSchemaAndTypes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("a\tb\ts\tw\nFloat64\tNullable(Int32)\tString\tLowCardinality(Nullable(UInt8))\n"))
	}))
	defer srv.Close()
	cols, err := HTTP{URL: srv.URL}.Schema(context.Background(), ClickHouse, Source{Table: "t"})
	require.NoError(t, err)
	require.Equal(t, []Column{{"a", "Float64"}, {"b", "Nullable(Int32)"}, {"s", "String"}, {"w", "LowCardinality(Nullable(UInt8))"}}, cols)
	require.NoError(t, CheckTypes(cols, Source{Columns: []string{"a", "b"}, Weight: "w"}))
	for _, s := range []Source{
		{Columns: []string{"a", "s"}},
		{Columns: []string{"a", "b"}, Weight: "s"},
		{Columns: []string{"a", "b"}, FoldColumn: "s"},
	} {
		var te *TypeError
		require.ErrorAs(t, CheckTypes(cols, s), &te)
		require.Equal(t, "s", te.Column)
		require.EqualError(t, te, `column "s" has type String, not a number type`)
	}
	for typ, num := range map[string]bool{
		"Int8": true, "UInt64": true, "Int256": true, "Float32": true, "Decimal(10, 2)": true, "Bool": true,
		"Nullable(Float64)": true, "String": false, "FixedString(3)": false, "IntervalDay": false,
		"Date": false, "Nullable(Nothing)": false, "Array(Float64)": false, "Enum8('a' = 1)": false, "UUID": false,
	} {
		require.Equal(t, num, numericType(typ), typ)
	}
	// A header without names is an error, not an empty table.
	empty := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer empty.Close()
	_, err = HTTP{URL: empty.URL}.Columns(context.Background(), ClickHouse, Source{Table: "t"})
	require.ErrorContains(t, err, "no columns")
}

// A server's error keeps its first line and status.
func TestHTTPServerError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Code: 60, e.displayText() = DB::Exception: Table default.nope doesn't exist.\nstack", http.StatusNotFound)
	}))
	defer srv.Close()
	_, err := HTTP{URL: srv.URL}.Query(context.Background(), "SELECT 1")
	require.EqualError(t, err, "404 Not Found: Code: 60, e.displayText() = DB::Exception: Table default.nope doesn't exist. (6 further bytes of the answer not shown)")
	require.False(t, strings.Contains(err.Error(), "stack"))
}

// A failure after the status 200 (ClickHouse appends its message to the
// rows) is the server's error, not a row of the wrong width.
func TestHTTPFailureMidAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("0\t10\t0\n1\t12\t0\nCode: 241, e.displayText() = DB::Exception: Memory limit (for query) exceeded, e.what() = DB::Exception\n"))
	}))
	defer srv.Close()
	_, err := HTTP{URL: srv.URL + "/?password=secret"}.Query(context.Background(), "SELECT 1")
	require.ErrorContains(t, err, "failed while answering: Code: 241, e.displayText() = DB::Exception: Memory limit (for query) exceeded")
	require.NotContains(t, err.Error(), "secret")
}

// An HTTP server that is not ClickHouse (a web page on the port) is named
// as such, not reported as a table with no columns.
func TestSchemaNotClickHouse(t *testing.T) {
	for _, page := range []string{"<html><body>It works</body></html>\n", "<!DOCTYPE html>\n<html>\n<body>hello</body>\n</html>\n", "OK\n"} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(page))
		}))
		_, err := HTTP{URL: srv.URL}.Schema(context.Background(), ClickHouse, Source{Table: "t"})
		srv.Close()
		require.ErrorContains(t, err, "is this ClickHouse's HTTP port", "%q", page)
		require.ErrorContains(t, err, "it starts \""+strings.SplitN(page, "\n", 2)[0][:2], "%q", page)
	}
}

// A long error answer is quoted for its first errorShown bytes, cut at a
// character, saying how much more there was: a 2 KB body was echoed whole.
func TestHTTPServerErrorLongBody(t *testing.T) {
	for _, c := range []struct {
		body string
		want string
	}{
		{strings.Repeat("x", 2048), "(1848 further bytes of the answer not shown)"},
		{strings.Repeat("é", 1024), "(1848 further bytes of the answer not shown)"},
		{strings.Repeat("y", 300) + "\n" + strings.Repeat("z", 100), "(201 further bytes of the answer not shown)"},
		{strings.Repeat("w", maxErrorBody+5000), fmt.Sprintf("(more than %d further bytes of the answer not shown)", maxErrorBody+1-errorShown)},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(c.body))
		}))
		_, err := HTTP{URL: srv.URL}.Query(context.Background(), "SELECT 1")
		srv.Close()
		require.Error(t, err)
		msg := err.Error()
		require.True(t, strings.HasPrefix(msg, "500 Internal Server Error: "+c.body[:errorShown]), msg)
		require.Contains(t, msg, "…")
		require.Contains(t, msg, c.want)
		require.Less(t, len(msg), errorShown+120)
		require.True(t, utf8.ValidString(msg))
	}
}

// A table "db.t" is a table of another database, each part quoted; the
// old code sent `db.t`, one name that no table has.
func TestQuoteTable(t *testing.T) {
	require.Equal(t, "`db`.`tbl`", ClickHouse.QuoteTable("db.tbl"))
	require.Equal(t, "`tbl`", ClickHouse.QuoteTable("tbl"))
	require.Equal(t, "`a`.`b.c`", ClickHouse.QuoteTable("a.b.c"))
	require.Equal(t, "`d\\``.`t`", ClickHouse.QuoteTable("d`.t"))
	require.Equal(t, `"db"."tbl"`, PostgreSQL.QuoteTable("db.tbl"))
	for _, bad := range []string{"", ".", "db.", ".t"} {
		require.Error(t, CheckTable(bad), bad)
	}
	require.NoError(t, CheckTable("db.t"))
	var sent string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		sent = string(b)
		w.Write([]byte("a\tb\nFloat64\tFloat64\n"))
	}))
	defer srv.Close()
	_, err := HTTP{URL: srv.URL}.Schema(context.Background(), ClickHouse, Source{Table: "db.tbl"})
	require.NoError(t, err)
	require.Contains(t, sent, "FROM `db`.`tbl` LIMIT 0")
}
