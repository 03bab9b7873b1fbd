# Rscript metrics.R TRUTH.tsv CLUSTERS.tsv
# Agreement of one clustering with the simulated families, printed as one
# tab-separated line: proteins, proteins_in_output, nmi, ari, nmi_nochim,
# ari_nochim, clusters, clusters_2plus, largest_share, nmi_igraph.
# Every protein of the truth table counts: a protein missing from the
# clustering (no hit to another protein, so not in the graph) is its own
# singleton cluster. The truth of a chimera is the family of its longer
# domain; *_nochim leave chimeras out of both partitions. nmi_igraph is the
# NMI computed by igraph::compare, an independent check of ClusterNMI.
suppressPackageStartupMessages({library(ExoLabel); library(data.table)})
args <- commandArgs(trailingOnly = TRUE)
truth <- fread(args[1], sep = "\t", header = TRUE, na.strings = "NA")
cl <- fread(args[2], sep = "\t", header = FALSE, col.names = c("Vertex", "Cluster"),
            colClasses = "character")
stopifnot(!anyDuplicated(cl$Vertex), all(cl$Vertex %in% truth$protein))
lab <- cl$Cluster[match(truth$protein, cl$Vertex)]
inout <- sum(!is.na(lab))
miss <- is.na(lab)
lab[miss] <- paste0("singleton:", truth$protein[miss])
nc <- truth$chimera == 0
sizes <- table(lab)
f <- function(x) trimws(formatC(x, digits = 6, format = "fg"))
cat(paste(nrow(truth), inout, f(ClusterNMI(truth$family, lab)), f(ClusterARI(truth$family, lab)),
          f(ClusterNMI(truth$family[nc], lab[nc])), f(ClusterARI(truth$family[nc], lab[nc])),
          length(sizes), sum(sizes >= 2), f(max(sizes) / nrow(truth)),
          f(igraph::compare(as.integer(factor(truth$family)), as.integer(factor(lab)), method = "nmi")),
          sep = "\t"), "\n", sep = "")
