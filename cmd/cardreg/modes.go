package main

import (
	"flag"

	"github.com/cardsparse/cardreg/request"
)

// givenFlags returns the names of the flags set on the command line.
func givenFlags(fs *flag.FlagSet) map[string]bool {
	given := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	return given
}

// route is the route the flags ask for (the request's table,
// request.Request.Rules, refuses what it cannot honour). A file streamed
// for its size (shouldStream) is not asked for: form streams it only
// when the table refuses nothing on the stream route.
func (f *fitFlags) route() request.Route {
	switch {
	case f.db != "":
		return request.OnDB
	case f.stream:
		return request.OnStream
	}
	return request.InMemory
}

// factorFlagNames are the names of the flags of factor predictors, as
// factorFlags.register defines them: refused wherever the rows are not
// read into memory, a flag added there included.
func factorFlagNames() []string {
	fs := flag.NewFlagSet("factors", flag.ContinueOnError)
	new(factorFlags).register(fs, new(request.Request))
	var names []string
	fs.VisitAll(func(fl *flag.Flag) { names = append(names, fl.Name) })
	return names
}
