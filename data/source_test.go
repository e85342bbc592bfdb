package data

import (
	"errors"
	"fmt"
	"testing"

	"github.com/cardsparse/cardreg/internal/dataerr"
	"github.com/stretchr/testify/require"
)

// A FileSource hands every row's predictors, response, weight and offset
// by role, pass after pass, and names a row's error by its column.
func TestFileSource(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "s.csv", "a,w,b,off,y\n1,2,3,0.5,7\n4,1,6,-1,8\n")
	src := NewFileSource(path, Spec{Responses: []string{"y"}, Weights: "w", Offset: "off", Flags: Flags{Weights: "--weights"}})
	var sizes []int
	src.Check = func(p int) error { sizes = append(sizes, p); return nil }
	var got []string
	for range 2 {
		got = got[:0]
		require.NoError(t, src.Pass(func(x []float64, y, w, o float64) error {
			got = append(got, fmt.Sprint(x, y, w, o))
			return nil
		}))
	}
	require.Equal(t, []string{"[1 3] 7 2 0.5", "[4 6] 8 1 -1"}, got)
	require.Equal(t, []string{"a", "b"}, src.Names())
	require.Equal(t, "y", src.Target())
	require.Equal(t, 2, src.Passes())
	require.Equal(t, []int{2, 2}, sizes)

	err := src.Pass(func([]float64, float64, float64, float64) error {
		return &dataerr.RowError{What: "weight", Err: errors.New("negative")}
	})
	require.EqualError(t, err, path+`:2: column "w": negative (--weights)`)
	require.EqualError(t, src.Explain(&dataerr.ColumnError{Col: 1, Err: errors.New("constant")}), path+`: column "b": constant`)
	require.EqualError(t, src.Explain(errors.New("boom")), path+": boom")

	// Without responses named, the last column read is the response.
	last := NewFileSource(path, Spec{})
	require.NoError(t, last.Pass(func([]float64, float64, float64, float64) error { return nil }))
	require.Equal(t, []string{"a", "w", "b", "off"}, last.Names())
}

func TestOnlyOnce(t *testing.T) {
	require.Equal(t, "standard input", OnlyOnce("-"))
	require.Equal(t, "", OnlyOnce(writeFile(t, t.TempDir(), "f.csv", "a\n1\n")))
	require.Equal(t, "", OnlyOnce("/no/such/file"))
}

func TestFileSourceScan(t *testing.T) {
	dir := t.TempDir()
	src := NewFileSource(writeFile(t, dir, "s.csv", "a,y\n1,2\n3,4\n5,6\n"), Spec{})
	n, err := src.Scan()
	require.NoError(t, err)
	require.Equal(t, 3, n)
	require.Equal(t, []string{"a"}, src.Names())
	one := writeFile(t, dir, "one.csv", "y\n1\n2\n")
	_, err = NewFileSource(one, Spec{}).Scan()
	require.EqualError(t, err, one+": need at least one predictor column besides the response")
}
