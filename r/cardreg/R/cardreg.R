# cardreg() and cv.cardreg(): the λ path and its cross-validation, in the
# shape of glmnet() and cv.glmnet(), through the C library.
#
# λ is on cardreg's scale: the objective is sum_i w_i d_i + λ h(β), with no
# 1/(2n) and the weights rescaled to sum to n, so glmnet's λ is λ/(2n).

# What the library offers (cardreg_describe): its families with their
# links, parameters and cross-validation measures, its penalties with the
# options they need, and the option names each call accepts. The package
# keeps no list of its own: a name is passed to the library, which refuses
# an unknown one naming those it knows.
cardreg_describe <- function() {
  if (is.null(described$value)) described$value <- from_json(.Call(cr_describe))
  described$value
}
described <- new.env(parent = emptyenv())

# The family's entry of cardreg_describe() (its name before any ":parameter").
family_info <- function(family) {
  fams <- cardreg_describe()$families
  base <- sub(":.*$", "", family)
  for (f in fams) if (identical(f$name, base)) return(f)
  NULL
}

# Calls the library; its errors become R errors with its message.
native <- function(routine, ...) {
  tryCatch(.Call(routine, ...),
           error = function(e) stop(conditionMessage(e), call. = FALSE))
}

# The options JSON object shared by cardreg() and cv.cardreg().
fit_options <- function(d, family, penalty, lambda, nlambda, lambda.min.ratio,
                        nu, penalty.factor, unpenalized, groups, intercept,
                        standardize, relax, thresh, maxit, extra, alpha = NULL) {
  p <- length(d$names)
  opts <- c(list(family = family, penalty = penalty), data_options(d))
  # Values are the library's to check (nu > 0, lambda > 0, nlambda >= 2,
  # ...): its messages name the option.
  opts$nu <- nu
  opts$alpha <- alpha # the elastic net's (glmnet's alpha)
  if (!is.null(lambda)) {
    if (!is.numeric(lambda) || length(lambda) < 1L)
      stopf("lambda must be numbers (on cardreg's scale, 2n times glmnet's)")
    # glmnet's order; a NA stays for the writer to refuse.
    opts$lambda <- json_array(sort(as.double(lambda), decreasing = TRUE, na.last = TRUE))
  } else {
    opts$nlambda <- nlambda
    opts$`min-ratio` <- lambda.min.ratio
  }
  if (!is.null(penalty.factor)) {
    if (!is.numeric(penalty.factor) || length(penalty.factor) != p ||
        any(!is.finite(penalty.factor)) || any(penalty.factor < 0))
      stopf("penalty.factor must hold one finite number >= 0 per numeric predictor (%d)", p)
    opts$`penalty-factor` <- json_array(as.double(penalty.factor))
  }
  if (!is.null(unpenalized) && length(unpenalized)) {
    if (is.numeric(unpenalized)) {
      if (any(!is.finite(unpenalized)) || any(unpenalized < 1 | unpenalized > p) ||
          any(unpenalized != round(unpenalized)))
        stopf("unpenalized must be column numbers in 1..%d or column names", p)
      unpenalized <- d$names[unpenalized]
    }
    if (!is.character(unpenalized) || anyNA(unpenalized))
      stopf("unpenalized must be column numbers or column names")
    unknown <- setdiff(unpenalized, d$names)
    if (length(unknown)) stopf("unpenalized names no numeric column '%s'", unknown[1L])
    opts$exclude <- json_array(unpenalized) # the library's (and command line's) name
  }
  if (!is.null(groups)) {
    if (length(groups) != p || anyNA(groups))
      stopf("groups must hold one label per numeric predictor (%d), without NA", p)
    opts$groups <- json_array(as.character(groups))
  }
  flag <- function(v, what) {
    if (!is.logical(v) || length(v) != 1L || is.na(v))
      stopf("%s must be TRUE or FALSE", what)
    v
  }
  if (!flag(intercept, "intercept")) opts$`no-intercept` <- TRUE
  if (flag(standardize, "standardize")) opts$standardize <- TRUE
  if (flag(relax, "relax")) opts$relax <- TRUE
  if (!is.numeric(thresh) || length(thresh) != 1L || !is.finite(thresh) ||
      thresh <= 0)
    stopf("thresh must be one number > 0")
  opts$tol <- thresh
  if (!is.null(maxit)) {
    if (!is.numeric(maxit) || length(maxit) != 1L || !is.finite(maxit) ||
        maxit < 1 || maxit != round(maxit))
      stopf("maxit must be one whole number >= 1")
    opts$`max-iter` <- as.integer(maxit)
  }
  c(opts, extra_options(extra))
}

# Further library options given through `...`, by the command line's flag
# names with "." for "-": ref, pair.weights, min.count, max.levels, ...
extra_options <- function(extra) {
  if (!length(extra)) return(list())
  nm <- names(extra)
  if (is.null(nm) || any(nm == ""))
    stopf("further options must be named (e.g. pair.weights = \"count\")")
  if ("exclude" %in% nm)
    stopf("exclude: glmnet's exclude drops predictors; drop those columns from x instead (unpenalized = fits predictors without penalty)")
  nm <- gsub(".", "-", nm, fixed = TRUE)
  out <- list()
  for (i in seq_along(extra)) {
    v <- extra[[i]]
    key <- nm[i]
    if (key == "ref") {
      v <- as.list(v)
      if (is.null(names(v)) || any(names(v) == ""))
        stopf("ref must name each factor: ref = c(region = \"R01\")")
      v <- lapply(v, as.character)
    } else if (is.list(v) || length(v) != 1L) {
      v <- json_array(v)
    }
    out[[key]] <- v
  }
  out
}

run_native <- function(mode, d, y, weights, offset, opts) {
  if (!is.null(d$sparse))
    return(native(cr_run_csc, as.integer(mode), c(d$n, length(d$names)),
                  d$sparse$p, d$sparse$i, d$sparse$x, y, weights, offset,
                  to_json(opts)))
  native(cr_run, as.integer(mode), d$x, y, weights, offset, d$codes,
         to_json(opts))
}

num_or_na <- function(v) if (is.null(v) || length(v) != 1L) NA_real_ else as.double(v)

# The "cardreg" path object from the native result.
path_object <- function(res, js, d, n, family, penalty, classnames, has_offset,
                        this.call) {
  m <- length(res$lambda)
  cols <- js$names
  if (is.null(cols) || length(cols) != nrow(res$coef)) {
    if (nrow(res$coef) == length(d$names)) cols <- d$names
    else stopf("internal: the library returned %d coefficients per model, and %d names",
               nrow(res$coef), length(cols))
  }
  snames <- paste0("s", seq_len(m) - 1L)
  beta <- res$coef
  dimnames(beta) <- list(cols, snames)
  a0 <- res$intercept
  names(a0) <- snames
  models <- js$models
  if (length(models) != m) models <- vector("list", m)
  per <- function(key) vapply(models, function(mm) num_or_na(mm[[key]]), 0)
  lambda.glmnet <- js$lambda_glmnet
  if (!is.numeric(lambda.glmnet) || length(lambda.glmnet) != m)
    stopf("internal: the library returned %d values of lambda_glmnet for %d lambdas",
          length(lambda.glmnet), m)
  df <- as.integer(per("df"))
  iterations <- as.integer(per("iterations"))
  fit <- list(
    a0 = a0,
    beta = beta,
    df = df,
    dim = dim(beta),
    lambda = res$lambda,
    lambda.glmnet = as.double(lambda.glmnet),
    dev.ratio = per("dev_ratio"),
    deviance = per("deviance"),
    gap = res$gap,
    converged = res$converged,
    status = vapply(models, function(mm)
      if (is.character(mm$status)) mm$status[1L] else NA_character_, ""),
    iterations = iterations,
    npasses = sum(iterations, na.rm = TRUE),
    distinct.values = lapply(models, function(mm) as.double(unlist(mm$distinct_values))),
    clusters = lapply(models, function(mm) lapply(mm$clusters, as.character)),
    lambda.max = num_or_na(js$lambda_max),
    note = if (is.character(js$note)) js$note else "",
    family = family,
    penalty = penalty,
    nobs = n,
    offset = has_offset,
    classnames = classnames,
    xinfo = d$info,
    call = this.call,
    handle = res$handle
  )
  class(fit) <- "cardreg"
  if (any(!fit$converged))
    warning(sprintf("cardreg: %d of %d fits did not converge (see $converged, $status, $gap)",
                    sum(!fit$converged), m), call. = FALSE)
  fit
}

# A family or penalty name: one string, passed to the library as it is.
check_name <- function(v, what) {
  if (!is.character(v) || length(v) != 1L || is.na(v) || !nzchar(v))
    stopf("%s must be one name (cardreg_describe() lists them)", what)
  v
}

check_choice <- function(v, choices, what) {
  if (!is.character(v) || length(v) < 1L || is.na(v[1L]))
    stopf("%s must be one of %s", what, paste0("\"", choices, "\"", collapse = ", "))
  if (length(v) > 1L && identical(v, choices)) return(v[1L])
  if (length(v) != 1L || !(v %in% choices))
    stopf("unknown %s \"%s\": one of %s", what, v[1L],
          paste0("\"", choices, "\"", collapse = ", "))
  v
}

cardreg <- function(x, y, family = "gaussian", penalty = "cardinality",
                    lambda = NULL, nlambda = 100, lambda.min.ratio = NULL,
                    nu = NULL, alpha = NULL, weights = NULL, offset = NULL,
                    penalty.factor = NULL, unpenalized = NULL, groups = NULL,
                    intercept = TRUE, standardize = FALSE, relax = FALSE,
                    thresh = 1e-7, maxit = NULL, ...) {
  this.call <- match.call()
  family <- check_name(family, "family")
  penalty <- check_name(penalty, "penalty")
  d <- prepare_x(x)
  n <- d$n
  yy <- prepare_y(y, n, family)
  weights <- prepare_rowvec(weights, n, "weights")
  offset <- prepare_rowvec(offset, n, "offset")
  opts <- fit_options(d, family, penalty, lambda, nlambda, lambda.min.ratio, nu,
                      penalty.factor, unpenalized, groups, intercept, standardize,
                      relax, thresh, maxit, list(...), alpha)
  res <- run_native(1L, d, yy$y, weights, offset, opts)
  js <- from_json(res$json)
  path_object(res, js, d, n, family, penalty, yy$classnames, !is.null(offset),
              this.call)
}

cv.cardreg <- function(x, y, ..., nfolds = 10, foldid = NULL,
                       type.measure = "default", seed = 1) {
  this.call <- match.call()
  args <- list(...)
  formals_cardreg <- setdiff(names(formals(cardreg)), c("x", "y", "..."))
  named <- names(args)
  if (is.null(named)) named <- rep("", length(args))
  # The arguments of cardreg() by name; the rest are further library
  # options.
  matched <- match(named, formals_cardreg)
  own <- !is.na(matched)
  cargs <- args[own]
  names(cargs) <- formals_cardreg[matched[own]]
  extra <- args[!own]
  if (length(extra) && any(names(extra) == ""))
    stopf("cv.cardreg's further arguments must be named")
  get <- function(name) if (name %in% names(cargs)) cargs[[name]] else formals(cardreg)[[name]]
  val <- function(name) eval(get(name))
  family <- check_name(val("family"), "family")
  penalty <- check_name(val("penalty"), "penalty")
  type.measure <- check_name(type.measure, "type.measure")
  d <- prepare_x(x)
  n <- d$n
  yy <- prepare_y(y, n, family)
  weights <- prepare_rowvec(val("weights"), n, "weights")
  offset <- prepare_rowvec(val("offset"), n, "offset")
  opts <- fit_options(d, family, penalty, val("lambda"), val("nlambda"),
                      val("lambda.min.ratio"), val("nu"), val("penalty.factor"),
                      val("unpenalized"), val("groups"), val("intercept"),
                      val("standardize"), val("relax"), val("thresh"),
                      val("maxit"), extra, val("alpha"))
  if (!is.null(foldid)) {
    if (!is.numeric(foldid) || length(foldid) != n || anyNA(foldid) ||
        any(foldid != round(foldid)) || any(foldid < 1))
      stopf("foldid must hold one fold number 1..K per row (%d rows)", n)
    opts$foldid <- json_array(as.integer(foldid))
  } else {
    # With fewer than 3 rows no nfolds works: say so, not an empty range.
    if (n < 3)
      stopf("%d rows are too few to cross-validate (3 at least, one per fold): fit cardreg() at given lambda values instead", n)
    if (!is.numeric(nfolds) || length(nfolds) != 1L || !is.finite(nfolds) ||
        nfolds < 3 || nfolds != round(nfolds) || nfolds > n)
      stopf("nfolds must be a whole number between 3 and the number of rows (%d)", n)
    opts$folds <- as.integer(nfolds)
    if (!is.numeric(seed) || length(seed) != 1L || !is.finite(seed) ||
        seed != round(seed))
      stopf("seed must be one whole number")
    opts$seed <- seed
  }
  if (type.measure != "default") opts$`type-measure` <- type.measure
  res <- run_native(2L, d, yy$y, weights, offset, opts)
  js <- from_json(res$json)
  fit <- path_object(res, js, d, n, family, penalty, yy$classnames,
                     !is.null(offset), this.call)
  cv <- js$cv
  if (!is.list(cv)) stopf("internal: the library's cross-validation returned no curve")
  m <- length(fit$lambda)
  cvm <- as.double(cv$cvm)
  cvsd <- as.double(cv$cvsd)
  if (length(cvm) != m || length(cvsd) != m)
    stopf("internal: the curve has %d values for %d lambdas", length(cvm), m)
  lambda.min <- num_or_na(cv$lambda_min)
  lambda.1se <- num_or_na(cv$lambda_1se)
  # The library's 0-based indices of lambda.min and lambda.1se.
  idx <- function(i) {
    if (!is.numeric(i) || length(i) != 1L || i < 0 || i >= m)
      stopf("internal: the library returned no index on the grid (%s)", format(i))
    as.integer(i) + 1L
  }
  measure <- if (is.character(cv$measure)) cv$measure else type.measure
  # cv.glmnet's title of the measure, from the library's description.
  titles <- family_info(family)$measures
  title <- NULL
  for (mm in titles) if (identical(mm$name, measure)) title <- mm$title
  name <- structure(if (is.null(title)) measure else title, names = measure)
  out <- list(
    lambda = fit$lambda,
    lambda.glmnet = fit$lambda.glmnet,
    cvm = cvm,
    cvsd = cvsd,
    cvup = cvm + cvsd,
    cvlo = cvm - cvsd,
    nzero = structure(as.integer(colSums(fit$beta != 0)), names = colnames(fit$beta)),
    call = this.call,
    name = name,
    cardreg.fit = fit,
    lambda.min = lambda.min,
    lambda.1se = lambda.1se,
    index = matrix(c(idx(cv$index_min), idx(cv$index_1se)), 2L, 1L,
                   dimnames = list(c("min", "1se"), "Lambda")),
    foldid = if (is.numeric(cv$foldid)) as.integer(cv$foldid) else foldid,
    nfolds = num_or_na(cv$folds),
    unconverged.fold.fits = num_or_na(cv$unconverged_fold_fits)
  )
  class(out) <- "cv.cardreg"
  if (isTRUE(out$unconverged.fold.fits > 0))
    warning(sprintf("cardreg: %d fits of the folds did not converge",
                    as.integer(out$unconverged.fold.fits)), call. = FALSE)
  out
}

cardreg_version <- function() .Call(cr_version)
