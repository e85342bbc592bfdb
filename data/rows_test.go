package data

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// ReadRows splits the columns by role: responses, weights, offsets and fold
// ids out of X, in the file's order.
func TestReadRows(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "r.csv", "a,y,w,b,f,o,z\n1,2,3,4,1,0.5,9\n\n5,6,7,8,2,-1,10\n")
	r, err := ReadRows(path, Spec{Responses: []string{"y", "z"}, Weights: "w", Offset: "o", FoldID: "f"}, RowsOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b"}, r.Names)
	require.Equal(t, []string{"y", "z"}, r.Responses)
	require.Equal(t, mat.NewDense(2, 2, []float64{1, 4, 5, 8}), r.X)
	require.Equal(t, mat.NewDense(2, 2, []float64{2, 9, 6, 10}), r.Y)
	require.Equal(t, []float64{3, 7}, r.Weights)
	require.Equal(t, []float64{0.5, -1}, r.Offset)
	require.Equal(t, []int{0, 1}, r.FoldID)
	require.Equal(t, path+":4", r.Places.Of(1), "the blank line counts")

	// The last column is the response by default; Check sees n and p.
	var got [2]int
	r, err = ReadRows(path, Spec{}, RowsOptions{Check: func(n, p int) error { got = [2]int{n, p}; return nil }})
	require.NoError(t, err)
	require.Equal(t, []string{"z"}, r.Responses)
	require.Equal(t, [2]int{2, 6}, got)
	require.Nil(t, r.Weights)
	require.Nil(t, r.FoldID)

	_, err = ReadRows(path, Spec{}, RowsOptions{Check: func(n, p int) error { return errors.New("too big") }})
	require.EqualError(t, err, path+": too big")
	_, err = ReadRows(path, Spec{Responses: []string{"y", "y"}}, RowsOptions{})
	require.Equal(t, &SpecError{Response: "y"}, err)
	_, err = ReadRows(path, Spec{Responses: []string{"nope"}}, RowsOptions{})
	require.ErrorContains(t, err, path+`: responses: no column named "nope"`)
	one := writeFile(t, dir, "one.csv", "a;y\n1\n")
	_, err = ReadRows(one, Spec{}, RowsOptions{})
	require.EqualError(t, err, one+`: need at least one predictor column besides the response (the header has one column but holds ";": try --sep ';')`)
	bad := writeFile(t, dir, "bad.csv", "a,f,y\n1,1,2\n2,3,4\n")
	_, err = ReadRows(bad, Spec{FoldID: "f"}, RowsOptions{})
	require.EqualError(t, err, bad+`: column "f": fold 2 of 1…3 has no rows`)
}
