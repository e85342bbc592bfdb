package glm

// workingSetMin is the number of penalised predictors above which lasso
// fits use a working set.
const workingSetMin = 64
