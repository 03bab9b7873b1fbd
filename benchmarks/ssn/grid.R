# Rscript grid.R SETDIR SEARCH OUT.csv [SEEDS] [CANDIDATES]
# The experiment that picks the default of ExoLabel(f, format = "blast")
# (issue 25): clusters SETDIR/SEARCH.m8 (raw 12-column DIAMOND/MMseqs2
# output) with every candidate setting below, ExoLabel ones with seeds
# 1..SEEDS (default 5), peers once (seed 1), and appends one row per run to
# OUT.csv (created with a header if missing): set, search, candidate, kind,
# seed, seconds, then the scores of scores.R (family and, on real sets,
# superfamily level). CANDIDATES: a comma-separated subset of the names.
#
# Candidates:
#   exo_*   ExoLabel on the file itself, format = "blast" plus the
#           arguments listed (what a user can type today);
#   r_*     prototypes written in R on top of ExoLabel (a weight computed in
#           R, or ExoLabel run per connected component), given to ExoLabel
#           as a data.frame: what a new core pass would do;
#   cli_*   the command-line tool (path in the environment variable
#           EXOLABEL_CLI) on the file, `--format blast --seed S`
#           plus the options listed;
#   peer_*  MCL (cluster_mcl.sh: -log10 e-value capped at 200, like the
#           default weights), igraph Leiden (modularity, CPM), igraph label
#           propagation, connected components (igraph on the same weights
#           as cluster_igraph.R).
# Sets with proteins that are clustered but not scored (scop40_fusions'
# fusions) score only the proteins of truth.tsv (scores.R ignores the rest).
# seconds: elapsed time of the clustering call in this R process (the
# R-level weight computation of r_* included; MCL: its whole script).
suppressPackageStartupMessages({library(ExoLabel); library(data.table); library(igraph)})
args <- commandArgs(trailingOnly = TRUE)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "scores.R"))
setdir <- args[1]; search <- args[2]; outcsv <- args[3]
nseed <- if (length(args) >= 4) as.integer(args[4]) else 5L
only <- if (length(args) >= 5) strsplit(args[5], ",")[[1]] else NULL
m8 <- file.path(setdir, paste0(search, ".m8"))
truth <- read_truth(file.path(setdir, "truth.tsv"))
levels <- truth_levels(truth)
setname <- basename(normalizePath(setdir))
threads <- as.integer(Sys.getenv("THREADS", "2"))

# the hits, once: e-value weight as format = "blast" makes it, bit scores,
# self scores (a protein's best bit score, its self hit when reported)
h <- fread(m8, sep = "\t", header = FALSE, select = c(1L, 2L, 11L, 12L),
           col.names = c("q", "s", "evalue", "bits"), colClasses = list(character = 1:2))
self <- h[, .(self = max(bits)), by = .(p = q)]
self <- rbind(self, h[, .(self = max(bits)), by = .(p = s)])[, .(self = max(self)), by = p]
e <- h[q != s]
e[, w := pmin(-log10(pmax(evalue, 0)), 200)]
e[, `:=`(a = pmin(q, s), b = pmax(q, s))]
e <- e[, .(w = max(w), bits = max(bits)), by = .(a, b)]
e[, sa := self$self[match(a, self$p)]][, sb := self$self[match(b, self$p)]]
e[, nbits := bits / pmax(sa, sb)]        # bit score over the larger self score
e[, nbits_min := pmin(bits / pmin(sa, sb), 1)]
g <- graph_from_data_frame(e[, .(a, b, w)], directed = FALSE)
E(g)$bits <- e$bits   # the same edges with the larger bit score of the pair
# Sequence lengths (issue 54): from SETDIR/proteins.fa when it is there
# (else the furthest aligned end of each protein, columns 7-10)
fa <- file.path(setdir, "proteins.fa")
seqlen <- if (file.exists(fa)) {
    x <- fread(cmd = paste("awk '/^>/ { if (n) print n \"\\t\" l; n = substr($1, 2); l = 0; next } { l += length($0) } END { if (n) print n \"\\t\" l }'",
                           shQuote(fa)), header = FALSE, sep = "\t", col.names = c("p", "l"),
               colClasses = list(character = 1))
    setNames(x$l, x$p)
} else {
    x <- fread(m8, sep = "\t", header = FALSE, select = c(1L, 2L, 7:10), colClasses = list(character = 1:2))
    x <- rbind(x[, .(p = V1, l = pmax(V7, V8))], x[, .(p = V2, l = pmax(V9, V10))])[, .(l = max(l)), by = p]
    setNames(x$l, x$p)
}
# OrthoFinder-like length normalisation (issue 54; our own code after the
# description in Emms & Kelly 2015, Genome Biol 16:157): for every hit q->s
# (self hits left out) L = len(q) x len(s); the hits are sorted by L and cut
# into bins of 1000 consecutive hits; in each bin the hits whose bit score is
# at or above the bin's 95th percentile are kept; a least-squares line
# log10(B) = a log10(L) + c is fitted to them; a hit's score is then
# B / 10^(a log10(L) + c); the two directions of a pair are combined by
# their maximum. OrthoFinder's per-gene cut-off from reciprocal best hits
# between species is not applied (one set, no species). MCL then clusters
# these scores as they are (mcxload --stream-mirror, no transform).
of_norm <- local({
    d <- h[q != s, .(q, s, bits)]
    d[, L := as.numeric(seqlen[q]) * as.numeric(seqlen[s])]
    d <- d[is.finite(L) & L > 0]
    setorder(d, L)
    d[, bin := (seq_len(.N) - 1L) %/% 1000L]
    top <- d[, .SD[bits >= quantile(bits, 0.95)], by = bin]
    fit <- lm(log10(bits) ~ log10(L), data = top)
    cf <- coef(fit)
    d[, of := bits / 10^(cf[[1]] + cf[[2]] * log10(L))]
    d[, `:=`(a = pmin(q, s), b = pmax(q, s))]
    d <- d[, .(of = max(of)), by = .(a, b)]
    cat(sprintf("OrthoFinder-like fit: log10(B) = %.3f log10(L) + %.3f (%d top hits)\n",
                cf[[2]], cf[[1]], nrow(top)))
    d
})
# data-derived resolutions (r_cpm_*): CPM's gamma as a multiple of the mean
# node strength sbar (sum of the weights of a node's edges, averaged over
# the proteins of the search output, as format = "blast" keeps them: nodes
# with only a self hit count) or of the mean edge weight wbar
nodes_all <- length(unique(c(h$q, h$s)))
sbar <- 2 * sum(e$w) / nodes_all
wbar <- mean(e$w)
comp <- components(g)$membership
cat(sprintf("%s %s: %d hits, %d pairs, %d proteins in the graph, %d components (%d of 3+ nodes); mean strength %.2f, mean weight %.2f\n",
            setname, search, nrow(h), nrow(e), vcount(g), max(comp), sum(tabulate(comp) >= 3), sbar, wbar))

exo_file <- function(...) { a <- list(...); function(seed) {
    set.seed(seed)
    r <- do.call(ExoLabel, c(list(m8, format = "blast", return_table = TRUE, threads = threads,
                                  verbose = FALSE), a))$results
    data.table(Vertex = r$Vertex, Cluster = r$Cluster)
} }
# The default on a copy of the search output whose bit scores (column 12) are
# multiplied by f(coverage), the coverage of a hit being the smaller of its
# two sides' aligned fractions (columns 7-10; a protein's length is its self
# hit's alignment length, else the furthest end of its alignments). Self hits
# cover 1, so the self scores that format = "blast" divides by stay as they
# are (r_cov* candidates, session 35).
exo_cov <- function(f, ...) { a <- list(...); function(seed) {
    x <- fread(m8, sep = "\t", header = FALSE, colClasses = list(character = 1:2))
    len <- rbind(x[V1 == V2, .(p = V1, l = V4)], x[, .(p = V1, l = pmax(V7, V8))],
                 x[, .(p = V2, l = pmax(V9, V10))])[, .(l = max(l)), by = p]
    x[, cov := pmin(1, (abs(V8 - V7) + 1) / len$l[match(V1, len$p)],
                   (abs(V10 - V9) + 1) / len$l[match(V2, len$p)])]
    x[, V12 := as.numeric(V12)][V1 != V2, V12 := V12 * f(cov)][, cov := NULL]
    tmp <- tempfile(fileext = ".m8"); on.exit(unlink(tmp))
    fwrite(x, tmp, sep = "\t", col.names = FALSE)
    set.seed(seed)
    r <- do.call(ExoLabel, c(list(tmp, format = "blast", return_table = TRUE, threads = threads,
                                  verbose = FALSE), a))$results
    data.table(Vertex = r$Vertex, Cluster = r$Cluster)
} }
# Issue 54: the search output without the hits whose coverage (the smaller
# of the two sides' aligned fractions, lengths as in exo_cov) is below t,
# then ExoLabel (format = "blast" plus the arguments) on that copy; self hits
# are kept (they cover 1)
exo_covcut <- function(t, ...) { a <- list(...); function(seed) {
    x <- fread(m8, sep = "\t", header = FALSE, colClasses = list(character = 1:2))
    len <- rbind(x[V1 == V2, .(p = V1, l = V4)], x[, .(p = V1, l = pmax(V7, V8))],
                 x[, .(p = V2, l = pmax(V9, V10))])[, .(l = max(l)), by = p]
    x[, cov := pmin(1, (abs(V8 - V7) + 1) / len$l[match(V1, len$p)],
                   (abs(V10 - V9) + 1) / len$l[match(V2, len$p)])]
    x <- x[V1 == V2 | cov >= t][, cov := NULL]
    tmp <- tempfile(fileext = ".m8"); on.exit(unlink(tmp))
    fwrite(x, tmp, sep = "\t", col.names = FALSE)
    set.seed(seed)
    r <- do.call(ExoLabel, c(list(tmp, format = "blast", return_table = TRUE, threads = threads,
                                  verbose = FALSE), a))$results
    data.table(Vertex = r$Vertex, Cluster = r$Cluster)
} }
# Issue 54, "split a cluster whose best cut is thin": today's default, then
# in every cluster of >= 4 proteins igraph's modularity Leiden on the
# cluster's own subgraph (self-normalised weights nbits, seed = the seed);
# two of its parts P, Q are joined back when W(P, Q) / min(vol P, vol Q) >=
# phi (vol: the sum of the strengths of the part's nodes inside the
# cluster), i.e. a part is split off only when its connection to the rest is
# thin; the clusters are the connected groups of parts joined back.
gn <- graph_from_data_frame(e[, .(a, b, w = nbits)], directed = FALSE)
thin_split <- function(r, phi, seed, k = Inf, m = Inf) {
    cl <- setNames(r$Cluster, r$Vertex)
    vn <- V(gn)$name
    memb <- cl[vn]
    out <- setNames(as.character(memb), vn)
    big <- names(which(table(memb) >= 4))
    for (k in big) {
        idx <- which(memb == k)
        sg <- induced_subgraph(gn, idx)
        set.seed(seed)
        pm <- membership(cluster_leiden(sg, objective_function = "modularity", weights = E(sg)$w,
                                        n_iterations = -1))
        if (max(pm) < 2) next
        st <- strength(sg, weights = E(sg)$w)
        vol <- tapply(st, pm, sum)
        el <- as_edgelist(sg, names = FALSE)
        pa <- pm[el[, 1]]; pb <- pm[el[, 2]]
        x <- pa != pb
        if (!any(x)) { out[idx] <- paste0(k, "_", pm); next }
        xe <- data.table(pa = pa[x], pb = pb[x], va = el[x, 1], vb = el[x, 2], w = E(sg)$w[x])
        xe[, `:=`(p = pmin(pa, pb), q = pmax(pa, pb), vp = ifelse(pa < pb, va, vb), vq = ifelse(pa < pb, vb, va))]
        W <- xe[, .(w = sum(w), np = uniqueN(vp), nq = uniqueN(vq), ne = .N), by = .(p, q)]
        W[, rel := w / pmin(vol[p], vol[q])]
        # joined back unless the connection is thin (rel < phi) and, with k
        # finite, made through at most k proteins on one of its two sides,
        # with m finite, made of at most m hits
        keep <- W[rel >= phi | pmin(np, nq) > k | ne > m]
        pg <- make_empty_graph(max(pm), directed = FALSE)
        if (nrow(keep)) pg <- add_edges(pg, rbind(keep$p, keep$q))
        out[idx] <- paste0(k, "_", components(pg)$membership[pm])
    }
    data.table(Vertex = names(out), Cluster = out)
}
exo_thin <- function(phi, ..., base = exo_file(...), k = Inf, m = Inf) { function(seed) {
    r <- base(seed)
    s2 <- thin_split(r, phi, seed, k, m)
    r[, Cluster := as.character(Cluster)]
    r[match(s2$Vertex, Vertex), Cluster := s2$Cluster]
    r
} }
# Issue 54, "a protein whose hits fall on separate regions": every hit puts
# an interval on each of its two proteins (query: columns 7-8, subject:
# 9-10). A protein's intervals, sorted by start, form regions: an interval
# opens a new region when less than a third of it overlaps the regions so
# far (its start lies beyond the furthest end so far minus a third of its
# length). A protein with two or more regions keeps its hits to the region
# with the largest sum of bit scores (a partner with a hit there is kept)
# and drops its hits that lie only in the other regions; a pair is dropped
# when either of its proteins drops it. A protein with a full-length
# homologue spanning its regions has one region and keeps every hit. Then
# ExoLabel (format = "blast" plus the arguments) on the copy without the
# dropped pairs.
# fit > 0 (r_region_fit*): only a hit that covers at least `fit` of one of
# its two proteins (lengths as in exo_cov) is dropped: a partner that fits
# inside one region of the protein, as a domain fits in a multi-domain
# protein; hits that are partial on both sides (remote homologues) stay.
region_drop <- function(x, fit = 0, ov = 1 / 3) {
    y <- x[V1 != V2]
    if (fit > 0) {
        len <- rbind(x[V1 == V2, .(p = V1, l = V4)], x[, .(p = V1, l = pmax(V7, V8))],
                     x[, .(p = V2, l = pmax(V9, V10))])[, .(l = max(l)), by = p]
        y[, fits := pmax((abs(V8 - V7) + 1) / len$l[match(V1, len$p)],
                         (abs(V10 - V9) + 1) / len$l[match(V2, len$p)]) >= fit]
    } else y[, fits := TRUE]
    iv <- rbind(y[, .(p = V1, o = V2, st = pmin(V7, V8), en = pmax(V7, V8), bits = V12, fits)],
                y[, .(p = V2, o = V1, st = pmin(V9, V10), en = pmax(V9, V10), bits = V12, fits)])
    setorder(iv, p, st, -en)
    iv[, far := shift(cummax(as.numeric(en)), fill = -1e9), by = p]
    iv[, reg := cumsum(st > far - (en - st + 1) * ov), by = p]
    iv[, nreg := max(reg), by = p]
    m <- iv[nreg >= 2]
    if (!nrow(m)) return(data.table(a = character(), b = character()))
    rw <- m[, .(w = sum(bits)), by = .(p, reg)]
    top <- rw[, .(best = reg[which.max(w)]), by = p]
    m <- merge(m, top, by = "p")
    keep <- unique(m[reg == best, .(p, o)])
    dropped <- unique(m[reg != best & fits, .(p, o)])[!keep, on = .(p, o)]
    unique(rbind(dropped[, .(a = pmin(p, o), b = pmax(p, o))]))
}
exo_region <- function(..., fit = 0, ov = 1 / 3) { a <- list(...); function(seed) {
    x <- fread(m8, sep = "\t", header = FALSE, colClasses = list(character = 1:2))
    d <- region_drop(x, fit, ov)
    x[, `:=`(a = pmin(V1, V2), b = pmax(V1, V2))]
    x <- x[!d, on = .(a, b)][, c("a", "b") := NULL]
    tmp <- tempfile(fileext = ".m8"); on.exit(unlink(tmp))
    fwrite(x, tmp, sep = "\t", col.names = FALSE)
    set.seed(seed)
    r <- do.call(ExoLabel, c(list(tmp, format = "blast", return_table = TRUE, threads = threads,
                                  verbose = FALSE), a))$results
    data.table(Vertex = r$Vertex, Cluster = r$Cluster)
} }
# The default's rule written with igraph, to vary its constant: Leiden CPM
# on the self-normalised weights (nbits), in every connected component at
# resolution f x the mean strength of the component's nodes; region = TRUE:
# on the graph without the pairs region_drop() drops (ov as there)
# alpha > 0 (r_*_rel<alpha>): also drop a pair whose weight is below alpha x
# the smaller of its two proteins' median edge weight (a hit much weaker
# than both proteins' usual hits; a protein's only hit is never dropped)
# rule (rel54): a function(ee) -> logical, TRUE = drop the pair, applied
# after the region rule and the alpha step (weak_rule() below)
pc_cpm <- function(f, region = FALSE, ov = 1 / 3, alpha = 0, rule = NULL) function(seed) {
    ee <- e
    if (region) {
        x <- fread(m8, sep = "\t", header = FALSE, colClasses = list(character = 1:2))
        d <- region_drop(x, 0, ov)
        ee <- ee[!d, on = .(a, b)]
    }
    if (alpha > 0) {
        md <- rbind(ee[, .(p = a, w = nbits)], ee[, .(p = b, w = nbits)])[, .(m = median(w)), by = p]
        ee <- ee[!(nbits < alpha * pmin(md$m[match(a, md$p)], md$m[match(b, md$p)]))]
    }
    if (!is.null(rule)) {
        dr <- rule(ee)
        cat(sprintf("    weak rule drops %d of %d pairs\n", sum(dr), nrow(ee)))
        ee <- ee[!dr]
    }
    gg <- graph_from_data_frame(ee[, .(a, b, w = nbits)], directed = FALSE,
                                vertices = data.frame(name = unique(c(h$q, h$s))))
    cm <- components(gg)$membership
    st <- strength(gg, weights = E(gg)$w)
    out <- character(vcount(gg))
    for (k in unique(cm)) {
        idx <- which(cm == k)
        if (length(idx) < 3) { out[idx] <- paste0("c", k); next }
        sg <- induced_subgraph(gg, idx)
        set.seed(seed)
        m <- membership(cluster_leiden(sg, objective_function = "CPM", weights = E(sg)$w,
                                       resolution_parameter = f * mean(st[idx]), n_iterations = 2))
        out[idx] <- paste0("c", k, "_", m)
    }
    data.table(Vertex = V(gg)$name, Cluster = out)
}
source(file.path(here, "rules.R"))
exo_df <- function(col, ...) { a <- list(...); function(seed) {
    set.seed(seed)
    df <- data.frame(from = e$a, to = e$b, weight = e[[col]])
    r <- do.call(ExoLabel, c(list(df, return_table = TRUE, threads = threads, verbose = FALSE), a))$results
    data.table(Vertex = r$Vertex, Cluster = r$Cluster)
} }
# ExoLabel's Leiden run separately on every connected component (its own
# modularity null model); components of 1-2 nodes stay whole
exo_percomp <- function(col, ...) { a <- list(...); function(seed) {
    set.seed(seed)
    cm <- comp[e$a]
    big <- which(tabulate(comp) >= 3)
    res <- list(data.table(Vertex = names(comp), Cluster = paste0("c", comp)))
    for (k in big) {
        sel <- cm == k
        df <- data.frame(from = e$a[sel], to = e$b[sel], weight = e[[col]][sel])
        r <- do.call(ExoLabel, c(list(df, return_table = TRUE, threads = threads, verbose = FALSE), a))$results
        res[[length(res) + 1L]] <- data.table(Vertex = r$Vertex, Cluster = paste0("k", k, "_", r$Cluster))
    }
    r <- rbindlist(res)
    r[, .(Cluster = Cluster[.N]), by = Vertex]   # the per-component result replaces "c<k>"
} }
ig <- function(f) function(seed) {
    set.seed(seed)
    m <- f()
    data.table(Vertex = V(g)$name, Cluster = m)
}
mcl <- function(infl) function(seed) {
    out <- tempfile(fileext = ".tsv"); wd <- tempfile()
    system2("bash", c(file.path(here, "cluster_mcl.sh"), m8, infl, out, wd, threads), stdout = FALSE)
    r <- fread(out, header = FALSE, col.names = c("Vertex", "Cluster"), colClasses = "character")
    unlink(c(out, wd), recursive = TRUE)
    r
}
# MCL at inflation infl on a table a, b, weight (weights as given)
mcl_pairs <- function(tab, col, infl) function(seed) {
    wd <- tempfile(); dir.create(wd); on.exit(unlink(wd, recursive = TRUE))
    fwrite(tab[, .(a, b, x = get(col))], file.path(wd, "g.abc"), sep = "\t", col.names = FALSE)
    system2("mcxload", c("-abc", file.path(wd, "g.abc"), "--stream-mirror", "-o", file.path(wd, "g.mci"),
                         "-write-tab", file.path(wd, "g.tab")), stdout = FALSE, stderr = FALSE)
    system2("mcl", c(file.path(wd, "g.mci"), "-I", infl, "-te", threads, "-o", file.path(wd, "o.mci")),
            stdout = FALSE, stderr = FALSE)
    system2("mcxdump", c("-icl", file.path(wd, "o.mci"), "-tabr", file.path(wd, "g.tab"),
                         "-o", file.path(wd, "cl.txt")), stdout = FALSE, stderr = FALSE)
    cl <- strsplit(readLines(file.path(wd, "cl.txt")), "\t")
    data.table(Vertex = unlist(cl), Cluster = rep(seq_along(cl), lengths(cl)))
}
cli <- function(...) { a <- c(...); function(seed) {
    exe <- Sys.getenv("EXOLABEL_CLI")
    if (!nzchar(exe)) stop("cli_* candidates need EXOLABEL_CLI (the command-line tool)")
    out <- tempfile(fileext = ".tsv")
    st <- system2(exe, c("--format", "blast", "--seed", seed, "--threads", threads, a,
                         "--out", out, m8), stdout = FALSE)
    if (st != 0) stop("exolabel exited with status ", st)
    r <- fread(out, header = FALSE, col.names = c("Vertex", "Cluster"), colClasses = "character")
    unlink(out)
    r
} }
BITS <- list(columns = c(1, 2, 12), weight_transform = "none")
C <- list(
    # the default as shipped since issue 25 (Leiden CPM, resolution "auto" =
    # 5e-5 x mean strength), from R and from the command-line tool, with no
    # other argument; exo_default is the default before it (label
    # propagation, resolution 1: what format = "blast" alone ran when the
    # first rows were made)
    exo_blast_default = exo_file(),
    cli_blast_default = cli(),
    exo_default = exo_file(algorithm = "lp"),
    # the default with one and with two rounds of the whole Leiden
    # algorithm (two is the default; one was tried in session 31 and not
    # kept: SSN.md, "One round of Leiden for the default")
    exo_blast_iterations1 = exo_file(iterations = 1),
    exo_blast_iterations2 = exo_file(iterations = 2),
    exo_res0 = exo_file(resolution = 0),
    exo_refine = exo_file(refine = TRUE),
    exo_attenuation = exo_file(attenuation = TRUE),
    exo_bitscore = do.call(exo_file, BITS),
    exo_bitscore_refine = do.call(exo_file, c(BITS, refine = TRUE)),
    exo_leiden = exo_file(algorithm = "leiden"),
    exo_leiden_res0.5 = exo_file(algorithm = "leiden", resolution = 0.5),
    exo_leiden_res2 = exo_file(algorithm = "leiden", resolution = 2),
    exo_leiden_res4 = exo_file(algorithm = "leiden", resolution = 4),
    exo_bitscore_leiden = do.call(exo_file, c(BITS, algorithm = "leiden")),
    exo_cpm_res0.01 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.01),
    exo_cpm_res0.1 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.1),
    exo_cpm_res0.3 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.3),
    exo_cpm_res1 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 1),
    exo_cpm_res3 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 3),
    exo_cpm_res10 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 10),
    exo_bitscore_cpm_res10 = do.call(exo_file, c(BITS, algorithm = "leiden", objective = "CPM", resolution = 10)),
    exo_bitscore_cpm_res30 = do.call(exo_file, c(BITS, algorithm = "leiden", objective = "CPM", resolution = 30)),
    r_cpm_s0.00003 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.00003 * sbar),
    r_cpm_s0.0001 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.0001 * sbar),
    r_cpm_s0.00005 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.00005 * sbar),
    r_cpm_s0.00001 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.00001 * sbar),
    r_cpm_s0.0003 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.0003 * sbar),
    r_cpm_s0.001 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.001 * sbar),
    r_cpm_s0.003 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.003 * sbar),
    r_cpm_w0.003 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.003 * wbar),
    r_cpm_w0.01 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.01 * wbar),
    r_cpm_w0.03 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.03 * wbar),
    r_nbits_lp = exo_df("nbits"),
    r_nbits_leiden = exo_df("nbits", algorithm = "leiden"),
    r_nbits_cpm_res0.05 = exo_df("nbits", algorithm = "leiden", objective = "CPM", resolution = 0.05),
    r_nbits_cpm_res0.1 = exo_df("nbits", algorithm = "leiden", objective = "CPM", resolution = 0.1),
    r_nbits_cpm_res0.2 = exo_df("nbits", algorithm = "leiden", objective = "CPM", resolution = 0.2),
    r_nbitsmin_cpm_res0.1 = exo_df("nbits_min", algorithm = "leiden", objective = "CPM", resolution = 0.1),
    r_nbitsmin_cpm_res0.2 = exo_df("nbits_min", algorithm = "leiden", objective = "CPM", resolution = 0.2),
    r_percomp_leiden = exo_percomp("w", algorithm = "leiden"),
    r_percomp_nbits_leiden = exo_percomp("nbits", algorithm = "leiden"),
    # issue 54: existing options on the bridge sets (modularity on -log10
    # e-value; fixed CPM resolutions on the self-normalised bit scores;
    # "auto" CPM on e-values; coverage-scaled bit scores with Leiden)
    exo_leiden_e = exo_file(algorithm = "leiden", weight_transform = "neglog10"),
    exo_cpm_auto_e = exo_file(algorithm = "leiden", objective = "CPM", resolution = "auto",
                              weight_transform = "neglog10"),
    exo_cpm_e_res1 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 1,
                              weight_transform = "neglog10"),
    exo_lp_e = exo_file(algorithm = "lp", weight_transform = "neglog10"),
    exo_sn_cpm0.001 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.001),
    exo_sn_cpm0.003 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.003),
    exo_sn_cpm0.01 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.01),
    exo_sn_cpm0.03 = exo_file(algorithm = "leiden", objective = "CPM", resolution = 0.03),
    r_cov_leiden = exo_cov(identity, algorithm = "leiden"),
    r_cov_sqrt_leiden = exo_cov(sqrt, algorithm = "leiden"),
    r_covcut0.5 = exo_covcut(0.5),
    r_covcut0.6 = exo_covcut(0.6),
    r_covcut0.8 = exo_covcut(0.8),
    r_covcut0.6_leiden = exo_covcut(0.6, algorithm = "leiden"),
    r_thin0.02 = exo_thin(0.02),
    r_thin0.05 = exo_thin(0.05),
    r_thin0.1 = exo_thin(0.1),
    r_thin0.2 = exo_thin(0.2),
    r_region = exo_region(),
    r_region_leiden = exo_region(algorithm = "leiden"),
    r_region_thin0.01 = exo_thin(0.01, base = exo_region()),
    r_region_fit0.6 = exo_region(fit = 0.6),
    r_region_ov0.1 = exo_region(ov = 0.1),
    r_region_ov0.1_thin0.01 = exo_thin(0.01, base = exo_region(ov = 0.1)),
    r_pc_cpm5e5 = pc_cpm(5e-5), r_pc_cpm3e5 = pc_cpm(3e-5), r_pc_cpm2e5 = pc_cpm(2e-5),
    r_pc_cpm1e4 = pc_cpm(1e-4),
    r_region_pc_cpm5e5 = pc_cpm(5e-5, TRUE), r_region_pc_cpm3e5 = pc_cpm(3e-5, TRUE),
    r_region_pc_cpm2e5 = pc_cpm(2e-5, TRUE),
    r_region_pc_cpm2e5_thin0.01 = exo_thin(0.01, base = pc_cpm(2e-5, TRUE)),
    r_region_pc_cpm2e5_rel0.6 = pc_cpm(2e-5, TRUE, alpha = 0.6),
    r_region_pc_cpm2e5_rel0.5 = pc_cpm(2e-5, TRUE, alpha = 0.5),
    r_region_pc_cpm2e5_rel0.3 = pc_cpm(2e-5, TRUE, alpha = 0.3),
    # rel54: weak-hit rules (rules.R)
    r_rc_gap0.5 = pc_cpm(2e-5, TRUE, rule = weak_rule("gap", 0.5)),
    r_rc_gap0.55 = pc_cpm(2e-5, TRUE, rule = weak_rule("gap", 0.55)),
    r_rc_gap0.6 = pc_cpm(2e-5, TRUE, rule = weak_rule("gap", 0.6)),
    r_rc_gap0.7 = pc_cpm(2e-5, TRUE, rule = weak_rule("gap", 0.7)),
    r_rc_gapone0.55 = pc_cpm(2e-5, TRUE, rule = weak_rule("gapone", 0.55)),
    r_rc_q25_0.55 = pc_cpm(2e-5, TRUE, rule = weak_rule("q25", 0.55)),
    r_rc_q10_0.55 = pc_cpm(2e-5, TRUE, rule = weak_rule("q10", 0.55)),
    r_rc_med0.5_deg3 = pc_cpm(2e-5, TRUE, rule = weak_rule("med", 0.5, k = 3)),
    r_rc_med0.5_deg5 = pc_cpm(2e-5, TRUE, rule = weak_rule("med", 0.5, k = 5)),
    r_rc_med0.5_deg8 = pc_cpm(2e-5, TRUE, rule = weak_rule("med", 0.5, k = 8)),
    r_rc_med0.5 = pc_cpm(2e-5, TRUE, rule = weak_rule("med", 0.5)),
    r_rc_med0.55 = pc_cpm(2e-5, TRUE, rule = weak_rule("med", 0.55)),
    r_rc_medmax0.5 = pc_cpm(2e-5, TRUE, rule = weak_rule("medmax", 0.5)),
    r_rc_med0.5_weakest = pc_cpm(2e-5, TRUE, rule = weak_rule("med", 0.5, weakest = TRUE)),
    r_rc_medboth0.5 = pc_cpm(2e-5, TRUE, rule = weak_rule("medboth", 0.5)),
    r_rc_gap0.55_k10 = pc_cpm(2e-5, TRUE, rule = weak_rule("gap", 0.55, k = 10)),
    r_rc_gap0.55_k8_h0.7 = pc_cpm(2e-5, TRUE, rule = weak_rule("gap", 0.55, k = 8, h = 0.7)),
    r_rc_gap0.55_k8 = pc_cpm(2e-5, TRUE, rule = weak_rule("gap", 0.55, k = 8)),
    r_region_pc_cpm2e5_thin0.0075 = exo_thin(0.0075, base = pc_cpm(2e-5, TRUE)),
    r_region_pc_cpm2e5_thin0.006 = exo_thin(0.006, base = pc_cpm(2e-5, TRUE)),
    r_region_pc_cpm2e5_few2_0.05 = exo_thin(0.05, base = pc_cpm(2e-5, TRUE), k = 2),
    r_region_pc_cpm2e5_few2_0.02 = exo_thin(0.02, base = pc_cpm(2e-5, TRUE), k = 2),
    r_region_pc_cpm2e5_few1_0.05 = exo_thin(0.05, base = pc_cpm(2e-5, TRUE), k = 1),
    r_region_pc_cpm2e5_edges2_0.05 = exo_thin(0.05, base = pc_cpm(2e-5, TRUE), m = 2),
    r_region_pc_cpm2e5_edges2_0.02 = exo_thin(0.02, base = pc_cpm(2e-5, TRUE), m = 2),
    r_region_pc_cpm2e5_edges1_0.05 = exo_thin(0.05, base = pc_cpm(2e-5, TRUE), m = 1),
    r_region_pc_cpm3e5_thin0.01 = exo_thin(0.01, base = pc_cpm(3e-5, TRUE)),
    r_region_pc_cpm5e5_thin0.01 = exo_thin(0.01, base = pc_cpm(5e-5, TRUE)),
    r_region_fit0.8 = exo_region(fit = 0.8),
    r_region_fit0.6_thin0.01 = exo_thin(0.01, base = exo_region(fit = 0.6)),
    r_region_fit0.6_thin0.005 = exo_thin(0.005, base = exo_region(fit = 0.6)),
    r_region_thin0.02 = exo_thin(0.02, base = exo_region()),
    r_thin0.01 = exo_thin(0.01),
    r_cov1 = exo_cov(function(c) 1), # the default through the copy: a check of the path
    r_cov = exo_cov(identity),
    r_cov_sqrt = exo_cov(sqrt),
    peer_mcl_1.4 = mcl(1.4), peer_mcl_2 = mcl(2), peer_mcl_4 = mcl(4),
    peer_igraph_leiden = ig(function() membership(cluster_leiden(g, objective_function = "modularity",
                                                     weights = E(g)$w, n_iterations = -1))),
    peer_igraph_cpm_res1 = ig(function() membership(cluster_leiden(g, objective_function = "CPM",
                                                      weights = E(g)$w, resolution_parameter = 1,
                                                      n_iterations = -1))),
    # issue 54's peers: modularity on bit scores; CPM over a range of
    # resolutions on both weights (the best resolution per set is picked by
    # grid_summary.R's "best peer", an oracle no user has); MCL on the
    # OrthoFinder-like length-normalised scores (of_norm above)
    peer_igraph_leiden_bits = ig(function() membership(cluster_leiden(g, objective_function = "modularity",
                                                          weights = E(g)$bits, n_iterations = -1))),
    peer_of_mcl_1.5 = mcl_pairs(of_norm, "of", 1.5),
    peer_of_mcl_2 = mcl_pairs(of_norm, "of", 2),
    peer_igraph_cpm_e0.1 = ig(function() membership(cluster_leiden(g, objective_function = "CPM",
        weights = E(g)$w, resolution_parameter = 0.1, n_iterations = -1))),
    peer_igraph_cpm_e0.3 = ig(function() membership(cluster_leiden(g, objective_function = "CPM",
        weights = E(g)$w, resolution_parameter = 0.3, n_iterations = -1))),
    peer_igraph_cpm_e1 = ig(function() membership(cluster_leiden(g, objective_function = "CPM",
        weights = E(g)$w, resolution_parameter = 1, n_iterations = -1))),
    peer_igraph_cpm_e3 = ig(function() membership(cluster_leiden(g, objective_function = "CPM",
        weights = E(g)$w, resolution_parameter = 3, n_iterations = -1))),
    peer_igraph_cpm_e10 = ig(function() membership(cluster_leiden(g, objective_function = "CPM",
        weights = E(g)$w, resolution_parameter = 10, n_iterations = -1))),
    peer_igraph_cpm_e30 = ig(function() membership(cluster_leiden(g, objective_function = "CPM",
        weights = E(g)$w, resolution_parameter = 30, n_iterations = -1))),
    peer_igraph_cpm_bits1 = ig(function() membership(cluster_leiden(g, objective_function = "CPM",
        weights = E(g)$bits, resolution_parameter = 1, n_iterations = -1))),
    peer_igraph_cpm_bits3 = ig(function() membership(cluster_leiden(g, objective_function = "CPM",
        weights = E(g)$bits, resolution_parameter = 3, n_iterations = -1))),
    peer_igraph_cpm_bits10 = ig(function() membership(cluster_leiden(g, objective_function = "CPM",
        weights = E(g)$bits, resolution_parameter = 10, n_iterations = -1))),
    peer_igraph_cpm_bits30 = ig(function() membership(cluster_leiden(g, objective_function = "CPM",
        weights = E(g)$bits, resolution_parameter = 30, n_iterations = -1))),
    peer_igraph_cpm_bits100 = ig(function() membership(cluster_leiden(g, objective_function = "CPM",
        weights = E(g)$bits, resolution_parameter = 100, n_iterations = -1))),
    peer_igraph_lp = ig(function() membership(cluster_label_prop(g, weights = E(g)$w))),
    peer_components = ig(function() comp)
)
if (!is.null(only)) {
    bad <- setdiff(only, names(C)); if (length(bad)) stop("unknown candidates: ", paste(bad, collapse = ", "))
    C <- C[only]
}
for (nm in names(C)) {
    kind <- sub("_.*", "", nm)
    seeds <- if (kind == "peer") 1L else seq_len(nseed)
    last_ari <- c()
    for (sd in seeds) {
        t0 <- proc.time()[["elapsed"]]
        r <- C[[nm]](sd)
        secs <- proc.time()[["elapsed"]] - t0
        sc <- score_levels(truth, r$Vertex, r$Cluster, levels)
        row <- data.table(set = setname, search = search, candidate = nm, kind = kind, seed = sd,
                          seconds = round(secs, 3), proteins = nrow(truth), t(round(sc, 6)))
        if (!"superfamily_ari" %in% names(row))
            row[, `:=`(superfamily_ari = NA_real_, superfamily_prec = NA_real_,
                       superfamily_rec = NA_real_, superfamily_nmi = NA_real_)]
        setcolorder(row, c("set", "search", "candidate", "kind", "seed", "seconds", "proteins",
                           paste0(rep(c("family", "superfamily"), each = 4), c("_ari", "_prec", "_rec", "_nmi"))))
        fwrite(row, outcsv, append = file.exists(outcsv))
        last_ari <- c(last_ari, sc[["family_ari"]])
    }
    cat(sprintf("  %-28s family ARI %s\n", nm,
                paste(formatC(last_ari, digits = 3, format = "f"), collapse = " ")))
}
