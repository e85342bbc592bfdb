package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/cardsparse/cardreg/cardmat"
	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/internal/jsonx"
	"github.com/cardsparse/cardreg/report"
)

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
		jsonx.Write(stdout, rep)
		return 0
	}
	report.WriteStorage(stdout, rep)
	return 0
}

// memoryOf reads every column of a CSV with a header (with cardreg's one
// reader: gzip, stdin, Parquet, strict errors) and accounts for the
// storage of those whose cells all parse as finite numbers
// (cardmat.StorageOf).
func memoryOf(path string) (*cardmat.Storage, error) {
	t, err := readTableWith(path, data.Options{Labels: func(string) bool { return true }})
	if err != nil {
		return nil, err
	}
	cols := make([][]float64, len(t.Names()))
	for j := range cols {
		if col, ok := data.Numbers(t.Text(j)); ok {
			cols[j] = col
		}
	}
	return cardmat.StorageOf(path, t.Rows(), t.Names(), cols)
}
