# EstimateExoLabel() against a measured run (issue 56, the budget owner):
# the estimate takes its shares of memory_limit from the core's split
# (exo_budget.h, through the glue), and on a planted graph of 5 x 10^4
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
            disk <- e$peak_temp_disk / (v[["peak_temp_disk"]] + names_bytes)
            info <- sprintf("%s %s: RAM %.2f, disk %.2f", algo, mem, ram, disk)
            expect_true(ram >= 1 / 1.5 && ram <= 1.5, info = info)
            expect_true(disk >= 1 / 1.5 && disk <= 1.5, info = info)
        }
    }
})
