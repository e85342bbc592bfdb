#!/usr/bin/env Rscript
# Reference fits of R glmnet's elastic net for the tests of penalty.ElasticNet
# (internal/glm TestElasticNet*, cmd/cardreg, python, r).
#
#   Rscript bench/glmnet_enet.R MODE DATA.csv FAMILY ALPHA STD WEIGHTCOL|- OFFSETCOL|- FACTORS|- [LAMBDAS|FOLDCOL]
#
# DATA.csv has columns x1..xp, y and optionally the weight, offset and fold
# columns named; the x columns are every column but those. STD is TRUE or
# FALSE (standardize), FACTORS comma-separated penalty.factor values. Always
# thresh = 1e-14 (gamma, fitted as Gamma(link = "log"): 1e-16 and epsnr = 1e-15),
# maxit = 1e7.
#   fit:  at the comma-separated glmnet-scale LAMBDAS, one line per lambda:
#         the intercept, then the coefficients.
#   path: glmnet's own grid: one line per lambda it kept: lambda, dev.ratio.
#   cv:   cv.glmnet on glmnet's default path (lambda = its grid) with
#         foldid = FOLDCOL (type.measure default: deviance, mse for
#         gaussian): three lines, lambda.min, lambda.1se and the grid's length.
# Scales: glmnet minimises dev/(2n) + lambda_glmnet * P(b), weights rescaled
# to sum to n; cardreg minimises dev + lambda * h(b): lambda = 2 n lambda_glmnet.
suppressPackageStartupMessages(library(glmnet))
a <- commandArgs(trailingOnly = TRUE)
mode <- a[1]
d <- read.csv(a[2])
family <- a[3]
alpha <- as.numeric(a[4])
std <- as.logical(a[5])
opt <- function(s) if (s == "-") NULL else s
wcol <- opt(a[6]); ocol <- opt(a[7])
pf <- if (a[8] == "-") NULL else as.numeric(strsplit(a[8], ",")[[1]])
fcol <- if (mode == "cv") a[9] else NULL
x <- as.matrix(d[, setdiff(names(d), c("y", wcol, ocol, fcol)), drop = FALSE])
w <- if (is.null(wcol)) rep(1, nrow(x)) else d[[wcol]]
off <- if (is.null(ocol)) NULL else d[[ocol]]
if (is.null(pf)) pf <- rep(1, ncol(x))
g <- function(v) cat(formatC(v, digits = 17, format = "g"), "\n")
thresh <- 1e-14
if (family == "gamma") {
  # glmnet fits a family object by IRLS (epsnr, default 1e-6): tightened
  # for the reference, restored after (one R process runs every script).
  family <- Gamma(link = "log")
  glmnet.control(epsnr = 1e-15, mxitnr = 1000)
  thresh <- 1e-16
}
# run evaluates a glmnet call and restores glmnet.control's defaults after.
run <- function(expr) tryCatch(expr, finally = if (!is.character(family)) glmnet.control(factory = TRUE))
if (mode == "fit") {
  lambdas <- as.numeric(strsplit(a[9], ",")[[1]])
  fit <- run(glmnet(x, d$y, family = family, weights = w, offset = off, lambda = lambdas, alpha = alpha,
                standardize = std, thresh = thresh, maxit = 1e7, penalty.factor = pf))
  b <- as.matrix(coef(fit))
  for (k in seq_along(lambdas)) g(b[, k])
} else if (mode == "path") {
  fit <- run(glmnet(x, d$y, family = family, weights = w, offset = off, alpha = alpha,
                    standardize = std, thresh = thresh, maxit = 1e7, penalty.factor = pf))
  for (k in seq_along(fit$lambda)) g(c(fit$lambda[k], fit$dev.ratio[k]))
} else if (mode == "cv") {
  # On the full data's default path: without lambda, cv.glmnet fits each
  # fold on its own grid and interpolates its coefficients to the full
  # grid's lambda, which cardreg does not do (nor for the lasso).
  full <- glmnet(x, d$y, family = family, weights = w, offset = off, alpha = alpha,
                 standardize = std, thresh = thresh, maxit = 1e7, penalty.factor = pf)
  cv <- cv.glmnet(x, d$y, family = family, weights = w, offset = off, alpha = alpha,
                  standardize = std, thresh = thresh, maxit = 1e7, penalty.factor = pf,
                  foldid = d[[fcol]], grouped = TRUE, lambda = full$lambda)
  cat(sprintf("%.17g\n%.17g\n%d\n", cv$lambda.min, cv$lambda.1se, length(cv$lambda)))
}
