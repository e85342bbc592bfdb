package sqlstats

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// HTTP queries ClickHouse over its HTTP interface: the query is POSTed and
// the rows come back tab-separated.
type HTTP struct {
	// URL is the server's HTTP address, e.g. http://127.0.0.1:8123/; user
	// and password go in the URL's query (?user=…&password=…).
	URL string
	// Client is the HTTP client (nil: http.DefaultClient).
	Client *http.Client
}

var _ Querier = HTTP{}

// post sends a statement and returns the response body, or an error
// carrying the first line of the server's message.
func (h HTTP) post(ctx context.Context, body string) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	c := h.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			// Its text holds the whole URL, credentials included.
			u := *req.URL
			u.User, u.RawQuery = nil, ""
			return nil, fmt.Errorf("%s: %v", u.String(), ue.Err)
		}
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 2000))
		first, _, _ := strings.Cut(strings.TrimSpace(string(msg)), "\n")
		return nil, fmt.Errorf("%s: %s", resp.Status, first)
	}
	return resp.Body, nil
}

// Query runs sql and returns its rows.
func (h HTTP) Query(ctx context.Context, sql string) ([][]string, error) {
	body, err := h.post(ctx, sql+" FORMAT TabSeparated")
	if err != nil {
		return nil, err
	}
	defer body.Close()
	var rows [][]string
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	for sc.Scan() {
		rows = append(rows, strings.Split(sc.Text(), "\t"))
	}
	return rows, sc.Err()
}

// Exec runs a statement that returns no rows (a CREATE or an INSERT).
func (h HTTP) Exec(ctx context.Context, sql string) error {
	body, err := h.post(ctx, sql)
	if err != nil {
		return err
	}
	defer body.Close()
	_, err = io.Copy(io.Discard, body)
	return err
}

// Columns returns the column names of the source's table or query, in
// order.
func (h HTTP) Columns(ctx context.Context, d Dialect, s Source) ([]string, error) {
	b := builder{d: d, s: s}
	body, err := h.post(ctx, "SELECT *"+b.from()+" LIMIT 0 FORMAT TabSeparatedWithNames")
	if err != nil {
		return nil, err
	}
	defer body.Close()
	head, err := bufio.NewReader(io.LimitReader(body, 1<<20)).ReadString('\n')
	if head = strings.TrimSuffix(head, "\n"); head == "" {
		return nil, fmt.Errorf("no columns (%v)", err)
	}
	return strings.Split(head, "\t"), nil
}
