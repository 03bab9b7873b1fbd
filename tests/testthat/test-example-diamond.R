# The shipped DIAMOND output (inst/extdata/example_diamond.m8.gz, recipe in
# benchmarks/ssn/make_example.sh) that the vignette's section "From DIAMOND
# to protein families" clusters: its shape, and that format = "blast" builds
# the graph computed independently here and recovers the simulated families.

hits_file <- system.file("extdata", "example_diamond.m8.gz", package = "ExoLabel")
truth_file <- system.file("extdata", "example_diamond_truth.tsv", package = "ExoLabel")

test_that("the shipped DIAMOND example is a 12-column search of 300 proteins", {
    hits <- utils::read.delim(hits_file, header = FALSE)
    truth <- utils::read.delim(truth_file)
    expect_identical(ncol(hits), 12L)
    expect_identical(names(truth), c("protein", "family", "chimera", "family2"))
    expect_identical(nrow(truth), 300L)
    expect_true(all(c(hits$V1, hits$V2) %in% truth$protein))
    expect_true(all(truth$protein %in% hits$V1))          # every query hit itself
    expect_true(all(hits$V11 <= 1e-5))                    # the e-value cutoff
    expect_identical(sum(truth$chimera), 3L)
    expect_true(all(is.na(truth$family2) == (truth$chimera == 0)))
    expect_true(any(hits$V1 != hits$V2 & hits$V3 < 40))   # some remote homologs
})

test_that("format = 'blast' on the example gives the families back", {
    set.seed(1)
    res <- ExoLabel(hits_file, format = "blast", return_table = TRUE)
    truth <- utils::read.delim(truth_file)
    tab <- res$results
    expect_setequal(tab$Vertex, truth$protein)
    # the graph: distinct unordered non-self pairs, counted independently
    # without the pairs the region rule removes (helper-regions.R): a few
    # proteins of this example hit two families in separate regions
    hits <- utils::read.delim(hits_file, header = FALSE)
    dropped <- region_dropped_pairs(hits)
    expect_gt(length(dropped), 0L)
    hits <- hits[hits$V1 != hits$V2, ]
    pairs <- setdiff(unique(paste(pmin(hits$V1, hits$V2), pmax(hits$V1, hits$V2))), dropped)
    expect_equal(unname(res$graph_stats[["num_edges"]]), 2 * length(pairs))
    expect_equal(unname(attr(res, "stats")$bridges[["region_pairs_removed"]]), length(dropped))
    found <- tab$Cluster[match(truth$protein, tab$Vertex)]
    nmi <- ClusterNMI(truth$family, found)
    expect_equal(nmi, igraph::compare(as.integer(factor(truth$family)),
                                      as.integer(factor(found)), method = "nmi"))
    expect_gt(nmi, 0.85)
    expect_gt(ClusterARI(truth$family, found), 0.6)
})

test_that("format = 'blast' alone: bit scores over self scores, Leiden CPM at 2e-5", {
    res <- ExoLabel(hits_file, format = "blast", return_table = TRUE)
    p <- res$parameters
    expect_identical(attr(p, "algorithm"), "leiden")
    expect_identical(attr(p, "objective"), "CPM")
    expect_identical(attr(p, "resolution"), "auto")
    expect_identical(attr(p, "per_strength"), 2e-5)
    expect_identical(attr(p, "strength_of"),
                     "the nodes with an edge, in each connected component")
    # 2W / n' computed here: bit score (column 12) over the larger self hit
    # of the two proteins, self hits then dropped, the two directions
    # combined by max; n' = the proteins with an edge; strengths by igraph
    hits <- region_kept_hits(utils::read.delim(hits_file, header = FALSE))
    ex <- selfnorm_graph(data.frame(q = hits$V1, s = hits$V2, bits = hits$V12))
    g <- igraph::graph_from_data_frame(as.data.frame(ex$edges), directed = FALSE)
    expect_identical(igraph::vcount(g), ex$linked)
    mean_strength <- sum(igraph::strength(g, weights = igraph::E(g)$w)) / ex$linked
    expect_equal(mean_strength, ex$two_w / ex$linked)
    expect_equal(unname(res$graph_stats[["num_edges"]]), 2 * nrow(ex$edges))
    gamma <- unname(p[["resolution"]])
    # weights are stored as floats: agreement to float precision
    expect_equal(gamma, 2e-5 * mean_strength, tolerance = 1e-6)
    # the same partition as absolute CPM at that gamma (same seed): every
    # component of this example is one family, clustered whole at either
    # scale (test-selfnorm.R has components where the two differ)
    set.seed(3)
    auto <- ExoLabel(hits_file, format = "blast", return_table = TRUE)
    set.seed(3)
    abs <- ExoLabel(hits_file, format = "blast", algorithm = "leiden", objective = "CPM",
                    resolution = gamma, return_table = TRUE)
    expect_identical(unname(abs$parameters[["resolution"]]), gamma)
    expect_identical(auto$results, abs$results)
    expect_identical(auto$stats$quality, abs$stats$quality)
    # explicit arguments win; "auto" is for CPM only
    lp <- ExoLabel(hits_file, format = "blast", algorithm = "lp", return_table = TRUE)
    expect_null(attr(lp$parameters, "algorithm"))
    expect_true("attenuation" %in% names(lp$parameters))
    expect_error(ExoLabel(hits_file, format = "blast", algorithm = "leiden",
                          resolution = "auto"), "is for algorithm = \"leiden\", objective")
    expect_error(ExoLabel(hits_file, format = "blast", refine = TRUE),
                 "give algorithm = \"lp\"")
    expect_output(print(auto),
                  "resolution auto: 2e-05 x the mean strength of the nodes with an edge, in each connected component")
    # the e-value weights of earlier versions, by name: 5e-5 over all nodes
    ev <- ExoLabel(hits_file, format = "blast", weight_transform = "neglog10",
                   return_table = TRUE)
    expect_identical(attr(ev$parameters, "per_strength"), 5e-5)
    expect_output(print(ev), "resolution auto: 5e-05 x the mean strength of all nodes")
    # "auto*X" and "auto/X": X times, or 1/X of, the automatic factor, the
    # gamma scaled the same way
    scaled <- ExoLabel(hits_file, format = "blast", algorithm = "leiden", objective = "CPM",
                       resolution = c("auto", "auto/8", "auto*2"), return_table = TRUE)
    expect_identical(names(scaled), c("resolution=auto", "resolution=auto/8",
                                      "resolution=auto*2"))
    factors <- vapply(scaled, function(r) attr(r$parameters, "per_strength"), 0)
    expect_equal(unname(factors), c(2e-5, 2e-5 / 8, 4e-5))
    gammas <- vapply(scaled, function(r) unname(r$parameters[["resolution"]]), 0)
    expect_equal(unname(gammas), gamma * c(1, 1 / 8, 2), tolerance = 1e-6)
    expect_identical(attr(scaled[[2]]$parameters, "resolution"), "auto/8")
    expect_error(ExoLabel(hits_file, format = "blast", algorithm = "leiden", objective = "CPM",
                          resolution = "auto/0"), "auto\\*X or auto/X \\(X > 0\\)")
    expect_error(ExoLabel(hits_file, format = "blast", algorithm = "leiden", objective = "CPM",
                          resolution = "automatic"), "'resolution' must be")
    # several resolutions with format = "blast" (the names once failed:
    # the argument 'format' hid base::format)
    several <- ExoLabel(hits_file, format = "blast", algorithm = "leiden", objective = "CPM",
                        resolution = c(0.01, 0.1))
    expect_identical(names(several), c("resolution=0.01", "resolution=0.1"))
    # plain edge lists keep label propagation
    e <- ExoLabel(data.frame(a = c("x", "y"), b = c("y", "z"), w = 1), return_table = TRUE)
    expect_true("attenuation" %in% names(e$parameters))
})
