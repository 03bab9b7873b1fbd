# In-memory inputs for ExoLabel(): edge-list data frames, igraph graphs and
# sparse adjacency matrices. Each is described by a small list that the glue
# (push_source() in src/exolabel_glue.cpp) streams edge by edge into the
# core's builder, so no text file is written. Columns are passed as they are
# (character, integer or double vectors); nothing is copied per edge.

# What kind of input `x` is: "files", "edges", "igraph" or "matrix".
input_kind <- function(x) {
    if (is.character(x) && is.matrix(x) && ncol(x) >= 2L) return("edges") # text_matrix_edges()
    if (is.character(x)) return("files")
    if (inherits(x, "igraph")) return("igraph")
    if (inherits(x, "Matrix") || (is.matrix(x) && (is.numeric(x) || is.logical(x))))
        return("matrix")
    if (is.data.frame(x) || inherits(x, "DataFrame") || inherits(x, "DataTable"))
        return("edges")
    stop("'edgelistfiles' must be file paths, a data.frame (or data.table or ",
         "DataFrame) edge list, an igraph graph or a sparse adjacency matrix, ",
         "not an object of class '", class(x)[1L], "'", call. = FALSE)
}

# A column of node names or ids: character (names), factor (names through
# its levels), Date (names: its text, "2024-01-01"), whole-number
# integer/double ids (written in decimal, exactly: doubles must be below
# 2^53 in magnitude, beyond which distinct ids may already have merged) or
# bit64's integer64 ids (written in decimal, exactly, by the glue).
# Returns list(values, labels).
node_column <- function(x, what) {
    col <- paste("the", what, "column of the edge list")
    if (inherits(x, "AsIs")) x <- unclass_asis(x)
    if (is.factor(x)) {
        if (anyNA(x)) stop(col, " has missing values", call. = FALSE)
        return(list(values = as.integer(x), labels = enc2utf8(levels(x))))
    }
    if (is.character(x)) {
        if (anyNA(x)) stop(col, " has missing values", call. = FALSE)
        return(list(values = enc2utf8(x), labels = NULL))
    }
    if (inherits(x, "integer64")) {
        v <- .exolabel_int64(x, "double")
        if (any(is.na(v) & !is.nan(v))) stop(col, " has missing values", call. = FALSE)
        return(list(values = x, labels = NULL)) # the glue prints the 64-bit integers
    }
    if (inherits(x, "Date")) {
        d <- unclass(x)
        if (anyNA(d) || any(!is.finite(d)))
            stop(col, " has missing or infinite dates", call. = FALSE)
        if (any(d != floor(d)))
            stop(col, " holds dates with a fraction of a day, which the same text would ",
                 "name: convert it to character", call. = FALSE)
        return(list(values = enc2utf8(as.character(x)), labels = NULL))
    }
    if (is.object(x) || !(is.integer(x) || is.double(x)))
        stop(col, " is of class ", class(x)[1L], ": convert it to character (node ",
             "names) or to whole numbers (node ids)", call. = FALSE)
    if (anyNA(x) || any(!is.finite(x)))
        stop(col, " has missing or infinite values", call. = FALSE)
    if (is.double(x)) {
        if (any(x != floor(x)))
            stop(col, " holds numbers that are not whole: give node names or whole-number ids",
                 call. = FALSE)
        if (any(abs(x) >= 2^53))
            stop(col, " holds ids of 2^53 (9007199254740992) or more in magnitude, ",
                 "which doubles cannot hold exactly (distinct ids may already be ",
                 "equal): read the ids as character or as bit64's integer64",
                 call. = FALSE)
    }
    list(values = x, labels = NULL)
}

# A column marked with I(): the column without the mark.
unclass_asis <- function(x) {
    class(x) <- setdiff(class(x), "AsIs")
    x
}

# A text (or factor) column as numbers when every value that is not NA
# is one, else NULL.
text_numbers <- function(x) {
    v <- suppressWarnings(as.numeric(as.character(x)))
    if (length(x) && !anyNA(v[!is.na(x)])) v else NULL
}

# A character matrix of two or more columns (what cbind() of names and
# scores gives) as an edge-list table: columns 1 and 2 the nodes, every
# other column whose values are all numbers (or NA) as numbers.
text_matrix_edges <- function(x) {
    out <- as.data.frame(x, stringsAsFactors = FALSE)
    for (j in seq_len(ncol(out))[-seq_len(2L)]) {
        v <- text_numbers(out[[j]])
        if (!is.null(v)) out[[j]] <- v
    }
    out
}

# A weight column as doubles, integers or logicals; bit64's integer64
# weights as the doubles of the same values (refused when a double cannot
# hold one exactly).
weight_column <- function(w) {
    if (inherits(w, "AsIs")) w <- unclass_asis(w)
    if (inherits(w, "integer64")) {
        v <- .exolabel_int64(w, "double")
        if (any(is.na(v) & !is.nan(v)))
            stop("the weight column of the edge list has missing values", call. = FALSE)
        if (any(is.nan(v)))
            stop("the weight column of the edge list holds integer64 weights that a ",
                 "double cannot hold exactly (some beyond 2^53 in magnitude): give them ",
                 "as doubles", call. = FALSE)
        return(v)
    }
    if (!(is.numeric(w) || is.logical(w)) || !(is.double(w) || is.integer(w) || is.logical(w)))
        stop("the weight column of the edge list must be numeric, not of class ",
             class(w)[1L], call. = FALSE)
    if (anyNA(w)) stop("the weight column of the edge list has missing values",
                       call. = FALSE)
    if (is.logical(w)) w <- as.integer(w)
    w
}

# The source list for a data.frame-like edge list: first two columns are the
# nodes; the weight is the column named "weight" (any case) or else a
# numeric third column.
edges_source <- function(x, ignore_weights) {
    nc <- ncol(x)
    if (is.null(nc) || nc < 2L)
        stop("an edge list needs at least two columns (the two nodes of each edge)",
             call. = FALSE)
    from <- node_column(x[[1L]], "first")
    to <- node_column(x[[2L]], "second")
    weight <- NULL
    if (!ignore_weights) {
        cn <- tolower(colnames(x))
        wi <- match("weight", cn[-seq_len(2L)]) + 2L
        if (is.na(wi) && nc >= 3L && (is.numeric(x[[3L]]) || is.logical(x[[3L]]) ||
                                      inherits(x[[3L]], "integer64")))
            wi <- 3L
        if (is.na(wi) && nc >= 3L && (is.character(x[[3L]]) || is.factor(x[[3L]])) &&
            !is.null(text_numbers(x[[3L]])))
            warning("the third column of the edge list holds numbers stored as text: ",
                    "they are not read as weights (every weight is 1); convert the column with ",
                    "as.numeric() to use them", call. = FALSE)
        if (!is.na(wi)) weight <- weight_column(x[[wi]])
    }
    # factors with different levels: turn the ids into names of their own
    if (!is.null(from$labels) || !is.null(to$labels)) {
        if (is.null(from$labels) || is.null(to$labels) ||
            !identical(from$labels, to$labels)) {
            if (!is.null(from$labels)) from <- list(values = from$labels[from$values], labels = NULL)
            if (!is.null(to$labels)) to <- list(values = to$labels[to$values], labels = NULL)
        }
    }
    if (is.character(from$values) != is.character(to$values)) {
        # one column names, the other ids: names for both
        if (!is.character(from$values)) from$values <- format_ids(from$values)
        if (!is.character(to$values)) to$values <- format_ids(to$values)
    }
    list(kind = "edges", labels = from$labels, register = 0,
         from = from$values, to = to$values, weight = weight)
}

# Ids (whole-number integers or doubles below 2^53, or integer64) as the
# exact decimal text the glue prints for them ("0" for -0).
format_ids <- function(x) {
    if (inherits(x, "integer64")) return(.exolabel_int64(x, "text"))
    if (is.integer(x)) return(as.character(x))
    sprintf("%.0f", x + 0)
}

# An igraph graph: vertices are registered first, in vertex order, so the
# output lists them in that order (isolated vertices included).
igraph_source <- function(g, ignore_weights) {
    if (!requireNamespace("igraph", quietly = TRUE))
        stop("the igraph package is needed for igraph inputs", call. = FALSE)
    n <- igraph::vcount(g)
    if (n == 0L) stop("the graph has no vertices", call. = FALSE)
    el <- igraph::as_edgelist(g, names = FALSE)
    storage.mode(el) <- "integer"
    labels <- igraph::vertex_attr(g, "name")
    if (!is.null(labels)) {
        labels <- enc2utf8(as.character(labels))
        if (anyNA(labels) || anyDuplicated(labels))
            stop("the graph's vertex names must be unique and not NA", call. = FALSE)
    }
    weight <- NULL
    if (!ignore_weights && "weight" %in% igraph::edge_attr_names(g))
        weight <- weight_column(igraph::edge_attr(g, "weight"))
    list(kind = "edges", labels = labels, register = n,
         from = el[, 1L], to = el[, 2L], weight = weight)
}

# A square adjacency matrix, as a column-compressed double matrix. Directed:
# x[i, j] is the arc i -> j. Undirected: the pair {i, j} weighs
# max(x[i, j], x[j, i]) (igraph's mode = "max"), so a symmetric matrix, an
# upper and a lower triangle all give their edges; a matrix with different
# values in the two triangles gets a warning with the number of such pairs.
matrix_source <- function(x, directed, ignore_weights) {
    if (!requireNamespace("Matrix", quietly = TRUE))
        stop("the Matrix package is needed for matrix inputs", call. = FALSE)
    if (nrow(x) != ncol(x))
        stop("an adjacency matrix must be square, not ", nrow(x), " x ", ncol(x),
             call. = FALSE)
    if (nrow(x) == 0L) stop("the adjacency matrix is empty", call. = FALSE)
    rn <- rownames(x)
    cn <- colnames(x)
    if (!is.null(rn) && !is.null(cn) && !identical(rn, cn))
        stop("the row and column names of the adjacency matrix differ", call. = FALSE)
    labels <- if (is.null(rn)) cn else rn
    if (!is.null(labels)) {
        labels <- enc2utf8(labels)
        if (anyNA(labels) || anyDuplicated(labels))
            stop("the adjacency matrix's names must be unique and not NA", call. = FALSE)
    }
    if (!inherits(x, "Matrix")) x <- Matrix::Matrix(x, sparse = TRUE)
    x <- methods::as(x, "CsparseMatrix")
    if (methods::is(x, "symmetricMatrix") || methods::is(x, "triangularMatrix"))
        x <- methods::as(x, "generalMatrix")
    if (!methods::is(x, "dMatrix")) x <- methods::as(x, "dMatrix")
    if (anyNA(x@x)) stop("the adjacency matrix has missing values", call. = FALSE)
    if (!directed) x <- symmetrise_max(x)
    vals <- x@x
    if (ignore_weights) vals <- rep(1, length(vals))
    list(kind = "csc", labels = labels, register = nrow(x),
         i = x@i, p = x@p, x = vals, upper = !directed)
}

# The warning of symmetrise_max (a constant: no paste() inside a condition).
asymmetric_fmt <- paste0("the adjacency matrix is not symmetric (%s pair(s) with ",
                         "different values above and below the diagonal): in ",
                         "undirected mode the edge {i, j} weighs the larger of ",
                         "x[i, j] and x[j, i]; use mode = \"directed\" for arcs")

# An undirected graph from a general dgCMatrix: the pair {i, j} weighs
# max(x[i, j], x[j, i]) when both are given (nonzero), else the one given
# (so a negative entry in one triangle stays negative: dropped with the
# core's count and warning). Warns when both triangles hold a pair with
# different values.
symmetrise_max <- function(x) {
    tx <- Matrix::t(x)
    d <- Matrix::drop0(x - tx)
    if (length(d@x) == 0L) return(x) # symmetric
    both <- Matrix::drop0(x != 0) * Matrix::drop0(tx != 0)
    differ <- sum(Matrix::triu(both * (d != 0), k = 1L))
    if (differ > 0)
        warning(sprintf(asymmetric_fmt,
                        format_count(differ)), call. = FALSE)
    # given twice: x + tx - min(x, tx) = the larger; given once: x + tx
    m <- x + tx - both * ((x + tx - abs(d)) / 2)
    m <- methods::as(methods::as(m, "CsparseMatrix"), "generalMatrix")
    if (!methods::is(m, "dMatrix")) m <- methods::as(m, "dMatrix")
    m
}

# Number of edges an in-memory source will push.
source_edges <- function(src) {
    if (src$kind == "csc") {
        if (isTRUE(src$upper)) {
            col <- rep.int(seq_along(src$p[-1L]) - 1L, diff(src$p))
            return(sum(src$i <= col))
        }
        return(length(src$i))
    }
    length(src$from)
}

# The columns `columns` (3 numbers, the third 0 = no weight) of an edge-list
# table, for format = "blast" or `columns` on in-memory tables.
select_columns <- function(x, columns) {
    cols <- columns[columns > 0L]
    if (max(cols) > ncol(x))
        stop("'columns' (or format = \"blast\") asks for column ",
             max(cols), " but the edge list has ", ncol(x), call. = FALSE)
    out <- lapply(cols, function(i) x[[i]])
    names(out) <- c("from", "to", "weight")[seq_along(cols)]
    as.data.frame(out, stringsAsFactors = FALSE)
}

# TRUE when the rows of `tab` (a data.frame or a character matrix of 12
# columns) look like the tabular output of BLAST+, DIAMOND or MMseqs2:
# columns 3 to 12 numbers, the identity (3) between 0 and 100, the
# alignment length, mismatches, gap opens and positions (4 to 10) whole
# numbers, the e-value (11) not negative.
is_search_output <- function(tab) {
    if (NCOL(tab) != 12L || NROW(tab) == 0L) return(FALSE)
    num <- lapply(3:12, function(j) {
        v <- tab[, j]
        if (is.numeric(v)) v else suppressWarnings(as.numeric(as.character(v)))
    })
    if (any(vapply(num, anyNA, logical(1)))) return(FALSE)
    whole <- all(vapply(num[2:8], function(v) all(v == floor(v)), logical(1)))
    whole && all(num[[1L]] >= 0 & num[[1L]] <= 100) && all(num[[9L]] >= 0)
}

# Warn when a plain edge list (files or a table) looks like search-tool
# output: column 3 (% identity) would be the weight and self hits kept. A
# file is looked at by the core (as the command-line tool does), a table
# here; the warning's words are the core's (exo_advice.h).
warn_search_output <- function(x, sep, header) {
    hit <- NULL
    if (is.character(x)) {
        for (f in x) {
            if (.exolabel_looks_like_search_output(f, sep, header)) {
                hit <- paste0("'", basename(f), "' looks")
                break
            }
        }
    } else if (is_search_output(utils::head(as.data.frame(x), 20L))) {
        hit <- "the edge list looks"
    }
    if (!is.null(hit)) warning(.exolabel_search_output_warning(hit), call. = FALSE)
    invisible(!is.null(hit))
}
