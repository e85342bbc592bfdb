test_that("coef, print and plot work for paths and cross-validations", {
  set.seed(4)
  n <- 100
  x <- matrix(rnorm(n * 5), n, 5)
  colnames(x) <- letters[1:5]
  y <- drop(x %*% c(1, 1, 0, -1, -1)) + rnorm(n)
  f <- cardreg(x, y, nlambda = 12)
  cf <- coef(f)
  expect_equal(rownames(cf), c("(Intercept)", letters[1:5]))
  expect_equal(ncol(cf), length(f$lambda))
  expect_equal(unname(coef(f, s = f$lambda[3])[, 1]), unname(c(f$a0[3], f$beta[, 3])))
  # Beyond the grid's ends: the nearest end.
  expect_equal(unname(coef(f, s = 10 * f$lambda[1])[, 1]), unname(cf[, 1]))
  expect_equal(unname(coef(f, s = 0.5 * min(f$lambda))[, 1]), unname(cf[, ncol(cf)]))
  expect_error(coef(f, exact = TRUE), "exact")
  expect_output(print(f), "Lambda")
  cv <- cv.cardreg(x, y, nlambda = 12, nfolds = 5)
  expect_output(print(cv), "Mean-Squared Error")
  expect_equal(coef(cv), coef(f, s = cv$lambda.1se))
  expect_equal(coef(cv, s = "lambda.min"), coef(f, s = cv$lambda.min))
  expect_equal(predict(f, x[1:2, ], type = "coefficients", s = 1), coef(f, s = 1))
  k <- 6
  expect_equal(predict(f, type = "nonzero", s = f$lambda[k])[[1]],
               which(f$beta[, k] != 0), ignore_attr = TRUE)
  pdf(NULL)
  on.exit(dev.off())
  expect_silent(plot(f))
  expect_silent(plot(f, xvar = "norm", label = TRUE))
  expect_silent(plot(f, xvar = "dev"))
  expect_silent(plot(cv))
  expect_match(cardreg_version(), "^cardreg")
})

test_that("a binomial factor response predicts its classes", {
  set.seed(8)
  n <- 150
  x <- matrix(rnorm(n * 3), n, 3)
  yf <- factor(ifelse(x[, 1] + rnorm(n) > 0, "yes", "no"))
  f <- cardreg(x, yf, family = "binomial", penalty = "lasso", nlambda = 5)
  pc <- predict(f, x[1:10, ], type = "class")
  expect_true(all(pc %in% c("no", "yes")))
  pr <- predict(f, x[1:10, ], type = "response")
  expect_equal(pc, ifelse(pr > 0.5, "yes", "no"), ignore_attr = TRUE)
})
