package main

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// floatFlagLine matches a float flag in a command's help: "-sigma float",
// or "-nu value" (an optFloat).
var floatFlagLine = regexp.MustCompile(`(?m)^\s+-(\S+) (float|value)$`)

// Every float flag of every command refuses NaN, Inf and -Inf as a usage
// error naming the flag: NaN passed range checks such as
// --min-ratio < 0 || >= 1 and reached the solvers.
func TestFloatFlagsRefuseNonFinite(t *testing.T) {
	data := writeFile(t, t.TempDir(), "d.csv", small)
	seen := 0
	for cmd := range commands {
		help := cardreg(t, "help", cmd)
		for _, m := range floatFlagLine.FindAllStringSubmatch(help.stdout, -1) {
			if m[2] == "value" && m[1] != "nu" {
				continue // not a float
			}
			seen++
			for _, v := range []string{"NaN", "Inf", "-Inf", "+inf", "nan"} {
				args := []string{cmd, "--" + m[1], v}
				if cmd != "lambda" {
					args = append(args, data)
				}
				res := cardreg(t, args...)
				oneLine(t, res, 2, "--"+m[1]+" must be a finite number")
			}
		}
	}
	require.GreaterOrEqual(t, seen, 20, "float flags found in the help texts")
}
