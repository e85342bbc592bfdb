# The data as the library takes them: a column-major double matrix of the
# numeric predictors, an n x nfactors matrix of 0-based level codes, and
# their description ("names", "factors") for the options.

stopf <- function(...) stop(sprintf(...), call. = FALSE)

check_finite_matrix <- function(x, what) {
  bad <- which(!is.finite(x))
  if (length(bad)) {
    i <- bad[1L]
    n <- nrow(x)
    r <- (i - 1L) %% n + 1L
    j <- (i - 1L) %/% n + 1L
    cn <- colnames(x)
    col <- if (is.null(cn)) j else sprintf("'%s'", cn[j])
    stopf("%s has %s in row %d, column %s (%d cells are not finite numbers)",
          what, format(x[i]), r, col, length(bad))
  }
}

# x: a numeric matrix, a sparse Matrix or a data.frame of numeric and
# factor columns. Returns list(x, sparse, n, codes, names, factors, info)
# where info is what predict needs to lay out new data the same way; a
# sparse x is list(p, i, x) of its dgCMatrix (sparse; x NULL), never
# densified.
prepare_x <- function(x) {
  if (inherits(x, "sparseMatrix")) return(prepare_sparse(x, "x"))
  if (inherits(x, "Matrix")) x <- as.matrix(x) # a dense Matrix class
  if (is.data.frame(x)) return(prepare_frame(x))
  if (!is.matrix(x))
    stopf("x must be a numeric matrix or a data.frame, not %s", class(x)[1])
  if (!is.numeric(x))
    stopf("x must be numeric (a %s matrix was given); use a data.frame for factors",
          typeof(x))
  n <- nrow(x)
  p <- ncol(x)
  if (n < 1L || p < 1L) stopf("x has %d rows and %d columns", n, p)
  nm <- column_names(x, p, "x")
  storage.mode(x) <- "double"
  check_finite_matrix(x, "x")
  dimnames(x) <- NULL
  list(x = x, n = n, codes = NULL, names = nm, factors = list(),
       info = list(kind = "matrix", names = nm, factors = list()))
}

# The column names of an n x p x (V1, V2, ... when it has none), checked.
column_names <- function(x, p, what) {
  nm <- colnames(x)
  if (is.null(nm)) nm <- paste0("V", seq_len(p))
  if (anyNA(nm) || any(nm == "")) stopf("%s has empty column names", what)
  if (anyDuplicated(nm))
    stopf("%s has the column name '%s' twice", what, nm[anyDuplicated(nm)])
  nm
}

# A sparse Matrix x (any class: coerced to a dgCMatrix, the library's
# compressed sparse columns) as list(p, i, x) of its slots, without
# densifying it; a value that is not a finite number (NA, NaN, Inf) is
# refused naming its row and column.
as_dgc <- function(x, what) {
  if (!requireNamespace("Matrix", quietly = TRUE))
    stopf("%s is a sparse Matrix: the Matrix package is needed to read it", what)
  y <- tryCatch(
    methods::as(methods::as(methods::as(x, "dMatrix"), "generalMatrix"),
                "CsparseMatrix"),
    error = function(e) stopf("%s (a %s) cannot be read as a dgCMatrix: %s",
                              what, class(x)[1L], conditionMessage(e)))
  if (!methods::is(y, "dgCMatrix"))
    stopf("%s (a %s) became a %s, not a dgCMatrix", what, class(x)[1L],
          class(y)[1L])
  y
}

prepare_sparse <- function(x, what, names = NULL) {
  x <- as_dgc(x, what)
  n <- nrow(x)
  p <- ncol(x)
  if (n < 1L || p < 1L) stopf("%s has %d rows and %d columns", what, n, p)
  nm <- if (is.null(names)) column_names(x, p, what) else names
  bad <- which(!is.finite(x@x))
  if (length(bad)) {
    k <- bad[1L]
    j <- findInterval(k - 1L, x@p) # the column whose slots hold value k
    col <- if (is.null(colnames(x)) && is.null(names)) j else sprintf("'%s'", nm[j])
    stopf("%s has %s in row %d, column %s (%d stored values are not finite numbers)",
          what, format(x@x[k]), x@i[k] + 1L, col, length(bad))
  }
  list(x = NULL, X = x, n = n,
       sparse = list(p = x@p, i = x@i, x = x@x),
       codes = NULL, names = nm, factors = list(),
       info = list(kind = "matrix", names = nm, factors = list()))
}

prepare_frame <- function(df) {
  n <- nrow(df)
  if (n < 1L || ncol(df) < 1L)
    stopf("x has %d rows and %d columns", n, ncol(df))
  nm <- names(df)
  if (is.null(nm) || anyNA(nm) || any(nm == "")) stopf("x has empty column names")
  if (anyDuplicated(nm))
    stopf("x has the column name '%s' twice", nm[anyDuplicated(nm)])
  is_fac <- vapply(df, is.factor, NA)
  is_num <- vapply(df, function(v) is.numeric(v) && !is.factor(v) &&
                     is.null(dim(v)), NA)
  bad <- which(!is_fac & !is_num)
  if (length(bad)) {
    j <- bad[1L]
    stopf("x column '%s' is %s: cardreg takes numeric columns and factors (ordered factors are ordinal); convert it with as.numeric() or factor()",
          nm[j], paste(class(df[[j]]), collapse = "/"))
  }
  num <- nm[is_num]
  x <- matrix(0, n, length(num))
  for (j in seq_along(num)) x[, j] <- as.double(df[[num[j]]])
  colnames(x) <- num
  if (length(num)) check_finite_matrix(x, "x")
  dimnames(x) <- NULL
  fac <- nm[is_fac]
  factors <- vector("list", length(fac))
  codes <- NULL
  if (length(fac)) {
    codes <- matrix(0L, n, length(fac))
    for (j in seq_along(fac)) {
      f <- df[[fac[j]]]
      if (anyNA(f))
        stopf("x column '%s' has NA in row %d", fac[j], which(is.na(f))[1L])
      f <- droplevels(f)
      # Any text is a level, as written ("NA", "", " pad "); only bytes
      # of no known encoding are refused: enc2utf8 would write them as
      # "<ff>", which would name the level's column otherwise.
      lv <- levels(f)
      bad <- Encoding(lv) == "bytes" |
        (Encoding(lv) == "unknown" & l10n_info()[["UTF-8"]] & !validUTF8(lv))
      if (any(bad))
        stopf("x column '%s': level %s is not UTF-8 text (its bytes in an unknown encoding); convert it with iconv() or mark its encoding with Encoding()",
              fac[j], encodeString(lv[bad][1L], quote = "'"))
      codes[, j] <- as.integer(f) - 1L
      factors[[j]] <- list(name = fac[j], levels = levels(f),
                           ordinal = is.ordered(f))
    }
  }
  list(x = x, n = n, codes = codes, names = num, factors = factors,
       info = list(kind = "data.frame", names = num, factors = factors))
}

# The options' description of the data.
data_options <- function(d) {
  out <- list(names = json_array(d$names))
  if (length(d$factors))
    out$factors <- lapply(d$factors, function(f)
      list(name = f$name, levels = json_array(f$levels), ordinal = f$ordinal))
  out
}

# New data laid out as the fit's: list(x, n, codes), or for a sparse newx
# list(x = NULL, X, n, sparse) as prepare_sparse's.
prepare_newx <- function(info, newx) {
  if (inherits(newx, "sparseMatrix") && identical(info$kind, "matrix")) {
    if (ncol(newx) != length(info$names))
      stopf("newx has %d columns, the fit has %d", ncol(newx), length(info$names))
    return(prepare_sparse(newx, "newx", info$names))
  }
  if (inherits(newx, "Matrix")) newx <- as.matrix(newx)
  if (identical(info$kind, "matrix")) {
    if (is.data.frame(newx)) newx <- as.matrix(newx)
    if (is.null(dim(newx)) && is.numeric(newx) &&
        length(newx) == length(info$names))
      newx <- matrix(newx, 1L)
    if (!is.matrix(newx) || !is.numeric(newx))
      stopf("newx must be a numeric matrix, as x was")
    if (ncol(newx) != length(info$names))
      stopf("newx has %d columns, the fit has %d", ncol(newx), length(info$names))
    storage.mode(newx) <- "double"
    check_finite_matrix(newx, "newx")
    dimnames(newx) <- NULL
    return(list(x = newx, n = nrow(newx), codes = NULL))
  }
  if (!is.data.frame(newx))
    stopf("newx must be a data.frame, as x was (with the columns %s)",
          paste(c(info$names, vapply(info$factors, `[[`, "", "name")),
                collapse = ", "))
  n <- nrow(newx)
  missing <- setdiff(c(info$names, vapply(info$factors, `[[`, "", "name")),
                     names(newx))
  if (length(missing))
    stopf("newx has no column '%s'", missing[1L])
  x <- matrix(0, n, length(info$names))
  for (j in seq_along(info$names)) {
    v <- newx[[info$names[j]]]
    if (!is.numeric(v) || is.factor(v))
      stopf("newx column '%s' must be numeric, as at fitting", info$names[j])
    x[, j] <- as.double(v)
  }
  colnames(x) <- info$names
  if (length(info$names)) check_finite_matrix(x, "newx")
  dimnames(x) <- NULL
  codes <- NULL
  if (length(info$factors)) {
    codes <- matrix(0L, n, length(info$factors))
    for (j in seq_along(info$factors)) {
      f <- info$factors[[j]]
      v <- newx[[f$name]]
      if (!(is.factor(v) || is.character(v)))
        stopf("newx column '%s' must be a factor (or character), as at fitting",
              f$name)
      v <- as.character(v)
      if (anyNA(v))
        stopf("newx column '%s' has NA in row %d", f$name, which(is.na(v))[1L])
      k <- match(v, f$levels)
      if (anyNA(k)) {
        i <- which(is.na(k))[1L]
        stopf("newx column '%s' has the level '%s' (row %d), which the fit did not see; its levels are %s",
              f$name, v[i], i, paste0("'", f$levels, "'", collapse = ", "))
      }
      codes[, j] <- k - 1L
    }
  }
  list(x = x, n = n, codes = codes)
}

# The design matrix (numeric columns, then each factor's dummies in the
# order of the fit's column names) of prepared new data.
design_matrix <- function(fit, nd) {
  info <- fit$xinfo
  cols <- rownames(fit$beta)
  p <- length(info$names)
  n <- nrow(nd$x)
  X <- matrix(0, n, length(cols))
  if (p) X[, seq_len(p)] <- nd$x
  pos <- p
  for (j in seq_along(info$factors)) {
    f <- info$factors[[j]]
    k <- length(f$levels) - 1L
    if (k < 1L) next
    idx <- match(cols[pos + seq_len(k)], paste0(f$name, "=", f$levels))
    if (anyNA(idx))
      stopf("internal: the fit's columns %s do not name the levels of factor '%s'",
            paste(cols[pos + seq_len(k)], collapse = ", "), f$name)
    for (i in seq_len(k)) X[, pos + i] <- as.double(nd$codes[, j] == idx[i] - 1L)
    pos <- pos + k
  }
  if (pos != length(cols))
    stopf("internal: the fit has %d columns, the design %d", length(cols), pos)
  X
}

# The response as doubles: binomial takes 0/1 numbers, logicals or a
# two-level factor (its second level is 1, as in glmnet).
prepare_y <- function(y, n, family) {
  classnames <- NULL
  if (is.matrix(y) || is.data.frame(y)) {
    if (NCOL(y) != 1L)
      stopf("y must be a vector (one response); it has %d columns", NCOL(y))
    y <- if (is.data.frame(y)) y[[1L]] else drop(y)
  }
  if (is.factor(y)) {
    if (family != "binomial")
      stopf("y is a factor; only family = \"binomial\" takes one")
    if (anyNA(y)) stopf("y has NA in row %d", which(is.na(y))[1L])
    y <- droplevels(y)
    if (nlevels(y) != 2L)
      stopf("a binomial y that is a factor must have two levels, it has %d",
            nlevels(y))
    classnames <- levels(y)
    y <- as.double(as.integer(y) - 1L)
  } else if (is.logical(y)) {
    if (anyNA(y)) stopf("y has NA in row %d", which(is.na(y))[1L])
    y <- as.double(y)
  } else if (!is.numeric(y)) {
    stopf("y must be numeric (or, for binomial, 0/1, logical or a two-level factor), not %s",
          class(y)[1L])
  }
  y <- as.double(y)
  if (length(y) != n)
    stopf("y has length %d, x has %d rows", length(y), n)
  bad <- which(!is.finite(y))
  if (length(bad)) stopf("y has %s in row %d", format(y[bad[1L]]), bad[1L])
  if (family == "binomial" && is.null(classnames)) {
    if (any(y != 0 & y != 1)) stopf("a binomial y must be 0 or 1")
    classnames <- c("0", "1")
  }
  list(y = y, classnames = classnames)
}

prepare_rowvec <- function(v, n, what) {
  if (is.null(v)) return(NULL)
  if (is.matrix(v) && NCOL(v) == 1L) v <- drop(v)
  if (!is.numeric(v) || !is.null(dim(v)))
    stopf("%s must be a numeric vector", what)
  if (length(v) != n) stopf("%s has length %d, x has %d rows", what, length(v), n)
  v <- as.double(v)
  bad <- which(!is.finite(v))
  if (length(bad)) stopf("%s has %s in row %d", what, format(v[bad[1L]]), bad[1L])
  v
}
