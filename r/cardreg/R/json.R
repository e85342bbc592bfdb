# JSON in and out: a small writer for the options the library takes (17
# significant digits, so that every double reaches the library exactly:
# jsonlite's writer keeps 15), and jsonlite's reader for what it returns.

# Marks a vector to be written as a JSON array even when it has length 1.
json_array <- function(x) structure(x, class = "cardreg_json_array")

json_string <- function(s) {
  s <- enc2utf8(as.character(s))
  s <- gsub("\\", "\\\\", s, fixed = TRUE)
  s <- gsub("\"", "\\\"", s, fixed = TRUE)
  s <- gsub("\n", "\\n", s, fixed = TRUE)
  s <- gsub("\r", "\\r", s, fixed = TRUE)
  s <- gsub("\t", "\\t", s, fixed = TRUE)
  ctl <- grepl("[\001-\037]", s, useBytes = TRUE)
  if (any(ctl)) {
    s[ctl] <- vapply(s[ctl], function(one) {
      b <- as.integer(charToRaw(one))
      out <- ifelse(b < 32L, sprintf("\\u%04x", b), NA_character_)
      keep <- b >= 32L
      out[keep] <- vapply(b[keep], function(v) rawToChar(as.raw(v)), "")
      paste(out, collapse = "")
    }, "", USE.NAMES = FALSE)
  }
  paste0("\"", s, "\"")
}

json_scalars <- function(x, what) {
  if (is.logical(x)) {
    if (anyNA(x)) stop(sprintf("%s: NA is not allowed", what), call. = FALSE)
    return(ifelse(x, "true", "false"))
  }
  if (is.numeric(x)) {
    x <- as.double(x)
    if (any(!is.finite(x)))
      stop(sprintf("%s: values must be finite numbers", what), call. = FALSE)
    return(sprintf("%.17g", x))
  }
  if (is.character(x) || is.factor(x)) {
    x <- as.character(x)
    if (anyNA(x)) stop(sprintf("%s: NA is not allowed", what), call. = FALSE)
    return(json_string(x))
  }
  stop(sprintf("%s: cannot be written as JSON (%s)", what, class(x)[1]),
       call. = FALSE)
}

# Writes x as JSON: a named list is an object (NULL members left out), an
# unnamed list an array, a json_array() vector an array, any other vector
# of length 1 a scalar. Numbers are written with 17 significant digits.
to_json <- function(x, what = "options") {
  if (inherits(x, "cardreg_json_array")) {
    v <- unclass(x)
    if (is.list(v)) return(to_json(unname(v), what))
    if (length(v) == 0L) return("[]")
    return(paste0("[", paste(json_scalars(v, what), collapse = ","), "]"))
  }
  if (is.list(x)) {
    nm <- names(x)
    if (!is.null(nm)) {
      keep <- !vapply(x, is.null, NA)
      x <- x[keep]
      nm <- nm[keep]
      parts <- vapply(seq_along(x), function(i)
        paste0(json_string(nm[i]), ":", to_json(x[[i]], paste(what, nm[i]))), "")
      return(paste0("{", paste(parts, collapse = ","), "}"))
    }
    parts <- vapply(x, to_json, "", what = what)
    return(paste0("[", paste(parts, collapse = ","), "]"))
  }
  if (length(x) != 1L)
    stop(sprintf("%s: expected one value, got %d", what, length(x)), call. = FALSE)
  json_scalars(x, what)
}

# Reads JSON text: an object is a named list; an array of numbers (null
# read as NA), strings or booleans a vector; an array of objects or arrays,
# or an empty one, a list; null NULL. Whole numbers may come as integers.
from_json <- function(text)
  jsonlite::fromJSON(text, simplifyVector = TRUE, simplifyDataFrame = FALSE,
                     simplifyMatrix = FALSE)
