package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/internal/jsonx"
)

// Training is a trained network with its per-epoch history, as cardreg
// net prints it; Input says how the first layer read the data (dense or
// compressed).
type Training struct {
	Model   *deepreg.Saved
	History []deepreg.Epoch
	Input   string
}

// Write prints the per-epoch figures: "json" (the model, the input note
// and the history, NaN figures left out), "csv" (NaN as an empty cell) or
// text (a header line, then one aligned row per epoch, NaN as "-").
func (r *Training) Write(w io.Writer, format string) error {
	metric := "mse"
	if r.Model.Loss == "xent" {
		metric = "accuracy"
	}
	header := []string{"epoch", "loss", "penalty", "objective", metric, "val_loss", "val_" + metric, "seconds"}
	rows := make([][]float64, len(r.History))
	for k, e := range r.History {
		rows[k] = []float64{float64(e.Epoch), e.Loss, e.Penalty, e.Objective, e.Metric, e.ValLoss, e.ValMetric, e.Seconds}
	}
	switch format {
	case "json":
		return r.writeJSON(w, header, rows)
	case "csv":
		return writeHistoryCSV(w, header, rows)
	}
	m := r.Model
	fmt.Fprintf(w, "network %v, activations %s, %s loss, penalty %s (lambda %g), %s\n",
		m.Arch, strings.Join(m.Activations, ","), m.Loss, m.Penalty, m.Lambda, r.Input)
	fmt.Fprintf(w, "%6s %12s %12s %12s %10s %12s %10s %9s\n", "epoch", "loss", "penalty", "objective", metric, "val_loss", "val_"+metric, "seconds")
	for _, row := range rows {
		fmt.Fprintf(w, "%6.0f %12.6g %12.6g %12.6g %10.4g %12s %10s %9.3f\n", row[0], row[1], row[2], row[3], row[4],
			orDash(row[5], "%.6g"), orDash(row[6], "%.4g"), row[7])
	}
	return nil
}

// writeJSON prints the model, the input note and the history, each epoch
// an object of its figures that are not NaN.
func (r *Training) writeJSON(w io.Writer, header []string, rows [][]float64) error {
	var hist []map[string]any
	for _, row := range rows {
		e := map[string]any{}
		for k, name := range header {
			if !math.IsNaN(row[k]) {
				e[name] = row[k]
			}
		}
		hist = append(hist, e)
	}
	return jsonx.Write(w, map[string]any{"model": r.Model, "input": r.Input, "history": hist})
}

// writeHistoryCSV prints the history as CSV, a NaN as an empty cell.
func writeHistoryCSV(w io.Writer, header []string, rows [][]float64) error {
	buf := []byte(strings.Join(header, ",") + "\n")
	for _, row := range rows {
		for k, v := range row {
			if k > 0 {
				buf = append(buf, ',')
			}
			if !math.IsNaN(v) {
				buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			}
		}
		buf = append(buf, '\n')
	}
	_, err := w.Write(buf)
	return err
}

// orDash formats v, or "-" when it is NaN (no validation rows).
func orDash(v float64, format string) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf(format, v)
}
