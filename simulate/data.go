package simulate

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Data is a data set read by LoadCSV.
type Data struct {
	// Header names every column of the file.
	Header []string
	// X holds the leading numeric columns.
	X *mat.Dense
	// Labels holds the column after them as text (nil when there is none),
	// e.g. the letter of letter_recognition.csv.
	Labels []string
}

// LoadCSV reads a comma-separated file with a header row: the first cols
// columns (all when cols < 0) as numbers and the next, if any, as labels.
// Errors name the file, line and column.
func LoadCSV(path string, cols int) (*Data, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w (pass the folder of the data sets with --data)", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = false
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: the header: %w", path, err)
	}
	if cols < 0 || cols > len(header) {
		cols = len(header)
	}
	d := &Data{Header: header}
	var vals []float64
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		for j, cell := range rec[:cols] {
			v, err := strconv.ParseFloat(strings.TrimSpace(cell), 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: column %d (%s): %q is not a number", path, line, j+1, header[j], cell)
			}
			vals = append(vals, v)
		}
		if cols < len(rec) {
			d.Labels = append(d.Labels, rec[cols])
		}
	}
	if len(vals) == 0 || cols == 0 {
		return nil, fmt.Errorf("%s: no data rows", path)
	}
	d.X = mat.NewDense(len(vals)/cols, cols, vals)
	return d, nil
}

// dataFile returns the path of a data set in the configured folder.
func (c Config) dataFile(name string) string { return filepath.Join(c.DataDir, name) }
