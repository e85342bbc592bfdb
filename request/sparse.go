package request

import "github.com/cardsparse/cardreg/data"

// sparseRules refuse the options that name a table's columns or need
// its dense rows when the data file is sparse (Input: svmlight or Matrix
// Market, read into memory as sparse columns named x1…xp), and the
// options of sparse files for any other input.
func (r *Request) sparseRules() []Rule {
	d, in := r.Dialect, r.Input
	sparse := in.Sparse()
	what := in.Describe()
	response := "an svmlight file's response is its labels"
	if in == data.FormatMatrixMarket {
		response = "a Matrix Market design's response comes from " + d.o("response") + " FILE"
	}
	columns := "names a column of a table, and " + what + " has none: its columns are x1…xp by index"
	noColumn := "names a column of a table, which " + what + " does not have (not taken with sparse input yet): give the data as CSV or Parquet to use it"
	rules := []Rule{
		{Option: "target", On: AnyRoute, Off: sparse, Why: "names a column of a table: " + response},
		{Option: "responses", On: AnyRoute, Off: sparse, Why: "names columns of a table: " + response + " (one response)"},
		{Option: "predictors", On: AnyRoute, Off: sparse, Why: columns + " (" + d.o("features") + " sets p)"},
		{Option: "drop", On: AnyRoute, Off: sparse, Why: columns},
		{Option: "weights", On: AnyRoute, Off: sparse, Why: noColumn},
		{Option: "offset", On: AnyRoute, Off: sparse, Why: noColumn},
		{Option: "foldid", On: AnyRoute, Off: sparse, Why: noColumn + " (" + d.o("seed") + " deals the folds)"},
		{Option: "sep", On: AnyRoute, Off: sparse, Why: "is for CSV files, not " + what},
		{Option: "drop-missing", On: AnyRoute, Off: sparse, Why: "is for CSV and Parquet files: " + what + " has no missing cell (an absent index is a zero)"},
		{Option: "stream", On: AnyRoute, Off: sparse, Why: "is for CSV and Parquet files: " + what + " is read into memory as sparse columns (its non-zeros only)"},
		{Option: "lambda", On: AnyRoute, Off: sparse && r.Lambda.Kind == Theory, Why: "theory needs the dense rows: not with " + what},
		{Option: "features", On: AnyRoute, Off: !sparse, Why: "is for sparse files (svmlight, Matrix Market), not " + what},
		{Option: "index-base", On: AnyRoute, Off: in != data.FormatSVMLight, Why: "is for svmlight files (a Matrix Market file is 1-based), not " + what},
		{Option: "input-format", On: OnDB, Off: true, Why: "is for data files, not " + d.o("db")},
		{Option: "response", On: AnyRoute, Off: in != data.FormatMatrixMarket, Why: "is for Matrix Market files, which hold no response, not " + what + responseOf(in)},
	}
	for _, name := range d.FactorOptions {
		rules = append(rules, Rule{Option: name, On: AnyRoute, Off: sparse, Why: "is for factor columns of a table: " + what + " holds numbers only"})
	}
	return rules
}

// responseOf says where the response of a file of format in is, for the
// refusal of --response.
func responseOf(in data.Format) string {
	if in == data.FormatSVMLight {
		return " (its labels are the response)"
	}
	return ""
}
