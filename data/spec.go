package data

import (
	"errors"
	"fmt"

	"github.com/cardsparse/cardreg/internal/dataerr"
)

// Spec says how a fit reads a data file: the separator, the rows left out,
// and the role of each column. The columns not named are predictors.
type Spec struct {
	// Sep is the field separator of a CSV file; 0 means ','.
	Sep rune
	// DropMissing leaves out the rows with an empty, NaN or infinite cell
	// (Options.DropMissing).
	DropMissing bool
	// Responses name the response columns; nil means the last column
	// read. A form that reads one response takes the first.
	Responses []string
	// Predictors, when not nil, name the predictors; Drop names columns
	// left out (see Choose).
	Predictors, Drop []string
	// Factors say which predictors are factors, and how (ReadStats,
	// which streams the rows in one pass, takes none; a FileSource learns
	// their levels in its first pass).
	Factors FactorSpec
	// Weights, Offset and FoldID name the columns of the observation
	// weights, the offsets and the fold ids (1, 2, …), "" for none. They
	// are never predictors.
	Weights, Offset, FoldID string
	// Select, when not nil, picks the columns to read from the header (see
	// Options.Columns) in place of Choose: it must keep the columns named
	// above.
	Select func(header []string) ([]bool, error)
	// Flags name, in messages, how each role was chosen (a command-line
	// flag such as "--weights"); an empty name is left out.
	Flags Flags
	// Progress, when not nil, returns the progress bar of a pass over the
	// file, labelled label (nil for none).
	Progress func(label string) *Progress
	// Limits bound the longest record and the widest header (see
	// Options.Limits); the forms that check their own width (the Check of
	// ReadStats, FileSource and ReadRows) check it as the header is read,
	// too, from the fewest columns it can give (FewestRead).
	Limits Limits
}

// FewestRead is the fewest columns a header of fields fields gives to read
// (all but the columns Drop names), or 0 when Predictors chooses them.
func (s *Spec) FewestRead(fields int) int {
	if s.Predictors != nil {
		return 0
	}
	return max(fields-len(s.Drop), 0)
}

// widthCheck sets o to check, as the header is read, the width check
// takes, once the fewest columns the header gives (FewestRead) less
// others (the columns of other roles, at most) pass zero.
func (s *Spec) widthCheck(o *Options, others int, check func(width int) error) {
	if check == nil {
		return
	}
	o.Limits.Fields = func(fields int) error {
		if w := s.FewestRead(fields) - others; w > 0 {
			if err := check(w); err != nil {
				return fmt.Errorf("the header has %d columns so far: %w", fields, err)
			}
		}
		return nil
	}
}

// roleColumns counts the columns of the roles named among weights,
// offsets and fold ids.
func (s *Spec) roleColumns() int {
	n := 0
	for _, c := range []string{s.Weights, s.Offset, s.FoldID} {
		if c != "" {
			n++
		}
	}
	return n
}

// responseColumns counts the response columns.
func (s *Spec) responseColumns() int { return max(len(s.Responses), 1) }

// Flags are the names messages give the options that chose the columns
// (command-line flags, say).
type Flags struct {
	// Target is the option that names one response (messages suggest
	// it); Responses the one that named Spec.Responses.
	Target, Responses string
	// Predictors, Drop, Weights, Offset and FoldID chose the Spec's
	// fields of the same names.
	Predictors, Drop, Weights, Offset, FoldID string
}

// options are the reader's options of a pass over the file with the
// progress bar labelled label.
func (s *Spec) options(label string) Options {
	o := Options{Sep: s.Sep, DropMissing: s.DropMissing, Columns: s.selectAll, Limits: s.Limits}
	if s.Progress != nil {
		o.Progress = s.Progress(label)
	}
	return o
}

// roles names the columns read (names) that have a role other than a
// predictor's, by their role: never factors.
func (s *Spec) roles(names []string) map[string]string {
	roles := map[string]string{}
	for _, name := range s.responses(names) {
		roles[name] = "response"
	}
	for _, r := range []struct{ name, role string }{{s.Weights, "weights"}, {s.Offset, "offset"}, {s.FoldID, "fold ids"}} {
		if r.name != "" {
			roles[r.name] = r.role
		}
	}
	return roles
}

// readFactors sets o to read the factors: the columns Factors names, and
// the predictors that hold text; it checks the names Factors gives once
// the header is read.
func (s *Spec) readFactors(o *Options) {
	var roles map[string]string
	o.Columns = func(header []string) ([]bool, error) {
		keep, err := s.selectAll(header)
		if err != nil {
			return nil, err
		}
		names := kept(header, keep)
		roles = s.roles(names)
		var predictors []string
		for _, n := range names {
			if _, ok := roles[n]; !ok {
				predictors = append(predictors, n)
			}
		}
		return keep, s.Factors.check(predictors, roles)
	}
	o.Factors = s.Factors.named
	o.MayBeFactor = func(name string) bool { _, ok := roles[name]; return !ok }
	o.NALevel = s.Factors.NALevel
}

// ErrFactorsInMemory is wrapped by the errors of ReadStats, which
// streams the rows in one pass, when the data hold factors: those are read
// in memory (ReadRows) or by a FileSource, whose first pass learns their
// levels.
var ErrFactorsInMemory = errors.New("one pass of statistics takes no factor columns (their levels are not known yet): read them in memory or by passes (FileSource)")

// errStreamFactors refuses factors in ReadStats.
func errStreamFactors(name string) error {
	return fmt.Errorf("column %s holds text: %w", ShortText(name), ErrFactorsInMemory)
}

// streamFactors sets o, the options of ReadStats, to refuse a predictor
// that holds text (predictor says which columns are
// predictors, once the header is read), and refuses factors named.
func (s *Spec) streamFactors(o *Options, predictor func(name string) bool) error {
	if s.Factors.any() {
		return fmt.Errorf("--factor, --ordinal and --ref: %w", ErrFactorsInMemory)
	}
	o.MayBeFactor = predictor
	o.FactorFound = errStreamFactors
	return nil
}

// hint is " (FLAG)" for a flag named, else "".
func hint(flag string) string {
	if flag == "" {
		return ""
	}
	return " (" + flag + ")"
}

// columnError is the message of a bad value in the column name, chosen by
// flag, as `column "NAME": WHY (FLAG)`.
func columnError(name string, err error, flag string) error {
	return fmt.Errorf("column %s: %v%s", ShortText(name), err, hint(flag))
}

// RowErrorText is the column and cause of a row's error in the response
// (named target), the weights or the offset, as `column "NAME": WHY
// (FLAG)`; a predictor's error names its column itself.
func (s *Spec) RowErrorText(re *dataerr.RowError, target string) string {
	switch re.What {
	case "weight":
		return columnError(s.Weights, re.Err, s.Flags.Weights).Error()
	case "offset":
		return columnError(s.Offset, re.Err, s.Flags.Offset).Error()
	case "response":
		return columnError(target, re.Err, "").Error()
	}
	return fmt.Sprintf("%s: %v", re.What, re.Err)
}

// kept are the names of the columns the header keeps.
func kept(header []string, keep []bool) []string {
	var names []string
	for j, k := range keep {
		if k {
			names = append(names, header[j])
		}
	}
	return names
}

// responses are the response columns among the columns read: Responses,
// else the last.
func (s *Spec) responses(names []string) []string {
	if s.Responses != nil {
		return s.Responses
	}
	return names[len(names)-1:]
}

// selectAll keeps the columns Select keeps, or else those Choose keeps.
func (s *Spec) selectAll(header []string) ([]bool, error) {
	if s.Select != nil {
		return s.Select(header)
	}
	return s.Choose(header)
}
