# The elastic net against R's glmnet: penalty = "elasticnet" with glmnet's
# alpha, on cardreg's scale (lambda = 2n times glmnet's), with weights, an
# offset and penalty factors: the coefficients agree to 1e-6 of the largest.

test_that("binomial elastic net with weights, offset and factors equals glmnet's", {
  skip_if_not_installed("glmnet")
  d <- glm_data()
  y <- d$y[["binomial"]]
  pf <- rep(c(1, 0.5, 2), length.out = d$p)
  pf[2] <- 0
  lam <- c(0.05, 0.01)
  g <- glmnet::glmnet(d$x, y, family = "binomial", weights = d$w, offset = d$off,
                      alpha = 0.4, penalty.factor = pf, lambda = lam,
                      standardize = FALSE, thresh = 1e-14, maxit = 1e6)
  f <- cardreg(d$x, y, family = "binomial", penalty = "elasticnet", alpha = 0.4,
               lambda = 2 * d$n * lam, weights = d$w, offset = d$off,
               penalty.factor = pf, thresh = 1e-13)
  expect_true(all(f$converged))
  scale <- max(abs(as.matrix(g$beta)), abs(g$a0))
  expect_lt(max(abs(as.matrix(g$beta) - f$beta)), 1e-6 * scale)
  expect_lt(max(abs(g$a0 - f$a0)), 1e-6 * scale)
  expect_error(cardreg(d$x, y, family = "binomial", penalty = "lasso", alpha = 0.5),
               "alpha applies to the elasticnet penalty only")
  expect_error(cardreg(d$x, y, family = "binomial", penalty = "elasticnet", alpha = 2),
               "must be in \\[0, 1\\]")
})
