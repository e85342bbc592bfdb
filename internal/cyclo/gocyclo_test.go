package cyclo

import (
	"go/build"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gocycloPath returns the path of an installed gocyclo, from PATH or
// GOPATH/bin, or "" if there is none.
func gocycloPath() string {
	if p, err := exec.LookPath("gocyclo"); err == nil {
		return p
	}
	p := filepath.Join(build.Default.GOPATH, "bin", "gocyclo")
	if _, err := exec.LookPath(p); err == nil {
		return p
	}
	return ""
}

// TestAgreesWithGocyclo: on the whole module, Dir measures every function
// gocyclo measures, with the same name, package, position and complexity,
// and no other. It runs where gocyclo is installed
// (go install github.com/fzipp/gocyclo/cmd/gocyclo@v0.6.0).
func TestAgreesWithGocyclo(t *testing.T) {
	bin := gocycloPath()
	if bin == "" {
		t.Skip("gocyclo is not installed")
	}
	cmd := exec.Command(bin, ".")
	cmd.Dir = moduleRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	want := strings.Split(strings.TrimSpace(string(out)), "\n")
	funcs, err := Dir(moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range funcs {
		got = append(got, f.String())
	}
	slices.Sort(want)
	slices.Sort(got)
	for _, line := range missing(want, got) {
		t.Errorf("gocyclo reports %q; Dir does not", line)
	}
	for _, line := range missing(got, want) {
		t.Errorf("Dir reports %q; gocyclo does not (a //gocyclo:ignore directive?)", line)
	}
	if len(got) < 100 {
		t.Errorf("Dir measured only %d functions in the module", len(got))
	}
}

// missing returns the lines of the sorted a that the sorted b lacks.
func missing(a, b []string) []string {
	var out []string
	for _, line := range a {
		if _, found := slices.BinarySearch(b, line); !found {
			out = append(out, line)
		}
	}
	return out
}
