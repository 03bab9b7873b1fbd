# Rscript metrics_real.R TRUTH.tsv CLUSTERS.tsv
# Scores of one clustering of a real set (truth: protein, family,
# superfamily) as one comma-separated line: family_ari, family_prec,
# family_rec, family_nmi, superfamily_ari, superfamily_prec,
# superfamily_rec, superfamily_nmi, in_output, clusters, clusters_2plus,
# largest_share (see scores.R; NMI is inflated by the many one-member
# families, ARI and pair precision/recall are the scores to read).
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "scores.R"))
args <- commandArgs(trailingOnly = TRUE)
truth <- read_truth(args[1])
cl <- fread(args[2], sep = "\t", header = FALSE, col.names = c("Vertex", "Cluster"),
            colClasses = "character")
# a set with proteins that are clustered but not scored (scop40_fusions: the
# fusions) lists them in unscored.txt beside the truth; they are left out
unscored <- file.path(dirname(args[1]), "unscored.txt")
if (file.exists(unscored)) cl <- cl[!Vertex %in% readLines(unscored)]
stopifnot(all(cl$Vertex %in% truth$protein))
sc <- score_levels(truth, cl$Vertex, cl$Cluster, c("family", "superfamily"))
cat(paste(trimws(formatC(sc, digits = 6, format = "fg")), collapse = ","), "\n", sep = "")
