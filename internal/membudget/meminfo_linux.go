//go:build linux

package membudget

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// CgroupLimits are the files holding the memory limit at the root of the
// process's cgroup namespace (version 2, then version 1): a container's
// limit. A limit set on a group below that root (a systemd slice on a
// host) is not read. Tests point it at files of their own.
var CgroupLimits = []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}

// TotalMemory returns the memory the process may use in bytes: the
// machine's, or its control group's limit when lower (in a container);
// 0 when unknown.
func TotalMemory() int64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	total := int64(si.Totalram) * int64(si.Unit)
	if limit := cgroupLimit(CgroupLimits); limit > 0 && limit < total {
		return limit
	}
	return total
}

// cgroupLimit reads the first of files that holds a byte count; "max"
// (no limit), a missing file or anything else gives 0.
func cgroupLimit(files []string) int64 {
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err == nil && v > 0 {
			return v
		}
		return 0
	}
	return 0
}
