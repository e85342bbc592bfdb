package sqlstats

import (
	"context"
	"fmt"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// full listens on loopback with a backlog of one and never accepts, and
// fills the backlog: Linux then drops further SYNs, so a connection to it
// hangs, as to an unreachable host.
func full(t *testing.T) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	require.NoError(t, err)
	t.Cleanup(func() { syscall.Close(fd) })
	require.NoError(t, syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}))
	require.NoError(t, syscall.Listen(fd, 0))
	sa, err := syscall.Getsockname(fd)
	require.NoError(t, err)
	addr := fmt.Sprintf("127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
	for range 4 { // the queue holds backlog + 1; some dials may hang already
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err != nil {
			break
		}
		t.Cleanup(func() { c.Close() })
	}
	return "http://" + addr + "/?password=secret"
}

// A server that does not take the connection is given up after the
// connect timeout.
func TestHTTPConnectTimeout(t *testing.T) {
	h := HTTP{URL: full(t), Timeouts: Timeouts{Connect: 300 * time.Millisecond, Query: 5 * time.Second}}
	start := time.Now()
	_, err := h.Query(context.Background(), "SELECT 1")
	if err != nil && (strings.Contains(err.Error(), "connection reset") || strings.Contains(err.Error(), "connection refused")) {
		t.Skip("this kernel refuses connections beyond the backlog (tcp_abort_on_overflow): no hanging connect to test")
	}
	requireTimeout(t, err, "connect", start, h.Timeouts.Connect)
	require.Less(t, time.Since(start), h.Timeouts.Query, "the connect timeout comes before the query's")
}
