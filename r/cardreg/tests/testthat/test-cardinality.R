test_that("a cardinality fit returns clustered coefficients with a small duality gap", {
  set.seed(5)
  n <- 200
  x <- matrix(rnorm(n * 12), n, 12)
  b <- rep(c(2, 1, 0, -1), each = 3)
  y <- drop(x %*% b) + rnorm(n, sd = 0.5)
  f <- cardreg(x, y, penalty = "cardinality", lambda = c(40, 20, 10))
  expect_true(all(f$converged))
  expect_true(all(f$gap < 1e-6))
  for (k in seq_along(f$lambda)) {
    # Coefficients come in few distinct values, and the clusters the
    # library reports partition the predictors by those values.
    vals <- f$beta[, k]
    cl <- f$clusters[[k]]
    expect_lte(length(cl), ncol(x) / 2)
    expect_setequal(unlist(cl), rownames(f$beta))
    for (c in cl) expect_lt(diff(range(vals[c])), 1e-8 * max(1, abs(vals)))
  }
  # At lambda = 20 the true groups 1, 0 and -1 are each one cluster.
  k <- 2
  for (g in list(4:6, 7:9, 10:12)) expect_lt(diff(range(f$beta[g, k])), 1e-8)
  expect_equal(sort(f$distinct.values[[k]]), sort(unique(f$beta[, k])), tolerance = 1e-8)
})

test_that("the cardinality penalty's cross-validation runs and picks a lambda on its grid", {
  set.seed(6)
  n <- 150
  x <- matrix(rnorm(n * 6), n, 6)
  y <- drop(x %*% c(1, 1, 1, -1, -1, -1)) + rnorm(n)
  cv <- cv.cardreg(x, y, nlambda = 15, nfolds = 5, seed = 3)
  expect_true(cv$lambda.min %in% cv$lambda)
  expect_true(cv$lambda.1se >= cv$lambda.min)
  expect_equal(cv$cvup - cv$cvm, cv$cvsd)
  expect_equal(length(cv$foldid), n)
  expect_equal(sort(unique(cv$foldid)), 1:5)
  # The same seed gives the same folds and curve.
  cv2 <- cv.cardreg(x, y, nlambda = 15, nfolds = 5, seed = 3)
  expect_identical(cv$cvm, cv2$cvm)
  expect_identical(cv$foldid, cv2$foldid)
})

test_that("every family and penalty fits", {
  set.seed(7)
  n <- 120
  x <- matrix(rnorm(n * 4), n, 4)
  eta <- drop(x %*% c(0.3, 0.3, -0.3, 0))
  ys <- list(gaussian = eta + rnorm(n), binomial = rbinom(n, 1, plogis(eta)),
             poisson = rpois(n, exp(eta)), gamma = rgamma(n, 2, 2 / exp(eta)))
  for (fam in names(ys)) for (pen in c("cardinality", "lasso")) {
    f <- cardreg(x, ys[[fam]], family = fam, penalty = pen, nlambda = 8)
    expect_s3_class(f, "cardreg")
    expect_equal(f$family, fam)
    expect_true(all(diff(f$dev.ratio) >= -1e-8))
    r <- predict(f, x[1:3, ], type = "response")
    expect_equal(dim(r), c(3L, length(f$lambda)))
    if (fam != "gaussian") expect_true(all(r > 0))
  }
  f <- cardreg(x, ys$gaussian, penalty = "grouped", groups = c("a", "a", "b", "b"),
               nlambda = 6)
  expect_true(all(f$converged))
  f <- cardreg(x, ys$gaussian, penalty = "ridge", lambda = c(10, 1))
  expect_equal(ncol(f$beta), 2L)
})
