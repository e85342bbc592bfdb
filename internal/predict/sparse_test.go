package predict

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/internal/modelfile"
	"github.com/stretchr/testify/require"
)

// Sparse predicts X·β + b₀ from a sparse file's columns, names a row
// whose prediction overflows by its line, and refuses the models a sparse
// file cannot feed.
func TestSparse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.svm")
	require.NoError(t, os.WriteFile(path, []byte("1 1:2 3:-1\n# c\n0 2:4\n5 3:800\n"), 0o644))
	s, err := data.ReadSVMLight(path, data.SparseOptions{Features: 3})
	require.NoError(t, err)
	m := &modelfile.Linear{Names: []string{"x1", "x2", "x3"}, Coefficients: []float64{2, 10, 1}, Intercept: 1}
	var b strings.Builder
	require.NoError(t, Sparse(&b, m, s, identity))
	require.Equal(t, "prediction\n4\n41\n801\n", b.String())
	b.Reset()
	require.EqualError(t, Sparse(&b, m, s, math.Exp), path+":4: the prediction overflows float64")
	for _, tc := range []struct {
		m    modelfile.Linear
		want string
	}{
		{modelfile.Linear{Names: []string{"x1", "x2", "x3"}, Factors: []modelfile.Factor{{Column: "g"}}}, "the model has factor predictors"},
		{modelfile.Linear{Names: []string{"x1", "x2", "x3"}, OffsetColumn: "o"}, `the model adds the offset column "o"`},
		{modelfile.Linear{Names: []string{"x1", "x3", "x2"}}, "the model's 3 predictors are not a sparse file's columns x1…x3 by position"},
		{modelfile.Linear{Names: []string{"x1", "x2"}}, "the file has 3 columns, the model 2 predictors"},
	} {
		require.ErrorContains(t, Sparse(&b, &tc.m, s, identity), tc.want)
	}
}
