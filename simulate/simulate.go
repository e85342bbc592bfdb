package simulate

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"time"
)

// Config configures one run of an experiment.
type Config struct {
	// Seed is the base seed: repetition i uses Seed + i.
	Seed uint64
	// Seeds is the number of repetitions; 0 uses the experiment's default.
	Seeds int
	// Quick runs a reduced size, for tests (seconds, not minutes).
	Quick bool
	// DataDir holds the real data sets (digits.csv, letter_recognition.csv,
	// …); "" means ../shared/data.
	DataDir string
	// Progress, when set, is called with the work done and the total.
	Progress func(done, total int)
}

// SeedFor returns the seed of repetition i.
func (c Config) SeedFor(i int) uint64 { return c.Seed + uint64(i) }

func (c Config) progress(done, total int) {
	if c.Progress != nil {
		c.Progress(done, total)
	}
}

// Experiment is one named experiment.
type Experiment struct {
	// Name is the command-line name, e.g. "regression-vs-lasso".
	Name string
	// Summary is one line for `cardreg simulate list`.
	Summary string
	// DefaultSeeds is the number of repetitions when Config.Seeds is 0.
	DefaultSeeds int
	// fixed marks an experiment without repetitions or randomness (the
	// memory table, the bound): it runs once and takes no seeds.
	fixed bool
	// run does the work; Run fills in the bookkeeping.
	run func(cfg Config) (*Result, error)
}

// Repeated reports whether the experiment has repetitions (and takes
// Config.Seeds); the memory table and the bound have none.
func (e Experiment) Repeated() bool { return !e.fixed }

// Run runs the experiment and returns its result, with the seeds, the
// configuration and the elapsed time recorded.
func (e Experiment) Run(cfg Config) (*Result, error) {
	if cfg.Seeds < 0 {
		return nil, fmt.Errorf("%s: --seeds %d must be positive", e.Name, cfg.Seeds)
	}
	if cfg.Seeds == 0 {
		cfg.Seeds = e.DefaultSeeds
	}
	if e.fixed && cfg.Seeds != 1 {
		return nil, fmt.Errorf("%s has no repetitions and no randomness: drop --seeds", e.Name)
	}
	if cfg.DataDir == "" {
		cfg.DataDir = DefaultDataDir
	}
	start := time.Now()
	r, err := e.run(cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.Name, err)
	}
	r.Name = e.Name
	r.Description = e.Summary
	r.BaseSeed = cfg.Seed
	r.Quick = cfg.Quick
	r.Seeds = []uint64{}
	for i := 0; i < cfg.Seeds && !e.fixed; i++ {
		r.Seeds = append(r.Seeds, cfg.SeedFor(i))
	}
	r.Elapsed = time.Since(start).Seconds()
	return r, nil
}

// DefaultDataDir is where the real data sets are looked for by default: the
// shared folder beside the repository.
const DefaultDataDir = "../shared/data"

// Result is what an experiment produced.
type Result struct {
	// Name and Description are the experiment's name and one-line summary.
	Name, Description string
	// BaseSeed is Config.Seed; Seeds lists the seed of every repetition
	// (empty for an experiment without repetitions).
	BaseSeed uint64
	Seeds    []uint64
	// Quick reports a run at the reduced sizes.
	Quick bool
	// Elapsed is the wall time of the run in seconds.
	Elapsed float64
	// Params are the experiment's settings (sizes, grids, λ rules), written
	// to the JSON file.
	Params any
	// Columns and Rows are the raw results, one row per run.
	Columns []string
	Rows    [][]string
	// Timing names the columns that hold wall times; every other column is
	// the same for the same seed.
	Timing []string
	// Summary is the experiment's summary (means, intervals, ratios).
	Summary any
	// Figure is the experiment's figure.
	Figure *Figure
}

// Add appends a row; values are formatted by Format.
func (r *Result) Add(vals ...any) {
	row := make([]string, len(vals))
	for i, v := range vals {
		row[i] = Format(v)
	}
	r.Rows = append(r.Rows, row)
}

// Format writes a CSV cell: floats in the shortest form that reads back
// exactly, NaN as "NA" (R's convention), integers and strings as they are.
func Format(v any) string {
	switch v := v.(type) {
	case float64:
		if math.IsNaN(v) {
			return "NA"
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

// Deterministic returns the rows without the timing columns: what must be
// equal for equal seeds.
func (r *Result) Deterministic() [][]string {
	var keep []int
	for j, c := range r.Columns {
		if !slices.Contains(r.Timing, c) {
			keep = append(keep, j)
		}
	}
	out := make([][]string, len(r.Rows))
	for i, row := range r.Rows {
		for _, j := range keep {
			out[i] = append(out[i], row[j])
		}
	}
	return out
}

// Versions returns the versions of Go, cardreg (the VCS revision when built
// from a checkout) and the modules cardreg's numbers depend on.
func Versions() map[string]string {
	v := map[string]string{"go": runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v["cardreg"] = bi.Main.Version
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v["cardreg"] = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				v["cardreg"] += "+modified"
			}
		}
	}
	for _, d := range bi.Deps {
		switch d.Path {
		case "gonum.org/v1/gonum", "gonum.org/v1/plot":
			v[d.Path] = d.Version
		}
	}
	return v
}

// Floats returns the named column parsed as numbers ("NA" as NaN).
func (r *Result) Floats(col string) ([]float64, error) {
	j := slices.Index(r.Columns, col)
	if j < 0 {
		return nil, fmt.Errorf("%s: no column %q", r.Name, col)
	}
	out := make([]float64, len(r.Rows))
	for i, row := range r.Rows {
		if row[j] == "NA" {
			out[i] = math.NaN()
			continue
		}
		v, err := strconv.ParseFloat(row[j], 64)
		if err != nil {
			return nil, fmt.Errorf("%s: row %d, column %s: %w", r.Name, i+1, col, err)
		}
		out[i] = v
	}
	return out, nil
}
