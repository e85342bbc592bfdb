# Families with a parameter pass as a string to the library, which parses
# them: the Tweedie lasso (p = 1.5) and the negative binomial lasso
# (theta = 2) equal glmnet with statmod's tweedie and MASS's
# negative.binomial family objects, at glmnet's lambda = cardreg's / (2n)
# (glmnet minimises the same deviance/(2n) + lambda |beta|_1 for a family
# object, the weights rescaled).

fam_fit <- function(family, famobj, y, d) {
  lam <- c(0.05, 0.02, 0.005)
  glmnet::glmnet.control(epsnr = 1e-15, mxitnr = 1000)
  on.exit(glmnet::glmnet.control(factory = TRUE))
  g <- glmnet::glmnet(d$x, y, family = famobj, weights = d$w, offset = d$off,
                      lambda = lam, standardize = FALSE, thresh = 1e-16, maxit = 1e6)
  f <- cardreg(d$x, y, family = family, penalty = "lasso", lambda = 2 * d$n * lam,
               weights = d$w, offset = d$off, thresh = 1e-12)
  expect_equal(f$family, family)
  expect_true(all(f$converged))
  expect_lt(max(abs(as.matrix(g$beta) - f$beta)), 1e-6)
  expect_lt(max(abs(g$a0 - f$a0)), 1e-6)
  nx <- d$x[1:5, ]
  expect_equal(predict(f, nx, type = "response", newoffset = d$off[1:5]),
               exp(predict(f, nx, type = "link", newoffset = d$off[1:5])))
}

test_that("tweedie:1.5 lasso equals glmnet with statmod's tweedie", {
  skip_if_not_installed("glmnet")
  skip_if_not_installed("statmod")
  d <- glm_data()
  mu <- exp(d$x[, 1] * 0.5 - d$x[, 3] * 0.5 + d$off)
  rate <- sqrt(mu) / 0.5
  y <- vapply(seq_len(d$n), function(i) sum(rexp(rpois(1, rate[i]), rate[i] / mu[i])), 0)
  fam_fit("tweedie:1.5", statmod::tweedie(var.power = 1.5, link.power = 0), y, d)
})

test_that("negbin:2 lasso equals glmnet with MASS's negative.binomial", {
  skip_if_not_installed("glmnet")
  skip_if_not_installed("MASS")
  d <- glm_data()
  fam_fit("negbin:2", MASS::negative.binomial(2), d$y$poisson, d)
})

test_that("a bad family parameter is the library's error", {
  d <- glm_data(n = 30)
  expect_error(cardreg(d$x, d$y$poisson, family = "tweedie:2.5"), "1 < p < 2")
  expect_error(cardreg(d$x, d$y$poisson, family = "negbin:0"), "θ = 0 is not a finite number > 0|theta")
  expect_error(cardreg(d$x, d$y$poisson, family = "tweedie"), "tweedie:P")
  expect_error(cardreg(d$x, d$y$poisson, family = c("poisson", "gamma")), "one name")
})
