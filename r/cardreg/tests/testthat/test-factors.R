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

test_that("any text is a level, as written: \"NA\", \"\", \" pad \", \"1\" and \"1.0\"", {
  awkward <- c("ref", "NA", "na", "NaN", " pad ", "", "1", "1.0", "a,b",
               "say \"hi\"", "two\nlines", "\u00e9", strrep("long", 3000))
  plain <- paste0("l", seq_along(awkward))
  set.seed(4)
  codes <- rep(seq_along(awkward), 6)
  y <- (codes %% 3) + 0.3 * rnorm(length(codes))
  x1 <- rnorm(length(codes))
  frame <- function(levels)
    data.frame(x1 = x1, g = factor(levels[codes], levels = levels))
  a <- cardreg(frame(awkward), y, lambda = 0.05)
  p <- cardreg(frame(plain), y, lambda = 0.05)
  expect_equal(rownames(a$beta), c("x1", paste0("g=", awkward[-1])))
  expect_true(a$beta[3, 1] != 0)
  expect_identical(unname(a$beta), unname(p$beta))
  nd <- frame(awkward)[rev(seq_along(codes)), ]
  expect_identical(predict(a, nd), predict(p, frame(plain)[rev(seq_along(codes)), ]))
  # As character, matched by its exact text: "pad" is not " pad ", and a
  # missing value is not the level "NA".
  nd$g <- as.character(nd$g)
  expect_identical(predict(a, nd), predict(p, frame(plain)[rev(seq_along(codes)), ]))
  nd$g[nd$g == " pad "] <- "pad"
  expect_error(predict(a, nd), "has the level 'pad'")
  nd$g[1] <- NA
  expect_error(predict(a, nd), "has NA in row 1")
  # An ordered factor with such levels is ordinal, in its order: its
  # reference is its first level (a nominal factor's is the most frequent).
  o <- frame(awkward)[-(1:2), ]
  o$g <- factor(o$g, levels = rev(awkward), ordered = TRUE)
  fo <- cardreg(o, y[-(1:2)], lambda = 0.05)
  expect_equal(rownames(fo$beta), c("x1", paste0("g=", rev(awkward)[-1])))
  # Latin-1 text is converted; bytes of no known encoding are refused.
  lat <- frame(c("caf\xe9", plain[-1]))
  Encoding(levels(lat$g)) <- "latin1"
  expect_equal(rownames(cardreg(lat, y, lambda = 0.05)$beta)[3], "g=l3")
  bad <- frame(c("caf\xff", plain[-1]))
  expect_error(cardreg(bad, y, lambda = 0.05), "level 'caf.*' is not UTF-8")
})

test_that("an ordered factor is ordinal: first level the reference, chain penalty", {
  set.seed(7)
  bands <- c("0-2", "3-5", "6-9", "10-14", "15+")
  n <- 400
  # The most frequent band is "6-9", not the first.
  age <- sample(bands, n, TRUE, prob = c(0.1, 0.2, 0.4, 0.2, 0.1))
  eff <- c(0, 0, 0.5, 0.5, 1)[match(age, bands)]
  y <- eff + 0.5 * rnorm(n)
  ord <- data.frame(age = factor(age, levels = bands, ordered = TRUE))
  nom <- data.frame(age = factor(age, levels = bands))
  fo <- cardreg(ord, y, nlambda = 10)
  fn <- cardreg(nom, y, nlambda = 10)
  expect_equal(rownames(fo$beta), paste0("age=", bands[-1]))
  expect_equal(rownames(fn$beta), paste0("age=", bands[-3]))
  # Ordinal fusion joins neighbours only: at every lambda, levels with one
  # effect are a run of consecutive bands.
  for (k in seq_along(fo$lambda)) {
    b <- c(0, fo$beta[, k])
    runs <- rle(round(b, 8))$values
    expect_equal(length(runs), length(unique(runs)))
  }
  # A character column read with stringsAsFactors is nominal, in
  # alphabetical order: not the bands' order.
  chr <- read.csv(text = paste0("age\n", paste(age, collapse = "\n")),
                  stringsAsFactors = TRUE)
  expect_equal(levels(chr$age), sort(bands))
  expect_false(is.ordered(chr$age))
})
