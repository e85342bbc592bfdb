package predict

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/internal/modelfile"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func writeCSV(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "d.csv")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

func identity(eta float64) float64 { return eta }

// Linear reads only the model's columns, in any order, adds the offset,
// and maps the linear predictor by out.
func TestLinear(t *testing.T) {
	path := writeCSV(t, "id,b,off,a\nx,1,0.5,2\ny,0,0,-1\n")
	m := &modelfile.Linear{Names: []string{"a", "b"}, Coefficients: []float64{2, 10}, Intercept: 1, OffsetColumn: "off"}
	var b strings.Builder
	require.NoError(t, Linear(&b, m, path, data.Options{}, identity, nil))
	require.Equal(t, "prediction\n15.5\n-1\n", b.String())
	b.Reset()
	require.NoError(t, Linear(&b, m, path, data.Options{}, math.Exp, nil))
	require.True(t, strings.HasPrefix(b.String(), "prediction\n5389698.47"), b.String())
}

// A missing column is named with the header; a prediction beyond float64
// names its row.
func TestLinearErrors(t *testing.T) {
	path := writeCSV(t, "a,b\n1,2\n800,1\n")
	var b strings.Builder
	err := Linear(&b, &modelfile.Linear{Names: []string{"c"}, Coefficients: []float64{1}}, path, data.Options{}, identity, nil)
	require.ErrorContains(t, err, `the model needs predictor "c", which is not a column (columns: a, b)`)
	err = Linear(&b, &modelfile.Linear{Names: []string{"a"}, Coefficients: []float64{1}}, path, data.Options{}, math.Exp, nil)
	require.ErrorContains(t, err, "the prediction of data row 2 overflows float64")
}

// A factor's column is read as text, its level's dummy column set; an
// unseen level is an error naming the line, or the reference level,
// counted, with an Unseen.
func TestLinearFactors(t *testing.T) {
	m := &modelfile.Linear{Names: []string{"g=b", "x", "g=c"}, Coefficients: []float64{10, 1, 100}, Intercept: 0.5,
		Factors: []modelfile.Factor{{Column: "g", Levels: []string{"a", "b", "c"}, Reference: "a"}}, Penalty: "factor"}
	path := writeCSV(t, "g,x\na,1\nc,2\n b ,3\nz,4\ny,5\n")
	var b strings.Builder
	err := Linear(&b, m, path, data.Options{}, identity, nil)
	require.EqualError(t, err, path+`:5: column "g": level "z" is not one of the factor's 3 levels ("a", "b", "c")`+UnseenHint)
	b.Reset()
	var unseen Unseen
	require.NoError(t, Linear(&b, m, path, data.Options{}, identity, &unseen))
	require.Equal(t, "prediction\n1.5\n102.5\n13.5\n4.5\n5.5\n", b.String())
	require.Equal(t, Unseen{Rows: 2, First: `data row 4, column "g", level "z"`}, unseen)
	err = Linear(&b, m, writeCSV(t, "x\n1\n"), data.Options{}, identity, nil)
	require.ErrorContains(t, err, `the model needs factor "g", which is not a column`)
}

// A saved xent network predicts a class label per row; a corrupted one is
// refused naming the model.
func TestNetwork(t *testing.T) {
	// Identity weights: output k is relu(input k), so the class is "dog,x"
	// when relu(b) > relu(a).
	net, err := deepreg.New([]int{2, 2, 2}, []deepreg.Activation{deepreg.ReLU{}}, false, 1)
	require.NoError(t, err)
	for l := range net.Weights {
		net.Weights[l] = mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	}
	s := &deepreg.Saved{Format: deepreg.SavedFormat, Version: deepreg.SavedVersion, Target: "y", Loss: "xent", Penalty: "none", Names: []string{"a", "b"}}
	s.SetClasses([]string{"cat", "dog,x"}, func(string) (float64, bool) { return 0, false })
	s.SetNetwork(net)
	raw, err := json.Marshal(s)
	require.NoError(t, err)
	// The file holds b before a; rows with a and b far apart, so that
	// reading them in the file's order would change some class.
	ab := []float64{2, 1, 0.5, -3, 4, -4, -4, 4, 3, -1, -1, 3}
	var csv strings.Builder
	csv.WriteString("b,a\n")
	for i := 0; i < len(ab); i += 2 {
		fmt.Fprintf(&csv, "%v,%v\n", ab[i+1], ab[i])
	}
	path := writeCSV(t, csv.String())
	tab, err := data.Read(path, data.Options{})
	require.NoError(t, err)
	pred, err := Network(raw, "m.json", tab, path)
	require.NoError(t, err)
	class := func(x []float64) []string {
		out, err := net.Predict(mat.NewDense(len(x)/2, 2, x))
		require.NoError(t, err)
		var c []string
		for i := range len(x) / 2 {
			c = append(c, map[bool]string{false: "cat", true: `"dog,x"`}[out.At(i, 1) > out.At(i, 0)])
		}
		return c
	}
	require.Equal(t, class(ab), pred, "the rows in the model's input order (a, b)")
	swapped := make([]float64, len(ab))
	for i := 0; i < len(ab); i += 2 {
		swapped[i], swapped[i+1] = ab[i+1], ab[i]
	}
	require.NotEqual(t, class(ab), class(swapped), "the data must tell the orders apart")
	_, err = Network([]byte(`{"format":"cardreg-network"}`), "m.json", tab, path)
	require.ErrorContains(t, err, "m.json: corrupted cardreg network")
	s.Names = []string{"a", "c"}
	raw, _ = json.Marshal(s)
	_, err = Network(raw, "m.json", tab, path)
	require.ErrorContains(t, err, `the network needs input "c"`)
}
