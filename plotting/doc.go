// Package plotting draws the figures of a fitted λ path and of a
// cross-validation curve with gonum/plot, as glmnet's plot.glmnet (xvar =
// "lambda") and plot.cv.glmnet draw them: coefficients against λ on a log
// scale with the number of distinct coefficient values along the top,
// and the mean held-out measure with one-standard-error bars and the
// marks of λ_min and λ_1se. Factors draws a path's factor predictors:
// each factor's level effects against λ, one panel per factor, the lines
// coloured by the level groups at one marked λ.
//
// Path, CV and Factors return the image as an io.WriterTo in the format asked
// (png or svg, see Format), so that the caller decides where and how it is
// written (cardreg writes it whole or not at all). The curves come from
// any family's fit: FromPath, FromCV and FromFactors adapt the results of
// package estimator (and a factor.Design).
package plotting
