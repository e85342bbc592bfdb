package report

import (
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/cardmat"
	"github.com/stretchr/testify/require"
)

func TestWriteStorage(t *testing.T) {
	s, err := cardmat.StorageOf("f.csv", 4, []string{"a", "t"}, [][]float64{{1, 2, 1, 2}, nil})
	require.NoError(t, err)
	var b strings.Builder
	require.NoError(t, WriteStorage(&b, s))
	require.Contains(t, b.String(), "rows × numeric columns     4 × 1\n")
	require.Contains(t, b.String(), "skipped (not numeric)      t\n")
	require.Contains(t, b.String(), "dense float32              16 bytes\n")
	require.NotContains(t, b.String(), "not compressible")
}
