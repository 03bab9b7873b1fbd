# EstimateExoLabel() against a measured run (issue 56, the budget owner):
# the estimate is the core's (exo_estimate.h, through the glue), which
# takes its shares of memory_limit from the core's split (exo_budget.h)
# and its bytes per node from the modules' headers, and on a planted graph of 5 x 10^4
# nodes and 5 x 10^5 edges its peak memory and peak temporary disk are
# within 1.5x of what the command-line tool measures (peak_rss; the core's
# peak_temp_disk plus the names file), for label propagation and Leiden,
# at a small and a large memory_limit. benchmarks/ESTIMATES.md does the
# same on larger graphs.

planted_file <- function(path, n = 50000L, m = 500000L, k = 500L) {
    set.seed(1)
    comm <- sample.int(k, n, TRUE)
    members <- split(seq_len(n), comm)
    a <- sample.int(n, m, TRUE)
    inside <- runif(m) < 0.8
    b <- sample.int(n, m, TRUE)
    pick <- function(c) { p <- members[[c]]; p[sample.int(length(p), 1L)] }
    b[inside] <- vapply(comm[a[inside]], pick, 1L)
    writeLines(sprintf("prot_%06d\tprot_%06d\t%.3f", a, b, runif(m, 0.1, 1)), path)
    path
}

test_that("the estimate's shares are the core's split", {
    tab <- ExoLabel:::.exolabel_budget(2L)
    expect_true(all(c("lp_read", "refine_read", "refine_table", "leiden_read") %in%
                    tab$shares$name))
    # 256 MiB: label propagation's read window is a quarter, split among
    # the workers, at most 64 MiB each (exo_budget.h)
    expect_equal(ExoLabel:::.exolabel_budget_share(2^28, "lp_read", 2), 2^25)
    expect_equal(ExoLabel:::.exolabel_budget_share(2^32, "lp_read", 2), 2^26)
    expect_equal(tab$parse_reserve, 18 * 2^20)
    expect_error(ExoLabel:::.exolabel_budget_share(2^28, "no_such_share", 1), "no_such_share")
})

test_that("EstimateExoLabel's figures are the core's estimate", {
    # exo_estimate.h through the glue: R adds nothing to the breakdown
    core <- ExoLabel:::.exolabel_budget_estimate(1e6, 2e7, 2^28, 1L, "leiden", FALSE, TRUE, 10)
    e <- attr(EstimateExoLabel(1e6, num_edges = 2e7, memory_limit = 2^28, threads = 1,
                               algorithm = "leiden"), "details")
    expect_identical(e$stages, core$stages)
    expect_identical(e$peak_ram, core$peak_ram)
    expect_identical(e$stages$stage, c("read", "sort", "cluster", "refine", "output"))
    # attenuation adds its 8 bytes per node (exo_lp.h: the hop distance and
    # its published copy) to label propagation only
    lp <- function(att) attr(EstimateExoLabel(1e6, num_edges = 2e7, memory_limit = 2^28,
                                              threads = 1, attenuation = att), "details")$stages
    expect_equal(lp(0.5)$ram - lp(FALSE)$ram, c(0, 0, 8e6, 0, 0))
    expect_error(ExoLabel:::.exolabel_budget_estimate(1, 1, 2^20, 1L, "nope", FALSE, TRUE, 10),
                 "nope")
})

test_that("EstimateExoLabel is within 1.5x of a measured run", {
    cli <- cli_path()
    d <- tempfile("est")
    dir.create(d)
    on.exit(unlink(d, recursive = TRUE))
    g <- planted_file(file.path(d, "g.tsv"))
    for (algo in c("lp", "leiden")) {
        for (mem in c("64MB", "1GB")) {
            st <- file.path(d, "stats.txt")
            status <- system2(cli, c("--stats", "--seed", "1", "--threads", "2",
                                     "--memory-limit", mem, "--algorithm", algo,
                                     "--tempdir", d, "-o", file.path(d, "out.tsv"), g),
                              stdout = FALSE, stderr = st)
            expect_identical(status, 0L)
            kv <- read.delim(st, header = FALSE, col.names = c("k", "v"))
            v <- setNames(suppressWarnings(as.numeric(kv$v)), kv$k)
            names_bytes <- v[["nodes"]] * (nchar("prot_000000") + 1)
            e <- attr(EstimateExoLabel(g, memory_limit = mem, threads = 2, algorithm = algo),
                      "details")
            ram <- e$peak_ram / v[["peak_rss"]]
            # the sort's peak, or Leiden's own files beside the graph's CSR
            # (8 bytes per offset and per arc) when they are more
            sorted <- v[["peak_temp_disk"]]
            if (algo == "leiden")
                sorted <- max(sorted, 8 * (v[["nodes"]] + 1 + v[["arcs"]]) + v[["leiden_temp_disk"]])
            disk <- e$peak_temp_disk / (sorted + names_bytes)
            info <- sprintf("%s %s: RAM %.2f, disk %.2f", algo, mem, ram, disk)
            expect_true(ram >= 1 / 1.5 && ram <= 1.5, info = info)
            expect_true(disk >= 1 / 1.5 && disk <= 1.5, info = info)
        }
    }
})
