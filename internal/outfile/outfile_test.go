package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Write writes a file whole, leaves it as it was when fn fails, follows a
// dangling link to create its target, and refuses a directory.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	write := func(text string, fail error) error {
		return Write("--out", path, nil, func(w io.Writer) error {
			io.WriteString(w, text)
			return fail
		})
	}
	if err := write("one\n", nil); err != nil {
		t.Fatal(err)
	}
	if err := write("two\n", errors.New("boom")); err == nil || err.Error() != "--out "+path+": boom" {
		t.Errorf("a failing write: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one\n" {
		t.Errorf("after a failed write the file holds %q", b)
	}
	link, target := filepath.Join(dir, "link"), filepath.Join(dir, "target")
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	if err := Write("--out", link, nil, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "x" {
		t.Errorf("the link's target holds %q", b)
	}
	if err := Write("--out", dir, nil, func(io.Writer) error { return nil }); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
	var b strings.Builder
	if err := Write("--out", "-", &b, func(w io.Writer) error { _, err := io.WriteString(w, "std"); return err }); err != nil || b.String() != "std" {
		t.Errorf("standard output: %q, %v", b.String(), err)
	}
}

// CheckPaths refuses an output over an input or over another output.
func TestCheckPaths(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(in, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckPaths([]string{in}, "--out", in); err == nil || !strings.Contains(err.Error(), "is an input of this command") {
		t.Errorf("output over the input: %v", err)
	}
	o := filepath.Join(dir, "o.csv")
	if err := CheckPaths([]string{in}, "--out", o, "--plot", o); err == nil || !strings.Contains(err.Error(), "name the same file") {
		t.Errorf("two outputs on one file: %v", err)
	}
	if err := CheckPaths([]string{in}, "--out", o, "--plot", ""); err != nil {
		t.Error(err)
	}
}

// ErrWriter keeps the first error and refuses later writes.
func TestErrWriter(t *testing.T) {
	boom := errors.New("full")
	w := &ErrWriter{W: failing{boom}}
	if _, err := w.Write([]byte("a")); err != boom || w.Err != boom {
		t.Errorf("first write: %v", err)
	}
	if n, err := w.Write([]byte("b")); n != 0 || err != boom {
		t.Errorf("later write: %d, %v", n, err)
	}
}

type failing struct{ err error }

func (f failing) Write([]byte) (int, error) { return 0, f.err }

// TestWriteSet: a set of files is written whole, or none is replaced when
// one path is in the way; a link in the set is followed.
func TestWriteSet(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")
	require.NoError(t, os.WriteFile(a, []byte("old a"), 0o600))
	require.NoError(t, os.Mkdir(c, 0o755))
	err := WriteSet("--out", []string{a, b, c}, [][]byte{[]byte("new a"), []byte("new b"), []byte("new c")})
	require.ErrorContains(t, err, "--out "+c+": is a directory; none of the 3 files was written")
	got, err := os.ReadFile(a)
	require.NoError(t, err)
	require.Equal(t, "old a", string(got))
	require.NoFileExists(t, b)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 2, "no temporary file is left")

	require.NoError(t, os.Remove(c))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(a, link))
	require.NoError(t, WriteSet("--out", []string{link, b}, [][]byte{[]byte("new a"), []byte("new b")}))
	got, err = os.ReadFile(a)
	require.NoError(t, err)
	require.Equal(t, "new a", string(got), "the link's target is written")
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	require.NotZero(t, fi.Mode()&os.ModeSymlink)
	got, err = os.ReadFile(b)
	require.NoError(t, err)
	require.Equal(t, "new b", string(got))
}

// A device is written in place by Write and refused by WriteSet, which
// could not replace it with the other files; a link to it counts as it.
func TestDeviceInPlace(t *testing.T) {
	const dev = "/dev/null"
	if fi, err := os.Stat(dev); err != nil || fi.Mode().IsRegular() {
		t.Skipf("no device %s", dev)
	}
	link := filepath.Join(t.TempDir(), "null")
	require.NoError(t, os.Symlink(dev, link))
	for _, p := range []string{dev, link} {
		require.NoError(t, Write("--out", p, nil, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }))
		err := WriteSet("--out", []string{filepath.Join(t.TempDir(), "a"), p}, [][]byte{[]byte("a"), []byte("b")})
		require.EqualError(t, err, "--out "+p+": is not a regular file; none of the 2 files was written")
	}
}
