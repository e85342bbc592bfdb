package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestDBIdleTimeout: a server that answers the schema, then sends the
// header of the statistics query's answer and goes silent, held cardreg
// for the whole query timeout (30 min by default). --db-timeout idle=D
// gives it up after D of silence, naming the server, the silence and the
// flag that raises it.
func TestDBIdleTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if body, _ := io.ReadAll(r.Body); strings.Contains(string(body), schemaQuery) {
			io.WriteString(w, "x\ty\nFloat64\tFloat64\n")
			return
		}
		io.WriteString(w, "0\t")
		w.(http.Flusher).Flush()
		<-release
	}))
	defer srv.Close()
	defer close(release)
	for _, args := range [][]string{
		{"fit", "--lambda", "1"},
		{"cv", "--family", "binomial"},
	} {
		start := time.Now()
		res := cardreg(t, append(args, "--db", srv.URL+"/?password=secret", "--table", "t", "--db-timeout", "idle=300ms,query=1h")...)
		oneLine(t, res, 1, srv.URL+"/ table t: ", "the answer began, then the server sent nothing for 300ms (the idle timeout); raise it with --db-timeout idle=600ms")
		require.NotContains(t, res.stderr, "secret")
		require.Less(t, time.Since(start), 10*time.Second, args)
	}
	require.Contains(t, cardreg(t, "help", "fit").stdout, "idle=D (silence inside an answer once it began: no byte for D gives up, default 1m0s)")
}
