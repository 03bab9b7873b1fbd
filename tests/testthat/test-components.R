# algorithm = "components" (issue 56): single linkage, every connected
# component of the graph one cluster, checked against igraph::components()
# on the same edges, from R and from the command-line tool.

components_graph <- function(n = 400, m = 330, seed = 56) {
    set.seed(seed)
    df <- data.frame(a = paste0("v", sample.int(n, m, replace = TRUE)),
                     b = paste0("v", sample.int(n, m, replace = TRUE)),
                     w = sample(c(0, 0.5, 1, 2), m, replace = TRUE))
    df
}

# igraph's components over the edges with a positive weight, every node kept
igraph_membership <- function(df) {
    g <- igraph::graph_from_data_frame(df[df$w > 0, 1:2], directed = FALSE,
                                       vertices = unique(c(df$a, df$b)))
    igraph::components(g)$membership
}

test_that("components are igraph's connected components (file input)", {
    skip_if_not_installed("igraph")
    df <- components_graph()
    f <- write_edges(df)
    on.exit(unlink(f))
    want <- igraph_membership(df)
    r <- ExoLabel(f, algorithm = "components", return_table = TRUE, verbose = FALSE,
                  cluster_table = TRUE)
    got <- as_membership(r$results)
    expect_setequal(names(got), names(want))
    expect_true(same_partition(want, got))
    st <- attr(r, "stats")
    expect_identical(st$algorithm, "components")
    expect_identical(attr(r$parameters, "algorithm"), "components")
    expect_length(r$parameters, 0L)
    expect_equal(st$num_clusters, max(want))
    expect_equal(st$largest_cluster, max(tabulate(want)))
    expect_equal(sum(r$cluster_table$Size), length(want))
    expect_output(print(r), "parameters: components")
    # the same bytes for any threads and memory_limit, and the abbreviation
    o1 <- tempfile(fileext = ".tsv")
    o2 <- tempfile(fileext = ".tsv")
    on.exit(unlink(c(o1, o2)), add = TRUE)
    ExoLabel(f, o1, algorithm = "components", threads = 1, verbose = FALSE)
    ExoLabel(f, o2, algorithm = "COMP", threads = 2, memory_limit = "1MB", verbose = FALSE)
    expect_identical(readLines(o1), readLines(o2))
})

test_that("the other methods' options are refused with components", {
    df <- components_graph(40, 30)
    f <- write_edges(df)
    on.exit(unlink(f))
    expect_error(ExoLabel(f, algorithm = "components", resolution = 0.5, verbose = FALSE),
                 "'resolution' is not used by algorithm = \"components\"", fixed = TRUE)
    expect_error(ExoLabel(f, algorithm = "components", refine = 2, verbose = FALSE),
                 "'refine' is not used", fixed = TRUE)
    expect_error(ExoLabel(f, algorithm = "components", iterations = 5, verbose = FALSE),
                 "'iterations' is not used", fixed = TRUE)
    expect_error(ExoLabel(f, algorithm = "louvain", verbose = FALSE),
                 "\"lp\", \"leiden\", \"components\"", fixed = TRUE)
})

test_that("format = \"blast\" clusters by components when asked (bridges still cut)", {
    h <- tempfile(fileext = ".tsv")
    on.exit(unlink(h))
    hit <- function(q, s, bits) sprintf("%s\t%s\t90\t100\t0\t0\t1\t100\t1\t100\t1e-30\t%g",
                                        q, s, bits)
    writeLines(c(hit("p1", "p1", 200), hit("p2", "p2", 200), hit("p3", "p3", 200),
                 hit("p1", "p2", 150), hit("p3", "p4", 100), hit("p5", "p5", 100)), h)
    r <- ExoLabel(h, format = "blast", algorithm = "components", return_table = TRUE,
                  verbose = FALSE)
    m <- as_membership(r$results)
    expect_identical(attr(r, "stats")$algorithm, "components")
    expect_identical(attr(r, "stats")$input$bridges, "cut")
    expect_true(same_partition(m, c(p1 = 1, p2 = 1, p3 = 2, p4 = 2, p5 = 3)))
})

test_that("the command-line tool's --algorithm components is igraph's components too", {
    skip_if_not_installed("igraph")
    skip_on_os("windows")
    cli_path()
    df <- components_graph(300, 250, seed = 7)
    f <- write_edges(df)
    o <- tempfile(fileext = ".tsv")
    on.exit(unlink(c(f, o)))
    r <- run_cli(c("--algorithm", "components", "--threads", "2", f))
    expect_equal(r$status, 0)
    lines <- strsplit(rawToChar(r$out), "\n", fixed = TRUE)[[1]]
    tab <- do.call(rbind, strsplit(lines, "\t", fixed = TRUE))
    got <- stats::setNames(as.integer(tab[, 2]), tab[, 1])
    expect_true(same_partition(igraph_membership(df), got))
    # the R function writes the same bytes
    ExoLabel(f, o, algorithm = "components", verbose = FALSE)
    expect_identical(readLines(o), lines)
    # refused over ranks' options by name, and in the help from the table
    expect_match(rawToChar(run_cli("--help")$out), "components (single linkage", fixed = TRUE)
    bad <- run_cli(c("--algorithm", "components", "--refine", "2", f))
    expect_equal(bad$status, 2L)
    expect_match(bad$err[1], "--refine is not used by --algorithm components", fixed = TRUE)
})

test_that("EstimateExoLabel takes components: no more than label propagation", {
    lp <- EstimateExoLabel(1e6, algorithm = "lp")
    cc <- EstimateExoLabel(1e6, algorithm = "components")
    expect_lte(cc[["RAM Upper Bound Estimate"]], lp[["RAM Upper Bound Estimate"]])
    expect_lte(cc[["Expected Internal File Size (FastSort)"]],
               lp[["Expected Internal File Size (FastSort)"]])
    expect_identical(attr(cc, "details")$algorithm, "components")
    expect_output(print(cc), "connected components")
})

test_that("exolabel-mpi refuses components by name", {
    mpi <- Sys.getenv("EXOLABEL_MPI")
    if (!nzchar(mpi) || !file.exists(mpi) || !nzchar(Sys.which("mpirun")))
        skip("EXOLABEL_MPI does not name exolabel-mpi, or no mpirun")
    f <- write_edges(components_graph(40, 30))
    err <- tempfile()
    on.exit(unlink(c(f, err)))
    status <- system2("mpirun", c("-n", "1", "--oversubscribe", "--allow-run-as-root", mpi,
                                  "--algorithm", "components", "-o", tempfile(), f),
                      stdout = FALSE, stderr = err)
    expect_false(status == 0)
    expect_true(any(grepl("exolabel-mpi: --algorithm components is not available in MPI mode",
                          readLines(err), fixed = TRUE)))
})
