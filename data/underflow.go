package data

import (
	"math/big"
	"strings"
)

// Underflows reports whether the number s, parsed as v, is not zero but
// rounds to 0 in float64 (1e-400, 0x1p-2000): a value typed that float64
// cannot hold.
func Underflows(s string, v float64) bool {
	if v != 0 {
		return false
	}
	// big.Float's exponent range holds what float64's does not.
	b, _, err := big.ParseFloat(strings.TrimSpace(s), 0, 64, big.ToNearestEven)
	return err == nil && b.Sign() != 0
}
