package data

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// python is Debian's Python, which has scikit-learn and scipy.
const python = "/usr/bin/python3"

// sklearnScript writes, in the directory argv[1], svmlight files by
// scikit-learn's dump_svmlight_file (1- and 0-based) and a Matrix Market
// file by scipy's mmwrite, of a seeded random sparse matrix; then loads
// every *.svm and *.mtx file there (the test's own included) with
// load_svmlight_file (its base said: zero_based from the name) and
// mmread, and writes each as dense JSON (exact: Python's float repr).
const sklearnScript = `
import json, os, sys, glob
import numpy as np, scipy.sparse as sp, scipy.io
from sklearn.datasets import dump_svmlight_file, load_svmlight_file
d = sys.argv[1]
rng = np.random.default_rng(7)
X = sp.random(50, 23, density=0.15, format="csr", random_state=8, data_rvs=lambda k: rng.standard_normal(k) * 10.0 ** rng.integers(-5, 6, k))
X[:, 22] = 0
X[3, 22] = 1.5
X.eliminate_zeros()
y = rng.standard_normal(50)
dump_svmlight_file(X, y, os.path.join(d, "sk1.svm"), zero_based=False)
dump_svmlight_file(X, y, os.path.join(d, "sk0.svm"), zero_based=True)
scipy.io.mmwrite(os.path.join(d, "sp.mtx"), X.tocoo(), precision=17)
for f in glob.glob(os.path.join(d, "*.svm")):
    zb = os.path.basename(f).endswith("0.svm")
    Xl, yl = load_svmlight_file(f, zero_based=zb)
    json.dump({"x": Xl.toarray().tolist(), "y": yl.tolist()}, open(f + ".json", "w"))
for f in glob.glob(os.path.join(d, "*.mtx")):
    json.dump({"x": scipy.io.mmread(f).toarray().tolist()}, open(f + ".json", "w"))
`

// TestSparseAgainstSklearn: the files scikit-learn and scipy write read
// as they read them, and the files this package reads (written here, with
// comments, blank lines, gzip left out) read as scikit-learn reads them:
// X and y equal exactly. Skipped without Python, scikit-learn or scipy.
func TestSparseAgainstSklearn(t *testing.T) {
	if err := exec.Command(python, "-c", "import sklearn, scipy").Run(); err != nil {
		t.Skipf("%s with scikit-learn and scipy is needed: %v", python, err)
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 6))
	x, y := randomSparse(rng, 35, 14, 0.2)
	x.Set(0, 0, 3) // index 0 present in the 0-based file: scikit-learn's auto would agree
	x.Set(1, 13, -1)
	writeFile(t, dir, "go1.svm", svmText(x, y, 1, true))
	writeFile(t, dir, "go0.svm", svmText(x, y, 0, true))
	writeFile(t, dir, "go.mtx", mmCoordinate(x, rng))
	out, err := exec.Command(python, "-c", sklearnScript, dir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, name := range []string{"sk1.svm", "sk0.svm", "go1.svm", "go0.svm", "sp.mtx", "go.mtx"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, name+".json"))
			require.NoError(t, err)
			var ref struct {
				X [][]float64
				Y []float64
			}
			require.NoError(t, json.Unmarshal(b, &ref))
			path := filepath.Join(dir, name)
			var s *Sparse
			if filepath.Ext(name) == ".mtx" {
				s, err = ReadMatrixMarket(path, SparseOptions{})
			} else {
				s, err = ReadSVMLight(path, SparseOptions{}) // the base detected
				require.NoError(t, err)
				require.Equal(t, name[len(name)-5] == '0', s.ZeroBased)
			}
			require.NoError(t, err)
			want := mat.NewDense(len(ref.X), len(ref.X[0]), nil)
			for i, row := range ref.X {
				want.SetRow(i, row)
			}
			require.True(t, mat.Equal(want, s.X.Dense()), "X differs from scikit-learn's or scipy's")
			if ref.Y != nil {
				require.Equal(t, ref.Y, s.Y)
			}
		})
	}
}
