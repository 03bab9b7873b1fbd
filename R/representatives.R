#' Cluster representatives: the member table and the representatives' sequences
#'
#' The two files MMseqs2's `easy-cluster` users take to the next step, from
#' an [ExoLabel()] result run with `cluster_table = TRUE`: for every node
#' the representative of its cluster (`*_cluster.tsv`), and the
#' representatives' sequences (`*_rep_seq.fasta`). The representative of a
#' cluster is the cluster table's (`Representative`, see [ExoLabel()],
#' section Cluster table): the member with the largest total weight of
#' edges to the other members; a singleton is its own.
#'
#' @section Every sequence in the result (`ExoLabel(sequences = )`):
#' A search reports only the sequences with a hit, so a protein without any
#' hit (not even to itself, e.g. a 5-residue domain) is not in the edges
#' and so not in the result. [ExoLabel()]'s `sequences` (the command-line
#' tool's `--sequences FILE`) names every sequence, and each one appears in
#' the result: those the edges do not name are nodes without an edge, their
#' own clusters (and representatives). They come after the nodes of the
#' edges, in the order of `sequences`, and their clusters are numbered
#' after the others, so the lines and numbers of the nodes of the edges are
#' those of a run without `sequences` whenever the clustering is the same
#' (Leiden with `format = "blast"`; label propagation visits nodes in a
#' seeded order over all of them, and `resolution = "auto"` without
#' `weight_transform = "selfnorm"` averages over all nodes, so there the
#' added nodes may move a few others). `sequences` is the path of a FASTA
#' file (plain or gzip; a single string naming an existing file) or of a
#' file of names, one per line (a file is FASTA when its first non-blank
#' character is `>`); an `XStringSet` (Biostrings, e.g.
#' `Biostrings::readAAStringSet("proteins.fa")`); or a character vector of
#' names. A FASTA record's name is its header up to the first space or tab,
#' as DIAMOND, BLAST+ and MMseqs2 name the sequences in their tabular
#' output; an `XStringSet`'s names are cut the same way; names in a file of
#' names or a character vector are used as they are (a line is a name). A
#' name listed twice is one node. Nodes of the edges that are not among the
#' sequences are kept, with a warning giving their number (a sign that the
#' names do not match). `attr(res, "stats")$sequences` counts the distinct
#' sequences, those without an edge and the nodes of the edges not among
#' them. Memory: one bit per node while the graph is built.
#'
#' `ClusterRepresentatives()` gives a `data.frame(Representative, Member)`
#' with one row per node, in the order of the result (`Member` is the
#' result's `Vertex`). The command-line tool writes the same pairs with
#' `--representatives FILE`, without a header.
#'
#' `RepresentativeSequences()` picks the representatives out of
#' `sequences`, in the order of `sequences`, each once (its first record).
#' A sequence's name is its FASTA header (or XStringSet name) up to the
#' first space or tab, as DIAMOND, BLAST+ and MMseqs2 name sequences in
#' their tabular output. For a FASTA file the records are copied byte for
#' byte in one pass that keeps only the representatives' names in memory
#' (as hashes, 32 to 64 bytes each), as the command-line tool's `--rep-fasta
#' FILE` does; Biostrings is needed only to return them as an `AAStringSet`
#' rather than write them to `file`. Representatives without a record in
#' `sequences` (nodes of the edges that the sequences do not hold) are left
#' out with a warning.
#'
#' @param x A result of [ExoLabel()] (one clustering) with a cluster table
#'   (`cluster_table = TRUE`).
#' @param sequences The sequences: an `XStringSet` (Biostrings, e.g. an
#'   `AAStringSet`) or the path of a FASTA file (plain or gzip).
#' @param file `NULL`, or a path to write the representatives' FASTA to
#'   (written beside it and renamed at the end; missing folders are
#'   created).
#' @return `ClusterRepresentatives()`: a `data.frame(Representative,
#'   Member)`. `RepresentativeSequences()`: the representatives as an
#'   `XStringSet` of the class of `sequences` (an `AAStringSet` when read
#'   from a FASTA file), or, when `file` is given for a FASTA path, `file`
#'   (invisibly).
#' @examples
#' edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
#' res <- ExoLabel(edges, cluster_table = TRUE)
#' head(ClusterRepresentatives(res))
#'
#' # representatives' records of a FASTA file, written to another
#' hits <- tempfile(fileext = ".m8")
#' writeLines(c("p1\tp2\t81.0\t120\t23\t0\t1\t120\t1\t120\t3e-50\t190",
#'              "p1\tp1\t100.0\t120\t0\t0\t1\t120\t1\t120\t0\t250"), hits)
#' fa <- tempfile(fileext = ".fa")
#' writeLines(c(">p1 first", "MKVL", ">p2", "MKVI", ">p3 no hit", "MA"), fa)
#' res <- ExoLabel(hits, format = "blast", sequences = fa, cluster_table = TRUE)
#' reps <- tempfile(fileext = ".fa")
#' RepresentativeSequences(res, fa, file = reps)
#' readLines(reps)
#' @export
ClusterRepresentatives <- function(x) {
    tab <- representatives_of(x)
    m <- ClusterMembership(x)
    data.frame(Representative = tab$Representative[match(m, tab$Cluster)],
               Member = names(m), stringsAsFactors = FALSE)
}

#' @rdname ClusterRepresentatives
#' @export
RepresentativeSequences <- function(x, sequences, file = NULL) {
    reps <- representatives_of(x)$Representative
    if (!is.null(file) && (!is.character(file) || length(file) != 1L || is.na(file) ||
                           !nzchar(file)))
        stop("'file' must be NULL or a single path", call. = FALSE)
    if (inherits(sequences, "XStringSet")) {
        nm <- sequence_names(sequences)
        keep <- which(nm %in% reps & !duplicated(nm))
        warn_missing_reps(length(reps) - length(keep), "'sequences'")
        out <- sequences[keep]
        if (!is.null(file)) {
            file <- prepare_outfiles(file, 1L)
            Biostrings::writeXStringSet(out, file)
        }
        return(out)
    }
    if (!is.character(sequences) || length(sequences) != 1L || is.na(sequences))
        stop("'sequences' must be an XStringSet (Biostrings) or the path of a FASTA file",
             call. = FALSE)
    if (!file.exists(sequences) || dir.exists(sequences))
        stop("sequences file '", sequences, "' does not exist or is a directory", call. = FALSE)
    if (is.null(file) && !requireNamespace("Biostrings", quietly = TRUE))
        stop("returning the sequences needs the Biostrings package; give 'file' to write ",
             "them to a FASTA file instead", call. = FALSE)
    target <- if (is.null(file)) tempfile(fileext = ".fa") else prepare_outfiles(file, 1L)
    if (is.null(file)) on.exit(unlink(target), add = TRUE)
    n <- .exolabel_fasta_select(normalizePath(sequences), enc2utf8(unique(reps)), target)
    warn_missing_reps(length(unique(reps)) - n, sprintf("'%s'", sequences))
    if (!is.null(file)) return(invisible(file))
    Biostrings::readAAStringSet(target)
}

# The cluster table of one result, or an error saying how to get it.
representatives_of <- function(x) {
    if (!inherits(x, "ExoLabelResult"))
        stop("'x' must be one result of ExoLabel() (for several clusterings, pick one: ",
             "x[[1]])", call. = FALSE)
    if (is.null(x$cluster_table))
        stop("the result has no cluster table: run ExoLabel(..., cluster_table = TRUE)",
             call. = FALSE)
    x$cluster_table
}

warn_missing_reps <- function(n, where) {
    if (n > 0)
        warning(sprintf("%s representative(s) have no record in %s: they are left out",
                        format_count(n), where), call. = FALSE)
}
