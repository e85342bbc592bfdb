# Data shared by the tests: a design with weights and an offset, and one
# response per family drawn from it.
glm_data <- function(n = 200, p = 8, seed = 2) {
  set.seed(seed)
  x <- matrix(rnorm(n * p), n, p)
  colnames(x) <- paste0("x", seq_len(p))
  eta <- drop(x %*% c(0.5, 0.5, -0.5, 0, 0, 0.3, 0, 0)[seq_len(p)])
  w <- runif(n, 0.5, 2)
  off <- rnorm(n, sd = 0.2)
  y <- list(
    gaussian = eta + off + rnorm(n),
    binomial = rbinom(n, 1, plogis(eta + off)),
    poisson = rpois(n, exp(eta + off))
  )
  list(x = x, y = y, w = w, off = off, n = n, p = p)
}
