//go:build linux

package main

import (
	"testing"

	"github.com/cardsparse/cardreg/internal/membudget"
)

// TestNetMemoryCgroup: without --memory, net's budget is half the control
// group's limit, named as the other commands name it.
func TestNetMemoryCgroup(t *testing.T) {
	dir := t.TempDir()
	data := writeClasses(t, dir)
	old := membudget.CgroupLimits
	defer func() { membudget.CgroupLimits = old }()
	membudget.CgroupLimits = []string{writeFile(t, dir, "memory.max", "2000000\n")}
	res := cardreg(t, "net", "--arch", "3,20000,1", "--epochs", "1", data)
	oneLine(t, res, 2, "--arch [3 20000 1] needs about", "more than 1 MB (half the machine's memory, or of its control group's limit when lower; --memory sets it)")
}
