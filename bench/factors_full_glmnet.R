#!/usr/bin/env Rscript
# R glmnet anchor of bench/factors_full.sh's "std" design: freMTPL2freq,
# Poisson, offset log(min(Exposure, 1)), the five factors as treatment
# dummies of a sparse model.matrix (dgCMatrix; Area and VehPower ordered
# but dummy-coded: glmnet has no fused lasso, so the penalty is the lasso on
# every dummy, the comparison's), the four numeric columns divided by their
# population sd in R (standardize = FALSE, so that glmnet scales nothing
# else, as cardreg's --standardize beside factors). Times a 50-λ path and
# cv.glmnet with 5 folds (foldid: the column FOLD of the data when given,
# else glmnet's own), in process (reading not timed); prints *_cpu_seconds
# (user + system) and *_seconds (elapsed).
#
#   Rscript bench/factors_full_glmnet.R FRE.csv [FOLDCOLUMN]
suppressPackageStartupMessages({ library(glmnet); library(Matrix) })
a <- commandArgs(trailingOnly = TRUE)
d <- read.csv(a[1], colClasses = c(Area = "factor", VehPower = "factor", VehBrand = "factor", Region = "factor", VehGas = "factor"))
num <- c("VehAge", "DrivAge", "BonusMalus", "Density")
for (n in num) d[[n]] <- d[[n]] / sqrt(mean((d[[n]] - mean(d[[n]]))^2))
x <- sparse.model.matrix(~ Area + VehPower + VehBrand + Region + VehGas + VehAge + DrivAge + BonusMalus + Density, d)[, -1]
foldid <- if (length(a) > 1) d[[a[2]]] else sample(rep(1:5, length.out = nrow(d)))
cpu <- function(t) t[["user.self"]] + t[["sys.self"]]
tp <- system.time(fit <- glmnet(x, d$ClaimNb, family = "poisson", offset = d$log_exposure, nlambda = 50, standardize = FALSE))
tc <- system.time(cv <- cv.glmnet(x, d$ClaimNb, family = "poisson", offset = d$log_exposure, nlambda = 50, standardize = FALSE, foldid = foldid))
cat(sprintf("glmnet_columns %d\nglmnet_path_len %d\nglmnet_path_cpu_seconds %.2f\nglmnet_path_seconds %.2f\nglmnet_cv_cpu_seconds %.2f\nglmnet_cv_seconds %.2f\n",
            ncol(x), length(fit$lambda), cpu(tp), tp[["elapsed"]], cpu(tc), tc[["elapsed"]]))
