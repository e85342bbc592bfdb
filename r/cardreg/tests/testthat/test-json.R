test_that("the JSON reader maps values to R", {
  j <- cardreg:::from_json
  v <- j('{"a":1,"b":[1,2.5,null],"c":["x","y\\n\\u00e9\\"z"],"d":true,"e":null,
          "f":[[1,2],[3]],"g":[],"h":{"i":-1e-300},"k":[true,false]}')
  expect_equal(v$a, 1)
  expect_equal(v$b, c(1, 2.5, NA))
  expect_equal(v$c, c("x", "y\n\u00e9\"z"))
  expect_true(v$d)
  expect_null(v$e)
  expect_equal(v$f, list(c(1, 2), 3))
  expect_equal(v$g, list())
  expect_equal(v$h$i, -1e-300)
  expect_equal(v$k, c(TRUE, FALSE))
  expect_equal(j('"\\ud83d\\ude00"'), "\U0001F600")
  expect_error(j("{"), "malformed JSON")
  expect_error(j('{"a":}'), "malformed JSON")
  expect_error(j("[1,2] x"), "text after")
  expect_error(j(paste(rep("[", 1000), collapse = "")), "deeply")
  expect_error(j('"abc'), "unterminated")
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
