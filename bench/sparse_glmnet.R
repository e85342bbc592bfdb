#!/usr/bin/env Rscript
# R glmnet anchor for bench/sparse.sh: the lasso path on a sparse matrix
# written by bench/sparsegen (PREFIX.csc, binary CSC arrays) read into a
# dgCMatrix once and kept resident; only glmnet's calls are timed.
#
#   Rscript bench/sparse_glmnet.R PREFIX FAMILY REPS THRESH INTERCEPT OUT [NLAMBDA [MINRATIO]]
#
# FAMILY binomial (y > 0 the positive class: labels 1/0 or ±1) or gaussian; INTERCEPT TRUE or
# FALSE; standardize = FALSE. The timed call is glmnet(x, y, family,
# nlambda = NLAMBDA (100), lambda.min.ratio = MINRATIO (glmnet's default:
# 0.01 when n < p, else 1e-4), standardize = FALSE, intercept, thresh) with
# glmnet's early stop off (glmnet.control(fdev = 0, devmax = 1): all NLAMBDA
# λ, the grid cardreg is given); median of REPS after one warm-up (REPS = 0:
# the warm-up alone, timed once), in-process
# (system.time: elapsed, and user.self + sys.self). Once, untimed: the same
# path with glmnet's default stop (how many λ it keeps). Prints "glmnet_..."
# lines, among them the peak resident memory (VmHWM) after reading and after
# the fits, and writes
#   OUT.lambda  the grid, glmnet's scale (%.17g, one per line, decreasing)
#   OUT.obj     per λ: glmnet's objective (1/n)·[Σ loss] + λ‖β‖₁ of the fit
#               (binomial: loss log(1 + e^(−yη)); gaussian: (y − η)²/2), and
#               the number of non-zero coefficients
#   OUT.coef    the fits at every 10th λ (10, 20, …, NLAMBDA) and the last:
#               "index,j,value" (j = 0 the intercept, else the 1-based column),
#               the non-zero values only
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 6) stop("usage: sparse_glmnet.R PREFIX FAMILY REPS THRESH INTERCEPT OUT [NLAMBDA [MINRATIO]]")
suppressPackageStartupMessages({ library(Matrix); library(glmnet) })
prefix <- args[1]; family <- args[2]; reps <- as.integer(args[3]); thresh <- as.numeric(args[4])
intercept <- as.logical(args[5]); out <- args[6]
nlambda <- if (length(args) >= 7) as.integer(args[7]) else 100L

hwm <- function() {
  s <- grep("^VmHWM", readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", s)) / 1024 # MiB
}

t0 <- proc.time()
con <- file(paste0(prefix, ".csc"), "rb")
h <- readBin(con, "integer", 3, size = 4, endian = "little")
n <- h[1]; p <- h[2]; nnz <- h[3]
cp <- readBin(con, "integer", p + 1, size = 4, endian = "little")
ri <- readBin(con, "integer", nnz, size = 4, endian = "little")
xv <- readBin(con, "double", nnz, size = 8, endian = "little")
y <- readBin(con, "double", n, size = 8, endian = "little")
close(con)
x <- new("dgCMatrix", i = ri, p = cp, x = xv, Dim = c(n, p))
stopifnot(validObject(x), length(y) == n)
rm(cp, ri, xv)
if (family == "binomial") y <- factor(ifelse(y > 0, 1, -1), levels = c(-1, 1))
minratio <- if (length(args) >= 8) as.numeric(args[8]) else if (n < p) 0.01 else 1e-4
cat(sprintf("glmnet_read_seconds %.3f\n", (proc.time() - t0)[["elapsed"]]))
cat(sprintf("glmnet_n %d\nglmnet_p %d\nglmnet_nnz %d\n", n, p, nnz))
cat(sprintf("glmnet_dgcmatrix_mb %.1f\n", as.numeric(object.size(x)) / 2^20))
cat(sprintf("glmnet_rss_after_read_mb %.1f\n", hwm()))

fit <- function() glmnet(x, y, family = family, nlambda = nlambda, lambda.min.ratio = minratio,
                         standardize = FALSE, intercept = intercept, thresh = thresh)
glmnet.control(fdev = 0, devmax = 1)
s <- system.time(f <- fit()) # the warm-up, kept
if (reps == 0) {
  # REPS = 0: the one fit, timed once (the references of bench/sparse.sh).
  cat(sprintf("glmnet_path_seconds %.4f\nglmnet_path_cpu_seconds %.4f\n", s[["elapsed"]], s[["user.self"]] + s[["sys.self"]]))
} else {
  t <- replicate(reps, { s <- system.time(fit()); c(s[["elapsed"]], s[["user.self"]] + s[["sys.self"]]) })
  cat(sprintf("glmnet_path_seconds %.4f\nglmnet_path_cpu_seconds %.4f\n", median(t[1, ]), median(t[2, ])))
  cat(sprintf("glmnet_path_seconds_all %s\n", paste(sprintf("%.4f", t[1, ]), collapse = ",")))
  cat(sprintf("glmnet_path_cpu_seconds_all %s\n", paste(sprintf("%.4f", t[2, ]), collapse = ",")))
  glmnet.control(factory = TRUE)
  s <- system.time(fd <- fit())
  cat(sprintf("glmnet_default_stop_nlambda %d\nglmnet_default_stop_cpu_seconds %.4f\n",
              length(fd$lambda), s[["user.self"]] + s[["sys.self"]]))
}
cat(sprintf("glmnet_path_nlambda %d\n", length(f$lambda)))
cat(sprintf("glmnet_peak_rss_mb %.1f\n", hwm()))
cat(sprintf("glmnet_thresh %g\nglmnet_intercept %s\nglmnet_lambda_min_ratio %g\n", thresh, intercept, minratio))
cat(sprintf("glmnet_lambda_max %.17g\n", f$lambda[1]))

# The objective of each fit, glmnet's scale.
yy <- if (family == "binomial") ifelse(y == "1", 1, -1) else y
eta <- as.matrix(x %*% f$beta) + matrix(f$a0, n, length(f$lambda), byrow = TRUE)
loss <- if (family == "binomial") colMeans(log1p(exp(-yy * eta))) else colMeans((yy - eta)^2) / 2
l1 <- colSums(abs(f$beta))
obj <- loss + f$lambda * l1
writeLines(sprintf("%.17g", f$lambda), paste0(out, ".lambda"))
writeLines(sprintf("%.17g,%d", obj, f$df), paste0(out, ".obj"))
idx <- unique(c(seq(10, length(f$lambda), by = 10), length(f$lambda)))
rows <- lapply(idx, function(k) {
  b <- f$beta[, k]; nz <- which(b != 0)
  data.frame(index = k, j = c(0, nz), value = c(f$a0[k], b[nz]))
})
write.table(do.call(rbind, rows), paste0(out, ".coef"), sep = ",", row.names = FALSE, col.names = FALSE,
            quote = FALSE)
