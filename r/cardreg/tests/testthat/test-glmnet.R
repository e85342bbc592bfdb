# The lasso against R's glmnet: cardreg's lambda is 2n times glmnet's, and
# both minimise the same objective (deviance/(2n) + lambda_glmnet * |beta|_1
# with the weights rescaled to sum to n), so the coefficients agree to the
# solvers' tolerance.

for (fam in c("gaussian", "binomial", "poisson")) {
  test_that(sprintf("%s lasso path with weights and offset equals glmnet's", fam), {
    skip_if_not_installed("glmnet")
    d <- glm_data()
    y <- d$y[[fam]]
    g0 <- glmnet::glmnet(d$x, y, family = fam, weights = d$w, offset = d$off,
                         standardize = FALSE, thresh = 1e-14, maxit = 1e6)
    lam <- g0$lambda[seq_len(min(30, length(g0$lambda)))]
    g <- glmnet::glmnet(d$x, y, family = fam, weights = d$w, offset = d$off,
                        standardize = FALSE, thresh = 1e-14, maxit = 1e6,
                        lambda = lam)
    f <- cardreg(d$x, y, family = fam, penalty = "lasso", lambda = 2 * d$n * lam,
                 weights = d$w, offset = d$off, thresh = 1e-12)
    expect_s3_class(f, "cardreg")
    expect_true(all(f$converged))
    expect_equal(f$lambda.glmnet, lam, tolerance = 1e-12)
    expect_equal(dim(f$beta), c(d$p, length(lam)))
    expect_equal(rownames(f$beta), colnames(d$x))
    expect_lt(max(abs(as.matrix(g$beta) - f$beta)), 1e-6)
    expect_lt(max(abs(g$a0 - f$a0)), 1e-6)
    expect_lt(max(abs(g$dev.ratio - f$dev.ratio)), 1e-6)
    expect_equal(f$df, as.integer(g$df))

    # predictions on the grid (the library's) and between grid points
    # (glmnet's linear interpolation in lambda).
    nx <- d$x[1:7, ]
    no <- d$off[1:7]
    for (type in c("link", "response")) {
      expect_lt(max(abs(predict(f, nx, type = type, newoffset = no) -
                          predict(g, nx, type = type, newoffset = no))), 1e-5)
      s <- c(0.7 * lam[3] + 0.3 * lam[4], lam[10], 2 * lam[1], lam[length(lam)] / 3)
      expect_lt(max(abs(predict(f, nx, s = 2 * d$n * s, type = type, newoffset = no) -
                          predict(g, nx, s = s, type = type, newoffset = no))), 1e-5)
    }
    s <- 0.4 * lam[5] + 0.6 * lam[6]
    expect_lt(max(abs(coef(f, s = 2 * d$n * s) - as.matrix(coef(g, s = s)))), 1e-6)
    if (fam == "binomial") {
      pc <- predict(f, nx, type = "class", newoffset = no)
      expect_equal(unname(pc), unname(predict(g, nx, type = "class", newoffset = no)))
    }
  })

  test_that(sprintf("%s cv.cardreg equals cv.glmnet on the same folds and grid", fam), {
    skip_if_not_installed("glmnet")
    d <- glm_data()
    y <- d$y[[fam]]
    g0 <- glmnet::glmnet(d$x, y, family = fam, weights = d$w, offset = d$off,
                         standardize = FALSE)
    lam <- g0$lambda[seq_len(min(30, length(g0$lambda)))]
    foldid <- rep(1:5, length.out = d$n)
    cg <- glmnet::cv.glmnet(d$x, y, family = fam, weights = d$w, offset = d$off,
                            standardize = FALSE, thresh = 1e-14, maxit = 1e6,
                            lambda = lam, foldid = foldid)
    cf <- cv.cardreg(d$x, y, family = fam, penalty = "lasso", lambda = 2 * d$n * lam,
                     weights = d$w, offset = d$off, thresh = 1e-12, foldid = foldid)
    expect_s3_class(cf, "cv.cardreg")
    expect_equal(cf$foldid, foldid)
    expect_lt(max(abs(cg$cvm - cf$cvm)), 1e-6)
    expect_lt(max(abs(cg$cvsd - cf$cvsd)), 1e-6)
    expect_equal(cf$lambda.min / (2 * d$n), cg$lambda.min, tolerance = 1e-12)
    expect_equal(cf$lambda.1se / (2 * d$n), cg$lambda.1se, tolerance = 1e-12)
    expect_equal(unname(cf$index[, 1]), unname(cg$index[, 1]))
    expect_equal(unname(cf$name), unname(cg$name))
    # (glmnet's first model may keep a coefficient of order 1e-17.)
    expect_equal(unname(cf$nzero)[-1], unname(cg$nzero)[-1])
    nx <- d$x[1:5, ]
    expect_lt(max(abs(predict(cf, nx, newoffset = d$off[1:5]) -
                        predict(cg, nx, newoffset = d$off[1:5]))), 1e-5)
    expect_lt(max(abs(predict(cf, nx, s = "lambda.min", newoffset = d$off[1:5]) -
                        predict(cg, nx, s = "lambda.min", newoffset = d$off[1:5]))), 1e-5)
  })
}

test_that("penalty factors and the generated grid agree with glmnet", {
  skip_if_not_installed("glmnet")
  d <- glm_data()
  y <- d$y$gaussian
  pf <- c(1, 2, 0.5, 1, 1, 0, 1, 3)
  g <- glmnet::glmnet(d$x, y, standardize = FALSE, thresh = 1e-14, penalty.factor = pf,
                      nlambda = 20)
  f <- cardreg(d$x, y, penalty = "lasso", penalty.factor = pf,
               lambda = 2 * d$n * g$lambda, thresh = 1e-12)
  expect_lt(max(abs(as.matrix(g$beta) - f$beta)), 1e-6)
  # The library's own grid starts at glmnet's lambda_max.
  f2 <- cardreg(d$x, y, penalty = "lasso", nlambda = 20)
  g2 <- glmnet::glmnet(d$x, y, standardize = FALSE, nlambda = 20)
  expect_equal(f2$lambda.glmnet[1], g2$lambda[1], tolerance = 1e-9)
})

test_that("no intercept and standardize agree with glmnet", {
  skip_if_not_installed("glmnet")
  set.seed(9)
  n <- 150
  x <- matrix(rnorm(n * 6, mean = 1, sd = 2), n, 6)
  w <- runif(n, 0.5, 2)
  eta <- drop(x %*% c(0.5, 0.5, -0.5, 0, 0, 0.3))
  ys <- list(gaussian = eta + rnorm(n), binomial = rbinom(n, 1, plogis(eta / 3)))
  for (fam in names(ys)) {
    y <- ys[[fam]]
    g <- glmnet::glmnet(x, y, family = fam, weights = w, intercept = FALSE,
                        standardize = FALSE, thresh = 1e-14, nlambda = 20)
    f <- cardreg(x, y, family = fam, penalty = "lasso", weights = w, intercept = FALSE,
                 lambda = 2 * n * g$lambda, thresh = 1e-12)
    expect_lt(max(abs(as.matrix(g$beta) - f$beta)), 1e-6)
    expect_true(all(f$a0 == 0))
    g <- glmnet::glmnet(x, y, family = fam, weights = w, standardize = TRUE,
                        thresh = 1e-14, nlambda = 20)
    f <- cardreg(x, y, family = fam, penalty = "lasso", weights = w, standardize = TRUE,
                 lambda = 2 * n * g$lambda, thresh = 1e-12)
    expect_lt(max(abs(as.matrix(g$beta) - f$beta)), 1e-6)
    expect_lt(max(abs(g$a0 - f$a0)), 1e-6)
    # unpenalized fits a predictor without penalty; glmnet's nearest is a penalty
    # factor of 0 (whose rescaling to sum to p makes the others' weight
    # p/(p - 1), so the lambdas differ by that factor).
    pf <- c(0, rep(1, 5))
    g <- glmnet::glmnet(x, y, family = fam, standardize = FALSE, thresh = 1e-14,
                        nlambda = 10, penalty.factor = pf)
    f <- cardreg(x, y, family = fam, penalty = "lasso", unpenalized = 1,
                 lambda = 2 * n * g$lambda * 6 / 5, thresh = 1e-12)
    expect_lt(max(abs(as.matrix(g$beta) - f$beta)), 1e-6)
  }
})

test_that("gamma lasso with weights and offset equals glmnet's Gamma(link = \"log\")", {
  skip_if_not_installed("glmnet")
  set.seed(2)
  n <- 200
  x <- matrix(rnorm(n * 6), n, 6)
  eta <- drop(x %*% c(0.4, 0.4, -0.4, 0, 0, 0))
  w <- runif(n, 0.5, 2)
  off <- rnorm(n, sd = 0.1)
  y <- rgamma(n, shape = 2, rate = 2 / exp(eta + off))
  # glmnet's IRLS for a family object stops on epsnr, a global setting.
  glmnet::glmnet.control(epsnr = 1e-15, mxitnr = 100)
  on.exit(glmnet::glmnet.control(factory = TRUE))
  g0 <- glmnet::glmnet(x, y, family = Gamma(link = "log"), weights = w, offset = off,
                       standardize = FALSE, thresh = 1e-16, nlambda = 15)
  g <- glmnet::glmnet(x, y, family = Gamma(link = "log"), weights = w, offset = off,
                      standardize = FALSE, thresh = 1e-16, lambda = g0$lambda)
  f <- cardreg(x, y, family = "gamma", penalty = "lasso", weights = w, offset = off,
               lambda = 2 * n * g0$lambda, thresh = 1e-12)
  expect_lt(max(abs(as.matrix(g$beta) - f$beta)), 1e-6)
  expect_lt(max(abs(g$a0 - f$a0)), 1e-6)
  nx <- x[1:5, ]
  expect_lt(max(abs(predict(f, nx, type = "response", newoffset = off[1:5]) -
                      predict(g, nx, type = "response", newoffset = off[1:5]))), 1e-5)
})

test_that("every binomial type.measure equals cv.glmnet's", {
  skip_if_not_installed("glmnet")
  d <- glm_data()
  y <- d$y$binomial
  lam <- glmnet::glmnet(d$x, y, family = "binomial", standardize = FALSE)$lambda[1:25]
  foldid <- rep(1:5, length.out = d$n)
  for (m in c("deviance", "class", "auc", "mse", "mae")) {
    cg <- glmnet::cv.glmnet(d$x, y, family = "binomial", weights = d$w,
                            standardize = FALSE, thresh = 1e-14, lambda = lam,
                            foldid = foldid, type.measure = m)
    cf <- cv.cardreg(d$x, y, family = "binomial", penalty = "lasso", weights = d$w,
                     lambda = 2 * d$n * lam, thresh = 1e-12, foldid = foldid,
                     type.measure = m)
    expect_lt(max(abs(cg$cvm - cf$cvm)), 1e-6)
    expect_lt(max(abs(cg$cvsd - cf$cvsd)), 1e-6)
    expect_equal(cf$lambda.min / (2 * d$n), cg$lambda.min, tolerance = 1e-12)
    expect_equal(cf$lambda.1se / (2 * d$n), cg$lambda.1se, tolerance = 1e-12)
    expect_equal(unname(cf$name), unname(cg$name))
  }
  expect_error(cv.cardreg(d$x, d$y$gaussian, type.measure = "auc"), "type-measure")
})
