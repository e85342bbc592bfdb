package simulate

import (
	"fmt"
	"math"

	"github.com/cardsparse/cardreg/cardmat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// memorySet is one data set of the source paper's memory table.
type memorySet struct {
	Label, File string
	// Cols is the number of leading numeric columns stored.
	Cols int
	// PaperSparse and PaperDense are the paper's bytes with and without
	// cardinality sparsity.
	PaperSparse, PaperDense float64
}

var memorySets = []memorySet{
	{"Yeast", "yeast.csv", 8, 9752.5, 47488},
	{"Concrete", "concrete_compressive_strength.csv", 9, 19662.8, 37080},
	{"AI4I 2020", "ai4i2020_full.csv", 12, 125496, 480000},
}

// Memory is the source paper's memory table (§6, Table "Memory"): the bytes
// of three real data sets stored densely as float32 and compressed, every
// code at ⌈log₂ m_j⌉ bits plus the distinct values as float32. It is
// deterministic and has no repetitions.
func Memory() Experiment {
	return Experiment{
		Name:         "memory",
		Summary:      "the paper's memory table: Yeast, Concrete and AI4I stored dense and compressed",
		DefaultSeeds: 1,
		fixed:        true,
		run:          runMemory,
	}
}

func runMemory(cfg Config) (*Result, error) {
	r := &Result{
		Columns: []string{"dataset", "rows", "cols", "distinct_total", "dense_float32_bytes", "dense_float64_bytes",
			"packed_bytes", "stored_bytes", "paper_sparse_bytes", "paper_dense_bytes", "ratio_packed_to_paper"},
		Params: map[string]any{
			"accounting": "packed = Σ_j (M·max(1,⌈log₂ m_j⌉) bits + 32·m_j bits) / 8; dense = 4·M·P; stored = cardmat's layout (1-byte codes, 2 beyond 256 values, float64 values)",
		},
	}
	var summary []map[string]any
	for i, s := range memorySets {
		d, err := LoadCSV(cfg.dataFile(s.File), s.Cols)
		if err != nil {
			return nil, err
		}
		m, err := cardmat.Encode(d.X)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.File, err)
		}
		mem := m.Memory()
		rows, cols := d.X.Dims()
		distinct := 0
		for _, mj := range m.Distinct() {
			distinct += mj
		}
		r.Add(s.Label, rows, cols, distinct, mem.DenseFloat32, mem.DenseFloat64, mem.Packed, mem.Stored,
			s.PaperSparse, s.PaperDense, mem.Packed/s.PaperSparse)
		summary = append(summary, map[string]any{"dataset": s.Label, "packed_bytes": round(mem.Packed, 1),
			"dense_float32_bytes": mem.DenseFloat32, "paper": []float64{s.PaperSparse, s.PaperDense},
			"reduction": round(float64(mem.DenseFloat32)/mem.Packed, 2)})
		cfg.progress(i+1, len(memorySets))
	}
	r.Summary = summary
	fig, err := memoryFigure(r)
	if err != nil {
		return nil, err
	}
	r.Figure = fig
	return r, nil
}

// memoryFigure draws, per data set, the reduction factor dense float32 /
// compressed bytes of the paper and of cardreg.
func memoryFigure(r *Result) (*Figure, error) {
	p := plot.New()
	p.Title.Text = "Memory: dense float32 bytes / compressed bytes"
	p.Y.Label.Text = "reduction factor"
	p.Legend.Top = true
	dense, err := r.Floats("dense_float32_bytes")
	if err != nil {
		return nil, err
	}
	w := vg.Points(20)
	names := make([]string, len(r.Rows))
	for i, row := range r.Rows {
		names[i] = row[0]
	}
	for k, s := range []struct{ name, col string }{{"paper", "paper_sparse_bytes"}, {"cardreg", "packed_bytes"}} {
		vals, err := r.Floats(s.col)
		if err != nil {
			return nil, err
		}
		factor := make(plotter.Values, len(vals))
		for i := range vals {
			factor[i] = dense[i] / vals[i]
		}
		bars, err := plotter.NewBarChart(factor, w)
		if err != nil {
			return nil, err
		}
		bars.Color = Palette[k+1]
		bars.Offset = vg.Length(2*k-1) * w / 2
		p.Add(bars)
		p.Legend.Add(s.name, bars)
	}
	p.NominalX(names...)
	p.Y.Min, p.Y.Max = 0, p.Y.Max*1.2 // room for the legend
	return NewFigure(1, p), nil
}

func round(x float64, digits int) float64 {
	s := math.Pow(10, float64(digits))
	return math.Round(x*s) / s
}
