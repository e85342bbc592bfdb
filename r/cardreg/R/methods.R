# predict, coef, print and plot for "cardreg" and "cv.cardreg", as glmnet's.

# Where the values s (cardreg's λ scale) fall on the decreasing grid lambda:
# for each s the two neighbouring models and the weight of the left one,
# interpolating linearly in λ (as glmnet does); s outside the grid takes
# the nearest end.
lambda_weights <- function(lambda, s) {
  m <- length(lambda)
  left <- right <- integer(length(s))
  w <- numeric(length(s))
  for (i in seq_along(s)) {
    v <- min(max(s[i], lambda[m]), lambda[1L])
    hit <- which(lambda == v)
    if (length(hit)) {
      left[i] <- right[i] <- hit[1L]
      w[i] <- 1
      next
    }
    r <- which(lambda < v)[1L] # the first grid value below v
    l <- r - 1L
    left[i] <- l
    right[i] <- r
    w[i] <- (v - lambda[r]) / (lambda[l] - lambda[r])
  }
  list(left = left, right = right, w = w)
}

check_s <- function(s) {
  if (!is.numeric(s) || length(s) < 1L || any(!is.finite(s)) || any(s < 0))
    stopf("s must be finite values of lambda >= 0 (cardreg's scale, 2n times glmnet's)")
  as.double(s)
}

# Intercepts and coefficients at s: list(a0, beta, on_grid, k).
coef_at <- function(object, s) {
  if (is.null(s)) {
    return(list(a0 = object$a0, beta = object$beta, on_grid = TRUE,
                k = seq_along(object$lambda), labels = colnames(object$beta)))
  }
  s <- check_s(s)
  lw <- lambda_weights(object$lambda, s)
  b <- object$beta
  beta <- b[, lw$left, drop = FALSE] * rep(lw$w, each = nrow(b)) +
    b[, lw$right, drop = FALSE] * rep(1 - lw$w, each = nrow(b))
  a0 <- object$a0[lw$left] * lw$w + object$a0[lw$right] * (1 - lw$w)
  labels <- as.character(seq_along(s))
  dimnames(beta) <- list(rownames(b), labels)
  names(a0) <- labels
  list(a0 = a0, beta = beta, on_grid = all(lw$left == lw$right),
       k = lw$left, labels = labels)
}

coef.cardreg <- function(object, s = NULL, exact = FALSE, ...) {
  if (!isFALSE(exact))
    stopf("exact = TRUE is not supported: refit with cardreg(..., lambda = s)")
  cf <- coef_at(object, s)
  out <- rbind(cf$a0, cf$beta)
  rownames(out) <- c("(Intercept)", rownames(cf$beta))
  out
}

predict.cardreg <- function(object, newx, s = NULL,
                            type = c("link", "response", "class", "coefficients",
                                     "nonzero"),
                            exact = FALSE, newoffset, ...) {
  type <- check_choice(type, c("link", "response", "class", "coefficients",
                               "nonzero"), "type")
  if (type == "coefficients") return(coef.cardreg(object, s = s, exact = exact))
  if (type == "nonzero") {
    cf <- coef_at(object, s)
    return(lapply(seq_len(ncol(cf$beta)), function(j) which(cf$beta[, j] != 0)))
  }
  if (!isFALSE(exact))
    stopf("exact = TRUE is not supported: refit with cardreg(..., lambda = s)")
  if (missing(newx)) stopf("you need to supply a value for 'newx'")
  nd <- prepare_newx(object$xinfo, newx)
  n <- nd$n
  off <- NULL
  if (isTRUE(object$offset)) {
    if (missing(newoffset) || is.null(newoffset))
      stopf("the fit used an offset: give newoffset for the predictions")
    off <- prepare_rowvec(newoffset, n, "newoffset")
  } else if (!missing(newoffset) && !is.null(newoffset)) {
    stopf("the fit used no offset, so newoffset has no place")
  }
  cf <- coef_at(object, s)
  out <- NULL
  if (cf$on_grid && length(cf$k) == 1L && isTRUE(.Call(cr_handle_valid, object$handle))) {
    # One model on the grid: the library predicts from it. For several, one
    # design matrix serves them all (the library would check and copy newx
    # once per model).
    ntype <- if (type == "class") "class" else type
    out <- vapply(cf$k, function(k)
      if (is.null(nd$sparse))
        native(cr_predict, object$handle, as.integer(k - 1L), nd$x, nd$codes, off,
               ntype)
      else
        native(cr_predict_csc, object$handle, as.integer(k - 1L),
               c(n, length(object$xinfo$names)), nd$sparse$p, nd$sparse$i,
               nd$sparse$x, off, ntype), numeric(n))
    out <- matrix(out, n, length(cf$k))
  } else {
    # Coefficients between grid values, or a fit without its native result:
    # η in R, the prediction (the family's inverse link) by the library.
    # A sparse newx is multiplied as it is (Matrix's product), never
    # densified.
    X <- if (is.null(nd$sparse)) design_matrix(object, nd) else nd$X
    eta <- as.matrix(X %*% cf$beta) + rep(cf$a0, each = n)
    if (!is.null(off)) eta <- eta + off
    out <- native(cr_response, object$family, matrix(as.double(eta), n, ncol(cf$beta)),
                  type)
  }
  if (type == "class") {
    cls <- object$classnames
    out <- matrix(cls[out + 1], n, ncol(out))
  }
  dimnames(out) <- list(rownames(newx), cf$labels)
  out
}

# s for a cv.cardreg: "lambda.1se", "lambda.min" or values of λ.
cv_s <- function(object, s) {
  if (is.character(s)) {
    s <- check_choice(s, c("lambda.1se", "lambda.min"), "s")
    return(object[[s]])
  }
  s
}

predict.cv.cardreg <- function(object, newx, s = c("lambda.1se", "lambda.min"),
                               ...) {
  predict.cardreg(object$cardreg.fit, newx, s = cv_s(object, s), ...)
}

coef.cv.cardreg <- function(object, s = c("lambda.1se", "lambda.min"), ...) {
  coef.cardreg(object$cardreg.fit, s = cv_s(object, s), ...)
}

print.cardreg <- function(x, digits = max(3, getOption("digits") - 3), ...) {
  cat("\nCall: ", deparse(x$call), "\n\n", sep = "")
  cat(sprintf("Family %s, penalty %s; lambda on cardreg's scale (glmnet's is lambda/(2n), n = %d)\n\n",
              x$family, x$penalty, x$nobs))
  tab <- data.frame(Df = x$df, `%Dev` = round(x$dev.ratio * 100, 2),
                    Lambda = signif(x$lambda, digits),
                    `Lambda.glmnet` = signif(x$lambda.glmnet, digits),
                    Gap = signif(x$gap, 2), check.names = FALSE)
  print(tab)
  if (any(!x$converged))
    cat(sprintf("\n%d fits did not converge\n", sum(!x$converged)))
  if (nzchar(x$note)) cat("\nNote:", x$note, "\n")
  invisible(x)
}

print.cv.cardreg <- function(x, digits = max(3, getOption("digits") - 3), ...) {
  cat("\nCall: ", deparse(x$call), "\n\n", sep = "")
  cat("Measure:", x$name, "\n\n")
  i <- x$index[, 1L]
  tab <- data.frame(Lambda = signif(x$lambda[i], digits),
                    `Lambda.glmnet` = signif(x$lambda.glmnet[i], digits),
                    Index = i, Measure = signif(x$cvm[i], digits),
                    SE = signif(x$cvsd[i], digits), Nonzero = x$nzero[i],
                    row.names = c("min", "1se"), check.names = FALSE)
  print(tab)
  invisible(x)
}

plot.cardreg <- function(x, xvar = c("lambda", "norm", "dev"), label = FALSE, ...) {
  xvar <- check_choice(xvar, c("lambda", "norm", "dev"), "xvar")
  beta <- x$beta
  keep <- x$lambda > 0
  if (xvar == "lambda" && !all(keep)) beta <- beta[, keep, drop = FALSE]
  index <- switch(xvar,
    lambda = log(x$lambda[keep]),
    norm = colSums(abs(beta)),
    dev = x$dev.ratio)
  xlab <- switch(xvar, lambda = "Log Lambda (cardreg's scale)",
                 norm = "L1 Norm", dev = "Fraction Deviance Explained")
  top <- if (xvar == "lambda") x$df[keep] else x$df
  graphics::matplot(index, t(beta), type = "l", lty = 1, xlab = xlab,
                    ylab = "Coefficients", ...)
  at <- pretty(index)
  at <- at[at >= min(index) & at <= max(index)]
  if (length(at)) {
    j <- vapply(at, function(a) which.min(abs(index - a)), 1L)
    graphics::axis(3, at = at, labels = top[j], tick = FALSE, line = 0)
  }
  if (label && nrow(beta)) {
    end <- if (xvar == "lambda") which.min(index) else which.max(index)
    graphics::text(index[end], beta[, end], rownames(beta), pos = 4, cex = 0.6,
                   xpd = TRUE)
  }
  invisible(x)
}

plot.cv.cardreg <- function(x, sign.lambda = 1, ...) {
  keep <- x$lambda > 0 & is.finite(x$cvm)
  ll <- sign.lambda * log(x$lambda[keep])
  cvm <- x$cvm[keep]
  up <- x$cvup[keep]
  lo <- x$cvlo[keep]
  graphics::plot(ll, cvm, ylim = range(c(up, lo), na.rm = TRUE), type = "n",
                 xlab = if (sign.lambda < 0) "-Log(Lambda)" else "Log(Lambda)",
                 ylab = x$name, ...)
  graphics::segments(ll, lo, ll, up, col = "darkgrey")
  w <- diff(range(ll)) / 200
  graphics::segments(ll - w, up, ll + w, up, col = "darkgrey")
  graphics::segments(ll - w, lo, ll + w, lo, col = "darkgrey")
  graphics::points(ll, cvm, pch = 20, col = "red")
  nz <- x$nzero[keep]
  at <- pretty(ll)
  at <- at[at >= min(ll) & at <= max(ll)]
  if (length(at)) {
    j <- vapply(at, function(a) which.min(abs(ll - a)), 1L)
    graphics::axis(3, at = at, labels = nz[j], tick = FALSE, line = 0)
  }
  if (is.finite(x$lambda.min) && x$lambda.min > 0)
    graphics::abline(v = sign.lambda * log(x$lambda.min), lty = 3)
  if (is.finite(x$lambda.1se) && x$lambda.1se > 0)
    graphics::abline(v = sign.lambda * log(x$lambda.1se), lty = 3)
  invisible(x)
}
