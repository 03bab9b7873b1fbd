# Helpers for the ExoLabel tests: writing edge lists and checking clusterings.

write_edges <- function(df, path = tempfile(fileext = ".tsv"), sep = "\t",
                        weights = ncol(df) >= 3) {
    cols <- if (weights) df[, 1:3] else df[, 1:2]
    lines <- do.call(paste, c(unname(as.list(cols)), sep = sep))
    writeLines(lines, path, useBytes = TRUE)
    path
}

# k cliques of size s; clique i's last node joined to clique i+1's first by
# one edge of weight `bridge_w`. Names are "c<i>_n<j>".
clique_ring <- function(k = 4, s = 8, w = 1, bridge_w = 1) {
    e <- list()
    for (i in seq_len(k)) {
        nm <- sprintf("c%d_n%d", i, seq_len(s))
        pr <- t(utils::combn(s, 2))
        e[[length(e) + 1]] <- data.frame(a = nm[pr[, 1]], b = nm[pr[, 2]], w = w)
        nxt <- sprintf("c%d_n1", i %% k + 1)
        e[[length(e) + 1]] <- data.frame(a = nm[s], b = nxt, w = bridge_w)
    }
    df <- do.call(rbind, e)
    df$truth <- sub("_n[0-9]+$", "", df$a)
    df
}

# Clusters as a named vector (names = vertices), from a results table.
as_membership <- function(tab) stats::setNames(tab$Cluster, tab$Vertex)

# TRUE when two clusterings of the same vertices are the same partition.
same_partition <- function(x, y) {
    y <- y[names(x)]
    length(unique(x)) == length(unique(y)) &&
        length(unique(paste(x, y))) == length(unique(x))
}

# Files that ExoLabel left in a directory (its temp dirs are "exolabel-*").
stray_files <- function(dir) list.files(dir, pattern = "^exolabel-", all.files = TRUE)

fresh_dir <- function() {
    d <- tempfile("exotest")
    dir.create(d)
    d
}

# weight_transform = "selfnorm" computed in base R from hits (a data.frame
# with columns q, s, bits): one row per unordered pair (the largest bit
# score of q->s and s->q) with weight bits / max(self), self = the largest
# self hit, else the protein's best hit; with keep, the self hits as loops
# of weight self hit / self. (Base R, not data.table: the suite runs in the
# package's namespace, which does not import data.table.)
selfnorm_graph <- function(hits, keep = FALSE) {
    sh <- hits[hits$q == hits$s, ]
    sh <- stats::aggregate(bits ~ q, data = sh, FUN = max)
    self <- stats::setNames(sh$bits, sh$q)
    ns <- hits[hits$q != hits$s, ]
    pr <- stats::aggregate(bits ~ lo + hi, FUN = max,
                           data = data.frame(lo = pmin(ns$q, ns$s), hi = pmax(ns$q, ns$s),
                                             bits = ns$bits))
    ends <- data.frame(node = c(pr$lo, pr$hi), bits = c(pr$bits, pr$bits))
    best <- stats::aggregate(bits ~ node, data = ends, FUN = max)
    score <- stats::setNames(best$bits, best$node)
    score[names(self)] <- self # a self hit wins over the best hit
    pr$w <- pr$bits / pmax(score[pr$lo], score[pr$hi])
    edges <- pr[, c("lo", "hi", "w")]
    if (keep)
        edges <- rbind(edges, data.frame(lo = names(self), hi = names(self),
                                         w = unname(self / self)))
    linked <- unique(c(edges$lo, edges$hi))
    # 2W as Leiden counts it: |w| at both ends of an edge, a loop twice
    list(edges = edges, two_w = 2 * sum(edges$w), linked = length(linked))
}
