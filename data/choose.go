package data

import (
	"fmt"
	"slices"
	"strings"
)

// Choose picks the columns to read from the header: the responses, the
// weights, offsets and fold ids, and the predictors (Predictors, else
// every column but Drop). Every name given must be a column, a column has
// one role, and the response cannot be dropped. Its messages name each
// choice by its flag (Flags), or by the role when none is set.
func (s *Spec) Choose(header []string) ([]bool, error) {
	c := chooser{spec: s, header: header}
	if err := c.roles(); err != nil {
		return nil, err
	}
	keep, err := c.predictors()
	if err != nil {
		return nil, err
	}
	for _, j := range append(c.targets, c.special...) {
		if s.Predictors != nil && keep[j] {
			return nil, fmt.Errorf("%s names %q, the response or %s", c.flag(s.Flags.Predictors, "predictors"), header[j], c.specials())
		}
		keep[j] = true
	}
	return keep, nil
}

// chooser holds the roles Choose has found in a header.
type chooser struct {
	spec    *Spec
	header  []string
	targets []int // the responses
	special []int // weights, offsets and folds: read, never predictors
}

// flag is how messages name a choice: its flag, or else its role.
func (c *chooser) flag(flag, role string) string {
	if flag == "" {
		return role
	}
	return flag
}

// specials names the weights', offsets' and fold ids' choices.
func (c *chooser) specials() string {
	f := c.spec.Flags
	return fmt.Sprintf("%s, %s or %s", c.flag(f.Weights, "weights"), c.flag(f.Offset, "offset"), c.flag(f.FoldID, "foldid"))
}

// index finds the column name, chosen by flag.
func (c *chooser) index(flag, name string) (int, error) {
	if j := slices.Index(c.header, name); j >= 0 {
		return j, nil
	}
	return 0, fmt.Errorf("%s: no column named %s (columns: %s)", flag, ShortText(name), strings.Join(c.header, ", "))
}

// roles finds the responses (the last column by default), and the
// weights, offsets and fold ids, each in a column of its own.
func (c *chooser) roles() error {
	s := c.spec
	for _, name := range s.Responses {
		j, err := c.index(c.flag(s.Flags.Responses, "responses"), name)
		if err != nil {
			return err
		}
		c.targets = append(c.targets, j)
	}
	if s.Responses == nil {
		c.targets = []int{len(c.header) - 1}
	}
	for _, r := range []struct{ flag, name string }{
		{c.flag(s.Flags.Weights, "weights"), s.Weights},
		{c.flag(s.Flags.Offset, "offset"), s.Offset},
		{c.flag(s.Flags.FoldID, "foldid"), s.FoldID},
	} {
		if r.name == "" {
			continue
		}
		j, err := c.index(r.flag, r.name)
		if err != nil {
			return err
		}
		if slices.Contains(c.targets, j) || slices.Contains(c.special, j) {
			return fmt.Errorf("%s names the column %q, which has another role", r.flag, r.name)
		}
		c.special = append(c.special, j)
	}
	return nil
}

// predictors keeps the Predictors, or every column but Drop, which may not
// name a response or a special column.
func (c *chooser) predictors() ([]bool, error) {
	s := c.spec
	keep := make([]bool, len(c.header))
	for j := range keep {
		keep[j] = s.Predictors == nil
	}
	for _, name := range s.Predictors {
		j, err := c.index(c.flag(s.Flags.Predictors, "predictors"), name)
		if err != nil {
			return nil, err
		}
		keep[j] = true
	}
	drop := c.flag(s.Flags.Drop, "drop")
	for _, name := range s.Drop {
		j, err := c.index(drop, name)
		if err != nil {
			return nil, err
		}
		if slices.Contains(c.targets, j) || slices.Contains(c.special, j) {
			return nil, fmt.Errorf("%s leaves out %q, the response (name it with %s) or %s", drop, name, c.flag(s.Flags.Target, "responses"), c.specials())
		}
		keep[j] = false
	}
	return keep, nil
}
