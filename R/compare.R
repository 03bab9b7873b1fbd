# Agreement between two clusterings: normalized mutual information and the
# adjusted Rand index. Both work from the contingency table of the two
# labelings, built in O(n) with integer codes, so they are usable on
# millions of nodes.

#' Compare two clusterings: NMI and ARI
#'
#' `ClusterNMI()` returns the normalized mutual information and
#' `ClusterARI()` the adjusted Rand index between two clusterings of the same
#' nodes, for instance an `ExoLabel()` result and a ground truth.
#'
#' With \eqn{n_{ij}}{n_ij} the number of nodes in cluster `i` of `x` and
#' cluster `j` of `y`, row sums \eqn{a_i}{a_i}, column sums \eqn{b_j}{b_j}
#' and `n` nodes:
#'
#' * NMI \eqn{= 2 I(x, y) / (H(x) + H(y))}{= 2 I(x,y) / (H(x) + H(y))},
#'   where \eqn{I = \sum_{ij} (n_{ij}/n) \log(n\, n_{ij} / (a_i b_j))}{I =
#'   sum_ij (n_ij/n) log(n n_ij / (a_i b_j))} and `H` is the entropy of a
#'   clustering (the arithmetic-mean normalisation of Danon et al. 2005, as in
#'   `igraph::compare(method = "nmi")`). It is 1 for identical partitions and
#'   0 for independent ones. When both clusterings have a single cluster it
#'   is 1; when only one of them has, it is 0.
#' * ARI \eqn{= (\sum_{ij} \binom{n_{ij}}{2} - E) / (M - E)}{= (sum_ij
#'   C(n_ij, 2) - E) / (M - E)} with \eqn{E = \sum_i \binom{a_i}{2}
#'   \sum_j \binom{b_j}{2} / \binom{n}{2}}{E = sum_i C(a_i, 2) sum_j C(b_j, 2)
#'   / C(n, 2)} and \eqn{M = (\sum_i \binom{a_i}{2} + \sum_j
#'   \binom{b_j}{2}) / 2}{M = (sum_i C(a_i, 2) + sum_j C(b_j, 2)) / 2}
#'   (Hubert and Arabie 1985). It is 1 for identical partitions and about 0
#'   for random ones (it can be negative). When `M = E` (both clusterings
#'   all singletons, or both one cluster) it is 1 if the partitions are
#'   identical and 0 otherwise.
#'
#' Cluster labels are only compared for equality: any atomic type works, and
#' renaming the clusters changes nothing.
#'
#' @param x,y The two clusterings, each one of: a vector of cluster labels
#'   (`NA` is not allowed), compared position by position with another
#'   vector, or matched by its names with a table, file or result; a table (`data.frame`,
#'   data.table, `DataFrame`) whose columns `Vertex` and `Cluster` are used
#'   when it has them, else its first two columns (node, cluster), so a
#'   truth table with columns `Vertex`, `family` works; the path of a
#'   two-column file (node, cluster; tab-separated, no header); a result of
#'   [ExoLabel()] (whatever its `$results` is); or an igraph `communities`
#'   object. Tables, files and results are matched by node name.
#' @param unmatched What to do with nodes that only one of the clusterings
#'   has (when matched by name): `"error"` (the default) stops and says how
#'   many there are on each side; `"drop"` compares the nodes the two have
#'   in common; `"singletons"` puts each missing node in a cluster of its
#'   own in the clustering that lacks it, comparing the union.
#'
#' @return A single number.
#'
#' @examples
#' truth <- c(1, 1, 1, 2, 2, 2)
#' found <- c("a", "a", "b", "b", "b", "b")
#' ClusterNMI(truth, found)
#' ClusterARI(truth, found)
#' ClusterNMI(truth, truth)   # 1
#'
#' # an ExoLabel result against the planted families of the example graph
#' edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
#' fam <- utils::read.delim(system.file("extdata", "example_truth.tsv",
#'                                      package = "ExoLabel"),
#'                          header = FALSE, col.names = c("Vertex", "Cluster"))
#' set.seed(1)
#' res <- ExoLabel(edges, return_table = TRUE)
#' ClusterNMI(res$results, fam)
#' ClusterARI(res$results, fam)
#' @name ClusterCompare
NULL

#' @rdname ClusterCompare
#' @export
ClusterNMI <- function(x, y, unmatched = c("error", "drop", "singletons")) {
    unmatched <- check_option(unmatched, "unmatched", c("error", "drop", "singletons"))
    tab <- contingency_counts(x, y, unmatched)
    n <- tab$n
    hx <- entropy_counts(tab$a, n)
    hy <- entropy_counts(tab$b, n)
    if (hx + hy == 0) return(1)
    nij <- tab$nij
    # I = sum nij/n * log(n * nij / (a_i b_j))
    mi <- sum(nij / n * (log(nij) + log(n) - log(tab$a[tab$i]) - log(tab$b[tab$j])))
    max(0, min(1, 2 * mi / (hx + hy)))
}

#' @rdname ClusterCompare
#' @export
ClusterARI <- function(x, y, unmatched = c("error", "drop", "singletons")) {
    unmatched <- check_option(unmatched, "unmatched", c("error", "drop", "singletons"))
    tab <- contingency_counts(x, y, unmatched)
    pairs <- function(k) sum(k * (k - 1) / 2)
    n <- tab$n
    sij <- pairs(tab$nij)
    sa <- pairs(tab$a)
    sb <- pairs(tab$b)
    total <- n * (n - 1) / 2
    expected <- if (total > 0) sa * sb / total else 0
    maximum <- (sa + sb) / 2
    if (maximum == expected) return(if (sij == maximum) 1 else 0)
    (sij - expected) / (maximum - expected)
}

# Bring x and y to two aligned vectors of labels: matched by node name
# when either is a table, a file, a result or a named vector; two unnamed
# vectors are compared by position.
align_clusterings <- function(x, y, unmatched = "error") {
    as_named <- function(z, what) {
        if (inherits(z, "ExoLabelResults"))
            stop("'", what, "' holds several clusterings: pick one with [[ ]]",
                 call. = FALSE)
        table_like <- inherits(z, c("ExoLabelResult", "communities", "DataFrame")) ||
            is.data.frame(z) || (is.character(z) && length(z) == 1L && !is.na(z) &&
                                 is.null(names(z)) && file.exists(z) && !dir.exists(z))
        if (table_like) {
            tab <- result_table(z)
            return(list(labels = stats::setNames(tab$Cluster, as.character(tab$Vertex)),
                        named = TRUE))
        }
        if (is.factor(z)) z <- stats::setNames(as.character(z), names(z))
        if (!is.atomic(z) || is.null(z))
            stop("'", what, "' must be a vector of cluster labels, a table (node, ",
                 "cluster), a cluster file, an ExoLabel() result or igraph communities",
                 call. = FALSE)
        list(labels = z, named = FALSE) # vectors alone: by position
    }
    ax <- as_named(x, "x")
    ay <- as_named(y, "y")
    x <- ax$labels
    y <- ay$labels
    if (ax$named || ay$named) {
        if (is.null(names(x)) || is.null(names(y)))
            stop("to compare with a table, a file or a result, the other clustering must ",
                 "have node names too (a table or a named vector)", call. = FALSE)
        if (anyDuplicated(names(x)) || anyDuplicated(names(y)))
            stop("a vertex appears more than once in a clustering", call. = FALSE)
        only_x <- setdiff(names(x), names(y))
        only_y <- setdiff(names(y), names(x))
        if (length(only_x) || length(only_y)) {
            if (unmatched == "error")
                stop("the two clusterings do not cover the same vertices (",
                     length(only_x), " of x not in y, ", length(only_y),
                     " of y not in x); set unmatched = \"drop\" to compare the common ",
                     "ones or \"singletons\" to count the others as clusters of one",
                     call. = FALSE)
            if (unmatched == "drop") {
                x <- x[!(names(x) %in% only_x)]
            } else {
                # fresh labels, distinct from every existing one
                fresh <- function(n) sprintf("\001unmatched%d\001", seq_len(n))
                x <- c(stats::setNames(as.character(x), names(x)),
                       stats::setNames(fresh(length(only_y)), only_y))
                y <- c(stats::setNames(as.character(y), names(y)),
                       stats::setNames(fresh(length(only_x)), only_x))
            }
        }
        y <- y[match(names(x), names(y))]
    } else if (length(x) != length(y)) {
        stop("'x' and 'y' must have the same length (", length(x), " and ", length(y), ")",
             call. = FALSE)
    }
    if (anyNA(x) || anyNA(y)) stop("cluster labels must not be NA", call. = FALSE)
    if (length(x) == 0L) stop("the clusterings are empty", call. = FALSE)
    list(x = unname(x), y = unname(y))
}

# Contingency table in sparse form: nonzero cells nij at rows i, columns j,
# with row sums a and column sums b (all as doubles), and n.
contingency_counts <- function(x, y, unmatched = "error") {
    al <- align_clusterings(x, y, unmatched)
    cx <- match(al$x, unique(al$x))
    cy <- match(al$y, unique(al$y))
    ky <- max(cy)
    key <- (cx - 1) * as.double(ky) + cy
    ukey <- unique(key)
    nij <- as.double(tabulate(match(key, ukey), length(ukey)))
    list(n = as.double(length(cx)), nij = nij,
         i = as.integer((ukey - 1) %/% ky) + 1L, j = as.integer((ukey - 1) %% ky) + 1L,
         a = as.double(tabulate(cx, max(cx))), b = as.double(tabulate(cy, ky)))
}

entropy_counts <- function(k, n) {
    p <- k[k > 0] / n
    -sum(p * log(p))
}
