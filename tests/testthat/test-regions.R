# Issue 54: the region rule of format = "blast" (bridges = "cut", the
# default on files): a fusion protein made of a domain of family A and a
# domain of family B does not chain the two families.

fusion_m8 <- function(n = 6) {
    a <- paste0("a", seq_len(n))
    b <- paste0("b", seq_len(n))
    hit <- function(q, s, qs, qe, ss, se, bits)
        data.frame(q = q, s = s, pident = 50, len = 100, mism = 50, gap = 0, qs = qs,
                   qe = qe, ss = ss, se = se, evalue = 1e-20, bits = bits)
    fam <- function(m) {
        p <- expand.grid(q = m, s = m, stringsAsFactors = FALSE)
        hit(p$q, p$s, 1, 100, 1, 100, ifelse(p$q == p$s, 200, 90))
    }
    x <- rbind(fam(a), fam(b),
               hit("F", "F", 1, 200, 1, 200, 400),
               hit(a, "F", 1, 100, 1, 100, 80),     # the A domain of F: 1-100
               hit("F", b, 101, 200, 1, 100, 70))   # the B domain: 101-200
    f <- tempfile(fileext = ".m8")
    utils::write.table(x, f, sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
    list(file = f, a = a, b = b, table = x)
}

cluster_of <- function(r, ids) r$results$Cluster[match(ids, r$results$Vertex)]

test_that("a two-domain fusion joins its strongest domain's family, not both", {
    w <- fusion_m8()
    on.exit(unlink(w$file))
    r <- ExoLabel(w$file, format = "blast", return_table = TRUE, verbose = FALSE)
    ca <- cluster_of(r, c(w$a, "F"))
    cb <- cluster_of(r, w$b)
    expect_length(unique(ca), 1L)
    expect_length(unique(cb), 1L)
    expect_false(ca[1] == cb[1])
    expect_equal(attr(r, "stats")$input$bridges, "cut")
    expect_equal(unname(attr(r, "stats")$bridges[["proteins_split"]]), 1)
    expect_equal(unname(attr(r, "stats")$bridges[["region_pairs_removed"]]), length(w$b))
    # bridges = "keep" keeps F's hits to B: the default CPM then returns the
    # one connected component
    r_all <- ExoLabel(w$file, format = "blast", bridges = "keep", return_table = TRUE,
                      verbose = FALSE)
    expect_length(unique(cluster_of(r_all, c(w$a, w$b, "F"))), 1L)
    expect_equal(unname(attr(r_all, "stats")$bridges[["region_pairs_removed"]]), 0)
    expect_equal(attr(r_all, "stats")$input$bridges, "keep")
})

test_that("the command-line tool applies the same rule by default", {
    cli <- Sys.getenv("EXOLABEL_CLI")
    skip_if(!nzchar(cli) || !file.exists(cli), "EXOLABEL_CLI not set")
    w <- fusion_m8()
    out <- tempfile(fileext = ".tsv")
    on.exit(unlink(c(w$file, out)))
    expect_equal(system2(cli, c("--format", "blast", "-o", out, w$file), stdout = FALSE,
                         stderr = FALSE), 0L)
    r <- utils::read.delim(out, header = FALSE, col.names = c("Vertex", "Cluster"))
    set.seed(1)
    ref <- ExoLabel(w$file, format = "blast", return_table = TRUE, verbose = FALSE)$results
    same <- table(r$Cluster[match(ref$Vertex, r$Vertex)], ref$Cluster)
    expect_equal(sum(same > 0), length(unique(ref$Cluster))) # the same partition
    expect_equal(length(unique(r$Cluster)), length(unique(ref$Cluster)))
    expect_equal(length(unique(ref$Cluster)), 2L)
    expect_equal(system2(cli, c("--format", "blast", "--bridges", "keep", "-o", out, w$file),
                         stdout = FALSE, stderr = FALSE), 0L)
    expect_length(unique(utils::read.delim(out, header = FALSE)[[2]]), 1L)
})

test_that("regions is refused where there are no coordinates, naming the argument", {
    w <- fusion_m8()
    on.exit(unlink(w$file))
    expect_error(ExoLabel(w$file, format = "blast", columns = c(1, 2, 12),
                          bridges = "cut", mode = "directed", verbose = FALSE),
                 "bridges")
    expect_error(ExoLabel(w$file, format = "edges", bridges = "cut", verbose = FALSE),
                 "'bridges' cut")
    expect_error(ExoLabel(w$file, format = "blast", bridges = "sometimes", verbose = FALSE),
                 "bridges")
    # a table has no region rule: refused when asked for, off by default
    expect_error(ExoLabel(w$table, format = "blast", bridges = "cut", verbose = FALSE),
                 "file's path")
    r <- ExoLabel(w$table, format = "blast", return_table = TRUE, verbose = FALSE)
    expect_equal(attr(r, "stats")$input$bridges, "keep")
})

test_that("search output with a header of column names is read by name", {
    # DIAMOND --header simple: the names line first, the columns in another
    # order, qlen slen added; the same clusters as the 12 standard columns
    w <- fusion_m8()
    x <- w$table
    named <- data.frame(qseqid = x$q, sseqid = x$s, evalue = x$evalue, bitscore = x$bits,
                        qlen = 300, qstart = x$qs, qend = x$qe, sstart = x$ss, send = x$se,
                        slen = 300)
    f2 <- tempfile(fileext = ".m8")
    on.exit(unlink(c(w$file, f2)))
    utils::write.table(named, f2, sep = "\t", quote = FALSE, row.names = FALSE)
    set.seed(3)
    a <- ExoLabel(w$file, format = "blast", return_table = TRUE, verbose = FALSE)
    set.seed(3)
    b <- ExoLabel(f2, format = "blast", return_table = TRUE, verbose = FALSE)
    expect_identical(a$results, b$results)
    expect_equal(attr(b, "stats")$bridges[["region_pairs_removed"]],
                 attr(a, "stats")$bridges[["region_pairs_removed"]])
})
