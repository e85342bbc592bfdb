package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/cardsparse/cardreg/cardmat"
	"github.com/cardsparse/cardreg/data"
	"gonum.org/v1/gonum/mat"
)

// memoryReport is what cardreg memory prints.
type memoryReport struct {
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

func runMemory(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("memory", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "text", "text or json")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: cardreg memory [--format text|json] FILE.csv

The storage of the file's numeric columns (non-numeric columns are skipped and
named): dense float32 and float64, and compressed by the source paper's rule
(every entry a code of ceil(log2 m_j) bits, m_j the distinct values of its
column, plus the distinct values as float32), beside what cardmat stores
(one-byte codes, two beyond 256 values, float64 values).

Example:
  cardreg memory ../shared/data/yeast.csv
`)
	}
	pos, err := parseInterleaved(fs, args)
	if helped(fs, err, stdout) {
		return 0
	}
	switch {
	case err != nil:
	case len(pos) != 1:
		err = fmt.Errorf("expected one data file, got %d arguments", len(pos))
	case *format != "text" && *format != "json":
		err = fmt.Errorf("unknown --format %q (text or json)", *format)
	}
	if err != nil {
		return usageFailure(stderr, "memory", err, "")
	}
	rep, err := memoryOf(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "cardreg memory: %v\n", err)
		return 1
	}
	if *format == "json" {
		writeJSON(stdout, rep)
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", rep.File)
	fmt.Fprintf(tw, "rows × numeric columns\t%d × %d\n", rep.Rows, rep.Cols)
	if len(rep.SkippedColumns) > 0 {
		fmt.Fprintf(tw, "skipped (not numeric)\t%s\n", strings.Join(rep.SkippedColumns, ", "))
	}
	fmt.Fprintf(tw, "distinct per column\t%v\n", rep.Distinct)
	for _, name := range rep.NotCompressible {
		fmt.Fprintf(tw, "not compressible\t%s (more than %d distinct values: kept dense)\n", name, maxCodes)
	}
	fmt.Fprintf(tw, "dense float64\t%d bytes\n", rep.DenseFloat64)
	fmt.Fprintf(tw, "dense float32\t%d bytes\n", rep.DenseFloat32)
	fmt.Fprintf(tw, "compressed (paper's rule)\t%.1f bytes (%.1f%% of float32)\n", rep.Compressed, 100*rep.Compressed/float64(rep.DenseFloat32))
	fmt.Fprintf(tw, "stored by cardmat\t%d bytes\n", rep.Stored)
	tw.Flush()
	return 0
}

// maxCodes is the most distinct values a compressed column holds (two-byte
// codes, cardmat's limit).
const maxCodes = 1 << 16

// memoryOf reads every column of a CSV with a header (with cardreg's one
// reader: gzip, stdin, Parquet, strict errors), keeps those whose cells all
// parse as finite numbers, and accounts for their storage. A column with
// more distinct values than two-byte codes hold is reported as not
// compressible and counted dense (float32) in the compressed total.
func memoryOf(path string) (*memoryReport, error) {
	t, err := readTableWith(path, data.Options{Labels: func(string) bool { return true }})
	if err != nil {
		return nil, err
	}
	rep := &memoryReport{File: path, Rows: t.Rows()}
	var cols [][]float64
	var names []string
	for j, name := range t.Names() {
		col, ok := data.Numbers(t.Text(j))
		if !ok {
			rep.SkippedColumns = append(rep.SkippedColumns, name)
			continue
		}
		rep.Columns = append(rep.Columns, name)
		if d := distinctCount(col, maxCodes+1); d > maxCodes {
			rep.NotCompressible = append(rep.NotCompressible, name)
			rep.Distinct = append(rep.Distinct, d)
			continue
		}
		cols, names = append(cols, col), append(names, name)
	}
	if len(rep.Columns) == 0 {
		return nil, fmt.Errorf("%s: no numeric column", path)
	}
	rep.Cols = len(rep.Columns)
	dense := len(rep.NotCompressible) * rep.Rows
	rep.DenseFloat32, rep.DenseFloat64 = 4*rep.Rows*rep.Cols, 8*rep.Rows*rep.Cols
	rep.Compressed, rep.Stored = float64(4*dense), 8*dense
	if len(cols) > 0 {
		x := mat.NewDense(rep.Rows, len(cols), nil)
		for j, c := range cols {
			x.SetCol(j, c)
		}
		m, err := cardmat.Encode(x)
		if err != nil {
			return nil, err
		}
		mem := m.Memory()
		rep.Compressed += mem.Packed
		rep.Stored += mem.Stored
		// Distinct counts in column order, the dense columns' included.
		counts := map[string]int{}
		for j, d := range m.Distinct() {
			counts[names[j]] = d
		}
		for j, name := range rep.NotCompressible {
			counts[name] = rep.Distinct[j]
		}
		rep.Distinct = rep.Distinct[:0]
		for _, name := range rep.Columns {
			rep.Distinct = append(rep.Distinct, counts[name])
		}
	}
	return rep, nil
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
