package cardmat

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// MaxCodes is the most distinct values a compressed column holds
// (two-byte codes).
const MaxCodes = 1 << 16

// Storage is the storage of a table's numeric columns: dense float32 and
// float64, compressed by the source paper's rule (every entry a code of
// ⌈log₂ m_j⌉ bits, m_j the distinct values of its column, plus the
// distinct values as float32) and as a Matrix stores them (one-byte codes,
// two beyond 256 values, float64 values), as cardreg memory prints it.
type Storage struct {
	File           string   `json:"file"`
	Rows           int      `json:"rows"`
	Cols           int      `json:"cols"`
	DenseFloat32   int      `json:"dense_float32_bytes"`
	DenseFloat64   int      `json:"dense_float64_bytes"`
	Compressed     float64  `json:"compressed_bytes"`
	Stored         int      `json:"stored_bytes"`
	Distinct       []int    `json:"distinct_per_column"`
	Columns        []string `json:"columns"`
	SkippedColumns []string `json:"skipped_columns"`
	// NotCompressible names the numeric columns with more distinct values
	// than two-byte codes hold: they stay dense (float32 in the compressed
	// total, float64 in the stored one).
	NotCompressible []string `json:"not_compressible_columns"`
}

// StorageOf accounts for the storage of the table of file with rows rows
// and the columns names: cols[j] holds column j's values, nil for a
// column that is not numeric (skipped and named). A column with more
// than MaxCodes distinct values is reported as not compressible and
// counted dense. It is an error when no column is numeric.
func StorageOf(file string, rows int, names []string, cols [][]float64) (*Storage, error) {
	s := &Storage{File: file, Rows: rows}
	var packed [][]float64
	var packedNames []string
	for j, name := range names {
		col := cols[j]
		if col == nil {
			s.SkippedColumns = append(s.SkippedColumns, name)
			continue
		}
		s.Columns = append(s.Columns, name)
		if d := distinctCount(col, MaxCodes+1); d > MaxCodes {
			s.NotCompressible = append(s.NotCompressible, name)
			s.Distinct = append(s.Distinct, d)
			continue
		}
		packed, packedNames = append(packed, col), append(packedNames, name)
	}
	if len(s.Columns) == 0 {
		return nil, fmt.Errorf("%s: no numeric column", file)
	}
	s.Cols = len(s.Columns)
	dense := len(s.NotCompressible) * s.Rows
	s.DenseFloat32, s.DenseFloat64 = 4*s.Rows*s.Cols, 8*s.Rows*s.Cols
	s.Compressed, s.Stored = float64(4*dense), 8*dense
	if len(packed) == 0 {
		return s, nil
	}
	return s, s.addPacked(packed, packedNames)
}

// addPacked encodes the compressible columns, adds their storage and
// sets Distinct in column order, the dense columns' included.
func (s *Storage) addPacked(cols [][]float64, names []string) error {
	x := mat.NewDense(s.Rows, len(cols), nil)
	for j, c := range cols {
		x.SetCol(j, c)
	}
	m, err := Encode(x)
	if err != nil {
		return err
	}
	mem := m.Memory()
	s.Compressed += mem.Packed
	s.Stored += mem.Stored
	counts := map[string]int{}
	for j, d := range m.Distinct() {
		counts[names[j]] = d
	}
	for j, name := range s.NotCompressible {
		counts[name] = s.Distinct[j]
	}
	s.Distinct = s.Distinct[:0]
	for _, name := range s.Columns {
		s.Distinct = append(s.Distinct, counts[name])
	}
	return nil
}

// distinctCount counts the distinct values of col, stopping at most.
func distinctCount(col []float64, most int) int {
	seen := map[uint64]bool{}
	for _, v := range col {
		if v == 0 {
			v = 0 // -0 and +0 are one value
		}
		seen[math.Float64bits(v)] = true
		if len(seen) >= most {
			break
		}
	}
	return len(seen)
}
