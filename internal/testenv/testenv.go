// Package testenv says which tests a run includes. The README's test
// command (go test ./...) runs in minutes on a 2-core machine; the
// exhaustive checks (every LP up to the largest sizes, say) run when the
// environment variable CARDREG_SLOW is set to a non-empty value other than
// 0, as CI does.
package testenv

import (
	"os"
	"testing"
)

// SlowVar is the environment variable that turns the exhaustive checks on.
const SlowVar = "CARDREG_SLOW"

// Slow reports whether the exhaustive checks are on.
func Slow() bool {
	v := os.Getenv(SlowVar)
	return v != "" && v != "0"
}

// SkipUnlessSlow skips t, saying how to run it, unless the exhaustive
// checks are on.
func SkipUnlessSlow(t testing.TB) {
	t.Helper()
	if !Slow() {
		t.Skipf("exhaustive check: run with %s=1", SlowVar)
	}
}
