# initial = a previous clustering (issue 57): stable cluster ids
# (src/core/exo_initial.h). The graphs are cliques without edges between
# them, so that every method finds the cliques whether or not it starts from
# the previous clusters; the split cases use algorithm = "components",
# which ignores the start (label propagation started from a union of two
# cliques would keep it).

clique_edges <- function(prefix, k = 5) {
    v <- paste0(prefix, seq_len(k))
    p <- utils::combn(v, 2)
    data.frame(from = p[1, ], to = p[2, ], weight = 1, stringsAsFactors = FALSE)
}

cliques_file <- function(prefixes, dir = tempdir()) {
    f <- tempfile("cliques", tmpdir = dir, fileext = ".tsv")
    e <- do.call(rbind, lapply(prefixes, clique_edges))
    utils::write.table(e, f, sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
    f
}

membership <- function(res) {
    t <- as.data.frame(res)
    stats::setNames(t$Cluster, t$Vertex)
}

no_initial_temp <- function(dir) {
    expect_length(list.files(dir, pattern = "^ExoLabelInitial"), 0L)
}

test_that("an unchanged graph re-clustered from its own result keeps every id", {
    f <- cliques_file(c("a", "b", "c", "d"))
    on.exit(unlink(f))
    for (alg in c("lp", "leiden", "components")) {
        set.seed(1)
        r1 <- ExoLabel(f, algorithm = alg, return_table = TRUE, verbose = FALSE)
        k <- attr(r1, "stats")$num_clusters
        expect_equal(k, 4)
        for (init in list(r1, r1$results)) {
            set.seed(7) # another seed: the ids still come from the old result
            r2 <- ExoLabel(f, algorithm = alg, return_table = TRUE, verbose = FALSE,
                           initial = init, cluster_table = TRUE)
            expect_identical(r2$results, r1$results, info = alg)
            expect_identical(attr(r2, "stats")$ids,
                             c(kept = k, merged = 0, split = 0, new = 0, moved = 0), info = alg)
            expect_identical(sort(unique(r2$results$Cluster)),
                             as.integer(r2$cluster_table$Cluster), info = alg)
        }
        expect_null(attr(r1, "stats")$ids)
        expect_false(any(grepl("ids (initial)", capture.output(print(r1)), fixed = TRUE)))
        expect_true(any(grepl("ids (initial): 4 kept, 0 merged, 0 split, 0 new; 0 node(s) moved",
                              capture.output(print(r2)), fixed = TRUE)))
    }
    no_initial_temp(tempdir())
})

test_that("old ids that are not 1..K stay, new clusters get ids above the largest", {
    f <- cliques_file(c("a", "b", "e")) # e is new
    on.exit(unlink(f))
    old <- data.frame(Vertex = c(paste0("a", 1:5), paste0("b", 1:5), "gone1"),
                      Cluster = c(rep(40L, 5), rep(12L, 5), 90L))
    for (alg in c("lp", "leiden", "components")) {
        w <- character()
        r <- withCallingHandlers(
            ExoLabel(f, algorithm = alg, return_table = TRUE, verbose = FALSE, initial = old,
                     cluster_table = TRUE),
            warning = function(cond) {
                w <<- c(w, conditionMessage(cond))
                invokeRestart("muffleWarning")
            })
        expect_identical(w, paste("1 name(s) of 'initial' are not in the graph (the first:",
                                  "'gone1'): their old clusters count without them"))
        m <- membership(r)
        expect_true(all(m[paste0("a", 1:5)] == 40L), info = alg)
        expect_true(all(m[paste0("b", 1:5)] == 12L), info = alg)
        # above 90, the old file's largest, though gone1 is not in the graph
        expect_true(all(m[paste0("e", 1:5)] == 91L), info = alg)
        expect_identical(attr(r, "stats")$ids,
                         c(kept = 2, merged = 0, split = 0, new = 1, moved = 0), info = alg)
        expect_identical(r$cluster_table$Cluster, c(12L, 40L, 91L))
    }
})

test_that("a graph with new nodes: old nodes keep their ids, new nodes join or get new ids", {
    dir <- tempfile("initial")
    dir.create(dir)
    on.exit(unlink(dir, recursive = TRUE))
    f1 <- cliques_file(c("a", "b", "c"), dir)
    set.seed(3)
    r1 <- ExoLabel(f1, outfile = file.path(dir, "old.tsv"), verbose = FALSE)
    # new genome: a6 joins clique a, clique n is new
    f2 <- file.path(dir, "new.tsv")
    e <- rbind(utils::read.delim(f1, header = FALSE),
               data.frame(V1 = "a6", V2 = paste0("a", 1:5), V3 = 1),
               stats::setNames(clique_edges("n"), c("V1", "V2", "V3")))
    utils::write.table(e, f2, sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
    r2 <- ExoLabel(f2, initial = r1, return_table = TRUE, verbose = FALSE)
    m1 <- membership(r1)
    m2 <- membership(r2)
    expect_identical(m2[names(m1)], m1)
    expect_identical(m2[["a6"]], m1[["a1"]])
    expect_true(all(m2[paste0("n", 1:5)] == max(m1) + 1L))
    expect_identical(attr(r2, "stats")$ids,
                     c(kept = 3, merged = 0, split = 0, new = 1, moved = 0))
    # the clusters file itself as initial, and as the output it replaces
    out <- file.path(dir, "old.tsv")
    r3 <- ExoLabel(f2, initial = out, outfile = out, verbose = FALSE)
    expect_identical(membership(r3), m2)
})

test_that("merged and split old clusters: the majority rule and its counts", {
    f <- cliques_file(c("a", "b", "c"))
    on.exit(unlink(f))
    # merge: clique a was two old clusters, 7 (3 nodes) and 3 (2 nodes): the
    # new cluster holds all of both and takes 7, the one it holds most of
    old <- data.frame(Vertex = c(paste0("a", 1:5), paste0("b", 1:5), paste0("c", 1:5)),
                      Cluster = c(7, 7, 7, 3, 3, rep(5, 5), rep(9, 5)))
    for (alg in c("lp", "leiden", "components")) {
        r <- ExoLabel(f, algorithm = alg, return_table = TRUE, verbose = FALSE, initial = old)
        m <- membership(r)
        expect_true(all(m[paste0("a", 1:5)] == 7), info = alg)
        expect_identical(attr(r, "stats")$ids,
                         c(kept = 3, merged = 1, split = 0, new = 0, moved = 2), info = alg)
    }
    # split: b and c were one old cluster (10 nodes, 5 + 5): no new cluster
    # holds more than half, both get new ids (components ignores the start)
    old2 <- old
    old2$Cluster[11:15] <- 5
    r <- ExoLabel(f, algorithm = "components", return_table = TRUE, verbose = FALSE,
                  initial = old2)
    m <- membership(r)
    expect_true(all(m[paste0("b", 1:5)] == 8) && all(m[paste0("c", 1:5)] == 9))
    expect_identical(attr(r, "stats")$ids,
                     c(kept = 1, merged = 1, split = 1, new = 2, moved = 12))
    # 6 + 5 of one old cluster: the part with 6 keeps its id
    old3 <- rbind(old2, data.frame(Vertex = "b6", Cluster = 5))
    f2 <- cliques_file(c("a", "c"))
    on.exit(unlink(f2), add = TRUE)
    e <- rbind(utils::read.delim(f2, header = FALSE),
               stats::setNames(clique_edges("b", 6), c("V1", "V2", "V3")))
    utils::write.table(e, f2, sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
    r <- ExoLabel(f2, algorithm = "components", return_table = TRUE, verbose = FALSE,
                  initial = old3)
    m <- membership(r)
    expect_true(all(m[paste0("b", 1:6)] == 5) && all(m[paste0("c", 1:5)] == 8))
    expect_identical(attr(r, "stats")$ids,
                     c(kept = 2, merged = 1, split = 0, new = 1, moved = 7))
})

test_that("the same stable ids for any threads and memory_limit, and for every run", {
    f <- cliques_file(c("a", "b", "c", "d", "e"))
    on.exit(unlink(f))
    old <- data.frame(Vertex = c(paste0("a", 1:5), paste0("b", 1:4)),
                      Cluster = c(rep(2, 5), rep(1, 4)))
    set.seed(5)
    ref <- ExoLabel(f, return_table = TRUE, verbose = FALSE, initial = old, threads = 1)
    for (th in c(1, 3)) for (mem in c("1MB", "256MB")) {
        set.seed(5)
        r <- ExoLabel(f, return_table = TRUE, verbose = FALSE, initial = old, threads = th,
                      memory_limit = mem)
        expect_identical(r$results, ref$results, info = paste(th, mem))
    }
    rs <- ExoLabel(f, algorithm = "leiden", resolution = c(0.5, 1), return_table = TRUE,
                   verbose = FALSE, initial = old)
    for (r in rs) {
        m <- membership(r)
        expect_true(all(m[paste0("a", 1:5)] == 2) && all(m[paste0("b", 1:5)] == 1))
        expect_identical(attr(r, "stats")$ids[["kept"]], 2)
    }
})

test_that("new ids follow the output's order (order = \"name\"), the member table too", {
    f <- cliques_file(c("z", "a", "m"))
    on.exit(unlink(f))
    old <- data.frame(Vertex = c(paste0("m", 1:5), "gone"), Cluster = c(rep(3L, 5), 5L))
    for (ord in c("appearance", "name")) {
        r <- suppressWarnings(ExoLabel(f, order = ord, return_table = TRUE, verbose = FALSE,
                                       initial = old, cluster_table = TRUE))
        m <- membership(r)
        first <- if (ord == "name") "a" else "z"
        second <- if (ord == "name") "z" else "a"
        expect_true(all(m[paste0(first, 1:5)] == 6L), info = ord)
        expect_true(all(m[paste0(second, 1:5)] == 7L), info = ord)
        expect_true(all(m[paste0("m", 1:5)] == 3L), info = ord)
        expect_identical(r$cluster_table$Cluster, c(3L, 6L, 7L), info = ord)
        # the representatives are members of their rows' clusters
        reps <- r$cluster_table$Representative
        expect_identical(unname(m[reps]), r$cluster_table$Cluster, info = ord)
    }
})

test_that("bad previous clusterings are refused naming the file and line, or the row", {
    f <- cliques_file(c("a", "b"))
    bad <- tempfile(fileext = ".tsv")
    on.exit(unlink(c(f, bad)))
    cases <- list(c("a1\t1", "a2\t1.5") , c("a1\t1", "a2\t2", "a1\t3"), c("a1\t1", "a2 2"))
    want <- c("line 2: the cluster '1.5' is not a whole number",
              "line 3: the name 'a1' is listed twice (line 1 too)",
              "line 2: no separator")
    for (k in seq_along(cases)) {
        writeLines(cases[[k]], bad)
        expect_error(ExoLabel(f, initial = bad, verbose = FALSE),
                     paste0(basename(bad), "' ", want[k]), fixed = TRUE)
    }
    expect_error(ExoLabel(f, initial = file.path(tempdir(), "no-such-clusters.tsv")),
                 "does not exist")
    expect_error(ExoLabel(f, initial = data.frame(Vertex = c("a1", "a1"), Cluster = 1:2)),
                 "the name 'a1' is listed twice (rows 1 and 2)", fixed = TRUE)
    expect_error(ExoLabel(f, initial = data.frame(Vertex = "a1", Cluster = 0)),
                 "row 1: the cluster '0' is not a whole number", fixed = TRUE)
    expect_error(ExoLabel(f, initial = data.frame(Vertex = "a\t1", Cluster = 2)),
                 "row 1: the name", fixed = TRUE)
    expect_error(ExoLabel(f, initial = 3), "'initial' must be")
    expect_error(ExoLabel(f, initial = ExoLabel(f, resolution = c(1, 2), verbose = FALSE)),
                 "give one result of the list")
    no_initial_temp(tempdir())
})

test_that("the command line: --initial, its counts in --stats and its errors", {
    cli <- cli_path()
    dir <- tempfile("initialcli")
    dir.create(dir)
    on.exit(unlink(dir, recursive = TRUE))
    f <- cliques_file(c("a", "b", "c"), dir)
    out <- file.path(dir, "c.tsv")
    r <- run_cli(c("-o", out, f))
    expect_equal(r$status, 0L)
    first <- readLines(out)
    # the output file as the previous clustering it replaces
    r <- run_cli(c("--initial", out, "--stats", "--seed", "9", "-o", out, f))
    expect_equal(r$status, 0L)
    expect_identical(readLines(out), first)
    for (s in c("ids_kept\t3", "ids_merged\t0", "ids_split\t0", "ids_new\t0",
                "nodes_moved\t0", "initial_missing\t0"))
        expect_true(s %in% r$err, info = s)
    writeLines(c(first, "zz\t8"), file.path(dir, "old.tsv"))
    r <- run_cli(c("--initial", file.path(dir, "old.tsv"), "-o", out, f))
    expect_equal(r$status, 0L)
    expect_match(r$err, "1 name\\(s\\) of .* are not in the graph \\(the first: 'zz'\\)", all = FALSE)
    writeLines(c("a1\t1", "a2\tx"), file.path(dir, "bad.tsv"))
    r <- run_cli(c("--initial", file.path(dir, "bad.tsv"), "-o", file.path(dir, "o2.tsv"), f))
    expect_equal(r$status, 3L)
    expect_match(r$err[1], "bad.tsv' line 2: the cluster 'x' is not a whole number", fixed = TRUE)
    expect_false(file.exists(file.path(dir, "o2.tsv")))
    r <- run_cli(c("--initial", "-", "-o", file.path(dir, "o2.tsv"), f))
    expect_equal(r$status, 2L)
    expect_match(r$err[1], "--initial needs a file: standard input holds the edges", fixed = TRUE)
    # Leiden from a previous clustering: one iteration unless told
    for (it in list(NULL, "3")) {
        r <- run_cli(c("--algorithm", "leiden", "--initial", out, "--stats",
                       if (!is.null(it)) c("--iterations", it), "-o", file.path(dir, "l.tsv"), f))
        expect_equal(r$status, 0L)
        n_it <- as.integer(sub("leiden_iterations\t", "", grep("^leiden_iterations\t", r$err,
                                                                value = TRUE)))
        if (is.null(it)) expect_identical(n_it, 1L) else expect_gte(n_it, 2L)
    }
    r <- run_cli(c("--algorithm", "leiden", "--stats", "-o", file.path(dir, "l.tsv"), f))
    expect_true("leiden_iterations\t2" %in% r$err)
})
