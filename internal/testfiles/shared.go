package testfiles

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// SharedDir is where the shared data sets are, relative to the
// repository's root: a folder beside the repository, not part of it.
const SharedDir = "../shared/data"

// SharedData returns the folder of the shared data sets (SharedDir), as a
// path the calling test can open, once it has checked that every one of
// files is in it. When one is missing (a clone without the folder beside
// it), it skips t with one line saying which: the tests that need data
// from outside the repository are skipped, never failed, without it.
func SharedData(t testing.TB, files ...string) string {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Skipf("needs %s beside the repository: %v", SharedDir, err)
	}
	dir := filepath.Join(root, SharedDir)
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Skipf("needs %s/%s beside the repository (not found: %s)", SharedDir, f, filepath.Join(dir, f))
		}
	}
	return dir
}

// SharedFile returns the path of the shared data set file (see
// SharedData), skipping t when it is missing.
func SharedFile(t testing.TB, file string) string {
	t.Helper()
	return filepath.Join(SharedData(t, file), file)
}

// repoRoot is the repository's root: the nearest folder up from the
// working directory (a test's package) that holds go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = up
	}
}
