# Issue 54, item 1c: two protein families joined by one weak hit stay two
# clusters with the default of format = "blast". Each trial: two families
# of 10 to 30 proteins, every pair inside a family a hit of 80 to 100 bits
# (both directions, slightly different scores as real searches give), a self
# hit of 200 bits per protein, and ONE hit of 40 bits between a member of
# each family. E-values as a search of 10^9 residue pairs gives them,
# 1e9 x 2^-bits (40 bits: 9e-4, under the usual 1e-3 cut-off).

weak_bridge_m8 <- function(seed) {
    set.seed(seed)
    n <- sample(10:30, 2)
    fam <- rep(c("a", "b"), n)
    ids <- paste0(fam, sequence(n))
    rows <- list()
    hit <- function(q, s, bits) data.frame(q = q, s = s, pident = 40, len = 300, mism = 150,
                                            gap = 2, qs = 1, qe = 300, ss = 1, se = 300,
                                            evalue = signif(1e9 * 2^-bits, 3), bits = bits)
    rows[[1]] <- hit(ids, ids, 200)
    for (f in c("a", "b")) {
        m <- ids[fam == f]
        p <- expand.grid(q = m, s = m, stringsAsFactors = FALSE)
        p <- p[p$q != p$s, ]
        rows[[length(rows) + 1L]] <- hit(p$q, p$s, round(stats::runif(nrow(p), 80, 100), 1))
    }
    rows[[length(rows) + 1L]] <- hit("a1", "b1", 40)
    rows[[length(rows) + 1L]] <- hit("b1", "a1", 40)
    x <- do.call(rbind, rows)
    f <- tempfile(fileext = ".m8")
    utils::write.table(x, f, sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
    list(file = f, ids = ids, fam = fam)
}

test_that("the blast default keeps two families joined by one weak hit apart", {
    # Today's default (Leiden CPM, resolution 5e-5 x each component's mean
    # strength) merges the two families in 4 of the 8 trials (1, 3, 5, 8);
    # algorithm = "lp", algorithm = "leiden" and MCL at I = 1.4 keep them
    # apart in all 8 (benchmarks/ssn/bridges_notes.md). Remove the skip with
    # the default that passes.
    skip("issue 54: fails with today's default")
    for (trial in 1:8) {
        w <- weak_bridge_m8(trial)
        set.seed(trial)
        r <- ExoLabel(w$file, format = "blast", return_table = TRUE, verbose = FALSE)$results
        unlink(w$file)
        cl <- r$Cluster[match(w$ids, r$Vertex)]
        # each family whole, the two apart
        expect_length(unique(cl[w$fam == "a"]), 1L)
        expect_length(unique(cl[w$fam == "b"]), 1L)
        expect_false(cl[w$fam == "a"][1] == cl[w$fam == "b"][1],
                     info = sprintf("trial %d: the families were merged", trial))
    }
})
