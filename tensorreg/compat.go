package tensorreg

import "github.com/cardsparse/cardreg/internal/lsfit"

// The least-squares engine moved to internal/lsfit behind package
// estimator, the one public regression layer. These names remain only
// until cmd/cardreg goes through estimator (issue 23); new code uses
// estimator.

// Model is the least-squares engine's model. Use estimator.Model.
type Model = lsfit.Model

// Options configure the least-squares engine. Use estimator.Options.
type Options = lsfit.Options

// PathOptions configure the engine's path. Use estimator.PathOptions.
type PathOptions = lsfit.PathOptions

// CVOptions configure the engine's CV. Use estimator.CVOptions.
type CVOptions = lsfit.CVOptions

// Path is the engine's path. Use estimator.Path.
type Path = lsfit.Path

// CV is the engine's CV. Use estimator.CV.
type CV = lsfit.CV

// ScaleError reports data beyond float64 on their own scale.
type ScaleError = lsfit.ScaleError

// The engine's entry points. Use estimator's.
var (
	Fit                = lsfit.Fit
	FitStats           = lsfit.FitStats
	FitPath            = lsfit.FitPath
	FitPathStats       = lsfit.FitPathStats
	CrossValidate      = lsfit.CrossValidate
	CrossValidateStats = lsfit.CrossValidateStats
	IsConstant         = lsfit.IsConstant
	NegligibleSpread   = lsfit.NegligibleSpread
)
