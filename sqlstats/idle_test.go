package sqlstats

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A server that sends the header and the start of its answer, then
// nothing, held every query until the query timeout (30 min by default).
// The idle timeout gives it up after Idle of silence, named as such,
// whatever the query timeout, on every request (Schema, Query, Exec) and
// on an error answer too.
func TestHTTPIdleTimeout(t *testing.T) {
	ctx := context.Background()
	idle := Timeouts{Idle: 300 * time.Millisecond, Query: time.Hour}
	stall := HTTP{URL: stalling(t), Timeouts: idle}
	for name, call := range map[string]func() error{
		"Schema": func() error { _, err := stall.Schema(ctx, ClickHouse, Source{Table: "t"}); return err },
		"Query":  func() error { _, err := stall.Query(ctx, "SELECT 1"); return err },
		"Exec":   func() error { return stall.Exec(ctx, "SELECT 1") },
	} {
		start := time.Now()
		err := call()
		requireTimeout(t, err, "idle", start, idle.Idle)
		require.GreaterOrEqual(t, time.Since(start), idle.Idle, name)
		require.Contains(t, err.Error(), "the answer began, then the server sent nothing for 300ms (the idle timeout)", name)
	}

	release := make(chan struct{})
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte("Code: 241. DB::Exception: Memory limit"))
		w.(http.Flusher).Flush()
		<-release
	}))
	defer failing.Close()
	defer close(release)
	start := time.Now()
	_, err := HTTP{URL: failing.URL, Timeouts: idle}.Query(ctx, "SELECT 1")
	requireTimeout(t, err, "idle", start, idle.Idle)
}

// An answer that keeps coming, however slowly, is not idle: a byte every
// 20 ms for 0.6 s completes under an idle timeout of 300 ms.
func TestHTTPIdleTrickle(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := range 30 {
			fmt.Fprintf(w, "%d", i%10)
			w.(http.Flusher).Flush()
			time.Sleep(20 * time.Millisecond)
		}
		w.Write([]byte("\n"))
	}))
	defer srv.Close()
	// 30 gaps of 20 ms: the answer takes twice the idle limit in all,
	// and each gap is 15 times shorter than it.
	rows, err := HTTP{URL: srv.URL, Timeouts: Timeouts{Idle: 300 * time.Millisecond}}.Query(context.Background(), "SELECT 1")
	require.NoError(t, err)
	require.Equal(t, [][]string{{strings.Repeat("0123456789", 3)}}, rows)
}

// The idle clock starts when the query is first read for sending, not
// before the connection is made: a slow connect is Timeouts.Connect's to
// judge, not a silence of the server's.
func TestHTTPIdleNotDuringConnect(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Write([]byte("1\n"))
	}))
	defer srv.Close()
	var d net.Dialer
	slow := &http.Client{Transport: &http.Transport{
		DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			time.Sleep(400 * time.Millisecond)
			return d.DialContext(ctx, network, addr)
		},
	}}
	rows, err := HTTP{URL: srv.URL, Client: slow, Timeouts: Timeouts{Idle: 100 * time.Millisecond}}.Query(context.Background(), "SELECT 1")
	require.NoError(t, err)
	require.Equal(t, [][]string{{"1"}}, rows)
}

// idle= is read and printed as the other timeouts, and has a default.
func TestParseIdleTimeout(t *testing.T) {
	var to Timeouts
	require.NoError(t, ParseTimeouts("idle=5s", &to))
	require.Equal(t, Timeouts{Idle: 5 * time.Second}, to)
	require.Equal(t, "idle=5s", to.String())
	require.Equal(t, time.Minute, Timeouts{}.orDefault().Idle)
	require.ErrorContains(t, ParseTimeouts("read=1s", &to), "(connect, first-byte, idle or query)")
}

// A server that accepts the connection and stops reading a long query
// (a scan's coefficients) is given up after Idle, while the query is
// being sent, not after the query timeout.
func TestHTTPIdleSending(t *testing.T) {
	idle := Timeouts{Idle: 300 * time.Millisecond, Query: time.Hour}
	start := time.Now()
	err := HTTP{URL: silent(t), Timeouts: idle}.Exec(context.Background(), "SELECT "+strings.Repeat("1+", 32<<20)+"1")
	requireTimeout(t, err, "idle", start, idle.Idle)
	require.Contains(t, err.Error(), "the server stopped reading the query: nothing of it was taken for 300ms (the idle timeout)")
}
