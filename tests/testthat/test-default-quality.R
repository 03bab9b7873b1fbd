# The defaults on small real networks with known groups (issue 25, item 3;
# benchmarks/quality/DEFAULT.md): igraphdata's karate club, clustered with
# its weights as igraph users do, against igraph's Leiden (modularity).
# Medians over seeds, as label propagation is randomised.

test_that("the defaults match igraph's Leiden on karate (median over seeds)", {
    skip_if_not_installed("igraph")
    skip_if_not_installed("igraphdata")
    env <- new.env()
    utils::data("karate", package = "igraphdata", envir = env)
    g <- igraph::upgrade_graph(env$karate)
    truth <- as.integer(factor(igraph::V(g)$Faction))
    f <- tempfile(fileext = ".tsv")
    on.exit(unlink(f))
    el <- igraph::as_edgelist(g, names = FALSE)
    write.table(data.frame(el, igraph::E(g)$weight), f, sep = "\t", quote = FALSE,
                row.names = FALSE, col.names = FALSE)
    nmi <- function(m) igraph::compare(as.integer(factor(m)), truth, method = "nmi")
    set.seed(1)
    ref <- nmi(igraph::membership(igraph::cluster_leiden(g, objective_function = "modularity")))
    run <- function(seed, ...) {
        set.seed(seed)
        res <- ExoLabel(f, return_table = TRUE, ...)$results
        res$Cluster[match(as.character(seq_len(igraph::vcount(g))), res$Vertex)]
    }
    seeds <- 1:9
    dflt <- vapply(seeds, function(s) nmi(run(s)), numeric(1))
    # the defaults are refine = TRUE: the same clusterings as asking for it
    expect_identical(lapply(1:3, run), lapply(1:3, run, refine = TRUE))
    expect_gte(median(dflt), ref - 0.01)
    # without the merge passes the volume penalty leaves the factions in
    # pieces (median 0.559 with 6 clusters when this test was written)
    plain <- vapply(seeds, function(s) nmi(run(s, refine = FALSE)), numeric(1))
    expect_lt(median(plain), median(dflt))
})
