// Package fit holds what a regression fit is asked and what it returns,
// once for both engines: the options (Options, PathOptions, CVOptions)
// and the results (Model, Path, CV) that the least-squares engine
// (internal/lsfit) and the family engine (internal/glm) produce directly,
// and that package estimator hands to its callers under the same names.
//
// The engines keep what differs between them (the Gram and statistics fast
// paths; the families' deviance); what a result says, and how its
// clusters and distinct values are read, is written here once. A model
// also carries what its engine needs to continue a path from it (the
// solver's solution, the coefficients the penalty acts on, the deviance
// ratio the path's stopping rules read): Engine, reached through
// EngineOf, which only the engines call.
package fit
