package data

import "github.com/cardsparse/cardreg/internal/dataerr"

// StreamFoldIDs reads the fold id column spec.FoldID of the file at path
// in one pass over the rows a FileSource of spec reads (in their order)
// into 0-based folds: a bad fold id is reported at its line as an
// offset's error would be (naming the column and spec.Flags.FoldID), and
// FoldColumn then checks that no fold from 1 to the largest is empty.
func StreamFoldIDs(path string, spec Spec) ([]int, error) {
	name, flag := spec.FoldID, spec.Flags.FoldID
	// A source whose offset is the fold column hands it over row by row.
	spec.Offset, spec.FoldID, spec.Flags.Offset = spec.FoldID, "", spec.Flags.FoldID
	var col []float64
	err := NewFileSource(path, spec).Pass(func(_ []float64, _, _, o float64) error {
		if _, err := FoldOf(o); err != nil {
			return &dataerr.RowError{Row: len(col), What: "offset", Err: err}
		}
		col = append(col, o)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return FoldColumn(col, path, name, flag, func(int) string { return path })
}
