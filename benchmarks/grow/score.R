# Rscript score.R TRUTH OLD FULL UPDATED NEWLIST
# Scores of one update (benchmarks/grow/run.sh) as one comma-separated line:
#   ari_full     ARI of the full run (all hits, from scratch) against the truth
#   ari_updated  ARI of the updated clustering against the truth
#   ari_vs_full  ARI of the updated clustering against the full run's
#   same_family  old proteins whose cluster kept the same old members (the
#                old proteins of their updated cluster are those of their
#                old cluster: their family did not change)
#   same_id      of those, the share whose cluster id is unchanged
#   id_unchanged the share of all old proteins whose cluster id is unchanged
# TRUTH: "protein<TAB>family..." with a header (the SSN sets) or
# "name<TAB>community" without one (exogen); clusterings "name<TAB>id".
# Proteins missing from a clustering (no hit) count as their own clusters.
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
suppressPackageStartupMessages({library(ExoLabel); library(data.table)})
a <- commandArgs(trailingOnly = TRUE)
rd <- function(p) fread(p, sep = "\t", header = FALSE, col.names = c("v", "c"),
                        colClasses = "character", select = 1:2)
first <- readLines(a[1], n = 1)
truth <- fread(a[1], sep = "\t", header = grepl("^protein\t", first), colClasses = "character",
               select = 1:2, col.names = c("v", "t"))
old <- rd(a[2]); full <- rd(a[3]); upd <- rd(a[4])
newp <- readLines(a[5])
# every protein of the truth, in its order; a missing one is its own cluster
fill <- function(cl) {
  x <- cl$c[match(truth$v, cl$v)]
  miss <- is.na(x)
  x[miss] <- paste0("single:", truth$v[miss])
  x
}
ari <- function(x, y) ClusterARI(x, y)
f <- fill(full); u <- fill(upd)
# old proteins: their old and updated cluster ids, and the old members of each
op <- old$v
oc <- old$c
uc <- upd$c[match(op, upd$v)]
key_old <- tapply(op, oc, function(m) paste(sort(m), collapse = " "))
key_upd <- tapply(op, uc, function(m) paste(sort(m), collapse = " "))
same_fam <- key_old[oc] == key_upd[uc]
same_id <- oc == uc
cat(sprintf("%.6f,%.6f,%.6f,%d,%.6f,%.6f\n", ari(f, truth$t), ari(u, truth$t), ari(u, f),
            sum(same_fam), if (any(same_fam)) mean(same_id[same_fam]) else NA,
            mean(same_id)))
