# Issue 55 items 5-7: every named sequence in the result (`sequences`,
# --sequences), the representatives' table and FASTA
# (ClusterRepresentatives, RepresentativeSequences, --representatives,
# --rep-fasta), the cluster table's integer sizes and its header.

# 12-column search hits among p1..p8 (two families and a pair), with self
# hits; p9 and "tiny" have no hit at all
hits_file <- function() {
    f <- tempfile(fileext = ".m8")
    hit <- function(q, s, bits) sprintf("%s\t%s\t80.0\t100\t20\t0\t1\t100\t1\t100\t1e-30\t%s",
                                        q, s, bits)
    lines <- c(hit("p1", "p1", 250), hit("p1", "p2", 200), hit("p2", "p1", 198),
               hit("p2", "p2", 240), hit("p3", "p3", 230), hit("p1", "p3", 150),
               hit("p3", "p2", 160), hit("p4", "p4", 300), hit("p4", "p5", 280),
               hit("p5", "p5", 290), hit("p5", "p6", 260), hit("p6", "p6", 270),
               hit("p4", "p6", 250), hit("p7", "p8", 100), hit("p7", "p7", 120),
               hit("p8", "p8", 110))
    writeLines(lines, f)
    f
}

fasta_file <- function(gz = FALSE) {
    recs <- c(">p1 first protein", "MKVLAAG", "IL", ">p2", "MKVLAAGIV", ">p9 no hit",
              "MSTNPKPQR", ">p3\tdesc", "MKVLSAG", ">p4", "WWWW", ">tiny 5-residue domain",
              "PEPTI", ">p5", "WWWY", ">p6", "WWYY", ">p7", "CCCC", ">p8", "CCCD")
    f <- tempfile(fileext = if (gz) ".fa.gz" else ".fa")
    con <- if (gz) gzfile(f, "w") else file(f, "w")
    writeLines(recs, con)
    close(con)
    f
}

test_that("every sequence of a FASTA appears, those without a hit as singletons after the rest", {
    hits <- hits_file()
    fa <- fasta_file()
    set.seed(3)
    plain <- ExoLabel(hits, format = "blast", return_table = TRUE, verbose = FALSE)$results
    set.seed(3)
    res <- ExoLabel(hits, format = "blast", return_table = TRUE, sequences = fa,
                    verbose = FALSE)
    tab <- res$results
    expect_setequal(tab$Vertex, paste0(c(paste0("p", 1:9), "tiny")))
    expect_identical(nrow(tab), 10L)
    # the nodes of the edges first, as without `sequences`, then the new ones
    expect_identical(tab[seq_len(nrow(plain)), ], plain)
    expect_identical(tab$Vertex[9:10], c("p9", "tiny"))
    k <- max(plain$Cluster)
    expect_identical(tab$Cluster[9:10], c(k + 1L, k + 2L))
    expect_equal(attr(res, "stats")$sequences,
                 c(sequences = 10, without_edges = 2, not_listed = 0))
    # gzip, a list of names, an XStringSet and a character vector: the same
    fz <- fasta_file(gz = TRUE)
    lst <- tempfile(fileext = ".txt")
    writeLines(c("p1", "p2", "p9", "p3", "p4", "tiny", "p5", "p6", "p7", "p8"), lst)
    others <- list(fz, lst, c("p1", "p2", "p9", "p3", "p4", "tiny", "p5", "p6", "p7", "p8"))
    if (requireNamespace("Biostrings", quietly = TRUE))
        others <- c(others, list(Biostrings::readAAStringSet(fa)))
    for (s in others) {
        set.seed(3)
        expect_identical(ExoLabel(hits, format = "blast", return_table = TRUE, sequences = s,
                                  verbose = FALSE)$results, tab)
    }
    unlink(c(hits, fa, fz, lst))
})

test_that("without sequences the nodes without a hit are missing (what item 5 fixes)", {
    hits <- hits_file()
    res <- ExoLabel(hits, format = "blast", return_table = TRUE, verbose = FALSE)
    expect_false("tiny" %in% res$results$Vertex)
    expect_null(attr(res, "stats")$sequences)
    unlink(hits)
})

test_that("nodes of the edges not among the sequences are kept with a warning; bad input is an error", {
    hits <- hits_file()
    expect_warning(res <- ExoLabel(hits, format = "blast", return_table = TRUE,
                                   sequences = c("p1", "p2", "extra"), verbose = FALSE),
                   "6 node\\(s\\) of the edges are not among the 'sequences': they are kept")
    expect_identical(nrow(res$results), 9L)
    expect_identical(tail(res$results$Vertex, 1), "extra")
    expect_error(ExoLabel(hits, format = "blast", sequences = "missing/proteins.fa"),
                 "sequences file 'missing/proteins.fa' does not exist")
    expect_error(ExoLabel(hits, format = "blast", sequences = 1:3),
                 "'sequences' must be the path of a FASTA file")
    expect_error(ExoLabel(hits, format = "blast", sequences = c("p1", NA)),
                 "missing or empty names")
    bad <- tempfile(fileext = ".fa")
    writeLines(c(">p1", "MK", "> p2", "MK"), bad)
    expect_error(ExoLabel(hits, format = "blast", sequences = bad),
                 "line 3: a FASTA header without a name")
    expect_error(ExoLabel(hits, format = "blast", sequences = c("p1", "a\tb")),
                 "sequence name 2 \\('a\tb'\\) contains the separator")
    unlink(c(hits, bad))
})

test_that("ClusterRepresentatives and RepresentativeSequences follow the cluster table", {
    hits <- hits_file()
    fa <- fasta_file()
    res <- ExoLabel(hits, format = "blast", sequences = fa, cluster_table = TRUE,
                    verbose = FALSE)
    ct <- res$cluster_table
    expect_type(ct$Size, "integer")
    expect_type(ct$Cluster, "integer")
    rm <- ClusterRepresentatives(res)
    m <- ClusterMembership(res)
    expect_identical(names(rm), c("Representative", "Member"))
    expect_identical(rm$Member, names(m))
    expect_identical(rm$Representative, ct$Representative[m])
    expect_identical(rm$Representative[rm$Member == "tiny"], "tiny")
    # the representatives' records, byte for byte, in the FASTA's order
    out <- tempfile(fileext = ".fa")
    expect_identical(RepresentativeSequences(res, fa, file = out), out)
    got <- readLines(out)
    heads <- sub("^>([^ \t]*).*", "\\1", grep("^>", got, value = TRUE))
    expect_setequal(heads, ct$Representative)
    fa_lines <- readLines(fa)
    expect_identical(heads, intersect(sub("^>([^ \t]*).*", "\\1",
                                          grep("^>", fa_lines, value = TRUE)), heads))
    expect_true(all(got %in% fa_lines))
    skip_if_not_installed("Biostrings")
    aa <- Biostrings::readAAStringSet(fa)
    from_set <- RepresentativeSequences(res, aa)
    from_file <- RepresentativeSequences(res, fa)
    expect_s4_class(from_set, "AAStringSet")
    expect_identical(as.character(from_set), as.character(from_file))
    expect_identical(sub("[ \t].*", "", names(from_set)), heads)
    # a representative without a record: left out with a warning
    expect_warning(RepresentativeSequences(res, aa[names(aa) != "tiny 5-residue domain"]),
                   "1 representative\\(s\\) have no record")
    expect_error(ClusterRepresentatives(ExoLabel(hits, format = "blast", verbose = FALSE)),
                 "cluster_table = TRUE")
    unlink(c(hits, fa, out))
})

test_that("the command-line tool writes the same clusters, table, members and FASTA", {
    cli <- cli_path()
    hits <- hits_file()
    fa <- fasta_file()
    set.seed(5)
    res <- ExoLabel(hits, format = "blast", sequences = fa, cluster_table = TRUE,
                    verbose = FALSE)
    seed <- format(attr(res, "stats")$seed, scientific = FALSE)
    d <- tempfile()
    dir.create(d)
    p <- function(x) shQuote(file.path(d, x))
    st <- run_cli(c("--format", "blast", "--seed", seed, "--sequences", shQuote(fa),
                    "-o", p("out.tsv"), "--cluster-table", p("table.tsv"),
                    "--representatives", p("members.tsv"), "--rep-fasta", p("reps.fa"),
                    shQuote(hits)))
    expect_equal(st$status, 0)
    expect_identical(readLines(file.path(d, "out.tsv")), readLines(res$results))
    expect_identical(readLines(file.path(d, "table.tsv"), n = 1L),
                     paste(names(res$cluster_table), collapse = "\t"))
    members <- utils::read.delim(file.path(d, "members.tsv"), header = FALSE,
                                 col.names = c("Representative", "Member"),
                                 colClasses = "character")
    expect_identical(members, ClusterRepresentatives(res))
    mine <- tempfile(fileext = ".fa")
    RepresentativeSequences(res, fa, file = mine)
    expect_identical(readLines(file.path(d, "reps.fa")), readLines(mine))
    # the same bytes on one thread with the smallest budget as on two with a
    # large one, in both orders
    files_of <- function(extra, ord) {
        st <- run_cli(c("--format", "blast", "--seed", seed, "--sequences", shQuote(fa),
                        "--order", ord, extra, "-o", p("o"), "--representatives", p("m"),
                        "--rep-fasta", p("f"), shQuote(hits)))
        expect_equal(st$status, 0)
        vapply(c("o", "m", "f"), function(x) paste(readLines(file.path(d, x)), collapse = "\n"),
               "")
    }
    for (ord in c("appearance", "name")) {
        one <- files_of(c("--threads", "1", "--memory-limit", "1MB"), ord)
        two <- files_of(c("--threads", "2", "--memory-limit", "64MB"), ord)
        expect_identical(one, two)
        expect_identical(one[["f"]], paste(readLines(file.path(d, "reps.fa")), collapse = "\n"))
        if (ord == "appearance")
            expect_identical(one[["o"]], paste(readLines(file.path(d, "out.tsv")),
                                               collapse = "\n"))
    }
    # --rep-fasta needs a FASTA --sequences
    st2 <- run_cli(c("--format", "blast", "--rep-fasta", p("r2.fa"), shQuote(hits)))
    expect_equal(st2$status, 2)
    expect_match(paste(st2$err, collapse = "\n"), "--rep-fasta needs --sequences FASTA")
    lst <- tempfile()
    writeLines(c("p1", "tiny"), lst)
    st3 <- run_cli(c("--format", "blast", "--sequences", shQuote(lst), "--rep-fasta",
                     p("r3.fa"), "-o", p("o3.tsv"), shQuote(hits)))
    expect_equal(st3$status, 3)
    expect_match(paste(st3$err, collapse = "\n"), "is a list of names, not FASTA")
    expect_false(file.exists(file.path(d, "r3.fa")))
    expect_false(file.exists(file.path(d, "o3.tsv")))
    # a list: the warning for the nodes not listed
    st4 <- run_cli(c("--format", "blast", "--sequences", shQuote(lst), shQuote(hits)))
    expect_equal(st4$status, 0)
    expect_match(paste(st4$err, collapse = "\n"),
                 "7 node\\(s\\) of the edges are not among the sequences")
    expect_match(rawToChar(st4$out), "tiny\t")
    unlink(c(hits, fa, mine, lst, d), recursive = TRUE)
})

test_that("order = \"name\" writes SynExtend's order: lines by name, clusters numbered in it", {
    f <- tempfile()
    set.seed(11)
    nm <- c("b", "a", "ab", "B", "a b", "Z9", "z", "\u00e9t\u00e9", "10", "9", "a\u00e9")
    e <- data.frame(from = sample(nm, 40, TRUE), to = sample(nm, 40, TRUE),
                    w = round(runif(40, 1, 5)))
    e <- e[e$from != e$to, ]
    writeLines(paste(e$from, e$to, e$w, sep = "\t"), f, useBytes = TRUE)
    set.seed(4)
    first <- ExoLabel(f, return_table = TRUE, cluster_table = TRUE, verbose = FALSE)
    set.seed(4)
    byname <- ExoLabel(f, return_table = TRUE, order = "name", cluster_table = TRUE,
                       verbose = FALSE)
    a <- first$results
    b <- byname$results
    # byte order of the names (C locale: R's radix sort)
    expect_identical(b$Vertex, sort(a$Vertex, method = "radix"))
    expect_false(identical(b$Vertex, a$Vertex)) # the default is unchanged
    # clusters numbered 1..K by first appearance in that listing
    expect_identical(b$Cluster, match(b$Cluster, unique(b$Cluster)))
    # the same partition, renumbered
    a2 <- a$Cluster[match(b$Vertex, a$Vertex)]
    expect_identical(match(a2, unique(a2)), b$Cluster)
    expect_false(identical(a2, b$Cluster))
    # the cluster table follows the numbers; the representatives are the same
    ct <- byname$cluster_table
    expect_identical(ct$Size, as.integer(tabulate(b$Cluster)))
    old <- first$cluster_table
    expect_setequal(ct$Representative, old$Representative)
    rm <- ClusterRepresentatives(byname)
    expect_identical(rm$Member, b$Vertex)
    # the command-line tool: the same bytes, --representatives in the same order
    cli <- Sys.getenv("EXOLABEL_CLI")
    if (nzchar(cli) && file.exists(cli)) {
        seed <- format(attr(byname, "stats")$seed, scientific = FALSE)
        out <- tempfile()
        mem <- tempfile()
        st <- run_cli(c("--order", "name", "--seed", seed, "-o", shQuote(out),
                        "--representatives", shQuote(mem), shQuote(f)))
        expect_equal(st$status, 0)
        expect_identical(ExoLabel:::.exolabel_read_results(out, "\t")$Vertex, b$Vertex)
        expect_identical(ExoLabel:::.exolabel_read_results(out, "\t")$Cluster, b$Cluster)
        expect_identical(readLines(mem, encoding = "bytes"),
                         paste(rm$Representative, rm$Member, sep = "\t"))
        unlink(c(out, mem))
    }
    expect_error(ExoLabel(f, order = "size"), "'order' must be one of")
    unlink(f)
})

test_that("an igraph graph giving communities refuses sequences; with outfile it takes them", {
    skip_if_not_installed("igraph")
    g <- igraph::make_graph(~ a - b, b - c, d - e)
    expect_error(ExoLabel(g, sequences = c("a", "z")), "igraph::add_vertices")
    out <- tempfile(fileext = ".tsv")
    res <- ExoLabel(g, outfile = out, sequences = c("a", "b", "c", "d", "e", "z"),
                    verbose = FALSE)
    expect_identical(tail(readLines(out), 1), paste0("z\t", max(ClusterMembership(res))))
    unlink(out)
})

test_that("an output that is the sequences file is refused before anything is read", {
    hits <- hits_file()
    fa <- fasta_file()
    before <- readLines(fa)
    expect_error(ExoLabel(hits, format = "blast", sequences = fa, outfile = fa),
                 "is the input file")
    expect_identical(readLines(fa), before)
    skip_if(!nzchar(Sys.getenv("EXOLABEL_CLI")), "EXOLABEL_CLI not set")
    st <- run_cli(c("--format", "blast", "--sequences", shQuote(fa), "--rep-fasta",
                    shQuote(fa), shQuote(hits)))
    expect_equal(st$status, 2)
    expect_match(paste(st$err, collapse = "\n"), "nothing was read or written")
    expect_identical(readLines(fa), before)
    unlink(c(hits, fa))
})
