package simulate

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/cardsparse/cardreg/internal/outfile"
)

// Files returns the contents of the four output files, keyed by extension:
// "csv", "json", "png" and "svg".
func (r *Result) Files() (map[string][]byte, error) {
	out := map[string][]byte{}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(r.Columns); err != nil {
		return nil, err
	}
	for i, row := range r.Rows {
		if len(row) != len(r.Columns) {
			return nil, fmt.Errorf("%s: row %d has %d cells for %d columns", r.Name, i+1, len(row), len(r.Columns))
		}
	}
	if err := w.WriteAll(r.Rows); err != nil {
		return nil, err
	}
	out["csv"] = buf.Bytes()
	meta := map[string]any{
		"name":            r.Name,
		"description":     r.Description,
		"base_seed":       r.BaseSeed,
		"seeds":           r.Seeds,
		"quick":           r.Quick,
		"params":          r.Params,
		"summary":         r.Summary,
		"timing_columns":  r.Timing,
		"elapsed_seconds": r.Elapsed,
		"versions":        Versions(),
		"machine": map[string]any{"goos": runtime.GOOS, "goarch": runtime.GOARCH, "cpus": runtime.NumCPU(),
			"gomaxprocs": runtime.GOMAXPROCS(0)},
	}
	j, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("%s: the summary: %w", r.Name, err)
	}
	out["json"] = append(j, '\n')
	if r.Figure == nil {
		return nil, fmt.Errorf("%s: no figure", r.Name)
	}
	for _, f := range []string{"png", "svg"} {
		if out[f], err = r.Figure.Encode(f); err != nil {
			return nil, fmt.Errorf("%s: the figure: %w", r.Name, err)
		}
	}
	return out, nil
}

// Save writes DIR/NAME.csv, .json, .png and .svg. All four are rendered,
// their paths checked (links followed; a directory in the way is an
// error) and written to files with no name in DIR first (atomicfile;
// hidden temporary files where the system has no O_TMPFILE), and given
// their names only when every write succeeded (outfile.WriteSet), so a
// failed render or write leaves earlier outputs untouched, and a killed
// run (kill -9 included) leaves no temporary file behind. New files have
// mode 0666 less the umask; replaced ones keep their permissions.
func (r *Result) Save(dir string) error {
	files, err := r.Files()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var paths []string
	var contents [][]byte
	for _, ext := range []string{"csv", "json", "png", "svg"} {
		paths = append(paths, filepath.Join(dir, r.Name+"."+ext))
		contents = append(contents, files[ext])
	}
	return outfile.WriteSet("--out", paths, contents)
}
