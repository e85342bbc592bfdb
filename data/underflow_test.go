package data

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUnderflows(t *testing.T) {
	for s, want := range map[string]bool{"1e-400": true, " 0x1p-2000 ": true, "-1e-330": true, "0": false, "0.0e-500": false, "1e-300": false, "abc": false} {
		v, _ := strconv.ParseFloat(s, 64)
		require.Equal(t, want, Underflows(s, v), s)
	}
}
