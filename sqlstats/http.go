package sqlstats

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// HTTP queries ClickHouse over its HTTP interface: the query is POSTed and
// the rows come back tab-separated. Every request is bounded in time (see
// Timeouts): a server that accepts the connection and never answers, or
// that goes silent in the middle of its answer, gives a *TimeoutError, not
// a hang.
type HTTP struct {
	// URL is the server's HTTP address, e.g. http://127.0.0.1:8123/; user
	// and password go in the URL's query (?user=…&password=…).
	URL string
	// Client is the HTTP client. If nil, a client whose connections are
	// bounded by Timeouts.Connect is used; a Client given here keeps its
	// own dialer, and only Timeouts.FirstByte, Idle and Query apply.
	Client *http.Client
	// Timeouts bound each request; a zero field takes its value from
	// DefaultTimeouts.
	Timeouts Timeouts
}

var _ Querier = HTTP{}

// Timeouts bound the waits of one request to the server.
type Timeouts struct {
	// Connect bounds opening the connection (TCP, and TLS for https).
	Connect time.Duration
	// FirstByte bounds the wait for the answer's header to the quick
	// schema query (Schema, Columns), which a live server answers at
	// once. It does not apply to Query and Exec: ClickHouse sends the
	// header of an aggregation only with its result, so the wait for the
	// first byte is the whole computation there, bounded by Query.
	FirstByte time.Duration
	// Idle bounds the silence inside an answer, once its header came: no
	// byte for Idle gives up the request. It bounds sending the query
	// too: a server that stops reading it for Idle is given up. ClickHouse sends the header of
	// an answer with its first block of rows, and an aggregation's rows
	// all at once, so a live server is not silent there for long; a
	// server that sends the header and then hangs would otherwise hold
	// the request until Query.
	Idle time.Duration
	// Query bounds each request as a whole, from connecting to the last
	// byte of the answer.
	Query time.Duration
}

// DefaultTimeouts are the timeouts of a zero Timeouts field: 10 s to
// connect, 30 s for the first byte of the schema query, 1 min of silence
// inside an answer, 30 min for a query as a whole (a statistics query
// scans every row of the source).
var DefaultTimeouts = Timeouts{Connect: 10 * time.Second, FirstByte: 30 * time.Second, Idle: time.Minute, Query: 30 * time.Minute}

// orDefault fills the zero fields from DefaultTimeouts.
func (t Timeouts) orDefault() Timeouts {
	if t.Connect <= 0 {
		t.Connect = DefaultTimeouts.Connect
	}
	if t.FirstByte <= 0 {
		t.FirstByte = DefaultTimeouts.FirstByte
	}
	if t.Idle <= 0 {
		t.Idle = DefaultTimeouts.Idle
	}
	if t.Query <= 0 {
		t.Query = DefaultTimeouts.Query
	}
	return t
}

// TimeoutError says which timeout of a request expired, against which
// server.
type TimeoutError struct {
	// Server is the server's URL without credentials.
	Server string
	// Which is "connect", "first-byte", "idle" or "query" (the Timeouts
	// field).
	Which string
	// Limit is the timeout that expired.
	Limit time.Duration
	// Sending says that an idle timeout expired while the query was
	// being sent (the server stopped reading it), not inside the answer.
	Sending bool
}

// Error says what the server did not do in time.
func (e *TimeoutError) Error() string {
	switch e.Which {
	case "connect":
		return fmt.Sprintf("%s: no connection within %v (the connect timeout)", e.Server, e.Limit)
	case "first-byte":
		return fmt.Sprintf("%s: connected, but no answer within %v (the first-byte timeout; is it ClickHouse's HTTP port?)", e.Server, e.Limit)
	case "idle":
		if e.Sending {
			return fmt.Sprintf("%s: the server stopped reading the query: nothing of it was taken for %v (the idle timeout)", e.Server, e.Limit)
		}
		return fmt.Sprintf("%s: the answer began, then the server sent nothing for %v (the idle timeout)", e.Server, e.Limit)
	}
	return fmt.Sprintf("%s: the query did not complete within %v (the query timeout)", e.Server, e.Limit)
}

// Timeout reports true: the error is a timeout (net.Error's convention).
func (e *TimeoutError) Timeout() bool { return true }

// Server is the URL for messages: its user, password and query
// parameters (where ClickHouse takes credentials) are left out.
func (h HTTP) Server() string {
	u, err := url.Parse(h.URL)
	if err != nil {
		return "the server"
	}
	u.User, u.RawQuery = nil, ""
	return u.String()
}

// client is h.Client, or one whose dials are bounded by t.Connect.
func (h HTTP) client(t Timeouts) *http.Client {
	if h.Client != nil {
		return h.Client
	}
	d := &net.Dialer{Timeout: t.Connect}
	// No keep-alive: a run sends a few long queries, and an idle
	// connection would outlive the HTTP value that opened it.
	return &http.Client{Transport: &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         d.DialContext,
		TLSHandshakeTimeout: t.Connect,
		DisableKeepAlives:   true,
	}}
}

// do sends a statement and hands the answer's body to read, within the
// timeouts (firstByte: whether Timeouts.FirstByte applies; Idle applies
// to every answer's body). A server's error comes back with the first
// line of its message.
func (h HTTP) do(ctx context.Context, body string, firstByte bool, read func(io.Reader) error) error {
	t := h.Timeouts.orDefault()
	ctx, cancel := context.WithTimeoutCause(ctx, t.Query, &TimeoutError{Server: h.Server(), Which: "query", Limit: t.Query})
	defer cancel()
	reqCtx, cancelReq := context.WithCancelCause(ctx)
	defer cancelReq(nil)
	stop := func() {}
	if firstByte {
		timer := time.AfterFunc(t.FirstByte, func() { cancelReq(&TimeoutError{Server: h.Server(), Which: "first-byte", Limit: t.FirstByte}) })
		stop = func() { timer.Stop() }
	}
	// The query is sent under the idle clock too, stopped once all of it
	// was taken: the wait for the answer's header is the computation.
	sending := newIdleReader(strings.NewReader(body), t.Idle, func() {
		cancelReq(&TimeoutError{Server: h.Server(), Which: "idle", Limit: t.Idle, Sending: true})
	})
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, h.urlFor(body), sending)
	if err != nil {
		sending.stop()
		return err
	}
	req.ContentLength = int64(len(body))
	resp, err := h.client(t).Do(req)
	sending.stop()
	stop()
	if err != nil {
		return h.cause(reqCtx, err, t)
	}
	defer resp.Body.Close()
	answer := newIdleReader(resp.Body, t.Idle, func() { cancelReq(&TimeoutError{Server: h.Server(), Which: "idle", Limit: t.Idle}) })
	defer answer.stop()
	if resp.StatusCode != http.StatusOK {
		msg, err := io.ReadAll(io.LimitReader(answer, maxErrorBody+1))
		if err != nil {
			return h.cause(reqCtx, err, t)
		}
		return fmt.Errorf("%s: %s", resp.Status, errorText(msg, len(msg) > maxErrorBody))
	}
	if err := read(answer); err != nil {
		return h.cause(reqCtx, err, t)
	}
	return nil
}

// idleReader reads a body (the query sent, or the answer) and calls
// expire, which cancels the request, when no byte has moved for limit
// (Timeouts.Idle). The clock starts at the first read, not before: the
// time to connect is Timeouts.Connect's, not a silence of the server.
// Each read that moves bytes restarts it; stop ends it for good, so that
// a transport still reading the query after the answer came cannot
// restart it.
type idleReader struct {
	r     io.Reader
	limit time.Duration
	mu    sync.Mutex
	timer *time.Timer // nil until the first read
	done  bool
	fire  func()
}

// newIdleReader returns r under an idle clock that is not running yet.
func newIdleReader(r io.Reader, limit time.Duration, expire func()) *idleReader {
	return &idleReader{r: r, limit: limit, fire: expire}
}

// Read reads from r: the clock runs while it waits, restarts when bytes
// came, and stops at r's end.
func (ir *idleReader) Read(p []byte) (int, error) {
	ir.restart()
	n, err := ir.r.Read(p)
	switch {
	case err != nil:
		ir.stop()
	case n > 0:
		ir.restart()
	}
	return n, err
}

// restart starts the clock anew, unless it was stopped for good.
func (ir *idleReader) restart() {
	ir.mu.Lock()
	defer ir.mu.Unlock()
	switch {
	case ir.done:
	case ir.timer == nil:
		ir.timer = time.AfterFunc(ir.limit, ir.fire)
	default:
		ir.timer.Reset(ir.limit)
	}
}

// stop stops the clock for good, once the body is read or given up.
func (ir *idleReader) stop() {
	ir.mu.Lock()
	defer ir.mu.Unlock()
	ir.done = true
	if ir.timer != nil {
		ir.timer.Stop()
	}
}

// longQuery is ClickHouse's default max_query_size (bytes): a longer
// query (a scan of many models, whose coefficients it carries) raises the
// setting in the URL, which applies before the query is parsed.
const longQuery = 1 << 18

// urlFor returns the URL to send query body to.
func (h HTTP) urlFor(body string) string {
	if len(body) < longQuery {
		return h.URL
	}
	u, err := url.Parse(h.URL)
	if err != nil {
		return h.URL // the request reports it
	}
	q := u.Query()
	q.Set("max_query_size", strconv.Itoa(len(body)+1024))
	u.RawQuery = q.Encode()
	return u.String()
}

// maxErrorBody is how much of an error answer's body is read, and
// errorShown how much of its first line a message quotes.
const (
	maxErrorBody = 1 << 16
	errorShown   = 200
)

// errorText is the start of a server's error message body (its first
// line, at most errorShown bytes, cut at a character's start), saying how
// much was left out (more: the body went on past what was read).
func errorText(body []byte, more bool) string {
	msg := strings.TrimSpace(string(body))
	shown, _, _ := strings.Cut(msg, "\n")
	first := shown
	if len(shown) > errorShown {
		cut := errorShown
		for cut > 0 && !utf8.RuneStart(shown[cut]) {
			cut--
		}
		shown = shown[:cut]
		first = shown + "…"
	}
	left := len(msg) - len(shown)
	switch {
	case more:
		return fmt.Sprintf("%s (more than %d further bytes of the answer not shown)", first, left)
	case left > 0:
		return fmt.Sprintf("%s (%d further bytes of the answer not shown)", first, left)
	}
	return first
}

// cause is the error of a failed request: the timeout that expired if
// one did, else the error without the URL (it may hold credentials).
func (h HTTP) cause(ctx context.Context, err error, t Timeouts) error {
	var te *TimeoutError
	if errors.As(context.Cause(ctx), &te) {
		return te
	}
	if ctx.Err() != nil { // the caller's own deadline or cancellation
		return fmt.Errorf("%s: %w", h.Server(), context.Cause(ctx))
	}
	// With our client, the one wait left to its transport is connecting
	// (the dial, the TLS handshake).
	var ne net.Error
	if h.Client == nil && errors.As(err, &ne) && ne.Timeout() {
		return &TimeoutError{Server: h.Server(), Which: "connect", Limit: t.Connect}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %v", h.Server(), ue.Err)
	}
	return err
}

// Query runs sql and returns its rows.
func (h HTTP) Query(ctx context.Context, sql string) ([][]string, error) {
	var rows [][]string
	err := h.do(ctx, sql+" FORMAT TabSeparated", false, func(body io.Reader) error {
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 1<<16), 1<<26)
		for sc.Scan() {
			line := sc.Text()
			if serverException(line) {
				return fmt.Errorf("%s: failed while answering: %s", h.Server(), line)
			}
			rows = append(rows, strings.Split(line, "\t"))
		}
		return sc.Err()
	})
	return rows, err
}

// serverException reports whether a line of an answer is ClickHouse's
// message of a failure after the status 200 was sent (a memory limit
// reached mid-query, say), which it appends to the rows.
func serverException(line string) bool {
	return strings.HasPrefix(line, "Code: ") && strings.Contains(line, "Exception")
}

// Exec runs a statement that returns no rows (a CREATE or an INSERT).
func (h HTTP) Exec(ctx context.Context, sql string) error {
	return h.do(ctx, sql, false, func(body io.Reader) error {
		_, err := io.Copy(io.Discard, body)
		return err
	})
}

// Column is a column of a source: its name and its type in the engine.
type Column struct {
	Name, Type string
}

// Schema returns the columns of the source's table or query, in order,
// with ClickHouse's types; no row is read.
func (h HTTP) Schema(ctx context.Context, d Dialect, s Source) ([]Column, error) {
	b := builder{d: d, s: s}
	var names, types []string
	err := h.do(ctx, "SELECT *"+b.from()+" LIMIT 0 FORMAT TabSeparatedWithNamesAndTypes", true, func(body io.Reader) error {
		r := bufio.NewReader(io.LimitReader(body, 1<<22))
		var err error
		if names, err = headerLine(r); err != nil {
			return err
		}
		if types, err = headerLine(r); err != nil || strings.HasPrefix(types[0], "<") { // no ClickHouse type starts so
			return notClickHouse(strings.Join(names, "\t"))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(names) != len(types) {
		return nil, fmt.Errorf("%s: %d column names but %d types", h.Server(), len(names), len(types))
	}
	cols := make([]Column, len(names))
	for i := range names {
		cols[i] = Column{names[i], types[i]}
	}
	return cols, nil
}

// notClickHouse is the error for an answer to the schema query that is not
// ClickHouse's two header lines (column names, then types), as when
// another HTTP server (a web page) listens on the port; first is the
// answer's first line.
func notClickHouse(first string) error {
	if r := []rune(first); len(r) > 40 {
		first = string(r[:40]) + "…"
	}
	return fmt.Errorf("the answer is not ClickHouse's header of column names and types (it starts %q): is this ClickHouse's HTTP port (8123 by default)?", first)
}

// headerLine reads one tab-separated header line.
func headerLine(r *bufio.Reader) ([]string, error) {
	line, err := r.ReadString('\n')
	switch line = strings.TrimSuffix(line, "\n"); {
	case err != nil && err != io.EOF:
		return nil, err
	case line == "":
		return nil, errors.New("no columns")
	}
	return strings.Split(line, "\t"), nil
}

// Columns returns the column names of the source's table or query, in
// order.
func (h HTTP) Columns(ctx context.Context, d Dialect, s Source) ([]string, error) {
	cols, err := h.Schema(ctx, d, s)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return names, nil
}

// TypeError says that a column of the source does not hold numbers.
type TypeError struct {
	// Column and Type are the column's name and its type in the engine.
	Column, Type string
}

// Error names the column and its type.
func (e *TypeError) Error() string {
	return fmt.Sprintf("column %q has type %s, not a number type", e.Column, e.Type)
}

// CheckTypes returns a *TypeError for the first of the source's columns
// (the variables, the weight and the fold column) whose ClickHouse type in
// cols is not numeric, before a statistics query fails on it row by row.
// A column missing from cols is left to the engine.
func CheckTypes(cols []Column, s Source) error {
	types := make(map[string]string, len(cols))
	for _, c := range cols {
		types[c.Name] = c.Type
	}
	for _, name := range append(append([]string(nil), s.Columns...), s.Weight, s.FoldColumn) {
		if typ, ok := types[name]; ok && name != "" && !numericType(typ) {
			return &TypeError{name, typ}
		}
	}
	return nil
}

// numericType reports whether a ClickHouse type holds numbers, possibly
// NULL: the integers, floats, decimals and Bool, also inside Nullable or
// LowCardinality.
func numericType(typ string) bool {
	for _, wrap := range []string{"Nullable(", "LowCardinality("} {
		if inner, ok := strings.CutPrefix(typ, wrap); ok {
			return numericType(strings.TrimSuffix(inner, ")"))
		}
	}
	if typ == "Bool" || strings.HasPrefix(typ, "Decimal") {
		return true
	}
	for _, p := range []string{"Int", "UInt", "Float"} {
		// Int8…Int256, UInt8…, Float32, Float64; not IntervalDay.
		if rest, ok := strings.CutPrefix(typ, p); ok && rest != "" && rest[0] >= '1' && rest[0] <= '9' {
			return true
		}
	}
	return false
}
