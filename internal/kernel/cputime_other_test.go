//go:build !unix

package kernel

// cpuSeconds is 0: no CPU clock here (the benchmarks' CPU rates are then
// not reported).
func cpuSeconds() float64 { return 0 }
