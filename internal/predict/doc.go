// Package predict computes the predictions of a saved model for the rows
// of a data file, as cardreg predict prints them: a linear model's
// (internal/modelfile) streamed row by row in constant memory, reading
// only the model's columns (a factor's as text, each row's level setting
// its dummy column), or a network's (deepreg.Saved) on a table.
package predict
