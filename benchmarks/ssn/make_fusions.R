# Rscript make_fusions.R SCOP40_FASTA.gz SCOP40_LABELS.gz OUTDIR [N] [SEED]
# The bridge set of issue 54 ("scop40_fusions"): the 11,206 SCOP40 domains
# plus N (1500) artificial two-domain proteins, each the concatenation of two
# real SCOP40 domains of different superfamilies, as a whole-protein search
# meets them (a multi-domain protein hits both of its domains' families and
# so chains families that share no domain).
#
# How the pairs are drawn (seed SEED, default 54, R's default RNG):
#   - candidate domains: those whose superfamily has at least two domains in
#     the FASTA file (a fusion of a domain without relatives joins nothing);
#   - 2N distinct domains are drawn from them without replacement, uniformly,
#     and paired in draw order (1st with 2nd, ...); a pair of the same
#     superfamily is redrawn: its second domain is swapped with the next
#     pair's second domain until the superfamilies differ (so every domain is
#     in at most one fusion, and no fusion joins a superfamily to itself);
#   - the fusion's sequence is domain A then domain B, no linker; its name is
#     fus<i>__<A>__<B> (the parts can be read back from the name).
# Output: OUTDIR/proteins.fa (domains in the source's order, then the
# fusions), OUTDIR/truth.tsv (protein, family, superfamily: the domains
# only, as real.sh writes SCOP40's truth), OUTDIR/unscored.txt (the fusion
# names: in the search and the clusterings, left out of every score),
# OUTDIR/fusions.tsv (fusion, part A, part B, their superfamilies, lengths).
suppressPackageStartupMessages(library(data.table))
args <- commandArgs(trailingOnly = TRUE)
fa_path <- args[1]; lab_path <- args[2]; out <- args[3]
n <- if (length(args) >= 4) as.integer(args[4]) else 1500L
seed <- if (length(args) >= 5) as.integer(args[5]) else 54L
dir.create(out, showWarnings = FALSE, recursive = TRUE)

lines <- readLines(gzfile(fa_path))
hdr <- grep("^>", lines)
ids <- sub("^>(\\S+).*", "\\1", lines[hdr])
ends <- c(hdr[-1] - 1L, length(lines))
seqs <- vapply(seq_along(hdr), function(i)
    if (ends[i] > hdr[i]) paste(lines[(hdr[i] + 1L):ends[i]], collapse = "") else "", "")
lab <- fread(cmd = paste("zcat", shQuote(lab_path)), header = FALSE, sep = "\t",
             col.names = c("protein", "family"))
lab <- lab[protein %in% ids][!duplicated(protein)]
lab[, superfamily := sub("^([^.]+\\.[^.]+\\.[^.]+)\\..*$", "\\1", family)]
truth <- lab[match(ids, protein)][!is.na(protein)]
sfsize <- truth[, .N, by = superfamily]
cand <- truth[superfamily %in% sfsize[N >= 2, superfamily], protein]
stopifnot(length(cand) >= 2 * n)

set.seed(seed)
pick <- sample(cand, 2 * n)
a <- pick[seq(1, 2 * n, 2)]; b <- pick[seq(2, 2 * n, 2)]
sf <- setNames(truth$superfamily, truth$protein)
for (i in seq_len(n)) {
    j <- i
    while (sf[[a[i]]] == sf[[b[i]]]) {          # swap B with a later pair's B
        j <- if (j < n) j + 1L else 1L
        if (sf[[a[j]]] != sf[[b[i]]] && sf[[a[i]]] != sf[[b[j]]]) {
            t <- b[i]; b[i] <- b[j]; b[j] <- t
        }
    }
}
stopifnot(!anyDuplicated(c(a, b)), all(sf[a] != sf[b]))
sq <- setNames(seqs, ids)
fname <- sprintf("fus%04d__%s__%s", seq_len(n), a, b)
fseq <- paste0(sq[a], sq[b])
wrap <- function(s) vapply(s, function(x) {
    k <- nchar(x); st <- seq(1, max(k, 1), 80)
    paste(substring(x, st, pmin(st + 79, k)), collapse = "\n")
}, "", USE.NAMES = FALSE)
writeLines(c(rbind(paste0(">", c(ids, fname)), wrap(c(seqs, fseq)))), file.path(out, "proteins.fa"))
fwrite(truth[, .(protein, family, superfamily)], file.path(out, "truth.tsv"), sep = "\t")
writeLines(fname, file.path(out, "unscored.txt"))
fwrite(data.table(fusion = fname, a = a, b = b, sf_a = sf[a], sf_b = sf[b],
                  len_a = nchar(sq[a]), len_b = nchar(sq[b])),
       file.path(out, "fusions.tsv"), sep = "\t")
cat(sprintf("make_fusions: %d domains, %d fusions (seed %d) -> %s\n", length(ids), n, seed, out))
