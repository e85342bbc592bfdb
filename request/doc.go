// Package request is one fit's request: the family, the penalty with its
// parameters, the λ rule, the cross-validation settings and the route's
// options, as one value that the command line's flags (cmd/cardreg) and
// the bindings' JSON options (package binding) both decode into. The
// options' names are the flags' names.
//
// It holds the one table of which options each command, route and
// penalty honours (Rules: an option that would have no effect is refused
// there, by one rule), the checks of the options' values (Check), the
// builder of the penalty (Build: from the penalty table or a factor
// design) and the selection of the fit a λ rule asks for (Choose). It has
// no mathematics of its own and reads no data: the penalties come from
// bounds and factor, the fits from estimator, and files named by flags
// are read by the command line before the request is built.
//
// A message names an option as its caller spells it (Dialect): --folds
// and cardreg cv on the command line, folds and cv in JSON.
package request
