factor_data <- function(n = 300, seed = 3) {
  set.seed(seed)
  df <- data.frame(
    a = rnorm(n), b = rnorm(n),
    region = factor(sample(paste0("R", 1:6), n, TRUE)),
    age = factor(sample(c("young", "mid", "old"), n, TRUE),
                 levels = c("young", "mid", "old"), ordered = TRUE))
  eff <- c(R1 = 0, R2 = 0, R3 = 1, R4 = 1, R5 = -1, R6 = -1)
  y <- 0.5 * df$a + 0.5 * df$b + eff[as.character(df$region)] + rnorm(n)
  list(df = df, y = unname(y))
}

test_that("a data.frame with factors fits, its levels' dummies named NAME=LEVEL", {
  d <- factor_data()
  f <- cardreg(d$df, d$y, nlambda = 20)
  cols <- rownames(f$beta)
  expect_equal(cols[1:2], c("a", "b"))
  expect_true(all(grepl("^region=R[1-6]$", cols[3:7])))
  expect_equal(sum(grepl("^age=", cols)), 2L)
  # The reference levels have no column.
  expect_equal(length(cols), 2 + 5 + 2)
  expect_true(all(f$converged))
  # Levels fuse: R5 and R6 share one effect somewhere along the path.
  fused <- vapply(seq_along(f$lambda), function(k)
    abs(f$beta["region=R5", k] - f$beta["region=R6", k]) < 1e-8 &&
      f$beta["region=R5", k] != 0, NA)
  expect_true(any(fused))
})

test_that("predictions on a data.frame agree between the library and R", {
  d <- factor_data()
  f <- cardreg(d$df, d$y, nlambda = 20)
  nd <- d$df[c(5, 1, 9, 2), ]
  p_lib <- predict(f, nd)
  # Off the grid by a hair: computed in R from the design.
  p_r <- predict(f, nd, s = f$lambda * (1 - 1e-13))
  expect_equal(unname(p_lib), unname(p_r), tolerance = 1e-8)
  # A factor column given as character works.
  nd2 <- nd
  nd2$region <- as.character(nd2$region)
  nd2$age <- as.character(nd2$age)
  expect_equal(predict(f, nd2), p_lib)
  # Column order does not matter.
  expect_equal(predict(f, nd[, rev(names(nd))]), p_lib)
})

test_that("an unseen level at predict is an error naming the column and level", {
  d <- factor_data()
  f <- cardreg(d$df, d$y, nlambda = 5)
  nd <- d$df[1:3, ]
  nd$region <- as.character(nd$region)
  nd$region[2] <- "R99"
  expect_error(predict(f, nd), "column 'region' has the level 'R99'")
  expect_error(predict(f, nd, s = f$lambda[2] * 0.9), "R99")
  expect_error(predict(f, d$df[, c("a", "b", "age")]), "no column 'region'")
  expect_error(predict(f, as.matrix(d$df[, 1:2])), "data.frame")
})

test_that("cross-validation with factors, and library options through ...", {
  d <- factor_data()
  cv <- cv.cardreg(d$df, d$y, nlambda = 10, nfolds = 4,
                   ref = c(region = "R3"), pair.weights = "count")
  expect_false("region=R3" %in% rownames(cv$cardreg.fit$beta))
  expect_true("region=R1" %in% rownames(cv$cardreg.fit$beta))
  expect_equal(dim(predict(cv, d$df[1:2, ])), c(2L, 1L))
  expect_error(cv.cardreg(d$df, d$y, nlambda = 5, pair.weights = "nonsense"),
               "pair-weights")
})

test_that("columns that are neither numeric nor factors are refused", {
  d <- factor_data(n = 50)
  df <- d$df
  df$s <- letters[(seq_len(50) %% 3) + 1]
  expect_error(cardreg(df, d$y), "column 's' is character")
  df <- d$df
  df$region[3] <- NA
  expect_error(cardreg(df, d$y), "column 'region' has NA in row 3")
})
