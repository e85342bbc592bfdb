package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// names lists dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// TestCreateCommitDiscard: while written, an unnamed file adds no name to
// its directory (the named fallback adds one hidden name); Commit gives it
// the target's name with exactly what was written; Discard leaves the
// directory as it was.
func TestCreateCommitDiscard(t *testing.T) {
	for _, unnamed := range []bool{true, false} {
		t.Run(fmt.Sprint("unnamed=", unnamed), func(t *testing.T) {
			if unnamed && !Unnamed {
				t.Skip("no unnamed files on this system")
			}
			old := Unnamed
			Unnamed = unnamed
			defer func() { Unnamed = old }()
			dir := t.TempDir()
			target := filepath.Join(dir, "out.txt")
			f, err := Create(target)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Discard()
			if _, err := f.Write([]byte("all of it\n")); err != nil {
				t.Fatal(err)
			}
			during := names(t, dir)
			if unnamed && len(during) != 0 || !unnamed && len(during) != 1 {
				t.Fatalf("while writing (unnamed %v): %v", unnamed, during)
			}
			if err := f.Commit(); err != nil {
				t.Fatal(err)
			}
			f.Discard()
			if b, err := os.ReadFile(target); err != nil || string(b) != "all of it\n" {
				t.Fatalf("committed: %q, %v", b, err)
			}
			g, err := Create(target)
			if err != nil {
				t.Fatal(err)
			}
			g.Write([]byte("partial"))
			g.Discard()
			if got := names(t, dir); !slices.Equal(got, []string{"out.txt"}) {
				t.Fatalf("after a discarded write: %v", got)
			}
			if b, _ := os.ReadFile(target); string(b) != "all of it\n" {
				t.Fatalf("a discarded write changed the target: %q", b)
			}
		})
	}
}
