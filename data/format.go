package data

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Format is how a data file is read.
type Format string

const (
	// FormatTable is a table with a header: CSV, or Parquet (told by its
	// magic bytes), read by Read and ReadRows.
	FormatTable Format = "table"
	// FormatSVMLight is an svmlight (libsvm) file (ReadSVMLight).
	FormatSVMLight Format = "svmlight"
	// FormatMatrixMarket is a Matrix Market file (ReadMatrixMarket).
	FormatMatrixMarket Format = "mtx"
)

// formatNames are the names a format is given by (--input-format), and
// formatExts the extensions that say it, after a .gz is taken off.
var (
	formatNames = map[string]Format{"csv": FormatTable, "parquet": FormatTable, "table": FormatTable,
		"svmlight": FormatSVMLight, "libsvm": FormatSVMLight, "svm": FormatSVMLight,
		"mtx": FormatMatrixMarket, "matrixmarket": FormatMatrixMarket, "mm": FormatMatrixMarket}
	formatExts = map[string]Format{".svm": FormatSVMLight, ".svmlight": FormatSVMLight, ".libsvm": FormatSVMLight,
		".mtx": FormatMatrixMarket, ".mm": FormatMatrixMarket}
)

// FormatNames lists the names FormatOf takes, for a flag's help.
const FormatNames = "csv (or parquet), svmlight (or libsvm), mtx (Matrix Market)"

// FormatOf returns the format of the data file at path: the one named by
// given when it is not empty (csv, parquet, svmlight, libsvm, mtx,
// matrixmarket, any case), else the one its extension says, a .gz taken
// off first: .svm, .svmlight and .libsvm are svmlight, .mtx and .mm
// Matrix Market, any other (.csv, .parquet, none, standard input) a
// table. The libsvm data sets' own names (rcv1_train.binary, E2006.train)
// say nothing: give their format.
func FormatOf(path, given string) (Format, error) {
	if given != "" {
		f, ok := formatNames[strings.ToLower(strings.TrimSpace(given))]
		if !ok {
			return "", fmt.Errorf("unknown format %s (%s)", ShortText(given), FormatNames)
		}
		return f, nil
	}
	name := strings.TrimSuffix(strings.ToLower(filepath.Base(path)), ".gz")
	if f, ok := formatExts[filepath.Ext(name)]; ok {
		return f, nil
	}
	return FormatTable, nil
}

// Extensions says which extensions name each sparse format (FormatOf),
// for help: ".libsvm, .svm, .svmlight: svmlight; .mm, .mtx: mtx".
func Extensions() string {
	by := map[Format][]string{}
	for e, f := range formatExts {
		by[f] = append(by[f], e)
	}
	var parts []string
	for _, f := range []Format{FormatSVMLight, FormatMatrixMarket} {
		slices.Sort(by[f])
		parts = append(parts, strings.Join(by[f], ", ")+": "+string(f))
	}
	return strings.Join(parts, "; ")
}

// Sparse reports whether the format is read into sparse columns.
func (f Format) Sparse() bool { return f == FormatSVMLight || f == FormatMatrixMarket }

// Describe names the format's files for messages: "an svmlight file".
func (f Format) Describe() string {
	switch f {
	case FormatSVMLight:
		return "an svmlight file"
	case FormatMatrixMarket:
		return "a Matrix Market file"
	}
	return "a CSV or Parquet file"
}

// ErrNoResponse is the error of a Matrix Market file read without a
// response file: the format holds the design only.
var ErrNoResponse = errors.New("a Matrix Market file holds the design only: its response comes from a file of one number per line")

// ReadDesign reads the design of a sparse file of format f (an svmlight
// file's labels too), for prediction: a Matrix Market file needs no
// response file here.
func ReadDesign(path string, f Format, o SparseOptions) (*Sparse, error) {
	switch f {
	case FormatSVMLight:
		return ReadSVMLight(path, o)
	case FormatMatrixMarket:
		return ReadMatrixMarket(path, o)
	}
	return nil, fmt.Errorf("%s: %s is not a sparse format", InputName(path), f)
}

// ReadSparse reads a sparse file of format f into memory with its
// response: an svmlight file's labels, or for a Matrix Market file the
// numbers of the file response (ReadResponse; ErrNoResponse when it is
// ""). An svmlight file takes no response file.
func ReadSparse(path string, f Format, o SparseOptions, response string) (*Sparse, error) {
	switch f {
	case FormatSVMLight:
		if response != "" {
			return nil, errors.New("an svmlight file holds its labels: it takes no response file")
		}
		return ReadSVMLight(path, o)
	case FormatMatrixMarket:
		if response == "" {
			return nil, ErrNoResponse
		}
		s, err := ReadMatrixMarket(path, o)
		if err != nil {
			return nil, err
		}
		n, _ := s.X.Dims()
		if s.Y, err = ReadResponse(response, n); err != nil {
			return nil, err
		}
		return s, nil
	}
	return nil, fmt.Errorf("%s: %s is not a sparse format", InputName(path), f)
}

// ConstantColumns returns the columns of s.X that isConstant finds
// constant, looking at each column's n values only when it stores a
// value in every row: a column zero somewhere is constant only when it
// is zero everywhere (its stored values all 0).
func (s *Sparse) ConstantColumns(isConstant func([]float64) bool) []int {
	n, p := s.X.Dims()
	var out []int
	var buf []float64
	for j := range p {
		c := s.X.Col(j)
		if c.NonZeros() == n {
			if buf == nil {
				buf = make([]float64, n)
			}
			if isConstant(c.Values(buf)) {
				out = append(out, j)
			}
			continue
		}
		zero := true
		c.Each(func(_ int, v float64) { zero = zero && v == 0 })
		if zero {
			out = append(out, j)
		}
	}
	return out
}
