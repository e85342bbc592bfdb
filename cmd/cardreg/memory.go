package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cardsparse/cardreg/cardmat"
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
}

func runMemory(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("memory", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "text", "text or json")
	fs.Usage = func() {
		fmt.Fprint(stdout, `Usage: cardreg memory [--format text|json] FILE.csv

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
	if errors.Is(err, flag.ErrHelp) {
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
		fmt.Fprintf(stderr, "cardreg memory: %v\n", err)
		return 2
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
	fmt.Fprintf(tw, "dense float64\t%d bytes\n", rep.DenseFloat64)
	fmt.Fprintf(tw, "dense float32\t%d bytes\n", rep.DenseFloat32)
	fmt.Fprintf(tw, "compressed (paper's rule)\t%.1f bytes (%.1f%% of float32)\n", rep.Compressed, 100*rep.Compressed/float64(rep.DenseFloat32))
	fmt.Fprintf(tw, "stored by cardmat\t%d bytes\n", rep.Stored)
	tw.Flush()
	return 0
}

// memoryOf reads every column of a CSV with a header, keeps those whose
// cells all parse as finite numbers, and accounts for their storage.
func memoryOf(path string) (*memoryReport, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("%s: need a header and at least one data row", path)
	}
	rep := &memoryReport{File: path, Rows: len(recs) - 1}
	var cols [][]float64
	for j, name := range recs[0] {
		col := make([]float64, 0, rep.Rows)
		for _, r := range recs[1:] {
			v, err := strconv.ParseFloat(strings.TrimSpace(r[j]), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				col = nil
				break
			}
			col = append(col, v)
		}
		if col == nil {
			rep.SkippedColumns = append(rep.SkippedColumns, name)
			continue
		}
		cols = append(cols, col)
		rep.Columns = append(rep.Columns, name)
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("%s: no numeric column", path)
	}
	x := mat.NewDense(rep.Rows, len(cols), nil)
	for j, c := range cols {
		x.SetCol(j, c)
	}
	m, err := cardmat.Encode(x)
	if err != nil {
		return nil, err
	}
	mem := m.Memory()
	rep.Cols = len(cols)
	rep.DenseFloat32, rep.DenseFloat64, rep.Compressed, rep.Stored = mem.DenseFloat32, mem.DenseFloat64, mem.Packed, mem.Stored
	rep.Distinct = m.Distinct()
	return rep, nil
}
