package main

import (
	"flag"
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
