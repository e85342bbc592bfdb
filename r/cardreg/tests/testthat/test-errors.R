test_that("bad input is an R error, never a crash", {
  set.seed(1)
  x <- matrix(rnorm(60), 20, 3)
  y <- rnorm(20)
  expect_error(cardreg(x, y[-1]), "y has length 19, x has 20 rows")
  expect_error(cardreg(x, y, family = "binomal"), "unknown family")
  expect_error(cardreg(x, y, penalty = "elastic"), "unknown penalty")
  xna <- x
  xna[4, 2] <- NA
  expect_error(cardreg(xna, y), "row 4, column 2")
  yna <- y
  yna[7] <- NA
  expect_error(cardreg(x, yna), "y has NA in row 7")
  expect_error(cardreg(x, y, weights = rep(1, 5)), "weights has length 5")
  expect_error(cardreg(x, y, offset = c(rep(0, 19), NaN)), "offset has NaN in row 20")
  expect_error(cardreg(x, y, lambda = c(1, -1)), "lambda")
  expect_error(cardreg(x, y, penalty.factor = 1:2), "penalty.factor")
  expect_error(cardreg("a", y), "numeric matrix or a data.frame")
  expect_error(cardreg(matrix("a", 20, 3), y), "must be numeric")
  expect_error(cardreg(x, rep(2, 20), family = "binomial"), "0 or 1")
  expect_error(cardreg(x, y, nu = -1), "nu")
  expect_error(cv.cardreg(x, y, foldid = rep(1:2, 10)), "at least 3")
  expect_error(cv.cardreg(x, y, nfolds = 1), "nfolds")
  # 2 rows: no nfolds works, and the message says so (it offered 3..2).
  expect_error(cv.cardreg(x[1:2, ], y[1:2], nfolds = 2), "2 rows are too few to cross-validate")
  # Errors the library finds come back with its message.
  expect_error(cardreg(x, y, nlambda = 1), "nlambda")
  expect_error(cardreg(x, y, type.logistic = "Newton"), "unknown option")
  expect_error(cardreg(x, y, alpha = 0.5), "alpha applies to the elasticnet penalty only")
  expect_error(cardreg(x, -abs(y), family = "poisson"), "cardreg")
  expect_error(cardreg(x, y, lambda = 1, weights = rep(0, 20)), "cardreg")
  expect_error(cardreg(x, y, unpenalized = "nope"), "unpenalized")
  expect_error(cardreg(x, y, exclude = 1), "glmnet's exclude drops predictors")
})

test_that("predict checks its new data and offset", {
  set.seed(1)
  x <- matrix(rnorm(60), 20, 3)
  y <- rnorm(20)
  f <- cardreg(x, y, penalty = "lasso", nlambda = 5)
  expect_error(predict(f), "newx")
  expect_error(predict(f, x[, 1:2]), "2 columns, the fit has 3")
  expect_error(predict(f, x, type = "class"), "binomial")
  expect_error(predict(f, x, newoffset = rep(0, 20)), "no offset")
  expect_error(predict(f, x, s = -1), "s must be")
  xo <- x
  xo[1, 1] <- Inf
  expect_error(predict(f, xo), "newx has Inf in row 1, column 1")
  fo <- cardreg(x, y, penalty = "lasso", nlambda = 5, offset = rep(0.5, 20))
  expect_error(predict(fo, x), "newoffset")
  expect_error(predict(fo, x, newoffset = 1:3), "newoffset has length 3")
})

test_that("the native glue checks its arguments itself", {
  run <- function(...) .Call(cardreg:::cr_run, ...)
  x <- matrix(rnorm(20), 10, 2)
  y <- rnorm(10)
  expect_error(run(1L, x, y[1:3], NULL, NULL, NULL, "{}"), "one value per row")
  expect_error(run(1L, 1:20, y, NULL, NULL, NULL, "{}"), "double matrix")
  expect_error(run(1L, x, y, NULL, NULL, NULL, 3), "one string")
  expect_error(run(1L, x, y, NULL, NULL, NULL, NA_character_), "one string")
  expect_error(run(9L, x, y, NULL, NULL, NULL, "{}"), "unknown mode")
  expect_error(run(1L, x, y, rep(1, 3), NULL, NULL, "{}"), "weights has length 3")
  expect_error(run(1L, x, y, NULL, c(1, rep(NA, 9)), NULL, "{}"), "offset\\[2\\] is NA")
  expect_error(run(1L, x, y, NULL, NULL, matrix(NA_integer_, 10, 1), "{}"),
               "factor 1 has NA in row 1")
  expect_error(run(1L, x, y, NULL, NULL, matrix(0L, 3, 1), "{}"), "codes have 3 rows")
  expect_error(run(1L, x, y, NULL, NULL, NULL, "{not json"), "options")
  expect_error(run(1L, x, y, NULL, NULL, NULL, "{\"family\":\"none\"}"), "unknown family")
  # A code out of its factor's range is the library's error, not a crash.
  opts <- '{"names":["a","b"],"factors":[{"name":"f","levels":["u","v"],"ordinal":false}]}'
  expect_error(run(1L, x, y, NULL, NULL, matrix(rep(c(0L, 7L), 5), 10, 1), opts),
               "cardreg")
  expect_error(.Call(cardreg:::cr_predict, "x", 0L, x, NULL, NULL, "link"), "handle")
  # Mode 0 is cardreg_fit: one model at a given lambda.
  r <- run(0L, x, y, NULL, NULL, NULL, '{"penalty":"lasso","lambda":1}')
  expect_equal(dim(r$coef), c(2L, 1L))
  expect_equal(r$lambda, 1)
  expect_match(r$json, "duality_gap")
})

test_that("a freed handle is an error for the library and predict falls back to R", {
  set.seed(1)
  x <- matrix(rnorm(60), 20, 3)
  y <- rnorm(20)
  f <- cardreg(x, y, penalty = "lasso", nlambda = 5)
  p1 <- predict(f, x)
  .Call(cardreg:::cr_free, f$handle)
  expect_false(.Call(cardreg:::cr_handle_valid, f$handle))
  expect_error(.Call(cardreg:::cr_predict, f$handle, 0L, x, NULL, NULL, "link"), "gone")
  expect_equal(predict(f, x), p1, tolerance = 1e-10)
  # A model index out of range is the library's error.
  g <- cardreg(x, y, penalty = "lasso", nlambda = 5)
  expect_error(.Call(cardreg:::cr_predict, g$handle, 99L, x, NULL, NULL, "link"),
               "cardreg")
  expect_error(.Call(cardreg:::cr_predict, g$handle, 0L, x, NULL, NULL, "probability"),
               "cardreg")
  # Saved and loaded again: the handle is gone, predictions still work.
  file <- tempfile(fileext = ".rds")
  saveRDS(g, file)
  h <- readRDS(file)
  expect_equal(predict(h, x), predict(g, x), tolerance = 1e-10)
})

test_that("results no longer referenced are freed by the garbage collector", {
  set.seed(1)
  x <- matrix(rnorm(60), 20, 3)
  y <- rnorm(20)
  ids <- vapply(1:200, function(i)
    .Call(cardreg:::cr_handle_id, cardreg(x, y, penalty = "lasso", nlambda = 3)$handle), 0)
  invisible(gc())
  held <- vapply(ids, function(id) .Call(cardreg:::cr_id_held, id), TRUE)
  expect_false(any(held))
  f <- cardreg(x, y, penalty = "lasso", nlambda = 3)
  expect_true(.Call(cardreg:::cr_id_held, .Call(cardreg:::cr_handle_id, f$handle)))
  expect_true(.Call(cardreg:::cr_handle_valid, f$handle))
  # Freeing twice through the glue is harmless: the pointer forgets it.
  .Call(cardreg:::cr_free, f$handle)
  expect_silent(.Call(cardreg:::cr_free, f$handle))
})
