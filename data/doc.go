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
//
// # Sparse files
//
// ReadSVMLight (svmlight/libsvm) and ReadMatrixMarket (Matrix Market
// coordinate or array files) read a sparse file into memory as the
// columns of a design.Matrix (Sparse), never densified: an svmlight
// file in two passes (count, then fill; a pipe once, through compressed
// rows), Matrix Market's entries through a counting sort by column. FormatOf tells the formats by extension or
// name, ReadSparse reads one with its response (a Matrix Market file's
// from ReadResponse). The rules (index base, p, what is refused) are in
// ReadSVMLight's and ReadMatrixMarket's documentation; every error names
// the file, the line and the column, and the memory the columns and
// non-zeros take is checked against a budget before it is allocated.
//
// # Factors
//
// A factor is a categorical predictor (Factor): one level code per row and
// the levels' names. ReadRows puts one dummy (0/1) column per level but
// the reference in X, where the factor's column stood, named NAME=LEVEL
// (Rows.FactorCols says which); the reference level's effect is 0. The
// conventions, for every file format:
//
//   - A predictor whose cells are text is a factor. A CSV column is text
//     when its first cell that is not missing (empty, "NA", "NaN") is not
//     a number, wherever the missing cells are; a later cell that is not a
//     number in a numeric column is an error that suggests --factor. A
//     Parquet string (BYTE_ARRAY, dictionary-encoded or not) column is
//     text. A column with no value at all (every cell missing, every
//     Parquet value null) is refused as such. The response, weights,
//     offsets and fold ids are never factors.
//   - FactorSpec.Nominal (--factor NAME) reads a numeric-coded column as a
//     nominal factor: its numbers must be integers, and print as such ("02"
//     and "2.0" are the level "2"); its text cells are levels too.
//   - Levels are in numeric order when every level is a number, else in
//     byte-wise lexicographic order; FactorSpec.Ordinal (--ordinal
//     NAME[=l1,l2,…]) gives an ordinal factor, in its order when one is
//     given, which must list every level seen, once, and only those.
//   - The reference level is the most frequent (ties: the first in level
//     order) of a nominal factor, the first of an ordinal one, or the one
//     FactorSpec.Ref (--ref NAME=LEVEL) names.
//   - A missing value in a factor (an empty cell, "NA" or "NaN" in any case,
//     a Parquet null) is an error, unless FactorSpec.NALevel (--na-level)
//     makes it the level "NA" (last in the natural order) or
//     Spec.DropMissing (--drop-missing) leaves its row out.
//   - A factor with one level, a level seen in fewer than
//     FactorSpec.MinCount rows (2 by default), more than
//     FactorSpec.MaxLevels levels (1000 by default) or a level of its own
//     in every row (an identifier) is refused, by file and column.
//   - Counts are rows, unweighted.
//
// A FileSource streams factors: its first pass (Scan) learns their
// levels by the rules above (refusing a factor at its MaxLevels+1st
// level, as it holds no cells to count later), with each level's rows
// and weights (Factor.Counts, Factor.Mass; no Codes), and its later passes
// hand each row's dummy columns, a level the first pass did not see being
// an error (the file changed). ReadStats, one pass, takes numeric
// predictors only: it refuses factors with one error (ErrFactorsInMemory),
// and a caller streams them with a FileSource instead.
//
// Factor.Code, Factor.Level and Factor.Dummies read the levels of new
// rows, for prediction, as the file's cells were read; NewFactor rebuilds
// a factor from its saved levels. FactorFromCodes makes a factor of
// level codes and level names given by a caller (R, pandas): a name is
// any UTF-8 text, never a cell, so it is taken exactly as written.
package data
