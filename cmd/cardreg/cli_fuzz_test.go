package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// FuzzCommandLine runs arbitrary command lines (arguments separated by
// NUL bytes) on small data files: no input of any command may panic.
// Commands that run long (simulate, bound beyond small sizes) are left
// out; the networks are kept small by the data.
func FuzzCommandLine(f *testing.F) {
	dir := f.TempDir()
	data := filepath.Join(dir, "d.csv")
	if err := writeTestFile(data, small); err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		"fit\x00--lambda\x001\x00D",
		"fit\x00--penalty\x00grouped\x00--groups\x00g,h\x00--lambda\x001\x00D",
		"fit\x00--nu\x000.5\x00--lambda\x00theory\x00D",
		"fit\x00--responses\x00a,y\x00--lambda\x002\x00D",
		"path\x00--nlambda\x003\x00D",
		"cv\x00--folds\x002\x00--nlambda\x003\x00D",
		"net\x00--arch\x002,3,1\x00--epochs\x002\x00D",
		"net\x00--arch\x002,3,10\x00--loss\x00xent\x00--epochs\x002\x00D",
		"lambda\x00--arch\x004,3,1\x00--n\x00100\x00--xnorm\x001",
		"lambda\x00--regression\x00--data\x00D",
		"memory\x00D",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args, ok := fuzzArgs(line, data)
		if !ok {
			return
		}
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("cardreg %q panicked: %v\n%s", args, p, debug.Stack())
			}
		}()
		run(args, io.Discard, io.Discard)
	})
}

// fuzzArgs splits a fuzzed command line, D naming the data file, and
// reports false for one left out: a long-running command (simulate,
// bound), long training or exact LPs, or a file written outside the
// test's folder.
func fuzzArgs(line, data string) ([]string, bool) {
	args := strings.Split(line, "\x00")
	if len(args) == 0 || args[0] == "simulate" || args[0] == "bound" || len(args) > 16 {
		return nil, false
	}
	for i, a := range args {
		if a == "D" {
			args[i] = data
		}
		next := ""
		if i+1 < len(args) {
			next = args[i+1]
		}
		if slices.Contains([]string{"--epochs", "--max-iter", "--nlambda", "--folds"}, a) && len(next) > 2 ||
			a == "--arch" && len(next) > 12 ||
			strings.Contains(a, "out") || strings.Contains(a, "save") || strings.Contains(a, "plot") {
			return nil, false
		}
	}
	return args, true
}

// writeTestFile writes content to path.
func writeTestFile(path, content string) error {
	return os.WriteFile(path, []byte(content), 0o644)
}

// FuzzReadMatrix feeds arbitrary bytes to the reader of --G files: no
// panic; an error is one line naming the file; a matrix has p columns of
// finite numbers.
func FuzzReadMatrix(f *testing.F) {
	for _, s := range []string{"1,-1,0\n0,1,-1\n", "1,2\n", "", "\"1\",2,3\n", "1,NaN,3\n", "1,2,3\n4,5\n"} {
		f.Add([]byte(s), uint8(3))
	}
	path := filepath.Join(f.TempDir(), "g.csv")
	f.Fuzz(func(t *testing.T, data []byte, p uint8) {
		if p == 0 {
			return
		}
		if err := writeTestFile(path, string(data)); err != nil {
			t.Fatal(err)
		}
		g, err := readMatrix(path, int(p))
		if err != nil {
			if !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q does not name the file on one line", err)
			}
			return
		}
		r, c := g.Dims()
		if c != int(p) || r == 0 {
			t.Fatalf("%d×%d matrix for p = %d", r, c, p)
		}
		for i := range r {
			for j := range c {
				if v := g.At(i, j); v != v || v-v != 0 {
					t.Fatalf("non-finite %v", v)
				}
			}
		}
	})
}

// FuzzGroupsFile feeds arbitrary bytes to the reader of --groups files: no
// panic, one label per non-blank line or an error.
func FuzzGroupsFile(f *testing.F) {
	for _, s := range []string{"g\ng\nh\n", "a\r\nb\r\n", "", "\x00\x01", "\xff\xfeg\x00"} {
		f.Add([]byte(s))
	}
	path := filepath.Join(f.TempDir(), "groups.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := writeTestFile(path, string(data)); err != nil {
			t.Fatal(err)
		}
		labels, err := parseGroups(path, 3)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q is not one line", err)
			}
			return
		}
		if len(labels) != 3 {
			t.Fatalf("%d labels", len(labels))
		}
	})
}
