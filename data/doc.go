// Package data reads data files for the fits of this module: CSV (any
// one-character separator), Parquet, either gzip-compressed, or standard
// input ("-"), with one-line errors naming the file and the line (a Parquet
// file's row) and the column.
//
// Read returns a Table, the columns as read. A Spec says what a fit reads
// (the separator, the responses, predictors, weights, offsets and fold ids)
// and gives the three forms a fit takes:
//
//   - ReadRows: the rows in memory, split by role (X, Y, weights, …);
//   - ReadStats: the sufficient statistics of each cross-validation fold
//     (suffstat.Folds), from one streamed pass, in O(p²) memory;
//   - NewFileSource: a RowSource that reads the file again at every pass,
//     for the streamed generalised linear models (package glm).
package data
