#!/usr/bin/env Rscript
# R cv.glmnet anchor for bench/glmcv.sh: times cv.glmnet(family = FAMILY,
# foldid = (0:(n-1)) %% K + 1, standardize = FALSE, thresh = THRESH,
# type.measure = "deviance") on DATA.csv (x1..xp, y), the default 100-lambda
# grid, median of REPS after one warm-up, in-process (reading the CSV is not
# timed). Prints glmnet_cv_seconds (elapsed), glmnet_cv_cpu_seconds
# (user.self + sys.self), lambda.min and lambda.1se (%.6g to read, %.17g to
# compare), their indices (cv$index), the grid's first lambda and length.
#
#   Rscript bench/glmcv.R DATA.csv FAMILY K THRESH REPS
suppressPackageStartupMessages(library(glmnet))
a <- commandArgs(trailingOnly = TRUE)
d <- as.matrix(read.csv(a[1]))
x <- d[, -ncol(d)]
y <- d[, ncol(d)]
family <- a[2]; k <- as.integer(a[3]); thresh <- as.numeric(a[4]); reps <- as.integer(a[5])
foldid <- (seq_len(nrow(x)) - 1) %% k + 1
run <- function() cv.glmnet(x, y, family = family, foldid = foldid, standardize = FALSE,
                            thresh = thresh, type.measure = "deviance")
cv <- run() # the warm-up, kept for its lambdas
t <- replicate(reps, { s <- system.time(run()); c(s[["elapsed"]], s[["user.self"]] + s[["sys.self"]]) })
cat(sprintf("glmnet_cv_seconds %.4f\nglmnet_cv_cpu_seconds %.4f\n", median(t[1, ]), median(t[2, ])))
cat(sprintf("glmnet_lambda_min %.6g\nglmnet_lambda_1se %.6g\n", cv$lambda.min, cv$lambda.1se))
cat(sprintf("glmnet_lambda_min_exact %.17g\nglmnet_lambda_1se_exact %.17g\n", cv$lambda.min, cv$lambda.1se))
cat(sprintf("glmnet_index_min %d\nglmnet_index_1se %d\n", cv$index[1], cv$index[2]))
cat(sprintf("glmnet_lambda_max %.17g\nglmnet_cv_len %d\n", cv$lambda[1], length(cv$lambda)))
