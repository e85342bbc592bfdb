//go:build linux

package membudget

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// In a container the memory is its control group's limit when set.
func TestCgroupLimit(t *testing.T) {
	dir := t.TempDir()
	v2 := writeFile(t, dir, "memory.max", "2147483648\n")
	unlimited := writeFile(t, dir, "max", "max\n")
	v1 := writeFile(t, dir, "limit_in_bytes", "9223372036854771712\n")
	missing := filepath.Join(dir, "none")
	require.Equal(t, int64(2147483648), cgroupLimit([]string{v2, v1}))
	require.Equal(t, int64(2147483648), cgroupLimit([]string{missing, v2}))
	require.Equal(t, int64(0), cgroupLimit([]string{unlimited, v2}))
	require.Equal(t, int64(0), cgroupLimit([]string{missing}))
	require.Equal(t, int64(9223372036854771712), cgroupLimit([]string{v1}))

	old := CgroupLimits
	defer func() { CgroupLimits = old }()
	CgroupLimits = []string{v2}
	require.Equal(t, int64(2147483648), TotalMemory())
	CgroupLimits = []string{v1} // above the machine's memory: no limit
	require.Greater(t, TotalMemory(), int64(0))
	require.Less(t, TotalMemory(), int64(9223372036854771712))
}

// writeFile writes text to dir/name and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}
