# Attenuation has an effect (issue 56: removing it from label propagation's
# vote, one line in exo_lp.c, passed every other C and R test). On the
# bundled example, hop attenuation stops labels from flooding neighbouring
# families: with the same seeds, the attenuated runs end with more clusters.

test_that("attenuation = TRUE changes label propagation's clusters: fewer labels flood", {
    f <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
    run <- function(seed, att) {
        set.seed(seed)
        ExoLabel(f, attenuation = att, refine = FALSE, return_table = TRUE,
                 verbose = FALSE)$results
    }
    more <- 0L
    for (seed in 1:4) {
        a <- run(seed, TRUE)
        b <- run(seed, FALSE)
        expect_identical(run(seed, TRUE), a) # seeded: the same clusters again
        ka <- length(unique(a$Cluster))
        kb <- length(unique(b$Cluster))
        expect_gte(ka, kb)
        more <- more + (ka > kb)
    }
    expect_gte(more, 2L)
})
