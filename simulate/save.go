package simulate

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
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

// Save writes DIR/NAME.csv, .json, .png and .svg. All four are rendered and
// written to temporary files in DIR first and renamed into place only when
// every write succeeded, so a failed render or write leaves earlier outputs
// untouched.
func (r *Result) Save(dir string) error {
	files, err := r.Files()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	temps := map[string]string{}
	defer func() {
		for _, t := range temps {
			os.Remove(t)
		}
	}()
	for _, ext := range []string{"csv", "json", "png", "svg"} {
		f, err := os.CreateTemp(dir, "."+r.Name+"-*."+ext)
		if err != nil {
			return err
		}
		temps[ext] = f.Name()
		_, err = f.Write(files[ext])
		err = errors.Join(err, f.Chmod(0o644))
		if err = errors.Join(err, f.Close()); err != nil {
			return fmt.Errorf("writing %s: %w", f.Name(), err)
		}
	}
	for _, ext := range []string{"csv", "json", "png", "svg"} {
		if err := os.Rename(temps[ext], filepath.Join(dir, r.Name+"."+ext)); err != nil {
			return err
		}
		delete(temps, ext)
	}
	return nil
}
