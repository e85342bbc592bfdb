# R glmnet reference of cardreg's --standardize beside factors (the test
# TestStandardizeFactorsMatchGlmnet): a Poisson lasso on DATA.csv (claims,
# offset log_exposure) with
#   * the ordinal factor vehicle_age (0-2 < 3-5 < 6-9 < 10-14 < 15+, the
#     reference the first) split-coded, column k = 1[level >= k]: the lasso
#     on those columns' coefficients is cardreg's fused lasso on the chain
#     of level effects (effect of level k = the sum of the first k);
#   * the two-level factor fuel (reference Diesel) as its one dummy;
#   * the numeric columns NUMERIC (comma separated) divided here by their
#     population standard deviations, standardize = FALSE so that glmnet
#     scales nothing else (glmnet's own standardize = TRUE would scale the
#     dummy and split-coded columns too), the coefficients divided back.
# Prints one line per coefficient: name value (intercept first, the level
# effects as cardreg names them).
#
#   Rscript glmnet_factors_std.R DATA.csv NUMERIC LAMBDA_GLMNET
a <- commandArgs(trailingOnly = TRUE)
d <- read.csv(a[1], colClasses = c(vehicle_age = "character", fuel = "character"))
num <- strsplit(a[2], ",")[[1]]
lambda <- as.numeric(a[3])
order <- c("0-2", "3-5", "6-9", "10-14", "15+")
lev <- match(d$vehicle_age, order)
split <- sapply(2:length(order), function(k) as.numeric(lev >= k))
colnames(split) <- paste0("vehicle_age>=", order[-1])
sdpop <- function(v) sqrt(mean((v - mean(v))^2))
s <- sapply(num, function(n) sdpop(d[[n]]))
xs <- sweep(as.matrix(d[, num]), 2, s, "/")
x <- cbind(split, "fuel=Regular" = as.numeric(d$fuel == "Regular"), xs)
fit <- glmnet(x, d$claims, family = "poisson", offset = d$log_exposure, lambda = lambda,
              standardize = FALSE, thresh = 1e-15, maxit = 1e7)
b <- as.vector(as.matrix(coef(fit)))
theta <- b[2:length(order)]
out <- c(intercept = b[1])
out[paste0("vehicle_age=", order[-1])] <- cumsum(theta)
out["fuel=Regular"] <- b[length(order) + 1]
out[num] <- b[(length(order) + 2):length(b)] / s
cat(sprintf("%s %.17g\n", names(out), out), sep = "")
