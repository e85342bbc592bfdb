package data

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// ReadList reads a list flag's value s: comma-separated values inline,
// or, when s has no comma and names a file, the file's lines (blank lines
// and surrounding white space ignored; a binary file refused). from is
// " (file NAME)" for a file, "" inline.
func ReadList(s string) (list []string, from string, err error) {
	if !strings.Contains(s, ",") {
		if fi, statErr := os.Stat(s); statErr == nil && !fi.IsDir() {
			b, err := os.ReadFile(s)
			if err != nil {
				return nil, "", err
			}
			if what := NotText(b); what != "" {
				return nil, "", fmt.Errorf("%s: %s, expected one label per line", s, what)
			}
			for _, line := range strings.Split(string(b), "\n") {
				if line = strings.TrimSpace(line); line != "" {
					list = append(list, line)
				}
			}
			return list, " (file " + s + ")", nil
		}
	}
	return strings.Split(s, ","), "", nil
}

// NotAFile is the error of the list flag named flag given one value s,
// not a file, where n are needed: most likely the name of a file that
// does not exist (or a directory, or a file that cannot be read).
func NotAFile(flag, s string, n int) error {
	switch fi, err := os.Stat(s); {
	case err == nil && fi.IsDir():
		return fmt.Errorf("%s %s: is a directory, expected a file with one value per line", flag, ShortText(s))
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s %s: %v", flag, ShortText(s), err)
	}
	return fmt.Errorf("%s %s: no such file, and one value is not enough for %d predictors (give a file with one value per line, or %d values, comma separated)", flag, ShortText(s), n, n)
}

// GroupIDs numbers the labels (white space around each ignored) 0, 1, …
// in the order they first appear.
func GroupIDs(labels []string) []int {
	ids := map[string]int{}
	out := make([]int, len(labels))
	for i, l := range labels {
		l = strings.TrimSpace(l)
		if _, ok := ids[l]; !ok {
			ids[l] = len(ids)
		}
		out[i] = ids[l]
	}
	return out
}
