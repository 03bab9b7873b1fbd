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

families_apart <- function(w, ...) {
    r <- ExoLabel(w$file, format = "blast", return_table = TRUE, verbose = FALSE, ...)$results
    cl <- r$Cluster[match(w$ids, r$Vertex)]
    length(unique(cl[w$fam == "a"])) == 1L && length(unique(cl[w$fam == "b"])) == 1L &&
        cl[w$fam == "a"][1] != cl[w$fam == "b"][1]
}

test_that("the format = \"blast\" default keeps two families joined by one weak hit apart", {
    # The weak-hit rule of bridges = "cut" (src/core/exo_regions.h) removes
    # the 40-bit hit: it is below 0.55 x every other hit of both proteins,
    # each of which has 9 or more consistent hits. Without it (bridges =
    # "keep") the default's CPM merges the two families.
    merged_without <- 0L
    for (trial in 1:8) {
        w <- weak_bridge_m8(trial)
        set.seed(trial)
        expect_true(families_apart(w), info = sprintf("default, trial %d", trial))
        set.seed(trial)
        merged_without <- merged_without + !families_apart(w, bridges = "keep")
        unlink(w$file)
    }
    expect_gt(merged_without, 0L)
})

test_that("label propagation and modularity Leiden keep two families joined by one weak hit apart", {
    # The settings the documentation names for proteomes with bridges.
    for (trial in 1:8) {
        w <- weak_bridge_m8(trial)
        set.seed(trial)
        expect_true(families_apart(w, algorithm = "lp"), info = sprintf("lp, trial %d", trial))
        set.seed(trial)
        expect_true(families_apart(w, algorithm = "leiden"),
                    info = sprintf("leiden, trial %d", trial))
        unlink(w$file)
    }
})
