//go:build !linux

package main

// totalMemory returns 0: the machine's memory is not known here, so only
// --stream or --memory turn streaming on.
func totalMemory() int64 { return 0 }
