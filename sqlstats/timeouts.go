package sqlstats

import (
	"fmt"
	"strings"
	"time"
)

// String prints the timeouts set (> 0) as ParseTimeouts reads them:
// connect=D,first-byte=D,idle=D,query=D ("" when none is set).
func (t Timeouts) String() string {
	var parts []string
	for _, w := range []struct {
		name string
		v    time.Duration
	}{{"connect", t.Connect}, {"first-byte", t.FirstByte}, {"idle", t.Idle}, {"query", t.Query}} {
		if w.v > 0 {
			parts = append(parts, w.name+"="+w.v.String())
		}
	}
	return strings.Join(parts, ",")
}

// ParseTimeouts reads s into t: a DURATION bounds each query as a whole
// (Query); a comma-separated list of connect=D, first-byte=D, idle=D and
// query=D sets them one by one (in Go's syntax: 90s, 5m, 1h30m; each > 0). The
// fields s does not name are left as they are.
func ParseTimeouts(s string, t *Timeouts) error {
	for _, part := range strings.Split(s, ",") {
		name, val, named := strings.Cut(part, "=")
		if !named {
			name, val = "query", part
		}
		v, err := time.ParseDuration(strings.TrimSpace(val))
		if err != nil || v <= 0 {
			return fmt.Errorf("%q is not a duration > 0 (Go syntax: 90s, 5m, 1h30m)", val)
		}
		switch strings.TrimSpace(name) {
		case "connect":
			t.Connect = v
		case "first-byte":
			t.FirstByte = v
		case "idle":
			t.Idle = v
		case "query":
			t.Query = v
		default:
			return fmt.Errorf("unknown timeout %q (connect, first-byte, idle or query)", name)
		}
	}
	return nil
}
