// Package names quotes the names and cells a user gave in messages, and
// checks lists of names: one home for the command line and the packages
// that read its files.
package names

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Short is text for a message: b quoted, at most a short prefix of it, so
// that a huge cell or name is never echoed whole. It takes a string as it
// is: converting a level of 150 MB to bytes for its message copied it
// whole, a third copy of its record in memory.
func Short[T ~string | ~[]byte](b T) string {
	const most = 40
	if len(b) <= most {
		return fmt.Sprintf("%q", b)
	}
	cut := most - 8
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return fmt.Sprintf("%q… (%d bytes)", b[:cut], len(b))
}

// Unique refuses a name that is empty (or blank) or repeated; role names
// them in the message ("input name "x" is empty or repeated").
func Unique(list []string, role string) error {
	seen := map[string]bool{}
	for _, name := range list {
		if strings.TrimSpace(name) == "" || seen[name] {
			return fmt.Errorf("%s name %s is empty or repeated", role, Short([]byte(name)))
		}
		seen[name] = true
	}
	return nil
}
