//go:build !linux

package membudget

// TotalMemory returns 0: the machine's memory is not known here, so only
// --stream or --memory turn streaming on.
func TotalMemory() int64 { return 0 }
