# ExoLabel(initial = ): a previous clustering to start from, with stable
# cluster ids (src/core/exo_initial.h reads the file and makes the ids).
# R gives the core a path: a file it was given as it is, anything else
# written to a temporary file "name<sep>cluster" (removed by ExoLabel()'s
# on.exit, even on error).

# The path the core reads, and the temporary file to remove (NULL: none).
# `sep` is the run's separator: the core reads the file with it.
prepare_initial <- function(initial, sep, tempfiledir) {
    if (is.null(initial)) return(list(path = NULL, temp = NULL))
    if (inherits(initial, "ExoLabelResults"))
        stop("'initial' must be one clustering: give one result of the list, e.g. ",
             "initial = res[[1]]", call. = FALSE)
    if (is.character(initial) && !inherits(initial, "ExoLabelResult")) {
        if (length(initial) != 1L || is.na(initial) || !nzchar(initial))
            stop("'initial' must be one path of a clusters file, an ExoLabel() result or a ",
                 "two-column table (Vertex, Cluster)", call. = FALSE)
        if (dir.exists(initial))
            stop("'initial' file '", initial, "' is a directory", call. = FALSE)
        if (!file.exists(initial))
            stop("'initial' file '", initial, "' does not exist", call. = FALSE)
        return(list(path = normalizePath(initial, mustWork = TRUE), temp = NULL))
    }
    if (inherits(initial, "ExoLabelResult")) {
        r <- initial$results
        own_sep <- attr(initial, "stats")$sep
        # ExoLabel's own file, written with this separator: read by the core
        if (is.character(r) && length(r) == 1L && !is.na(r) && file.exists(r) &&
            identical(if (is.null(own_sep)) "\t" else own_sep, sep))
            return(list(path = normalizePath(r, mustWork = TRUE), temp = NULL))
    } else if (!is.data.frame(initial) && !is.matrix(initial) && !inherits(initial, "DataFrame")) {
        stop("'initial' must be an ExoLabel() result, the path of a clusters file or a ",
             "two-column table (Vertex, Cluster)", call. = FALSE)
    }
    if (is.matrix(initial)) initial <- as.data.frame(initial, stringsAsFactors = FALSE)
    tab <- result_table(initial, sep)
    write_initial(tab, sep, tempfiledir)
}

# A table (Vertex, Cluster) written for the core; R's checks of its values
# (the core checks the file again: a name listed twice, line by line).
write_initial <- function(tab, sep, tempfiledir) {
    v <- tab$Vertex
    cl <- tab$Cluster
    if (is.factor(v)) v <- as.character(v)
    if (is.factor(cl)) cl <- as.character(cl)
    if (is.character(cl)) {
        bad <- !grepl("^[0-9]{1,16}$", cl)
        cl <- suppressWarnings(as.numeric(ifelse(bad, NA, cl)))
    }
    if (!is.numeric(cl))
        stop("'initial': the Cluster column must hold whole numbers >= 1", call. = FALSE)
    bad <- which(is.na(cl) | cl < 1 | cl != floor(cl) | cl >= 2^53)
    if (length(bad))
        stop(sprintf(initial_bad_cluster_fmt, bad[1L], format(tab$Cluster[bad[1L]])),
             call. = FALSE)
    v <- as.character(v)
    bad <- which(is.na(v) | !nzchar(v) | grepl(sep, v, fixed = TRUE) |
                 grepl("\n", v, fixed = TRUE) | grepl("\r", v, fixed = TRUE))
    if (length(bad))
        stop(sprintf(initial_bad_name_fmt, bad[1L]), call. = FALSE)
    dup <- anyDuplicated(v)
    if (dup)
        stop(sprintf(initial_dup_fmt, v[dup], match(v[dup], v), dup), call. = FALSE)
    f <- tempfile("ExoLabelInitial", tmpdir = tempfiledir, fileext = ".tsv")
    con <- file(f, "wb")
    ok <- FALSE
    on.exit(if (!ok) unlink(f))
    tryCatch(writeLines(paste0(v, sep, sprintf("%.0f", cl)), con, sep = "\n", useBytes = TRUE),
             finally = close(con))
    ok <- TRUE
    list(path = f, temp = f)
}

initial_bad_cluster_fmt <- paste0("'initial': row %d: the cluster '%s' is not a whole number ",
                                  "from 1 to 2^53 - 1")
initial_bad_name_fmt <- paste0("'initial': row %d: the name is missing, empty, or holds the ",
                               "separator or a line end")
initial_dup_fmt <- "'initial': the name '%s' is listed twice (rows %d and %d)"

# The warning for names of the previous clustering the graph lacks.
initial_missing_fmt <- paste0("%s name(s) of 'initial' are not in the graph (the first: ",
                              "'%s'): their old clusters count without them")
