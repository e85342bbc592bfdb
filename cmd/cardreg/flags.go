package main

import (
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
