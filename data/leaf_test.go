package data

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the module's path, and moduleRoot its root from this package.
const (
	module     = "github.com/cardsparse/cardreg"
	moduleRoot = ".."
)

// above are the packages data must not depend on: the fits sit above the
// readers (issue 36), so data names a fit's errors through internal/dataerr.
var above = []string{"datafit", "solver", "penalty", "estimator", "internal/glm", "internal/lsfit"}

// moduleDeps returns the packages of the module under root (slash paths
// from root) that the package in rel imports, directly or not, reading
// only the non-test files that build for this platform.
func moduleDeps(root, rel string) ([]string, error) {
	seen := map[string]bool{}
	todo := []string{rel}
	for len(todo) > 0 {
		dir := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		pkg, err := build.ImportDir(filepath.Join(root, filepath.FromSlash(dir)), 0)
		if err != nil {
			return nil, err
		}
		for _, imp := range pkg.Imports {
			dep, ok := strings.CutPrefix(imp, module+"/")
			if ok && !seen[dep] {
				seen[dep] = true
				todo = append(todo, dep)
			}
		}
	}
	var out []string
	for dep := range seen {
		out = append(out, dep)
	}
	slices.Sort(out)
	return out, nil
}

// TestLeaf: data, the readers, imports no package of the module that sits
// above it, directly or through another.
func TestLeaf(t *testing.T) {
	deps, err := moduleDeps(moduleRoot, "data")
	if err != nil {
		t.Fatal(err)
	}
	if len(deps) == 0 {
		t.Fatal("no imports of the module found: the walk reads nothing")
	}
	for _, dep := range deps {
		if slices.Contains(above, dep) {
			t.Errorf("data depends on %s (its dependencies in the module: %v)", dep, deps)
		}
	}
}

// TestModuleDeps: the walk follows imports through other packages of the
// module, leaves the others out and skips test files.
func TestModuleDeps(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) {
		path := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("data/a.go", "package data\nimport (\n\t_ \"fmt\"\n\t_ \""+module+"/low\"\n)\n")
	write("data/a_test.go", "package data\nimport _ \""+module+"/test\"\n")
	write("low/b.go", "package low\nimport _ \""+module+"/datafit\"\n")
	write("datafit/c.go", "package datafit\n")
	deps, err := moduleDeps(root, "data")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"datafit", "low"}; !slices.Equal(deps, want) {
		t.Fatalf("deps %v, want %v", deps, want)
	}
}
