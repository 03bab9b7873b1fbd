# Search-tool tabular output read directly (issue 10): BLAST+/DIAMOND/MMseqs2
# 12-column lines, column selection, the -log10 e-value transform with its
# cap, min_weight, dropped self hits and the combination of q->s with s->q.
# The format's default weights are bit scores over self scores
# (test-selfnorm.R): the e-value transform is asked for by name here.
# Expected values are computed here in R from the generated hits.

# Hits among `k` families of `s` proteins: every ordered pair inside a family
# (both directions, with different e-values 1e-K, K whole, so that weights
# are exact), a self hit (e-value 0) per protein, and weak hits between
# families (e-values 1e-2 and 0.5, weights 2 and 0.3). Proteins are shuffled
# so that families are not contiguous in the file.
make_hits <- function(k = 5, s = 6, seed = 1) {
    set.seed(seed)
    prot <- sprintf("fam%d_p%d", rep(seq_len(k), each = s), rep(seq_len(s), k))
    fam <- rep(seq_len(k), each = s)
    pairs <- expand.grid(i = seq_along(prot), j = seq_along(prot))
    pairs <- pairs[fam[pairs$i] == fam[pairs$j], ]
    ev <- ifelse(pairs$i == pairs$j, "0",
                 sprintf("1e-%d", sample(5:60, nrow(pairs), replace = TRUE)))
    hits <- data.frame(q = prot[pairs$i], s = prot[pairs$j], evalue = ev)
    # weak hits between consecutive families
    for (f in seq_len(k - 1)) {
        a <- prot[fam == f][1]
        b <- prot[fam == f + 1][2]
        hits <- rbind(hits, data.frame(q = c(a, b), s = c(b, a), evalue = c("1e-2", "0.5")))
    }
    hits <- hits[sample(nrow(hits)), ]
    hits$bitscore <- sprintf("%.1f", 30 + 2 * nchar(hits$evalue))
    list(hits = hits, truth = stats::setNames(fam, prot))
}

# The hits as a DIAMOND/BLAST -outfmt 6 file (12 columns).
write_m8 <- function(hits, path = tempfile(fileext = ".m8")) {
    n <- nrow(hits)
    lines <- paste(hits$q, hits$s, sprintf("%.1f", 40 + (seq_len(n) %% 50)),
                   100 + seq_len(n) %% 7, 3, 0, 1, 100, 2, 101, hits$evalue, hits$bitscore,
                   sep = "\t")
    writeLines(lines, path)
    path
}

# -log10 of the e-values as ExoLabel defines it (cap 200 for 0).
neglog10 <- function(ev) pmin(-log10(as.numeric(ev)), 200)

test_that("a 12-column search output clusters into its families, same bytes from R and the CLI", {
    h <- make_hits()
    f <- write_m8(h$hits)
    set.seed(3)
    res <- ExoLabel(f, format = "blast", weight_transform = "neglog10", min_weight = 3, return_table = TRUE)
    m <- as_membership(res$results)
    expect_setequal(names(m), names(h$truth))
    expect_true(same_partition(m, h$truth))
    # stored arcs: one per direction of every unordered pair inside a family
    # (q->s and s->q combined, self hits dropped), none for the weak hits
    s <- 6
    expect_equal(res$graph_stats[["num_edges"]], 5 * s * (s - 1))
    expect_equal(res$graph_stats[["num_vertices"]], 30)
    input <- attr(res, "stats")$input
    expect_equal(input$columns, c(1L, 2L, 11L))
    expect_identical(c(input$weight_transform, input$self_hits, input$combine),
                     c("neglog10", "drop", "max"))

    # the command-line tool: same bytes for the same seed
    skip_on_os("windows")
    out <- tempfile()
    set.seed(4)
    r <- ExoLabel(f, format = "blast", weight_transform = "neglog10", min_weight = 3, outfile = out)
    seed <- format(attr(r, "stats")$seed, scientific = FALSE)
    cl <- run_cli(c("--seed", seed, "--format", "blast", "--weight-transform", "neglog10", "--min-weight", "3", shQuote(f)))
    expect_equal(cl$status, 0)
    expect_identical(cl$out, readBin(out, "raw", file.size(out)))
    # explicit options equal to the format's defaults give the same bytes too
    # (the clustering included: Leiden CPM at resolution auto)
    cl <- run_cli(c("--seed", seed, "--columns", "1,2,11", "--weight-transform", "neglog10",
                    "--self-hits", "drop", "--combine", "max", "--min-weight", "3",
                    "--algorithm", "leiden", "--objective", "cpm", "--resolution", "auto",
                    shQuote(f)))
    expect_identical(cl$out, readBin(out, "raw", file.size(out)))
    # --stats reports the resolution used, R's gamma to 10 digits
    cl <- run_cli(c("--seed", seed, "--format", "blast", "--weight-transform", "neglog10", "--min-weight", "3", "--stats",
                    "-o", shQuote(tempfile()), shQuote(f)))
    gam <- as.numeric(sub("^leiden_resolution\t", "",
                          grep("^leiden_resolution\t", cl$err, value = TRUE)))
    expect_equal(gam, unname(r$parameters[["resolution"]]), tolerance = 1e-9)
    # auto is CPM's; --format blast with --refine needs --algorithm lp
    cl <- run_cli(c("--format", "blast", "--weight-transform", "neglog10", "--algorithm", "lp", "--resolution", "auto",
                    shQuote(f)))
    expect_equal(cl$status, 2)
    expect_match(paste(cl$err, collapse = " "), "--resolution auto .* is for --algorithm leiden")
    cl <- run_cli(c("--format", "blast", "--weight-transform", "neglog10", "--refine", "2", shQuote(f)))
    expect_equal(cl$status, 2)
    expect_match(paste(cl$err, collapse = " "), "give --algorithm lp")
})

test_that("BLAST+ -outfmt 7 (comment lines) reads as -outfmt 6 with format = 'blast' only", {
    h <- make_hits()
    f6 <- write_m8(h$hits)
    body <- readLines(f6)
    # BLAST+'s comment lines: a block per query, and the last line
    f7 <- tempfile(fileext = ".m8")
    q <- sub("\t.*", "", body)
    starts <- which(!duplicated(q))
    lines <- character()
    for (i in seq_along(body)) {
        if (i %in% starts)
            lines <- c(lines, "# BLASTP 2.12.0+", paste("# Query:", q[i]),
                       "# Fields: query acc.ver, subject acc.ver, % identity, alignment length, mismatches, gap opens, q. start, q. end, s. start, s. end, evalue, bit score")
        lines <- c(lines, body[i])
    }
    writeLines(c(lines, "# BLAST processed 30 queries"), f7)
    out6 <- tempfile()
    out7 <- tempfile()
    set.seed(5)
    r6 <- ExoLabel(f6, format = "blast", outfile = out6)
    set.seed(5)
    r7 <- ExoLabel(f7, format = "blast", outfile = out7)
    expect_identical(readBin(out7, "raw", file.size(out7)), readBin(out6, "raw", file.size(out6)))
    expect_identical(r7$graph_stats, r6$graph_stats)
    # only comment lines (a search with no hit): no edges, with a warning
    f0 <- tempfile(fileext = ".m8")
    writeLines(c("# BLASTP 2.12.0+", "# Query: q1", "# 0 hits found"), f0)
    expect_warning(ExoLabel(f0, format = "blast", outfile = tempfile()),
                   "only blank, header or comment lines")
    # the plain edge-list format reads '#' lines as edges: an error that says so
    expect_error(ExoLabel(f7, outfile = tempfile()),
                 "m8:1: .*the line starts with '#': the blast format skips such comment lines")
    skip_on_os("windows")
    seed <- format(attr(r6, "stats")$seed, scientific = FALSE)
    cl <- run_cli(c("--seed", seed, "--format", "blast", shQuote(f7)))
    expect_equal(cl$status, 0)
    expect_identical(cl$out, readBin(out6, "raw", file.size(out6)))
})

test_that("format = 'blast' equals the pairs combined by max in R, byte for byte", {
    h <- make_hits(k = 4, s = 7, seed = 2)
    f <- write_m8(h$hits)
    # independent: keep, per unordered pair without self hits, the largest
    # -log10(e-value) (base R aggregate); nodes in order of first appearance
    w <- neglog10(h$hits$evalue)
    order_nodes <- unique(as.vector(rbind(h$hits$q, h$hits$s)))
    keep <- h$hits$q != h$hits$s
    pr <- data.frame(lo = pmin(h$hits$q, h$hits$s), hi = pmax(h$hits$q, h$hits$s), w = w)[keep, ]
    comb <- stats::aggregate(w ~ lo + hi, data = pr, FUN = max)
    comb <- comb[comb$w > 0, ]
    # register the nodes in the same order with weight-0 lines, then one
    # line per pair (both arcs from one line, as the max rule stores them)
    reg <- matrix(c(order_nodes, if (length(order_nodes) %% 2) order_nodes[1]), nrow = 2)
    plain <- tempfile(fileext = ".tsv")
    writeLines(c(paste(reg[1, ], reg[2, ], 0, sep = "\t"),
                 paste(comb$lo, comb$hi, comb$w, sep = "\t")), plain)
    for (seed in 1:3) {
        o1 <- tempfile()
        o2 <- tempfile()
        # label propagation (algorithm = "lp": format = "blast", weight_transform = "neglog10" alone runs
        # Leiden) and the format's default, Leiden CPM at 5e-5 x the mean
        # strength, against absolute CPM at the gamma it reports
        set.seed(seed)
        r1 <- ExoLabel(f, format = "blast", weight_transform = "neglog10", algorithm = "lp", outfile = o1)
        set.seed(seed)
        r2 <- ExoLabel(plain, outfile = o2)
        expect_identical(readBin(o1, "raw", file.size(o1)), readBin(o2, "raw", file.size(o2)))
        expect_equal(r1$graph_stats, r2$graph_stats)
        set.seed(seed)
        r1 <- ExoLabel(f, format = "blast", weight_transform = "neglog10", outfile = o1)
        gamma <- unname(r1$parameters[["resolution"]])
        expect_equal(gamma, 5e-5 * 2 * sum(comb$w) / length(order_nodes), tolerance = 1e-6)
        set.seed(seed)
        r2 <- ExoLabel(plain, algorithm = "leiden", objective = "CPM", resolution = gamma,
                       outfile = o2)
        expect_identical(readBin(o1, "raw", file.size(o1)), readBin(o2, "raw", file.size(o2)))
    }
    expect_equal(r1$graph_stats[["num_edges"]], 2 * nrow(comb))
})

test_that("combine = 'sum', self_hits = 'keep', columns and min_weight count as computed in R", {
    h <- make_hits(k = 3, s = 5, seed = 5)
    f <- write_m8(h$hits)
    w <- neglog10(h$hits$evalue)
    self <- h$hits$q == h$hits$s
    # sum: every hit with a positive weight stored from both ends
    r <- ExoLabel(f, format = "blast", weight_transform = "neglog10", combine = "sum")
    expect_equal(r$graph_stats[["num_edges"]], 2 * sum(w > 0 & !self))
    # self hits kept: one arc each
    r <- ExoLabel(f, format = "blast", weight_transform = "neglog10", combine = "sum", self_hits = "keep")
    expect_equal(r$graph_stats[["num_edges"]], 2 * sum(w > 0 & !self) + sum(self))
    # threshold on the transformed weight: e-value <= 1e-20
    r <- ExoLabel(f, format = "blast", weight_transform = "neglog10", combine = "sum", min_weight = 20)
    expect_equal(r$graph_stats[["num_edges"]], 2 * sum(w >= 20 & !self))
    expect_equal(r$graph_stats[["num_vertices"]], 15) # nodes of dropped edges stay
    # bitscore (column 12) without transform, as the benchmark compares
    r <- ExoLabel(f, columns = c(1, 2, 12), weight_transform = "none", self_hits = "drop",
                  combine = "max", return_table = TRUE)
    pairs <- unique(paste(pmin(h$hits$q, h$hits$s), pmax(h$hits$q, h$hits$s))[!self])
    expect_equal(r$graph_stats[["num_edges"]], 2 * length(pairs))
    # columns 2 and 1 (subject first) and no weight column
    r2 <- ExoLabel(f, columns = c(2, 1), self_hits = "drop", combine = "max")
    expect_equal(r2$graph_stats[["num_edges"]], 2 * length(pairs))
})

test_that("plain edge lists keep today's meaning; extra columns are read past (SynExtend)", {
    df <- clique_ring(k = 3, s = 5)
    f3 <- write_edges(df)
    f5 <- tempfile(fileext = ".tsv")
    writeLines(paste(df$a, df$b, df$w, "extra", 99, sep = "\t"), f5)
    set.seed(8)
    r3 <- ExoLabel(f3, return_table = TRUE)
    set.seed(8)
    r5 <- ExoLabel(f5, return_table = TRUE)
    expect_identical(r5$results, r3$results)
    expect_equal(r5$graph_stats, r3$graph_stats)
    # duplicates and reversed duplicates all kept (their weights add up),
    # self-loops kept: SynExtend's semantics
    dup <- tempfile(fileext = ".tsv")
    writeLines(c("a\tb\t1", "b\ta\t2", "a\tb\t3", "a\ta\t1"), dup)
    expect_equal(ExoLabel(dup)$graph_stats[["num_edges"]], 7)
    expect_equal(ExoLabel(dup, combine = "max")$graph_stats[["num_edges"]], 3)
    expect_equal(ExoLabel(dup, combine = "max", self_hits = "drop")$graph_stats[["num_edges"]], 2)
})

test_that("in-memory inputs take the weight options; tables take format and columns", {
    df <- data.frame(a = c("x", "y", "x", "z"), b = c("y", "x", "x", "w"),
                     e = c(1e-10, 1e-30, 0, 0.5))
    r <- ExoLabel(df, weight_transform = "neglog10", self_hits = "drop", combine = "max",
                  min_weight = 1)
    expect_equal(unname(r$graph_stats), c(4, 2))
    # format = "blast", weight_transform = "neglog10" and columns on a table select its columns as in a file
    # (issue 24 item 8); igraph graphs and matrices have no columns
    expect_error(ExoLabel(df, format = "blast", weight_transform = "neglog10"), "asks for column 11 but the edge list has 3")
    r3 <- ExoLabel(df, columns = c(1, 2, 3), weight_transform = "neglog10",
                   self_hits = "drop", combine = "max", min_weight = 1)
    expect_equal(r3$graph_stats, r$graph_stats)
    if (requireNamespace("igraph", quietly = TRUE))
        expect_error(ExoLabel(igraph::make_ring(3), format = "blast", weight_transform = "neglog10"),
                     "not of an igraph graph or a matrix")
    expect_error(ExoLabel(data.frame(a = "x", b = "y", e = -1), weight_transform = "neglog10"),
                 "e-value -1 is negative")
})

test_that("bad options and bad lines give clear errors naming the file and line", {
    h <- make_hits(k = 2, s = 3)
    f <- write_m8(h$hits)
    expect_error(ExoLabel(f, format = "tsv"),
                 "'format' must be one of \"edges\", \"blast\" (any case), not \"tsv\"",
                 fixed = TRUE)
    # the core's messages (src/core/exo_options.c, exo_parse.c)
    expect_error(ExoLabel(f, columns = c(1, 2, 11, 12)), "'columns' must be two or three")
    expect_error(ExoLabel(f, columns = c(0, 2)), "'columns' must be two or three")
    expect_error(ExoLabel(f, columns = c(1.5, 2)), "'columns' must be two or three")
    expect_error(ExoLabel(f, columns = c(2, 2, 3)), "'columns': the two node columns must differ")
    expect_error(ExoLabel(f, columns = c(1, 2), weight_transform = "neglog10"),
                 "needs a weight column")
    expect_error(ExoLabel(f, weight_transform = "log"), "'weight_transform' must be")
    expect_error(ExoLabel(f, self_hits = TRUE), "'self_hits' must be")
    expect_error(ExoLabel(f, combine = "mean"), "'combine' must be")
    expect_error(ExoLabel(f, min_weight = NA), "'min_weight' must be")
    expect_error(ExoLabel(f, min_weight = c(1, 2)), "'min_weight' must be")
    d <- fresh_dir()
    short <- file.path(d, "short.m8")
    writeLines(c(readLines(f)[1:2], "q1\ts1\t90\t100\t1e-5"), short)
    expect_error(ExoLabel(short, format = "blast", weight_transform = "neglog10", tempfiledir = d),
                 "short\\.m8:3: expected at least 11 fields separated by tab \\(nodes in columns 1 and 2, weight in 11\\), found 5")
    bad <- file.path(d, "bad.m8")
    l <- strsplit(readLines(f)[1], "\t")[[1]]
    l[11] <- "1e-5x"
    writeLines(c(readLines(f)[1], paste(l, collapse = "\t")), bad)
    expect_error(ExoLabel(bad, format = "blast", weight_transform = "neglog10", tempfiledir = d),
                 "bad\\.m8:2: e-value '1e-5x' \\(column 11\\) is not a number")
    l[11] <- "-1e-5"
    writeLines(paste(l, collapse = "\t"), bad)
    expect_error(ExoLabel(bad, format = "blast", weight_transform = "neglog10", tempfiledir = d),
                 "bad\\.m8:1: e-value '-1e-5' \\(column 11\\) is negative")
    expect_length(stray_files(d), 0)

    skip_on_os("windows")
    for (args in list(c("--format", "m8"), c("--columns", "1,2,3,4"), c("--columns", "0,2"),
                      c("--columns", "1,x"), c("--columns", "2,2"),
                      c("--weight-transform", "log"), c("--self-hits", "yes"),
                      c("--combine", "avg"), c("--min-weight", "abc"),
                      c("--columns", "1,2", "--weight-transform", "neglog10")))
        expect_equal(run_cli(c(args, shQuote(f)))$status, 2, info = paste(args, collapse = " "))
    e <- run_cli(c("--format", "blast", "--weight-transform", "neglog10", shQuote(short)))
    expect_equal(e$status, 3)
    expect_match(e$err, "short.m8:3: expected at least 11 fields", fixed = TRUE)
    help <- rawToChar(run_cli("--help")$out)
    for (opt in c("--format", "--columns", "--weight-transform", "--min-weight",
                  "--self-hits", "--combine"))
        expect_match(help, opt, fixed = TRUE)
})

test_that("12-column search output read as a plain edge list gets a warning (issue 24 item 8)", {
    h <- make_hits(k = 3, s = 4)
    d <- fresh_dir()
    f <- write_m8(h$hits, file.path(d, "hits.m8"))
    # SynExtend's meaning of the first three columns is kept, with a warning
    set.seed(2)
    expect_warning(plain <- ExoLabel(f, return_table = TRUE, tempfiledir = d),
                   "'hits.m8' looks like BLAST/DIAMOND/MMseqs2 tabular output.*format = \"blast\"")
    # weights are column 3 and self hits stay: 2 arcs per line but 1 per self hit
    self <- sum(h$hits$q == h$hits$s)
    expect_equal(plain$graph_stats[["num_edges"]], 2 * nrow(h$hits) - self)
    # choosing the format or the columns silences it; so does a plain 3-column file
    expect_silent(ExoLabel(f, format = "edges", tempfiledir = d))
    expect_silent(ExoLabel(f, format = "blast", weight_transform = "neglog10", tempfiledir = d))
    expect_silent(ExoLabel(f, columns = c(1, 2, 12), tempfiledir = d))
    three <- file.path(d, "three.tsv")
    writeLines(sub("^([^\t]*\t[^\t]*\t[^\t]*).*$", "\\1", readLines(f)), three)
    expect_silent(ExoLabel(three, tempfiledir = d))
    # gzip too
    gz <- file.path(d, "hits.m8.gz")
    con <- gzfile(gz, "w"); writeLines(readLines(f), con); close(con)
    expect_warning(ExoLabel(gz, tempfiledir = d), "looks like BLAST")
    # a data.frame of 12 columns: the same warning, and format = "blast", weight_transform = "neglog10" works on it
    df <- utils::read.delim(f, header = FALSE, colClasses = c("character", "character",
                                                              rep("numeric", 10)))
    expect_warning(ExoLabel(df), "the edge list looks like BLAST")
    set.seed(5)
    from_df <- ExoLabel(df, format = "blast", weight_transform = "neglog10", return_table = TRUE)
    set.seed(5)
    from_file <- ExoLabel(f, format = "blast", weight_transform = "neglog10", return_table = TRUE, tempfiledir = d)
    expect_equal(from_df$graph_stats, from_file$graph_stats)
    expect_true(same_partition(as_membership(from_df$results),
                               as_membership(from_file$results)))
    # the CLI warns too, and not with --format
    skip_on_os("windows")
    r <- run_cli(c("--seed", "1", f))
    expect_equal(r$status, 0)
    expect_true(any(grepl("looks like BLAST/DIAMOND/MMseqs2.*--format blast", r$err)))
    r <- run_cli(c("--seed", "1", "--format", "blast", "--weight-transform", "neglog10", f))
    expect_false(any(grepl("looks like", r$err)))
    expect_length(stray_files(d), 0)
    unlink(d, recursive = TRUE)
})

test_that("a search file of only self hits says that the self hits were dropped (issue 53)", {
    old <- options(ExoLabel.oversubscribe = TRUE)
    on.exit(options(old))
    d <- fresh_dir()
    p <- sprintf("p%d", 1:500)
    selfs <- data.frame(q = p, s = p, evalue = "0", bitscore = "120.5")
    f <- write_m8(selfs, file.path(d, "self.m8"))
    # every weight is positive: "no edge with a positive weight" was wrong
    # (the e-value transform, bit scores over self scores, raw bit scores)
    for (wt in c("selfnorm", "neglog10", "none")) for (th in 1:2) {
        cols <- if (wt == "none") c(1, 2, 12)
        expect_warning(res <- ExoLabel(f, format = "blast", weight_transform = wt, threads = th,
                                       columns = cols, tempfiledir = d, return_table = TRUE),
                       paste("no edge with a positive weight between two different nodes:",
                             "the self hits \\(edges from a node to itself\\) were dropped"))
        expect_equal(res$graph_stats[["num_vertices"]], 500)
        expect_equal(res$graph_stats[["num_edges"]], 0)
        expect_setequal(res$results$Vertex, p)
        expect_equal(length(unique(res$results$Cluster)), 500)
    }
    # kept, they are edges: no warning
    expect_no_warning(ExoLabel(f, format = "blast", self_hits = "keep", tempfiledir = d,
                               return_table = TRUE))
    # self hits below min_weight (or of weight 0: the e-values 0 read raw) were
    # not dropped as self hits
    expect_warning(ExoLabel(f, format = "blast", weight_transform = "none", tempfiledir = d,
                            return_table = TRUE),
                   "no edge with a positive weight: every node is its own cluster")
    expect_warning(ExoLabel(f, format = "blast", weight_transform = "none", columns = c(1, 2, 12),
                            min_weight = 200, tempfiledir = d, return_table = TRUE),
                   "no edge with a positive weight: every node is its own cluster")
    # in-memory edge lists too (self_hits = "drop" asked for)
    expect_warning(ExoLabel(data.frame(a = c("x", "y", "y"), b = c("x", "y", "z"), w = c(2, 1, 0)),
                            self_hits = "drop", return_table = TRUE),
                   "the self hits \\(edges from a node to itself\\) were dropped")
    expect_length(stray_files(d), 0)
})

test_that("columns after the 12 (qlen slen, qcov tcov) are read past: same clusters (issue 54 item 3)", {
    h <- make_hits()
    f12 <- write_m8(h$hits)
    body <- readLines(f12)
    n <- length(body)
    extra <- list(qlen_slen = paste(body, 300 + seq_len(n) %% 11, 310 + seq_len(n) %% 13, sep = "\t"),
                  qcov_tcov = paste(body, "0.950", "1.000", sep = "\t"),
                  one_more = paste(body, "97.5", sep = "\t"),
                  six_more = paste(body, 300, 310, 95, 96, "0.95", "x y", sep = "\t"))
    run <- function(f, ...) {
        out <- tempfile()
        set.seed(8)
        r <- ExoLabel(f, format = "blast", outfile = out, ...)
        list(bytes = readBin(out, "raw", file.size(out)), graph = r$graph_stats,
             seed = format(attr(r, "stats")$seed, scientific = FALSE))
    }
    ref <- run(f12)
    ref_neg <- run(f12, weight_transform = "neglog10")
    for (k in names(extra)) {
        f <- tempfile(fileext = ".tsv")
        writeLines(extra[[k]], f)
        r <- run(f)
        expect_identical(r$bytes, ref$bytes, info = k)
        expect_identical(r$graph, ref$graph, info = k)
        expect_identical(run(f, weight_transform = "neglog10")$bytes, ref_neg$bytes, info = k)
        if (.Platform$OS.type != "windows" && nzchar(Sys.getenv("EXOLABEL_CLI"))) {
            cl <- run_cli(c("--seed", ref$seed, "--format", "blast", shQuote(f)))
            expect_equal(cl$status, 0)
            expect_identical(cl$out, ref$bytes, info = k)
        }
    }
    # another column order: columns names the bit score, the rest of the
    # format's defaults stay (the header line is skipped, not read)
    fields <- strsplit(body, "\t", fixed = TRUE)
    f4 <- tempfile(fileext = ".tsv")
    writeLines(c("qseqid\tsseqid\tbitscore\tevalue\tqlen\tslen",
                 vapply(fields, function(x) paste(x[1], x[2], x[12], x[11], 300, 310, sep = "\t"), "")),
               f4)
    expect_identical(run(f4, header = TRUE, columns = c(1, 2, 3))$bytes, ref$bytes)
    # without columns the header's names place them (with or without
    # header = TRUE): the same graph, less the pairs of the weak-hit rule;
    # no coordinates are named, so no region rule
    by_col <- ExoLabel(f4, format = "blast", header = TRUE, columns = c(1, 2, 3),
                       outfile = tempfile(), verbose = FALSE)
    for (h in c(TRUE, FALSE)) {
        by_name <- ExoLabel(f4, format = "blast", header = h, outfile = tempfile(),
                            verbose = FALSE)
        b <- attr(by_name, "stats")$bridges
        expect_equal(unname(b[["region_pairs_removed"]]), 0)
        expect_equal(unname(by_name$graph_stats[["num_edges"]]),
                     unname(by_col$graph_stats[["num_edges"]]) - 2 * b[["weak_pairs_removed"]])
        expect_equal(unname(by_name$graph_stats[["num_vertices"]]),
                     unname(by_col$graph_stats[["num_vertices"]]))
    }
    # the help says which columns the default reads and that the rest are not used
    skip_on_os("windows")
    help <- gsub("\\s+", " ", rawToChar(run_cli("--help")$out))
    expect_match(help, "e.g. qlen slen or qcov tcov, are read past, unused", fixed = TRUE)
    expect_match(help, "reads the query (1), subject (2) and bit score (12)", fixed = TRUE)
    expect_match(help, "a protein without a self hit takes its best hit's", fixed = TRUE)
    expect_match(help, "--format blast --columns 1,2,3", fixed = TRUE)
})
