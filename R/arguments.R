# Argument checking and conversion for ExoLabel(). Every check stops with a
# message that names the argument and says what is wrong.

# Parse a memory size: a number of bytes, or a string such as "512MB",
# "2GB", "64MiB" or "1.5G". K, M, G and T (with or without B, or as KiB,
# MiB, GiB, TiB) are powers of 1024.
parse_memory_limit <- function(x) {
    what <- "'memory_limit'"
    if (length(x) != 1L || is.na(x))
        stop(what, " must be a single number of bytes or a string like \"512MB\"",
             call. = FALSE)
    if (is.numeric(x)) {
        bytes <- as.numeric(x)
    } else if (is.character(x)) {
        m <- regmatches(x, regexec(
            "^\\s*([0-9]*\\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\\s*([KkMmGgTt]?)(i?[Bb])?\\s*$",
            x, perl = TRUE))[[1L]]
        if (length(m) == 0L)
            stop(what, " must be a number of bytes or a string like \"512MB\" or \"2GB\", not \"",
                 x, "\"", call. = FALSE)
        power <- match(toupper(m[3L]), c("", "K", "M", "G", "T")) - 1L
        bytes <- as.numeric(m[2L]) * 1024^power
    } else {
        stop(what, " must be a number of bytes or a string like \"512MB\"",
             call. = FALSE)
    }
    if (!is.finite(bytes) || bytes < 2^20)
        stop(what, " must be at least 1MB", call. = FALSE)
    floor(bytes)
}

check_flag <- function(x, name) {
    if (!is.logical(x) || length(x) != 1L || is.na(x))
        stop("'", name, "' must be TRUE or FALSE", call. = FALSE)
    x
}

# add_self_loops and attenuation: logical or non-negative numeric vectors.
check_weight_param <- function(x, name) {
    if (length(x) == 0L || !(is.logical(x) || is.numeric(x)) || anyNA(x))
        stop("'", name, "' must be TRUE, FALSE or a non-negative number (or a vector of them)",
             call. = FALSE)
    x <- as.numeric(x)
    if (any(!is.finite(x)))
        stop("'", name, "' must be finite", call. = FALSE)
    x
}

check_self_loops <- function(x, ignore_weights) {
    x <- check_weight_param(x, "add_self_loops")
    if (any(x < 0)) {
        warning("self loops weight supplied is negative, setting to zero.", call. = FALSE)
        x[x < 0] <- 0
    }
    if (ignore_weights && any(!(x %in% c(0, 1)))) {
        warning("Weight specified for 'add_self_loops' will be ignored", call. = FALSE)
        x <- as.numeric(x > 0)
    }
    x
}

check_attenuation <- function(x) {
    x <- check_weight_param(x, "attenuation")
    if (any(x < 0))
        stop("'attenuation' must be non-negative", call. = FALSE)
    x
}

# 0 = automatic; positive = hard cap on how often a node is processed.
check_iterations <- function(x) {
    if (length(x) == 0L || !(is.numeric(x) || is.logical(x) && all(is.na(x))))
        stop("'iterations' must be integer or numeric.", call. = FALSE)
    x <- as.numeric(x)
    bad <- is.na(x) | x < 0
    if (any(bad)) {
        warning("Invalid value of 'iterations', will determine automatically.", call. = FALSE)
        x[bad] <- 0
    }
    if (any(x > 32767)) {
        warning("'iterations' above 32767 is capped at 32767", call. = FALSE)
        x[x > 32767] <- 32767
    }
    as.integer(floor(x))
}

# resolution: gamma of label propagation's volume penalty, a finite number
# >= 0 (0 = plain label propagation).
check_resolution <- function(x) {
    if (length(x) == 0L || !is.numeric(x) || anyNA(x) || any(!is.finite(x)) || any(x < 0))
        stop("'resolution' must be a finite non-negative number (or a vector of them)",
             call. = FALSE)
    as.numeric(x)
}

# refine: FALSE/TRUE (= 5 passes) or a whole number of merge passes, 0..100.
check_refine <- function(x) {
    if (length(x) == 0L || !(is.logical(x) || is.numeric(x)) || anyNA(x))
        stop("'refine' must be TRUE, FALSE or a number of merge passes (or a vector of them)",
             call. = FALSE)
    if (is.logical(x)) x <- ifelse(x, 5, 0)
    if (any(x < 0 | x > 100 | x != floor(x)))
        stop("'refine' must be a whole number of passes between 0 and 100", call. = FALSE)
    as.integer(x)
}

check_header <- function(header) {
    if (length(header) == 0L || !(is.logical(header) || is.numeric(header)) ||
        is.na(header[1L]) || !is.finite(as.numeric(header[1L])) || header[1L] < 0 ||
        header[1L] != floor(header[1L]))
        stop("'header' must be a finite logical or integer value", call. = FALSE)
    if (length(header) > 1L)
        warning("ignoring extra values passed to 'header'", call. = FALSE)
    floor(as.numeric(header[1L]))
}

check_sep <- function(sep) {
    if (!is.character(sep) || length(sep) != 1L || is.na(sep) ||
        nchar(sep, type = "bytes") != 1L)
        stop("'sep' must be a single one-byte character such as \"\\t\" or \",\"",
             call. = FALSE)
    if (sep %in% c("\n", "\r"))
        stop("'sep' cannot be a line end", call. = FALSE)
    sep
}

check_threads <- function(threads) {
    if (is.null(threads)) {
        threads <- parallel::detectCores(logical = TRUE)
        if (is.na(threads)) threads <- 1L
    }
    if (!is.numeric(threads) || length(threads) != 1L || is.na(threads) ||
        threads < 1 || threads != floor(threads))
        stop("'threads' must be NULL or a positive whole number", call. = FALSE)
    as.integer(min(threads, 256L))
}

check_input_files <- function(files) {
    if (!is.character(files) || length(files) == 0L || anyNA(files))
        stop("'edgelistfiles' must be a character vector of file paths", call. = FALSE)
    for (f in files) {
        if (!file.exists(f))
            stop("edge list file '", f, "' does not exist", call. = FALSE)
        if (dir.exists(f))
            stop("edge list file '", f, "' is a directory", call. = FALSE)
    }
    normalizePath(files, mustWork = TRUE)
}

check_tempfiledir <- function(dir) {
    if (!is.character(dir) || length(dir) != 1L || is.na(dir) || !nzchar(dir))
        stop("'tempfiledir' must be a single directory path", call. = FALSE)
    if (!dir.exists(dir) && !dir.create(dir, recursive = TRUE, showWarnings = FALSE))
        stop("cannot create 'tempfiledir' '", dir, "'", call. = FALSE)
    normalizePath(dir, mustWork = TRUE)
}

prepare_outfiles <- function(outfile, n) {
    if (!is.character(outfile) || anyNA(outfile) || length(outfile) == 0L ||
        !all(nzchar(outfile)))
        stop("'outfile' must be a character vector of file paths", call. = FALSE)
    for (d in unique(dirname(outfile)))
        if (!dir.exists(d) && !dir.create(d, recursive = TRUE, showWarnings = FALSE))
            stop("cannot create the directory '", d, "' for 'outfile'", call. = FALSE)
    file.path(normalizePath(dirname(outfile), mustWork = TRUE), basename(outfile))
}

# mode: "undirected" or "directed" (abbreviations allowed); the default is
# the vector of both, meaning "undirected".
check_mode <- function(mode) {
    choices <- c("undirected", "directed")
    if (identical(mode, choices)) return("undirected")
    if (!is.character(mode) || length(mode) != 1L || is.na(mode) || !nzchar(mode))
        stop("'mode' should be one of \"undirected\", \"directed\"", call. = FALSE)
    i <- pmatch(mode, choices)
    if (is.na(i))
        stop("'mode' should be one of \"undirected\", \"directed\", not \"", mode, "\"",
             call. = FALSE)
    choices[i]
}
