package main

import (
	"flag"
	"fmt"
	"math"
	"strconv"
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
	if underflows(s, v) {
		return errUnderflow(s)
	}
	o.v, o.set = v, true
	return nil
}

// Get returns the value, so that checkFiniteFlags sees it as a float.
func (o *optFloat) Get() any { return o.v }

// or returns the value given, else def.
func (o optFloat) or(def float64) float64 {
	if o.set {
		return o.v
	}
	return def
}

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

// exactFloat is a float flag that refuses a number which is not zero but
// rounds to 0 in float64 (1e-400): taken as 0 it would silently mean
// something else (no penalty, no validation rows).
type exactFloat struct{ flag.Getter }

// Set refuses an underflowing number, else sets the wrapped flag.
func (e exactFloat) Set(s string) error {
	if v, err := strconv.ParseFloat(s, 64); err == nil && underflows(s, v) {
		return errUnderflow(s)
	}
	return e.Getter.Set(s)
}

// String is the wrapped flag's; "0" for the zero exactFloat, which the flag
// package builds to leave a default of 0 out of the help, as for float64.
func (e exactFloat) String() string {
	if e.Getter == nil {
		return "0"
	}
	return e.Getter.String()
}

// errUnderflow is the refusal of a number s that rounds to 0.
func errUnderflow(s string) error {
	return fmt.Errorf("%s is below the smallest float64 (about 5e-324) and would be 0; give 0 if 0 is meant", s)
}

// refuseUnderflow makes every float64 flag of fs an exactFloat (optFloat
// refuses by itself).
func refuseUnderflow(fs *flag.FlagSet) {
	fs.VisitAll(func(fl *flag.Flag) {
		g, ok := fl.Value.(flag.Getter)
		if _, opt := fl.Value.(*optFloat); !ok || opt {
			return
		}
		if _, ok := g.Get().(float64); ok {
			fl.Value = exactFloat{g}
		}
	})
}
