package design

import "slices"

// sortEntries sorts es stably by cmp.
func sortEntries[E any](es []E, cmp func(a, b E) int) { slices.SortStableFunc(es, cmp) }
