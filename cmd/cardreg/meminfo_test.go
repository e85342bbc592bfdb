//go:build linux

package main

import (
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

	old := cgroupLimits
	defer func() { cgroupLimits = old }()
	cgroupLimits = []string{v2}
	require.Equal(t, int64(2147483648), totalMemory())
	cgroupLimits = []string{v1} // above the machine's memory: no limit
	require.Greater(t, totalMemory(), int64(0))
	require.Less(t, totalMemory(), int64(9223372036854771712))
}
