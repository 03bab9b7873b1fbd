# What verbose runs say (issue 55 item 10): one line per stage and per Leiden
# level for the user, the internals only at the debug level.

feedback_graph <- function(d) {
    set.seed(3)
    k <- 40
    s <- 12
    grp <- rep(seq_len(k), each = s)
    n <- k * s
    from <- sample.int(n, 6000, replace = TRUE)
    to <- ifelse(stats::runif(6000) < 0.9,
                 (grp[from] - 1L) * s + sample.int(s, 6000, replace = TRUE),
                 sample.int(n, 6000, replace = TRUE))
    keep <- from != to
    f <- file.path(d, "g.tsv")
    utils::write.table(data.frame(paste0("v", from[keep]), paste0("v", to[keep]), 1),
                       f, sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
    f
}

internals <- "caller's thread CPU|parser threads|run thread|node visits \\(0|refinement: [0-9]+ threads|coarse ids"

test_that("exolabel -v says one line per stage and per Leiden level; -vv adds the internals", {
    exe <- cli_path()
    d <- fresh_dir()
    f <- feedback_graph(d)
    err <- tempfile()
    st <- system2(exe, c("-v", "--algorithm", "leiden", "-o", shQuote(file.path(d, "o.tsv")),
                         shQuote(f)), stdout = FALSE, stderr = err)
    expect_equal(st, 0)
    lines <- grep("^exolabel: ", readLines(err), value = TRUE)
    expect_false(any(grepl(internals, lines)))
    expect_true(any(grepl("^exolabel: leiden level 0: [0-9]+ nodes, [0-9]+ arcs: [0-9]+ communities in", lines)))
    expect_true(any(grepl("^exolabel: leiden iteration 1: quality", lines)))
    expect_false(any(grepl("aggregating a level: 0 arcs", lines)))
    expect_true(any(grepl("^exolabel: writing clusters", lines)))
    levels <- sum(grepl("leiden level", lines))
    expect_lte(length(lines), levels + 8)
    st <- system2(exe, c("-vv", "--algorithm", "leiden", "-o", shQuote(file.path(d, "o.tsv")),
                         shQuote(f)), stdout = FALSE, stderr = err)
    expect_equal(st, 0)
    lines <- readLines(err)
    expect_true(any(grepl("^exolabel: \\[debug\\] leiden level 0: .*caller's thread CPU", lines)))
    # label propagation: the merge passes say what they did, after the clustering line
    st <- system2(exe, c("-v", "-o", shQuote(file.path(d, "o.tsv")), shQuote(f)),
                  stdout = FALSE, stderr = err)
    lines <- grep("^exolabel: ", readLines(err), value = TRUE)
    expect_false(any(grepl(internals, lines)))
    i <- grep("^exolabel: merge passes: [0-9]+ merges? of clusters in [0-9]+ pass", lines)
    expect_length(i, 1)
    expect_lt(grep("^exolabel: clustering", lines), i)
})

test_that("verbose R runs keep the internals for options(ExoLabel.debug = TRUE)", {
    d <- fresh_dir()
    f <- feedback_graph(d)
    msgs <- function(debug) {
        old <- options(ExoLabel.progress_bars = FALSE, ExoLabel.debug = debug)
        on.exit(options(old))
        out <- character()
        withCallingHandlers(
            ExoLabel(f, algorithm = "leiden", verbose = TRUE, tempfiledir = d),
            message = function(m) {
                out <<- c(out, conditionMessage(m))
                invokeRestart("muffleMessage")
            })
        out
    }
    plain <- msgs(FALSE)
    expect_true(any(grepl("leiden level 0: [0-9]+ nodes", plain)))
    expect_false(any(grepl(internals, plain)))
    expect_false(any(grepl("[debug]", plain, fixed = TRUE)))
    debug <- msgs(TRUE)
    expect_true(any(grepl("[debug] leiden level 0:", debug, fixed = TRUE)))
    # Leiden's steps give no "done: 0 node visits" lines, and a stage's line
    # comes before what the next step says (label propagation, then the merge
    # passes)
    expect_false(any(grepl("done: 0 ", plain)))
    old <- options(ExoLabel.progress_bars = FALSE, ExoLabel.debug = FALSE)
    on.exit(options(old))
    lp <- character()
    withCallingHandlers(ExoLabel(f, verbose = TRUE, tempfiledir = d),
                        message = function(m) {
                            lp <<- c(lp, conditionMessage(m))
                            invokeRestart("muffleMessage")
                        })
    i <- grep("merge passes: [0-9]+ merges? of clusters", lp)
    expect_length(i, 1)
    expect_lt(grep("label propagation done", lp), i)
})
