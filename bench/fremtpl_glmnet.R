#!/usr/bin/env Rscript
# R glmnet anchor for bench/fremtpl.sh: freMTPL2freq (678,013 policies),
# Poisson ClaimNb with offset log(min(Exposure, 1)), all nine variables, the
# design given to glmnet as a sparse model matrix (dgCMatrix), the lasso.
#
#   Rscript bench/fremtpl_glmnet.R FREMTPL2FREQ.csv.gz OUTDIR REPS [THRESH [BINS]]
#
# REPS = 0 times nothing and skips the CV: the grid, the path's objectives and
# coefficients and the CSVs only.
#
# The design (built once, not timed), columns in this order:
#   * Area (A < … < F) and VehPower (4 < … < 15), ordinal: split coding,
#     one column 1[level >= l_k] per level after the first, so that the lasso
#     on these columns is the chain penalty Σ|θ_k − θ_(k−1)| (θ_1 = 0) of an
#     ordinal factor;
#   * VehBrand, Region, VehGas, nominal: treatment dummies, R's reference
#     (the first level in sort order: B1, R11, Diesel), the lasso on the
#     level effects against it;
#   * VehAge, DrivAge, BonusMalus, Density, numeric: standardised (mean 0,
#     variance 1 with divisor n, glmnet's convention), or with BINS = K
#     binned into K quantile bands (R's quantile type 7 edges, intervals
#     closed on the right, the lowest included) split-coded as ordinal factors.
# glmnet is then called with standardize = FALSE (the numeric columns are
# standardised already, the dummies are left 0/1), intercept = TRUE,
# offset = log(min(Exposure, 1)).
#
# Timed (median of REPS after one warm-up, system.time in-process; wall and
# user + sys CPU), each with glmnet's early stop off (glmnet.control(fdev = 0,
# devmax = 1): all 50 λ, as cardreg never stops a path early):
#   path: glmnet(x, y, "poisson", offset, nlambda = 50) (lambda.min.ratio 1e-4: n > p)
#   cv:   cv.glmnet(x, y, "poisson", offset, lambda = that grid, foldid,
#         type.measure = "deviance"): the full-data path plus five fold paths
# The folds: a seeded permutation (set.seed(37), rep(1:5) shuffled), written
# to OUTDIR/fre.foldid. Prints "glmnet_..." lines, the resident memory peak
# (VmHWM) after building the design and after the fits, and writes
#   OUTDIR/fre[-binK].lambda    the grid (glmnet's scale, %.17g)
#   OUTDIR/fre[-binK].obj       per λ: dev/(2n) + λ‖β‖₁ (glmnet's objective, Poisson
#                               deviance) and the number of non-zeros
#   OUTDIR/fre[-binK].coef      every fit: "index,j,value" (j = 0 the intercept, else
#                               the column's position in the design; .names names them)
#   OUTDIR/fre[-binK]-mm.csv    the model matrix as a CSV for cardreg (its columns,
#                               then logexp, foldid, ClaimNb; %.17g), and .names
#                               its column names; written when absent
#   OUTDIR/fre-raw.csv          the nine raw variables, logexp, foldid, ClaimNb,
#                               for cardreg's factor flags; written when absent
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 3) stop("usage: fremtpl_glmnet.R FREMTPL2FREQ.csv.gz OUTDIR REPS [THRESH [BINS]]")
suppressPackageStartupMessages({ library(Matrix); library(glmnet) })
src <- args[1]; outdir <- args[2]; reps <- as.integer(args[3])
thresh <- if (length(args) >= 4) as.numeric(args[4]) else 1e-7
bins <- if (length(args) >= 5) as.integer(args[5]) else 0L
tag <- if (bins > 0) sprintf("fre-bin%d", bins) else "fre"
out <- function(suffix) file.path(outdir, paste0(tag, suffix))
hwm <- function() {
  s <- grep("^VmHWM", readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", s)) / 1024
}

t0 <- proc.time()
d <- read.csv(gzfile(src), stringsAsFactors = FALSE)
n <- nrow(d)
y <- d$ClaimNb
logexp <- log(pmin(d$Exposure, 1))
set.seed(37)
foldid <- sample(rep(1:5, length.out = n))
writeLines(as.character(foldid), file.path(outdir, "fre.foldid"))

# split: the split coding of an ordinal factor (one column per level after
# the first, 1[level >= l_k]) as a sparse matrix.
split <- function(v, levels, name) {
  code <- match(v, levels)
  stopifnot(!anyNA(code))
  cols <- lapply(seq_along(levels)[-1], function(k) which(code >= k))
  m <- sparseMatrix(i = unlist(cols), j = rep(seq_along(cols), lengths(cols)), x = 1,
                    dims = c(length(v), length(cols)))
  colnames(m) <- paste0(name, ">=", levels[-1])
  m
}
# std: glmnet's standardisation (divisor n).
std <- function(v) { m <- mean(v); (v - m) / sqrt(mean((v - m)^2)) }
# band: K quantile bands of v (R's type 7 quantiles; equal edges merged).
band <- function(v, k) {
  e <- unique(quantile(v, probs = seq(0, 1, length.out = k + 1), names = FALSE))
  as.integer(cut(v, e, include.lowest = TRUE, labels = FALSE))
}

nominal <- data.frame(VehBrand = factor(d$VehBrand), Region = factor(d$Region), VehGas = factor(d$VehGas))
xnom <- sparse.model.matrix(~ VehBrand + Region + VehGas, nominal)[, -1, drop = FALSE]
numeric_cols <- c("VehAge", "DrivAge", "BonusMalus", "Density")
parts <- list(split(d$Area, sort(unique(d$Area)), "Area"),
              split(d$VehPower, sort(unique(d$VehPower)), "VehPower"), xnom)
if (bins > 0) {
  for (v in numeric_cols) {
    b <- band(d[[v]], bins)
    parts[[length(parts) + 1]] <- split(b, sort(unique(b)), v)
  }
} else {
  num <- sapply(numeric_cols, function(v) std(d[[v]]))
  parts[[length(parts) + 1]] <- as(num, "CsparseMatrix")
}
x <- do.call(cbind, parts)
x <- as(x, "CsparseMatrix")
stopifnot(is(x, "dgCMatrix"), nrow(x) == n)
cat(sprintf("glmnet_setup_seconds %.2f\n", (proc.time() - t0)[["elapsed"]]))
cat(sprintf("glmnet_n %d\nglmnet_p %d\nglmnet_nnz %d\n", n, ncol(x), length(x@x)))
cat(sprintf("glmnet_dgcmatrix_mb %.1f\n", as.numeric(object.size(x)) / 2^20))
cat(sprintf("glmnet_rss_after_design_mb %.1f\n", hwm()))
cat(sprintf("glmnet_thresh %g\nglmnet_bins %d\n", thresh, bins))

glmnet.control(fdev = 0, devmax = 1)
path <- function() glmnet(x, y, family = "poisson", offset = logexp, nlambda = 50,
                          standardize = FALSE, thresh = thresh)
f <- path()
cv <- function() cv.glmnet(x, y, family = "poisson", offset = logexp, lambda = f$lambda,
                           foldid = foldid, standardize = FALSE, thresh = thresh,
                           type.measure = "deviance")
time_it <- function(what, g) {
  if (reps == 0) return(NULL)
  res <- g() # warm-up
  t <- sapply(seq_len(reps), function(i) {
    s <- system.time(res <<- g())
    c(s[["elapsed"]], s[["user.self"]] + s[["sys.self"]])
  })
  cat(sprintf("glmnet_%s_seconds %.3f\nglmnet_%s_cpu_seconds %.3f\n", what, median(t[1, ]), what, median(t[2, ])))
  cat(sprintf("glmnet_%s_cpu_seconds_all %s\n", what, paste(sprintf("%.3f", t[2, ]), collapse = ",")))
  res
}
invisible(time_it("path", path))
cat(sprintf("glmnet_rss_after_path_mb %.1f\n", hwm()))
c1 <- time_it("cv", cv)
cat(sprintf("glmnet_peak_rss_mb %.1f\n", hwm()))
cat(sprintf("glmnet_path_nlambda %d\nglmnet_lambda_max %.17g\n", length(f$lambda), f$lambda[1]))
if (!is.null(c1)) {
  cat(sprintf("glmnet_lambda_min %.17g\nglmnet_lambda_1se %.17g\n", c1$lambda.min, c1$lambda.1se))
  cat(sprintf("glmnet_index_min %d\nglmnet_index_1se %d\n", c1$index[1], c1$index[2]))
  cat(sprintf("glmnet_cvm_min %.10g\nglmnet_cvm_1se %.10g\n", c1$cvm[c1$index[1]], c1$cvm[c1$index[2]]))
}
glmnet.control(factory = TRUE)
fd <- path()
cat(sprintf("glmnet_default_stop_nlambda %d\n", length(fd$lambda)))

# Per λ: glmnet's objective dev/(2n) + λ‖β‖₁ (Poisson deviance, y log(y/μ) = 0 at y = 0).
eta <- as.matrix(x %*% f$beta) + matrix(f$a0, n, length(f$lambda), byrow = TRUE) + logexp
mu <- exp(eta)
ylogy <- ifelse(y > 0, y * log(y), 0)
dev <- 2 * colSums(ylogy - y * eta - (y - mu))
obj <- dev / (2 * n) + f$lambda * colSums(abs(f$beta))
writeLines(sprintf("%.17g", f$lambda), out(".lambda"))
writeLines(sprintf("%.17g,%d", obj, f$df), out(".obj"))
b <- as.matrix(rbind("(Intercept)" = f$a0, f$beta))
write.table(data.frame(index = rep(seq_len(ncol(b)), each = nrow(b)), j = rep(seq_len(nrow(b)) - 1, ncol(b)),
                       value = sprintf("%.17g", as.vector(b))),
            out(".coef"), sep = ",", row.names = FALSE, col.names = FALSE, quote = FALSE)

# The CSVs for cardreg (untimed).
g17 <- function(v) sprintf("%.17g", v)
write_csv <- function(cols, file) {
  con <- file(file, "w")
  writeLines(paste(names(cols), collapse = ","), con)
  writeLines(do.call(paste, c(unname(cols), sep = ",")), con)
  close(con)
}
if (!file.exists(out("-mm.csv"))) {
  xm <- as.matrix(x)
  cols <- lapply(seq_len(ncol(xm)), function(j) {
    v <- xm[, j]
    if (all(v == 0 | v == 1)) as.character(as.integer(v)) else g17(v)
  })
  names(cols) <- make.names(colnames(xm), unique = TRUE)
  cols$logexp <- g17(logexp); cols$foldid <- as.character(foldid); cols$ClaimNb <- as.character(y)
  write_csv(cols, out("-mm.csv"))
  writeLines(names(cols)[seq_len(ncol(xm))], out(".names"))
}
if (bins == 0 && !file.exists(file.path(outdir, "fre-raw.csv"))) {
  raw <- list(Area = d$Area, VehPower = d$VehPower, VehBrand = d$VehBrand, Region = d$Region,
              VehGas = d$VehGas, VehAge = d$VehAge, DrivAge = d$DrivAge, BonusMalus = d$BonusMalus,
              Density = d$Density, logexp = g17(logexp), foldid = foldid, ClaimNb = y)
  write_csv(raw, file.path(outdir, "fre-raw.csv"))
}
