package main

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cardsparse/cardreg/data"
)

// optFloat is a float flag that knows whether it was given, so that a
// default computed from the data is told apart from any value the user
// typed (0 included).
type optFloat struct {
	v   float64
	set bool
}

func (o *optFloat) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.FormatFloat(o.v, 'g', -1, 64)
}

func (o *optFloat) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	if data.Underflows(s, v) {
		return errUnderflow(s)
	}
	o.v, o.set = v, true
	return nil
}

// Get returns the value, so that checkFiniteFlags sees it as a float.
func (o *optFloat) Get() any { return o.v }

// checkNu refuses a ν the penalty's theory does not allow: h is a norm, and
// its duality gap a certificate, only for a finite ν > 0.
func checkNu(nu optFloat) error {
	if nu.set && (!(nu.v > 0) || math.IsInf(nu.v, 0)) {
		return usagef("--nu must be a finite number > 0 (h is a norm only for nu > 0), got %v; leave it out for the default", nu.v)
	}
	return nil
}

// checkFiniteFlags refuses NaN and ±Inf in every float flag the command
// line set: strconv.ParseFloat accepts them, and they pass range checks
// such as v < 0 || v >= 1 (NaN) or reach the numerics as a bound (Inf).
// No float flag of cardreg has a meaning for them.
func checkFiniteFlags(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(fl *flag.Flag) {
		g, ok := fl.Value.(flag.Getter)
		if !ok || err != nil {
			return
		}
		if v, ok := g.Get().(float64); ok && (math.IsNaN(v) || math.IsInf(v, 0)) {
			err = usagef("--%s must be a finite number, got %v", fl.Name, v)
		}
	})
	return err
}

// positiveInts reads a comma-separated list of integers ≥ 1 (--arch,
// --cols), spaces around each allowed; on failure it returns the first
// item that is not one, for the caller's message.
func positiveInts(s string) ([]int, string, bool) {
	var out []int
	for _, item := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(item))
		if err != nil || v < 1 {
			return nil, item, false
		}
		out = append(out, v)
	}
	return out, "", true
}

// errUnderflow is the refusal of a number s that rounds to 0.
func errUnderflow(s string) error {
	return fmt.Errorf("%s is below the smallest float64 (about 5e-324) and would be 0; give 0 if 0 is meant", s)
}

// checkUnderflowArgs refuses, before fs parses args, a float flag's value
// that is not zero but rounds to 0 in float64 (1e-400): taken as 0 it
// would silently mean something else (no penalty, the default grid). The
// flag package keeps only the parsed number, so the check reads the
// arguments; every command's flags go through it (parseInterleaved,
// cardreg lambda). optFloat refuses by itself.
func checkUnderflowArgs(fs *flag.FlagSet, args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return nil
		}
		name, ok := strings.CutPrefix(a, "-")
		if !ok || name == "" {
			continue
		}
		name = strings.TrimPrefix(name, "-")
		name, value, inline := strings.Cut(name, "=")
		fl := fs.Lookup(name)
		if fl == nil {
			continue
		}
		g, ok := fl.Value.(flag.Getter)
		if !ok {
			continue
		}
		if _, isFloat := g.Get().(float64); !isFloat {
			continue
		}
		if !inline {
			if i+1 >= len(args) {
				return nil
			}
			i++
			value = args[i]
		}
		if v, err := strconv.ParseFloat(value, 64); err == nil && data.Underflows(value, v) {
			return usagef("invalid value %q for flag -%s: %v", value, name, errUnderflow(value))
		}
	}
	return nil
}
