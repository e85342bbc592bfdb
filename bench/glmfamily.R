#!/usr/bin/env Rscript
# Reference fits of R glmnet for the logistic, Poisson and gamma tests of package glm.
#
#   Rscript bench/glmfamily.R export DIR
#       writes glmnet's own example data, DIR/binomial.csv (BinomialExample)
#       and DIR/poisson.csv (PoissonExample): columns x1..xp, y.
#   Rscript bench/glmfamily.R fit DATA.csv FAMILY LAMBDAS [WEIGHTCOL|-] [OFFSETCOL|-] [FACTORS|-]
#       fits glmnet(family = FAMILY, standardize = FALSE, thresh = 1e-14)
#       at the comma-separated glmnet-scale lambdas on the x columns of
#       DATA.csv (every column but y, the weight and the offset column),
#       with penalty.factor FACTORS (comma-separated) when given, and prints
#       one line per lambda: the intercept, then the coefficients.
#   Rscript bench/glmfamily.R path DATA.csv FAMILY [STANDARDIZE] [WEIGHTCOL|-]
#       fits glmnet's own path (its grid, standardize = STANDARDIZE, TRUE or
#       FALSE, default FALSE, thresh = 1e-14) on the x columns of DATA.csv
#       (every column but y and the weight column), with the weights when
#       given, and prints one line per lambda it kept: lambda, then
#       dev.ratio.
#
# FAMILY is a glmnet family name, or gamma for Gamma(link = "log"),
# tweedie:P for statmod::tweedie(var.power = P, link.power = 0), negbin:THETA
# for MASS::negative.binomial(THETA) (family objects: fitted by glmnet's IRLS
# with epsnr = 1e-15 and thresh = 1e-16).
#
# Scales: glmnet minimises dev/(2n) + lambda_glmnet * P(b) with the weights
# rescaled to sum to n; cardreg minimises dev + lambda * h(b), so
# lambda = 2 n lambda_glmnet.
suppressPackageStartupMessages(library(glmnet))
args <- commandArgs(trailingOnly = TRUE)
if (args[1] == "export") {
  data(BinomialExample)
  d <- data.frame(BinomialExample$x, y = BinomialExample$y)
  names(d) <- c(paste0("x", seq_len(ncol(BinomialExample$x))), "y")
  write.csv(d, file.path(args[2], "binomial.csv"), row.names = FALSE)
  data(PoissonExample)
  d <- data.frame(PoissonExample$x, y = PoissonExample$y)
  names(d) <- c(paste0("x", seq_len(ncol(PoissonExample$x))), "y")
  write.csv(d, file.path(args[2], "poisson.csv"), row.names = FALSE)
  quit(save = "no")
}
d <- read.csv(args[2])
family <- args[3]
thresh <- 1e-14
family_object <- function(name) {
  parts <- strsplit(name, ":", fixed = TRUE)[[1]]
  switch(parts[1],
         gamma = Gamma(link = "log"),
         tweedie = statmod::tweedie(var.power = as.numeric(parts[2]), link.power = 0),
         negbin = MASS::negative.binomial(as.numeric(parts[2])),
         NULL)
}
if (!is.null(family_object(family))) {
  # glmnet fits a family object by IRLS, which stops once its objective
  # moves by less than epsnr (relative; default 1e-6), and wants thresh
  # below it: both tightened for the reference (fit_glmnet restores the
  # defaults: one R process runs every script of a test binary).
  family <- family_object(family)
  glmnet.control(epsnr = 1e-15, mxitnr = 1000)
  thresh <- 1e-16
}
# fit_glmnet is glmnet; for a family object, with its warnings made errors
# (an IRLS that did not converge is no reference) and glmnet.control's
# defaults restored after.
fit_glmnet <- function(...) {
  if (is.character(family)) return(glmnet(...))
  tryCatch(withCallingHandlers(glmnet(...), warning = function(w) stop(conditionMessage(w))),
           finally = glmnet.control(factory = TRUE))
}
if (args[1] == "path") {
  std <- length(args) >= 4 && as.logical(args[4])
  wcol <- if (length(args) >= 5 && args[5] != "-") args[5] else NULL
  x <- as.matrix(d[, setdiff(names(d), c("y", wcol)), drop = FALSE])
  w <- if (is.null(wcol)) rep(1, nrow(x)) else d[[wcol]]
  fit <- fit_glmnet(x, d$y, family = family, weights = w, standardize = std, thresh = thresh, maxit = 1e7)
  for (k in seq_along(fit$lambda)) cat(formatC(c(fit$lambda[k], fit$dev.ratio[k]), digits = 17, format = "g"), "\n")
  quit(save = "no")
}
lambdas <- as.numeric(strsplit(args[4], ",")[[1]])
wcol <- if (length(args) >= 5 && args[5] != "-") args[5] else NULL
ocol <- if (length(args) >= 6 && args[6] != "-") args[6] else NULL
pf <- if (length(args) >= 7 && args[7] != "-") as.numeric(strsplit(args[7], ",")[[1]]) else NULL
x <- as.matrix(d[, setdiff(names(d), c("y", wcol, ocol)), drop = FALSE])
w <- if (is.null(wcol)) rep(1, nrow(x)) else d[[wcol]]
off <- if (is.null(ocol)) NULL else d[[ocol]]
if (is.null(pf)) pf <- rep(1, ncol(x))
fit <- fit_glmnet(x, d$y, family = family, weights = w, offset = off, lambda = lambdas,
                  standardize = FALSE, thresh = thresh, maxit = 1e7, penalty.factor = pf)
b <- as.matrix(coef(fit))
for (k in seq_along(lambdas)) cat(formatC(b[, k], digits = 17, format = "g"), "\n")
