package data

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// readTable reads a file whose columns all parse as numbers.
func readTable(path string, sep rune) (*Table, error) {
	return Read(path, Options{Sep: sep})
}

// readTableProgress is readTable with the progress bar drawn on p.
func readTableProgress(path string, sep rune, p *Progress) (*Table, error) {
	return Read(path, Options{Sep: sep, Progress: p})
}

// writeFile writes content to the file name in dir and returns its path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}
