package cyclo

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// moduleRoot is the module's root directory, from this package's.
const moduleRoot = "../.."

// The limits: no function in the module above limit, none under
// cmd/ above cmdLimit.
const (
	limit    = 20
	cmdLimit = 15
)

// limitFor returns the limit for a function in the file at the slash path
// file from the module root.
func limitFor(file string) int {
	if strings.HasPrefix(file, "cmd/") {
		return cmdLimit
	}
	return limit
}

// exemption names a function, by its file from the module root and its
// name as gocyclo prints it, still above its limit.
type exemption struct{ file, name string }

// exempt lists the functions still above their limit when the test
// landed, each a TODO: bring it under its limit, then delete its line. The
// list only shrinks: TestComplexityLimits fails for a function on it that
// is no longer above its limit (or no longer exists).
var exempt = []exemption{}

// TestComplexityLimits: no function of the module, test files included, is
// above its cyclomatic complexity limit, except those exempted, and every
// exempted function is still above it.
func TestComplexityLimits(t *testing.T) {
	if _, err := os.Stat(filepath.Join(moduleRoot, "go.mod")); err != nil {
		t.Fatalf("module root not found: %v", err)
	}
	funcs, err := Dir(moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range violations(funcs, exempt) {
		t.Error(v)
	}
}

// violations returns a line for each function of funcs above its limit
// and not exempted, and for each exempted function not above its limit.
func violations(funcs []Func, exempt []exemption) []string {
	var out []string
	over := map[exemption]bool{}
	for _, f := range funcs {
		lim := limitFor(f.Pos.Filename)
		if f.Complexity <= lim {
			continue
		}
		key := exemption{f.Pos.Filename, f.Name}
		over[key] = true
		if !slices.Contains(exempt, key) {
			out = append(out, fmt.Sprintf("%s: %s has cyclomatic complexity %d, above %d", f.Pos, f.Name, f.Complexity, lim))
		}
	}
	for _, e := range exempt {
		if !over[e] {
			out = append(out, fmt.Sprintf("%s: %s is exempted but no longer above its limit (or gone): delete its line from exempt", e.file, e.name))
		}
	}
	return out
}

// TestViolations: a function over its limit is reported unless exempted,
// an exemption of a function at or under its limit (or of none) is
// reported, and the limit under cmd/ is the stricter one.
func TestViolations(t *testing.T) {
	at := func(file string, c int, name string) Func {
		return Func{Pkg: "p", Name: name, Pos: token.Position{Filename: file, Line: 1, Column: 1}, Complexity: c}
	}
	funcs := []Func{
		at("a/x.go", 21, "Over"),
		at("a/x.go", 20, "AtLimit"),
		at("cmd/t/y.go", 16, "CmdOver"),
		at("cmd/t/y.go", 15, "CmdAtLimit"),
		at("a/x.go", 30, "Exempt"),
		at("a/x.go", 12, "FixedExempt"),
	}
	got := violations(funcs, []exemption{
		{"a/x.go", "Exempt"}, {"a/x.go", "FixedExempt"}, {"a/gone.go", "Gone"},
	})
	want := []string{
		"a/x.go:1:1: Over has cyclomatic complexity 21, above 20",
		"cmd/t/y.go:1:1: CmdOver has cyclomatic complexity 16, above 15",
		"a/x.go: FixedExempt is exempted but no longer above its limit (or gone): delete its line from exempt",
		"a/gone.go: Gone is exempted but no longer above its limit (or gone): delete its line from exempt",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLimitFor: cmd/ has the stricter limit, everything else the module's.
func TestLimitFor(t *testing.T) {
	for file, want := range map[string]int{
		"cmd/cardreg/fit.go":     cmdLimit,
		"solver/fista.go":        limit,
		"bench/glmbench/main.go": limit,
		"internal/cmdx/a.go":     limit,
	} {
		if got := limitFor(file); got != want {
			t.Errorf("limitFor(%q) = %d, want %d", file, got, want)
		}
	}
}
