library(testthat)
library(cardreg)

test_check("cardreg")
