# The families, penalties, measures and options the package offers are the
# library's (cardreg_describe): the package passes the names through, and
# the library's refusal of an unknown one lists exactly describe's.
listed <- function(msg, pattern) {
  m <- regmatches(msg, regexec(pattern, msg))[[1]]
  if (length(m) < 2L) return(character())
  strsplit(m[2], ", ", fixed = TRUE)[[1]]
}

err <- function(expr) tryCatch({ expr; "" }, error = conditionMessage)

test_that("the families and penalties offered are describe's", {
  d <- cardreg_describe()
  fams <- vapply(d$families, `[[`, "", "name")
  pens <- vapply(d$penalties, `[[`, "", "name")
  expect_true(all(c("gaussian", "binomial", "poisson") %in% fams))
  expect_true(all(c("cardinality", "lasso") %in% pens))
  x <- matrix(rnorm(60), 20, 3)
  y <- rpois(20, 2) + 1
  expect_identical(listed(err(cardreg(x, y, family = "weibull")),
                          "unknown family \"weibull\" \\((.*)\\)"), fams)
  expect_identical(listed(err(cardreg(x, y, penalty = "nopenalty")),
                          "unknown penalty \"nopenalty\" \\((.*)\\)"), pens)
  # Each family without a parameter fits by its name alone.
  for (f in d$families) {
    if (!is.null(f$parameter)) next
    yy <- if (f$name == "binomial") rep(0:1, 10) else y
    fit <- cardreg(x, yy, family = f$name, penalty = "lasso", nlambda = 3)
    expect_identical(fit$family, f$name)
  }
})

test_that("the measures offered are describe's, with cv.glmnet's titles", {
  d <- cardreg_describe()
  x <- matrix(rnorm(60), 20, 3)
  for (f in d$families) {
    if (!(f$name %in% c("gaussian", "binomial", "poisson"))) next
    yy <- if (f$name == "binomial") rep(0:1, 10) else rpois(20, 2) + 1
    ms <- vapply(f$measures, `[[`, "", "name")
    expect_identical(listed(err(cv.cardreg(x, yy, family = f$name, nfolds = 3,
                                           type.measure = "nomeasure")),
                            "not one of (.*) for family"), ms)
    cv <- cv.cardreg(x, yy, family = f$name, nfolds = 3, nlambda = 4)
    expect_identical(unname(cv$name), f$measures[[1]]$title)
  }
})

test_that("the options offered are describe's", {
  d <- cardreg_describe()
  x <- matrix(rnorm(60), 20, 3)
  y <- rnorm(20)
  all <- unique(c(d$options$fit, d$options$path, d$options$cv))
  expect_setequal(listed(err(cardreg(x, y, no.such.option = 1)),
                         "\\(options: (.*)\\)"), all)
  expect_false("folds" %in% d$options$path)
  expect_true("folds" %in% d$options$cv)
})
