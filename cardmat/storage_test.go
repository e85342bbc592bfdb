package cardmat

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// StorageOf skips the columns that are not numeric, counts -0 and +0 as
// one value, keeps a column with too many values dense, and gives the
// distinct counts in column order.
func TestStorageOf(t *testing.T) {
	n := MaxCodes + 10
	level, cont := make([]float64, n), make([]float64, n)
	for i := range n {
		level[i] = float64(i % 3)
		cont[i] = float64(i) + 0.5
	}
	level[0] = math.Copysign(0, -1)
	s, err := StorageOf("f.csv", n, []string{"cont", "text", "level"}, [][]float64{cont, nil, level})
	require.NoError(t, err)
	require.Equal(t, []string{"cont", "level"}, s.Columns)
	require.Equal(t, []string{"text"}, s.SkippedColumns)
	require.Equal(t, []string{"cont"}, s.NotCompressible)
	require.Equal(t, []int{MaxCodes + 1, 3}, s.Distinct)
	require.Equal(t, 2, s.Cols)
	require.Equal(t, 4*n*2, s.DenseFloat32)
	require.InDelta(t, 4*float64(n)+float64(n)*2/8+3*4, s.Compressed, 64)

	_, err = StorageOf("g.csv", 2, []string{"a"}, [][]float64{nil})
	require.EqualError(t, err, "g.csv: no numeric column")
}
