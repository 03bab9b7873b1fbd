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
    hits <- utils::read.delim(hits_file, header = FALSE)
    hits <- hits[hits$V1 != hits$V2, ]
    pairs <- unique(paste(pmin(hits$V1, hits$V2), pmax(hits$V1, hits$V2)))
    expect_equal(unname(res$graph_stats[["num_edges"]]), 2 * length(pairs))
    found <- tab$Cluster[match(truth$protein, tab$Vertex)]
    nmi <- ClusterNMI(truth$family, found)
    expect_equal(nmi, igraph::compare(as.integer(factor(truth$family)),
                                      as.integer(factor(found)), method = "nmi"))
    expect_gt(nmi, 0.85)
    expect_gt(ClusterARI(truth$family, found), 0.6)
})
