# scores.R: scoring of a clustering against labelled proteins, shared by
# metrics_real.R and grid.R (source it). Every protein of the truth table
# counts: one missing from the clustering (no hit but to itself, so not in
# the graph) is its own singleton cluster.
#
# score_levels(truth, vertex, cluster, levels) -> named numeric vector with,
# for each truth column in `levels` (e.g. "family", "superfamily"):
#   <level>_ari   adjusted Rand index (ExoLabel::ClusterARI);
#   <level>_prec  pair precision: of the protein pairs put in one cluster,
#                 the share that the truth puts in one <level>;
#   <level>_rec   pair recall: of the pairs in one <level>, the share put
#                 in one cluster;
#   <level>_nmi   NMI (ExoLabel::ClusterNMI, arithmetic normalisation):
#                 inflated on SCOP40, where most families have one member
#                 (every protein its own cluster already scores 0.91);
# then in_output (proteins in the clustering), clusters (singletons
# included), clusters_2plus and largest_share (largest cluster / proteins).
suppressPackageStartupMessages({library(ExoLabel); library(data.table)})

pairs2 <- function(n) { n <- as.numeric(n); sum(n * (n - 1) / 2) }

score_levels <- function(truth, vertex, cluster, levels = "family") {
    stopifnot(!anyDuplicated(vertex))
    lab <- as.character(cluster)[match(truth$protein, vertex)]
    inout <- sum(!is.na(lab))
    miss <- is.na(lab)
    lab[miss] <- paste0("singleton:", truth$protein[miss])
    out <- c()
    pc <- pairs2(table(lab))
    for (lv in levels) {
        t <- truth[[lv]]
        pt <- pairs2(table(t))
        tp <- pairs2(table(paste(t, lab, sep = "\r")))
        out[paste0(lv, "_ari")] <- ClusterARI(t, lab)
        out[paste0(lv, "_prec")] <- if (pc > 0) tp / pc else NA
        out[paste0(lv, "_rec")] <- if (pt > 0) tp / pt else NA
        out[paste0(lv, "_nmi")] <- ClusterNMI(t, lab)
    }
    sizes <- table(lab)
    c(out, in_output = inout, clusters = length(sizes), clusters_2plus = sum(sizes >= 2),
      largest_share = max(sizes) / nrow(truth))
}

# read_truth(path): the truth table of a set; simulated sets (header protein,
# family, chimera, ...) have the family level only, real sets (protein,
# family, superfamily) both.
read_truth <- function(path) {
    tr <- fread(path, sep = "\t", header = TRUE, na.strings = "NA",
                colClasses = list(character = c("protein", "family")))
    tr[, family := as.character(family)]
    if ("superfamily" %in% names(tr)) tr[, superfamily := as.character(superfamily)]
    tr
}
truth_levels <- function(tr) intersect(c("family", "superfamily"), names(tr))
