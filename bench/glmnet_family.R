#!/usr/bin/env Rscript
# R glmnet anchor for bench/glm.sh and bench/glmspeed.sh: times
# glmnet(family = FAMILY, standardize = FALSE, thresh = THRESH) on DATA.csv
# (x1..xp, y), one lambda (glmnet scale) and the default 100-lambda path,
# median of REPS after one warm-up, in-process (reading the CSV is not
# timed). Writes the one-lambda coefficients (intercept first) to COEF for
# cardreg to certify. Prints *_seconds (elapsed) and *_cpu_seconds
# (user.self + sys.self).
#
#   Rscript bench/glmnet_family.R DATA.csv FAMILY LAMBDA THRESH REPS COEF [MODE [PATHCOEF]]
#
# MODE (default both): "one" times the one-lambda fit only, "path" the path
# only (COEF is then not written; LAMBDA is unused). PATHCOEF, when given
# with a path, receives the path's fits, one lambda a line: lambda, the
# intercept, the coefficients (for glmbench -certify-path).
suppressPackageStartupMessages(library(glmnet))
a <- commandArgs(trailingOnly = TRUE)
d <- as.matrix(read.csv(a[1]))
x <- d[, -ncol(d)]
y <- d[, ncol(d)]
family <- a[2]; lambda <- as.numeric(a[3]); thresh <- as.numeric(a[4]); reps <- as.integer(a[5])
mode <- if (length(a) >= 7) a[7] else "both"
if (!mode %in% c("both", "one", "path")) stop("MODE: both, one or path")
# time: median elapsed and median CPU seconds of reps calls after a warm-up.
time <- function(f) {
  f()
  t <- replicate(reps, { s <- system.time(f()); c(s[["elapsed"]], s[["user.self"]] + s[["sys.self"]]) })
  c(median(t[1, ]), median(t[2, ]))
}
if (mode != "path") {
  one <- time(function() glmnet(x, y, family = family, lambda = lambda, standardize = FALSE, thresh = thresh))
  fit <- glmnet(x, y, family = family, lambda = lambda, standardize = FALSE, thresh = thresh)
  cat(formatC(as.vector(as.matrix(coef(fit))), digits = 17, format = "g"), "\n", file = a[6])
  cat(sprintf("glmnet_seconds %.4f\nglmnet_cpu_seconds %.4f\nglmnet_nonzero %d\n",
              one[1], one[2], sum(coef(fit)[-1] != 0)))
}
if (mode != "one") {
  path <- time(function() glmnet(x, y, family = family, standardize = FALSE, thresh = thresh))
  pfit <- glmnet(x, y, family = family, standardize = FALSE, thresh = thresh)
  cat(sprintf("glmnet_path_seconds %.4f\nglmnet_path_cpu_seconds %.4f\nglmnet_path_len %d\nglmnet_path_lambda_max %.17g\n",
              path[1], path[2], length(pfit$lambda), pfit$lambda[1]))
  if (length(a) >= 8) {
    b <- rbind(pfit$lambda, as.matrix(coef(pfit)))
    write(formatC(b, digits = 17, format = "g"), file = a[8], ncolumns = nrow(b))
  }
}
