// Package report holds what a fit prints: the result of one fit
// ([Fit], built from an [estimator.Model] with the data's names and
// notes) and its writers in the three formats of cardreg fit (JSON, text
// and CSV), and the CSV tables of a λ path and of a cross-validation
// curve ([PathCSV], [CVCSV]). The command line prints them; the bindings
// return the same text.
package report
