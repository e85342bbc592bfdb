package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cardsparse/cardreg/cardmat"
)

// WriteStorage prints a table's storage (cardmat.StorageOf) as a
// two-column text table, as cardreg memory does.
func WriteStorage(w io.Writer, s *cardmat.Storage) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", s.File)
	fmt.Fprintf(tw, "rows × numeric columns\t%d × %d\n", s.Rows, s.Cols)
	if len(s.SkippedColumns) > 0 {
		fmt.Fprintf(tw, "skipped (not numeric)\t%s\n", strings.Join(s.SkippedColumns, ", "))
	}
	fmt.Fprintf(tw, "distinct per column\t%v\n", s.Distinct)
	for _, name := range s.NotCompressible {
		fmt.Fprintf(tw, "not compressible\t%s (more than %d distinct values: kept dense)\n", name, cardmat.MaxCodes)
	}
	fmt.Fprintf(tw, "dense float64\t%d bytes\n", s.DenseFloat64)
	fmt.Fprintf(tw, "dense float32\t%d bytes\n", s.DenseFloat32)
	fmt.Fprintf(tw, "compressed (paper's rule)\t%.1f bytes (%.1f%% of float32)\n", s.Compressed, 100*s.Compressed/float64(s.DenseFloat32))
	fmt.Fprintf(tw, "stored by cardmat\t%d bytes\n", s.Stored)
	return tw.Flush()
}
