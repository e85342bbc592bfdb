package fit

// Path is a sequence of fits along a decreasing λ grid, each warm-started
// at the previous one.
type Path struct {
	// Lambdas is the grid (possibly cut short: Note).
	Lambdas []float64
	// Models holds one fit per λ.
	Models []*Model
	// LambdaMax is the top of a generated grid: the smallest λ at which
	// every penalised coefficient is zero for a norm, glmnet's top for the
	// elastic net (max|∇ⱼ|/α, at α = 0.001 below it); LambdaFuse for the cardinality penalty of a gaussian fit the
	// smallest at which it is fully fused (NaN when not known).
	LambdaMax, LambdaFuse float64
	// Note says why a generated path stopped before the end of its grid.
	Note string
	// OutOfRange is non-nil when data far from unit scale put λ beyond
	// float64 on their own scale (the fits, on rescaled data, are right).
	OutOfRange error
	// Passes counts the passes over a Stream's rows, or the scans of Scans.
	Passes int
}

// CV is a cross-validation curve along the full-data grid.
type CV struct {
	// Measure is what Mean holds (cv.glmnet's type.measure).
	Measure string
	// Lambdas is the grid, from the full data and shared by the folds.
	Lambdas []float64
	// Mean and SE are the curve and its standard errors (cv.glmnet's cvm
	// and cvsd).
	Mean, SE []float64
	// IndexMin and IndexSE are the indices of λ_min and λ_1se (glmnet's
	// rule: the largest λ within one standard error of the minimum).
	IndexMin, IndexSE int
	// LambdaMin and LambdaSE are their λ.
	LambdaMin, LambdaSE float64
	// Path is the full-data path along Lambdas.
	Path *Path
	// Folds holds each row's fold (0…K−1; nil for Stats, whose folds are
	// their own).
	Folds []int
	// Unconverged counts fold fits that did not converge.
	Unconverged int
	// OutOfRange is non-nil when λ or the curve are beyond float64 on the
	// data's scale (the selection, made on rescaled data, is right).
	OutOfRange error
	// Passes counts the passes over a Stream's rows, or the scans of Scans.
	Passes int
}
