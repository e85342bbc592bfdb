package cyclo

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"
)

// writeFile writes src to the slash path rel under root, making its
// directories.
func writeFile(t *testing.T, root, rel, src string) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// measure parses src as a file and returns its functions' complexities by
// name.
func measure(t *testing.T, src string) map[string]int {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "src.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, fn := range File(fset, f) {
		if _, dup := out[fn.Name]; dup {
			t.Fatalf("%s measured twice", fn.Name)
		}
		out[fn.Name] = fn.Complexity
	}
	return out
}

// TestRules: each construct adds what gocyclo adds, and nothing else does.
func TestRules(t *testing.T) {
	src := `package p

func straight(a, b int) int { x := a + b; x *= 2; return x }

func ifs(a int) int {
	if a > 0 { return 1 } else if a < 0 { return -1 } else { return 0 }
}

func loops(xs []int) (s int) {
	for i := 0; i < 3; i++ { s += i }
	for range xs { s++ }
	for { break }
	return
}

func switches(a any) int {
	switch a.(type) {
	case int, int8:
		return 1
	case string:
		return 2
	default:
		return 0
	}
}

func selects(c chan int, d chan int) {
	select {
	case <-c:
	case d <- 1:
	default:
	}
}

func bools(a, b, c bool) bool { return a && b || c && !a || (a == b) }

func lits() func() bool {
	f := func(a bool) bool { if a { return a }; return false }
	return func() bool { return f(true) && f(false) }
}

func emptySwitch(a int) {
	switch {
	default:
	}
}

var named, other = func(a bool) bool { return a || !a }, 3
`
	want := map[string]int{
		"straight":    1,
		"ifs":         3,
		"loops":       4,
		"switches":    3,
		"selects":     3,
		"bools":       5,
		"lits":        3,
		"emptySwitch": 1,
		"named":       2,
	}
	got := measure(t, src)
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: complexity %d, want %d", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("measured %v, want the functions of %v", got, want)
	}
}

// TestNames: methods are named "(Recv).Name" with a pointer's star and
// without type parameters, as gocyclo names them.
func TestNames(t *testing.T) {
	src := `package p

type T struct{}
type G[A any] struct{}
type H[A, B any] struct{}

func (T) a()         {}
func (t *T) b()      {}
func (g G[A]) c()    {}
func (h *H[A, B]) d() {}
func e()             {}
`
	got := measure(t, src)
	for _, name := range []string{"(T).a", "(*T).b", "(G).c", "(*H).d", "e"} {
		if got[name] != 1 {
			t.Errorf("%s: not measured as 1 (measured %v)", name, got)
		}
	}
}

// TestDir: Dir names files by their slash path from the root and leaves out
// testdata, vendor and hidden directories.
func TestDir(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) {
		t.Helper()
		writeFile(t, root, rel, src)
	}
	write("a.go", "package a\nfunc A(x bool) { if x {} }\n")
	write("sub/b_test.go", "package b\nfunc B() {}\n")
	write("testdata/c.go", "package c\nfunc C() {}\n")
	write("vendor/d.go", "package d\nfunc D() {}\n")
	write(".hidden/e.go", "package e\nfunc E() {}\n")
	write("_skip/f.go", "package f\nfunc F() {}\n")
	write("notes.txt", "func G() {}\n")
	funcs, err := Dir(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range funcs {
		got = append(got, f.String())
	}
	want := []string{"2 a A a.go:2:1", "1 b B sub/b_test.go:2:1"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Dir = %q, want %q", got, want)
	}
}

// TestDirParseError: a file that does not parse is an error.
func TestDirParseError(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "bad.go", "package bad\nfunc {\n")
	if _, err := Dir(root); err == nil {
		t.Error("Dir: no error for a file that does not parse")
	}
}
