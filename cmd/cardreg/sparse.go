package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/internal/membudget"
	"github.com/cardsparse/cardreg/internal/modelfile"
	"github.com/cardsparse/cardreg/internal/predict"
	"gonum.org/v1/gonum/mat"
)

// sparseFlags are the flags of the data file's format and of sparse
// files (svmlight, Matrix Market); the request's table
// (request.Request.Rules) refuses them, and the flags that name a
// table's columns, where they do not apply.
type sparseFlags struct {
	format, base, response string
	features               int
}

func (s *sparseFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.format, "input-format", "", "the data file's format: "+data.FormatNames+"; default: by its extension ("+data.Extensions()+"; a .gz taken off first), else CSV or Parquet. (--format is the output's.) A sparse file is read into memory as sparse columns named x1...xp")
	fs.IntVar(&s.features, "features", 0, "sparse files: the number of columns p (default: the largest index, or the Matrix Market size); give the training file's p to a test file so that their columns agree")
	fs.StringVar(&s.base, "index-base", "auto", "svmlight: the column indices' base, 1 (the convention), 0, or auto (0-based when an index 0 occurs, else 1-based: a 0-based file without index 0 would be read shifted, so say 0 for such files)")
	fs.StringVar(&s.response, "response", "", "Matrix Market: the response, a file of one number per line (a Matrix Market file holds the design only)")
}

// resolveFormat decides the data file's format (data.FormatOf), which
// the request's rules need before any data are read.
func (f *fitFlags) resolveFormat(path string) error {
	in, err := data.FormatOf(path, f.sparse.format)
	if err != nil {
		return usagef("--input-format: %v", err)
	}
	if in.Sparse() {
		f.Input = in
	}
	if f.sparse.features < 0 {
		return usagef("--features must be >= 1 (0: from the file), got %d", f.sparse.features)
	}
	if _, err := data.ParseBase(f.sparse.base); err != nil {
		return usagef("--index-base %v", err)
	}
	if in == data.FormatMatrixMarket && f.sparse.response == "" {
		return usagef("%v: give it with --response FILE", data.ErrNoResponse)
	}
	return nil
}

// loadSparse reads a sparse file (svmlight, or Matrix Market with its
// response file) into memory as sparse columns, the design of the fit
// (estimator.Rows, X a *design.Matrix), and checks the responses for the
// family.
func loadSparse(path string, f *fitFlags) (*problem, error) {
	base, _ := data.ParseBase(f.sparse.base) // checked by resolveFormat
	o := data.SparseOptions{Base: base, Features: f.sparse.features, Budget: membudget.Of(int64(f.Memory))}
	s, err := data.ReadSparse(path, f.Input, o, f.sparse.response)
	if err != nil {
		return nil, err
	}
	n, _ := s.X.Dims()
	if err := checkRows(path, n); err != nil {
		return nil, err
	}
	target := "y"
	y := mat.NewDense(n, 1, s.Y)
	pr := &problem{data: &estimator.Rows{X: s.X, Y: y}, n: n, names: s.Names, responses: []string{target}, target: target, y: y}
	if !f.NoIntercept {
		for _, j := range s.ConstantColumns(estimator.IsConstant) {
			pr.constant = append(pr.constant, s.Names[j])
		}
	}
	return pr, checkSparseResponse(path, f, s)
}

// checkSparseResponse checks a sparse file's responses for the family,
// row by row (datafit.CheckRow), naming the line of an svmlight file's
// label, or the line of the response file; and refuses a constant
// least-squares response.
func checkSparseResponse(path string, f *fitFlags, s *data.Sparse) error {
	fam, _ := datafit.ByName(f.Family)
	where := func(i int) string { return s.Places.Of(i) + ": label" }
	if f.Input == data.FormatMatrixMarket {
		where = func(i int) string { return fmt.Sprintf("%s:%d: response", f.sparse.response, i+1) }
	}
	for i, v := range s.Y {
		err := datafit.CheckRow(fam, i, nil, v, 1, 0)
		var re *datafit.RowError
		if errors.As(err, &re) {
			hint := ""
			if v == -1 && fam.Name() == "binomial" && f.Input == data.FormatSVMLight {
				hint = " (binary svmlight labels are often -1/+1: write -1 as 0, e.g. sed 's/^-1 /0 /')"
			}
			return fmt.Errorf("%s: %v%s", where(i), re.Err, hint)
		}
	}
	if !f.FamilyFit() && estimator.IsConstant(s.Y) {
		return fmt.Errorf("%s: the response is constant: there is nothing to fit", path)
	}
	return nil
}

// predictSparse writes the predictions of the linear model m (mapped by
// out) for the rows of a sparse file of format in, read with the model's
// p as its number of features (predict.Sparse).
func predictSparse(w io.Writer, m *modelfile.Linear, path string, in data.Format, f *predictFlags, out func(float64) float64) error {
	if err := predict.SparseModel(m); err != nil {
		return fmt.Errorf("%s: %v", data.InputName(f.model), err)
	}
	base, _ := data.ParseBase(f.base) // checked by validate
	s, err := data.ReadDesign(path, in, data.SparseOptions{Base: base, Features: len(m.Names)})
	if err != nil {
		return err
	}
	return data.InFile(path, predict.Sparse(w, m, s, out))
}
