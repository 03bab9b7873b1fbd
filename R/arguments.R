# Argument checking and conversion for ExoLabel(). Every check stops with a
# message that names the argument and says what is wrong.

# Parse a memory size: a number of bytes, or a string such as "512MB",
# "2GB", "64MiB" or "1.5G" (K, M, G and T, with or without B, or as KiB,
# MiB, GiB, TiB, are powers of 1024). The core's option table parses it
# (src/core/exo_options.h), as it does the command-line tools' --memory-limit,
# and words the error.
parse_memory_limit <- function(x) {
    if (length(x) != 1L || is.na(x) || !(is.numeric(x) || is.character(x)))
        stop("'memory_limit' must be a single number of bytes or a string like \"512MB\"",
             call. = FALSE)
    .exolabel_option("memory_limit", x)
}

# ---- the core's option table -------------------------------------------
# Limits, defaults, choices and messages of the options that reach the core
# are the core's (src/core/exo_options.c, through the glue's
# .exolabel_option, .exolabel_option_resolved and .exolabel_option_table),
# as for the command-line tools: the checks below keep only what is R's own
# (types: logical, numeric, character, NA; vectors, one clustering per
# value; the SynExtend behaviours said where they are) and give each value
# to the core, whose message names the argument ('iterations').

# The table: name, type, default, choices, min, max, logical_true, auto, cap.
option_table <- function() .exolabel_option_table()

# One option's entry of the table (a list).
option_def <- function(name) {
    tab <- option_table()
    i <- match(name, tab$name)
    lapply(tab, `[[`, i)
}

# Each value of x checked and parsed by the core's table (TRUE = the
# table's value of TRUE): a numeric vector.
core_each <- function(name, x) {
    vapply(seq_along(x), function(i) as.numeric(.exolabel_option(name, x[i])), numeric(1))
}

# Each value of x resolved by the core (exo_options_resolve) with `with`:
# its adjustments (capped, set to zero) and their warnings, raised once each.
core_resolved <- function(name, x, with = list(), oversubscribe = TRUE) {
    res <- lapply(seq_along(x), function(i)
        .exolabel_option_resolved(name, x[i], with, oversubscribe))
    warns <- unlist(lapply(res, `[[`, "warnings"))
    out <- vapply(res, function(r) as.numeric(r$value), numeric(1))
    for (w in unique(warns)) warning(w, call. = FALSE)
    out
}

check_flag <- function(x, name) {
    if (!is.logical(x) || length(x) != 1L || is.na(x))
        stop("'", name, "' must be TRUE or FALSE", call. = FALSE)
    x
}

# add_self_loops and attenuation: logical or numeric vectors (R's types);
# their values are the core's to check.
check_weight_param <- function(x, name) {
    if (length(x) == 0L || !(is.logical(x) || is.numeric(x)) || anyNA(x))
        stop("'", name, "' must be TRUE, FALSE or a number (or a vector of them)",
             call. = FALSE)
    x
}

# The core sets a negative cutoff to 0, and one other than 0 or 1 with
# ignore_weights to 0 or 1, each with SynExtend's warning.
check_self_loops <- function(x, ignore_weights) {
    x <- check_weight_param(x, "add_self_loops")
    core_resolved("add_self_loops", x, list(ignore_weights = ignore_weights))
}

check_attenuation <- function(x) {
    core_each("attenuation", check_weight_param(x, "attenuation"))
}

# iterations: 0 = automatic; positive = a cap on how often a node is
# processed, capped by the core (with its warning). R's own, as SynExtend's
# ExoLabel (the command-line tools refuse these): NA or a negative value
# means automatic, with a warning; decimals are truncated; Inf is the
# largest value, which the core caps.
check_iterations <- function(x) {
    if (length(x) == 0L || !(is.numeric(x) || is.logical(x) && all(is.na(x))))
        stop("'iterations' must be integer or numeric.", call. = FALSE)
    x <- as.numeric(x)
    bad <- is.na(x) | x < 0
    if (any(bad)) {
        warning("Invalid value of 'iterations', will determine automatically.", call. = FALSE)
        x[bad] <- 0
    }
    x[x == Inf] <- option_def("iterations")$max
    core_resolved("iterations", floor(x))
}

# resolution: numbers, or "auto", "auto*X", "auto/X" (the core resolves
# CPM's resolution as a factor times the mean node strength, X times that;
# the glue reports the factor). The core checks each value.
check_resolution <- function(x) {
    if (length(x) == 0L || anyNA(x) ||
        !(is.numeric(x) || is.character(x) && all(startsWith(tolower(x), "auto"))))
        stop("'resolution' must be a number (or a vector of them), \"auto\", ",
             "\"auto*X\" or \"auto/X\"", call. = FALSE)
    y <- core_each("resolution", x)
    if (is.character(x)) x else y
}

# refine: FALSE, TRUE (the table's value of TRUE) or a whole number of merge
# passes.
check_refine <- function(x) {
    if (length(x) == 0L || !(is.logical(x) || is.numeric(x)) || anyNA(x))
        stop("'refine' must be TRUE, FALSE or a number of merge passes (or a vector of them)",
             call. = FALSE)
    as.integer(core_each("refine", x))
}

# header: TRUE = 1, FALSE = 0, or a number of lines. R's own, as SynExtend's
# ExoLabel (the command-line tools refuse these): negative values become 0,
# decimals are truncated, values after the first are ignored with a warning.
check_header <- function(header) {
    if (length(header) == 0L || !(is.logical(header) || is.numeric(header)) ||
        is.na(header[1L]))
        stop("'header' must be a finite logical or integer value", call. = FALSE)
    if (length(header) > 1L)
        warning("ignoring extra values passed to 'header'", call. = FALSE)
    core_each("header", max(0, trunc(as.numeric(header[1L]))))
}

# sep: one string; the core takes one byte other than a line end, or "\\t",
# "tab", "comma" or "space" (as the command-line tools); returns the byte.
check_sep <- function(sep) {
    if (!is.character(sep) || length(sep) != 1L || is.na(sep))
        stop("'sep' must be a single string such as \"\\t\" or \",\"", call. = FALSE)
    b <- .exolabel_option("sep", sep)
    rawToChar(as.raw(b))
}

# threads: NULL = every core (the core's "auto": exo_cpu_count()); more than
# the machine's cores is capped at them by the core, with its warning (more
# threads than cores only add buffers: 7 MiB each taken off memory_limit
# while reading), and at the table's cap. The internal test option
# ExoLabel.oversubscribe = TRUE lets tests run several threads on small
# machines (the results are the same for any threads).
check_threads <- function(threads) {
    if (is.null(threads)) threads <- "auto"
    else if (!is.numeric(threads) || length(threads) != 1L || is.na(threads))
        stop("'threads' must be NULL or a positive whole number", call. = FALSE)
    as.integer(core_resolved("threads", threads,
                             oversubscribe = isTRUE(getOption("ExoLabel.oversubscribe"))))
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

# The sequence names of an XStringSet (Biostrings) as the search tools name
# them: each header up to its first space or tab.
sequence_names <- function(x) {
    nm <- names(x)
    if (is.null(nm))
        stop("'sequences' (an XStringSet) has no names: the names must be those of the ",
             "search output", call. = FALSE)
    sub("[ \t].*$", "", nm)
}

# `sequences`: NULL; a FASTA file or a list of names (one string naming an
# existing file); an XStringSet (its names, as the search tools take them);
# or a character vector of names. list(file = "" or the path, names = NULL
# or a character vector) for .exolabel_run.
check_sequences <- function(sequences) {
    if (is.null(sequences)) return(list(file = "", names = NULL))
    if (inherits(sequences, "XStringSet"))
        return(list(file = "", names = enc2utf8(sequence_names(sequences))))
    if (is.factor(sequences)) sequences <- as.character(sequences)
    if (!is.character(sequences))
        stop("'sequences' must be the path of a FASTA file or of a list of names, an ",
             "XStringSet (Biostrings) or a character vector of names", call. = FALSE)
    if (anyNA(sequences) || !all(nzchar(sequences)))
        stop("'sequences' has missing or empty names", call. = FALSE)
    if (length(sequences) == 1L) {
        if (dir.exists(sequences))
            stop("sequences file '", sequences, "' is a directory", call. = FALSE)
        if (file.exists(sequences))
            return(list(file = normalizePath(sequences, mustWork = TRUE), names = NULL))
        if (grepl("[/\\]", sequences) ||
            grepl("\\.(fa|faa|fas|fasta|fna|ffn|txt|tsv|list|gz)$", sequences,
                  ignore.case = TRUE))
            stop("sequences file '", sequences, "' does not exist", call. = FALSE)
    }
    list(file = "", names = enc2utf8(sequences))
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
    # "dir/" names a directory: dirname() and basename() would make it the
    # file "dir" (replacing a file of that name), which the command-line
    # tool refuses too
    slash <- if (.Platform$OS.type == "windows") "[/\\\\]$" else "/$"
    dir_like <- grepl(slash, outfile)
    if (any(dir_like))
        stop("'outfile' must name a file, not a directory: '", outfile[dir_like][1L],
             "' ends in a slash", call. = FALSE)
    for (d in unique(dirname(outfile)))
        if (!dir.exists(d) && !dir.create(d, recursive = TRUE, showWarnings = FALSE))
            stop("cannot create the directory '", d, "' for 'outfile'", call. = FALSE)
    file.path(normalizePath(dirname(outfile), mustWork = TRUE), basename(outfile))
}

# mode: one of the table's choices ("undirected", "directed"; any case,
# abbreviations allowed, matched by the core); the default is the vector
# of them, meaning the first.
check_mode <- function(mode) {
    choices <- option_def("mode")$choices
    if (identical(mode, choices)) return(choices[1L])
    if (!is.character(mode) || length(mode) != 1L || is.na(mode))
        stop("'mode' must be one of ", paste0("\"", choices, "\"", collapse = ", "),
             call. = FALSE)
    .exolabel_option("mode", mode)
}

# ---- search-tool output (format, columns, weight_transform, min_weight,
# self_hits, combine) ----------------------------------------------------

# One of the table's choices or NULL (the format's default); any case, a
# unique prefix allowed, matched by the core's option table (as the CLI's).
check_choice <- function(x, name) {
    if (is.null(x)) return(NULL)
    if (!is.character(x) || length(x) != 1L || is.na(x))
        stop("'", name, "' must be ",
             paste0("\"", option_def(name)$choices, "\"", collapse = " or "),
             " (or NULL for the format's default)", call. = FALSE)
    .exolabel_option(name, x)
}

check_format <- function(format) {
    choices <- option_def("format")$choices
    if (identical(format, choices)) return(choices[1L])
    if (!is.character(format) || length(format) != 1L || is.na(format))
        stop("'format' must be ", paste0("\"", choices, "\"", collapse = " or "),
             call. = FALSE)
    .exolabel_option("format", format)
}

# NULL, or the numbers of the two node columns and optionally the weight
# column: the core checks them (how many, their range) and, with the
# format's, that they differ (check_input_options).
check_columns <- function(columns) {
    if (is.null(columns)) return(NULL)
    if (!is.numeric(columns))
        stop("'columns' must be 2 or 3 column numbers: the two node columns and ",
             "optionally the weight column, e.g. c(1, 2, 11)", call. = FALSE)
    .exolabel_option("columns", columns)
    as.integer(columns)
}

check_min_weight <- function(x) {
    if (is.null(x)) return(NULL)
    if (!is.numeric(x) || length(x) != 1L || is.na(x))
        stop("'min_weight' must be a single finite number (or NULL: no threshold)",
             call. = FALSE)
    .exolabel_option("min_weight", as.numeric(x)) # the core's range check and message
}

# The input options resolved against the format's defaults, as the glue
# takes them: columns (3 integers, 0 = no weight column), transform (0 none,
# 1 neglog10, 2 selfnorm), min_weight, drop_self, combine (0 = keep every arc, "sum";
# 2 = one arc with the largest weight, "max"). In-memory inputs have no
# columns to choose: "blast" and `columns` are refused there.
check_input_options <- function(kind, format, columns, weight_transform, min_weight,
                                self_hits, combine, bridges = NULL, mode = "undirected") {
    format <- check_format(format)
    columns <- check_columns(columns)
    weight_transform <- check_choice(weight_transform, "weight_transform")
    min_weight <- check_min_weight(min_weight)
    self_hits <- check_choice(self_hits, "self_hits")
    combine <- check_choice(combine, "combine")
    bridges <- check_choice(bridges, "bridges")
    blast <- format == "blast"
    if (kind %in% c("igraph", "matrix") && (blast || !is.null(columns)))
        stop("'format = \"blast\"' and 'columns' describe the columns of files and ",
             "edge-list tables, not of an igraph graph or a matrix", call. = FALSE)
    # the format's defaults and the checks between these options: the core's
    # (exo_options_resolve), as for the command-line tools
    core <- .exolabel_input_options(list(format = format, columns = columns,
                                         weight_transform = weight_transform,
                                         self_hits = self_hits, combine = combine,
                                         bridges = bridges, mode = mode))
    if (is.null(columns)) columns <- core$columns[core$columns > 0L]
    weight_transform <- core$weight_transform
    self_hits <- core$self_hits
    combine <- core$combine
    # the bridge rules read the coordinates of files' lines (columns 7-10);
    # a table's edges are pushed without them
    if (kind != "files" && core$bridges == "cut") {
        if (identical(bridges, "cut"))
            stop("'bridges = \"cut\"' reads the hits' coordinates (columns 7-10) ",
                 "from search-output files; give the file's path instead of a table",
                 call. = FALSE)
        core$bridges <- "keep"
    }
    list(format = format, columns = c(columns, 0L)[seq_len(3L)],
         transform = match(weight_transform, option_def("weight_transform")$choices) - 1L,
         min_weight = if (is.null(min_weight)) 0 else min_weight,
         drop_self = self_hits == "drop",
         combine = if (combine == "max") 2L else 0L,
         resolved = list(format = format, columns = columns,
                         weight_transform = weight_transform,
                         min_weight = if (is.null(min_weight)) NA_real_ else min_weight,
                         self_hits = self_hits, combine = combine,
                         bridges = core$bridges))
}

# A choice among `choices` for `name` (algorithm, objective): the default
# vector means its first entry; otherwise one string matched without regard
# to case (as the CLI does), a unique prefix allowed. The error names the
# argument and the choices.
check_option <- function(x, name, choices) {
    if (identical(x, choices)) return(choices[1L])
    if (!is.character(x) || length(x) != 1L || is.na(x) || !nzchar(x))
        stop("'", name, "' must be one of ", paste0("\"", choices, "\"", collapse = ", "),
             call. = FALSE)
    # the core's options (algorithm, objective): its table matches them (any
    # case, a unique prefix) and words the error, as for the command-line tools
    if (name %in% c("algorithm", "objective", "order"))
        return(choices[match(.exolabel_option(name, x), tolower(choices))])
    i <- pmatch(tolower(x), tolower(choices))
    if (is.na(i))
        stop("'", name, "' must be one of ", paste0("\"", choices, "\"", collapse = ", "),
             " (any case), not \"", x, "\"", call. = FALSE)
    choices[i]
}
