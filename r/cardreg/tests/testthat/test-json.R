test_that("the JSON reader (jsonlite) maps values to R", {
  j <- cardreg:::from_json
  v <- j('{"a":1,"b":[1,2.5,null],"c":["x","y\\n\\u00e9\\"z"],"d":true,"e":null,
          "f":[[1,2],[3]],"g":[],"h":{"i":-1e-300},"k":[true,false],"m":[{"x":1}]}')
  expect_equal(v$a, 1)
  expect_equal(v$b, c(1, 2.5, NA))
  expect_equal(v$c, c("x", "y\n\u00e9\"z"))
  expect_true(v$d)
  expect_null(v$e)
  expect_equal(v$f, list(c(1, 2), 3))
  expect_equal(v$g, list())
  expect_equal(v$h$i, -1e-300)
  expect_equal(v$k, c(TRUE, FALSE))
  expect_equal(v$m, list(list(x = 1)))
  expect_error(j("{"))
})

test_that("the options writer writes JSON the reader reads back", {
  w <- cardreg:::to_json
  a <- cardreg:::json_array
  s <- w(list(family = "gaussian", lambda = a(c(1 / 3, 2)), one = a(5), nu = NULL,
              flag = TRUE, names = a(c("a\"b", "c\\d", "tab\t")),
              factors = list(list(name = "f", levels = a("x"), ordinal = FALSE))))
  v <- cardreg:::from_json(s)
  expect_equal(v$lambda, c(1 / 3, 2))
  expect_identical(v$lambda[1], 1 / 3) # 17 significant digits round-trip
  expect_equal(v$one, 5)
  expect_null(v$nu)
  expect_false("nu" %in% names(v))
  expect_equal(v$names, c("a\"b", "c\\d", "tab\t"))
  expect_equal(v$factors[[1]]$levels, "x")
  expect_error(w(list(x = Inf)), "finite")
  expect_error(w(list(x = c(1, 2))), "one value")
})

test_that("a path's JSON read by jsonlite holds the values the C calls return", {
  d <- glm_data()
  for (fam in c("gaussian", "binomial", "poisson")) {
    f <- cardreg(d$x, d$y[[fam]], family = fam, nlambda = 12, weights = d$w,
                 offset = d$off)
    res <- .Call(cardreg:::cr_run, 1L, d$x, as.double(d$y[[fam]]), d$w, d$off, NULL,
                 cardreg:::to_json(list(family = fam, penalty = "cardinality", nlambda = 12L, tol = 1e-7,
                                        names = cardreg:::json_array(colnames(d$x)))))
    js <- cardreg:::from_json(res$json)
    m <- length(res$lambda)
    expect_equal(length(js$models), m)
    # Every double of the document is the C call's, bit for bit.
    expect_identical(as.double(js$lambda), res$lambda)
    for (k in seq_len(m)) {
      mk <- js$models[[k]]
      expect_identical(as.double(mk$coefficients), res$coef[, k])
      expect_identical(as.double(mk$intercept), res$intercept[k])
      expect_identical(as.double(mk$lambda), res$lambda[k])
      expect_identical(is.null(mk$duality_gap) || is.na(mk$duality_gap), is.na(res$gap[k]))
      if (!is.na(res$gap[k])) expect_identical(as.double(mk$duality_gap), res$gap[k])
      expect_identical(mk$converged, res$converged[k])
    }
    # And the R object holds those values, λ/(2n) included.
    expect_identical(unname(f$beta), unname(res$coef))
    expect_identical(f$lambda.glmnet, as.double(js$lambda_glmnet))
    expect_equal(f$lambda.glmnet, f$lambda / (2 * d$n), tolerance = 1e-15)
  }
})
