# cv.glmnet on a CSV, for the comparison tests of cardreg cv (cmd/cardreg
# TestCVMatchesGlmnet, glm TestCVMatchesGlmnet): the lasso on every column
# but the response (last), FOLD and any column named in DROP, with the folds
# of column FOLD (1..K) and the lambda grid given (glmnet scale). Optional:
# FAMILY (default gaussian), MEASURE (type.measure, default mse) and WEIGHT,
# a column of observation weights ("-" for none). Prints one line per
# lambda: lambda cvm cvsd, then "lambda.min L" and "lambda.1se L".
# Usage: Rscript bench/cvglmnet.R DATA.csv FOLD DROP L1,L2,... [FAMILY [MEASURE [WEIGHT]]]
suppressMessages(library(glmnet))
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1])
fold <- d[[args[2]]]
drop <- c(args[2], strsplit(args[3], ",")[[1]])
y <- d[[ncol(d)]]
x <- as.matrix(d[, setdiff(names(d)[-ncol(d)], drop)])
lambda <- as.numeric(strsplit(args[4], ",")[[1]])
family <- if (length(args) >= 5) args[5] else "gaussian"
measure <- if (length(args) >= 6) args[6] else "mse"
w <- if (length(args) >= 7 && args[7] != "-") d[[args[7]]] else rep(1, nrow(x))
cv <- cv.glmnet(x, y, lambda = lambda, foldid = fold, standardize = FALSE,
                thresh = 1e-14, type.measure = measure, grouped = TRUE,
                family = family, weights = w, maxit = 1e7)
for (i in seq_along(cv$lambda)) {
  cat(sprintf("%.17g %.17g %.17g\n", cv$lambda[i], cv$cvm[i], cv$cvsd[i]))
}
cat(sprintf("lambda.min %.17g\nlambda.1se %.17g\n", cv$lambda.min, cv$lambda.1se))
