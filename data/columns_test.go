package data

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDenseExcept(t *testing.T) {
	tab, err := Read(writeFile(t, t.TempDir(), "d.csv", "a,b,c\n1,2,3\n4,5,6\n"), Options{})
	require.NoError(t, err)
	require.Equal(t, []float64{1, 3, 4, 6}, tab.DenseExcept(1).RawMatrix().Data)
	require.Equal(t, []float64{1, 2, 3, 4, 5, 6}, tab.DenseExcept(-1).RawMatrix().Data)
}
