package data

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// ReadList takes a list inline, or a file's non-blank lines; a binary
// file is refused; NotAFile says why one value is not a file.
func TestReadList(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "g.txt")
	require.NoError(t, os.WriteFile(file, []byte(" a \n\nb\nb\n"), 0o644))
	list, from, err := ReadList(file)
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b", "b"}, list)
	require.Equal(t, " (file "+file+")", from)

	list, from, err = ReadList("x, y")
	require.NoError(t, err)
	require.Equal(t, []string{"x", " y"}, list)
	require.Empty(t, from)

	bin := filepath.Join(dir, "b.bin")
	require.NoError(t, os.WriteFile(bin, []byte{0, 1, 2, 0, 'x'}, 0o644))
	_, _, err = ReadList(bin)
	require.ErrorContains(t, err, "expected one label per line")

	require.ErrorContains(t, NotAFile("--groups", filepath.Join(dir, "none"), 3), "no such file, and one value is not enough for 3 predictors")
	require.ErrorContains(t, NotAFile("--groups", dir, 3), "is a directory")
}

func TestGroupIDs(t *testing.T) {
	require.Equal(t, []int{0, 1, 0, 2, 1}, GroupIDs([]string{"b", " a", "b ", "c", "a"}))
}
