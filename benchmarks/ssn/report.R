# Rscript report.R DIR OUT.md: writes the SSN benchmark report (OUT.md) from
# DIR/{datasets,search,timings,metrics}.csv, DIR/machine.txt and the
# hand-written interpretation DIR/notes.md (inserted as is).
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]; out <- args[2]
rd <- function(f) utils::read.csv(file.path(dir, f), stringsAsFactors = FALSE)
ds <- rd("datasets.csv"); se <- rd("search.csv"); ti <- rd("timings.csv"); me <- rd("metrics.csv")
sd <- if (file.exists(file.path(dir, "seeds.csv")) && file.size(file.path(dir, "seeds.csv")) > 0)
    rd("seeds.csv") else NULL
machine <- readLines(file.path(dir, "machine.txt"))
notes <- if (file.exists(file.path(dir, "notes.md"))) readLines(file.path(dir, "notes.md")) else character()
RECOMMENDED <- paste0("exolabel_", Sys.getenv("RECOMMENDED", "bitscore"))
# rows named after a default that has changed since are shown by what they ran
label_of <- function(m) sub("^exolabel_default$", "exolabel_lp (label propagation, e-value weights)",
                            sub("^exolabel_cli_default$", "exolabel_cli_lp", m))
fmt <- function(x, d = 3) ifelse(is.na(x), "NA", formatC(x, digits = d, format = "f"))
sec <- function(x) ifelse(x < 10, formatC(x, digits = 2, format = "f"),
                   ifelse(x < 100, formatC(x, digits = 1, format = "f"), formatC(x, digits = 0, format = "f")))
mb <- function(kb) formatC(kb / 1024, digits = 0, format = "f")
table_md <- function(df) {
    c(paste0("| ", paste(names(df), collapse = " | "), " |"),
      paste0("|", paste(rep("---", ncol(df)), collapse = "|"), "|"),
      apply(df, 1, function(r) paste0("| ", paste(r, collapse = " | "), " |")))
}
# medians over repetitions
key <- paste(ti$size, ti$search, ti$method)
agg <- do.call(rbind, lapply(split(ti, key), function(t) data.frame(
    size = t$size[1], search = t$search[1], method = t$method[1], runs = nrow(t),
    wall = stats::median(t$wall_s), inner = stats::median(t$inner_s),
    cpu = stats::median(t$user_s + t$sys_s),
    rss = stats::median(t$maxrss_kb), load = paste(range(t$load1), collapse = "-"))))
res <- merge(me, agg, by = c("size", "search", "method"))
# The first screen: the default of format = "blast" against the best peer on
# every set of the latest grid run (bridges_grid.csv: real sets with and
# without bridges, a simulated set; grid.R), with its commit and machine.
headline <- function() {
    gf <- file.path(dir, "bridges_grid.csv")
    if (!file.exists(gf)) return(character())
    g <- utils::read.csv(gf, stringsAsFactors = FALSE)
    g$key <- paste(g$set, g$search, sep = ", ")
    no_sf <- g$set == "balifam" | grepl("^n[0-9]", g$set)
    g$superfamily_ari[no_sf] <- NA
    m <- stats::aggregate(cbind(family_ari, superfamily_ari) ~ key + candidate + kind,
                          data = g, FUN = stats::median, na.action = na.pass)
    rows <- lapply(unique(m$key), function(k) {
        x <- m[m$key == k, ]
        d <- x[x$candidate == "exo_blast_default", ]
        p <- x[x$kind == "peer", ]
        if (!nrow(d) || !nrow(p)) return(NULL)
        bf <- p[which.max(p$family_ari), ]
        sfa <- if (all(is.na(p$superfamily_ari))) NA else max(p$superfamily_ari, na.rm = TRUE)
        data.frame(`set, search` = k, `default family ARI` = fmt(d$family_ari),
                   `best peer` = fmt(bf$family_ari), `(peer)` = bf$candidate,
                   `default superfamily ARI` = ifelse(is.na(d$superfamily_ari), "",
                                                      fmt(d$superfamily_ari)),
                   `best peer (superfamily)` = ifelse(is.na(sfa), "", fmt(sfa)), check.names = FALSE)
    })
    tab <- do.call(rbind, rows)
    gm <- file.path(dir, "bridges_machine.txt")
    c("## Current figures", "",
      "Family and superfamily ARI (medians over seeds 1..3) of the protein default,",
      "`ExoLabel(f, format = \"blast\")` (bridges cut, Leiden CPM, `resolution = \"auto\"`), against the",
      "best of every peer (MCL at I = 1.4, 2, 4; igraph Leiden on -log10 e-value and on bit",
      "scores; igraph CPM at the best resolution of a sweep, an oracle choice; connected",
      "components; OrthoFinder-like length-normalised MCL). Sets: SCOP40 domains, the same",
      "with 1,500 two-domain fusions as bridges (`scop40_fusions`, only the domains scored)",
      "and a held-out 3,000-fusion set (`fus3000s7`), Swiss-Prot enzymes (whole proteins),",
      "balifam (Pfam), simulated 10^4 proteins (`n10000`).", "",
      if (file.exists(gm)) paste0("- ", readLines(gm)) else NULL, "",
      table_md(tab), "",
      "Reproduce: `make ssn-bench SETS=\"scop40 scop40_fusions swissprot_ec balifam 10000\"`, then",
      "`Rscript benchmarks/ssn/grid.R $WORK/SET SEARCH benchmarks/ssn/bridges_grid.csv 3` per set",
      "and search and `Rscript benchmarks/ssn/bridges_summary.R benchmarks/ssn/bridges_summary.md",
      "benchmarks/ssn/bridges_grid.csv` (every candidate and peer: bridges_summary.md; how the",
      "sets are made: benchmarks/ssn/README.md). The history of the experiments behind the",
      "default: [notes/SSN-history.md](notes/SSN-history.md).", "")
}
L <- c("# Protein families from all-vs-all searches: ExoLabel against MCL",
       "",
       headline(),
       "## Details", "",
       "Generated by `make ssn-bench` (benchmarks/ssn/run.sh, report by benchmarks/ssn/report.R);",
       "the method, the simulator and the scoring rules are described in benchmarks/ssn/README.md.",
       "Raw numbers: benchmarks/ssn/{datasets,search,timings,metrics}.csv.", "",
       "### Machine and run of the simulated sets", "", paste0("- ", machine), "",
       "Timings come from a 2-core machine shared with other engineers' work (the",
       "1-minute load average at the start of each run is listed per row): absolute",
       "times are inflated and noisy; CPU times and ratios are more telling.", "",
       "## Data sets (simulated, benchmarks/ssn/ssngen.c)", "",
       table_md(data.frame(set = ds$set, proteins = ds$proteins, seed = ds$seed, families = ds$families,
                           `largest family` = ds$largest_family, chimeras = ds$chimeras,
                           `mean length` = ds$mean_length, residues = ds$residues, check.names = FALSE)), "",
       "## Searches (threads 2, at nice 5 or lower priority; see the notes)", "",
       table_md(data.frame(set = se$size, tool = se$search, `wall s` = sec(se$search_s),
                           `CPU s` = sec(se$user_s + ifelse(is.na(se$sys_s), 0, se$sys_s)),
                           `peak MB` = mb(se$maxrss_kb), hits = se$hits, load = se$load1,
                           check.names = FALSE)), "")
for (n in sort(unique(res$size))) for (s in unique(res$search[res$size == n])) {
    r <- res[res$size == n & res$search == s, ]
    r <- r[order(-r$nmi), ]
    L <- c(L, sprintf("## Set %s (%s proteins), %s search", n, format(r$proteins[1], big.mark = ","), s), "",
           table_md(data.frame(method = label_of(r$method), NMI = fmt(r$nmi), ARI = fmt(r$ari),
                               `NMI w/o chimeras` = fmt(r$nmi_nochim), `ARI w/o chimeras` = fmt(r$ari_nochim),
                               clusters = r$clusters, `clusters >= 2` = r$clusters_2plus,
                               `largest share` = fmt(r$largest_share),
                               `wall s` = sec(r$wall), `inner s` = sec(r$inner), `CPU s` = sec(r$cpu),
                               `peak MB` = mb(r$rss), runs = r$runs, load = r$load,
                               check.names = FALSE)), "")
}
if (!is.null(sd) && nrow(sd)) {
    sk <- paste(sd$size, sd$search, sd$method)
    sa <- do.call(rbind, lapply(split(sd, sk), function(t) data.frame(
        set = t$size[1], search = t$search[1], method = t$method[1], seeds = nrow(t),
        `NMI min` = fmt(min(t$nmi)), `NMI median` = fmt(stats::median(t$nmi)), `NMI max` = fmt(max(t$nmi)),
        `ARI median` = fmt(stats::median(t$ari)), `largest share, max` = fmt(max(t$largest_share)),
        check.names = FALSE)))
    sa <- sa[order(sa$set, sa$search, sa$method), ]
    L <- c(L, "## ExoLabel over seeds (command-line tool, seeds 1..5)", "",
           "ExoLabel breaks ties and orders its sweeps at random, so one seed can be",
           "off by several thousandths of NMI either way; MCL is deterministic. Each",
           "setting below ran once per seed; the targets use the median.", "",
           table_md(sa), "")
}
L <- c(L, "Columns: NMI/ARI against the simulated families over all proteins (a",
       "protein missing from a method's output is its own singleton cluster; a",
       "chimera's truth is the family of its longer domain), and with the chimeras",
       "left out; clusters counts singletons; largest share = largest cluster /",
       "proteins; wall s and peak MB = median wall time and median peak RSS of the",
       "whole process (R start-up and reading included; MCL: cut + mcxload + mcl +",
       "mcxdump); inner s = the clustering call itself without R's start-up; CPU s =",
       "median user + system CPU time of the process (less sensitive to the load); load =",
       "1-minute load average at the start of the runs.",
       sprintf("ClusterNMI and igraph::compare(method = \"nmi\") differ by at most %.1e over all rows (values kept to 6 digits).",
               max(abs(me$nmi - me$nmi_igraph))), "")
# runs stopped before the end (unfinished.csv: lower bounds)
unf <- if (file.exists(file.path(dir, "unfinished.csv"))) rd("unfinished.csv") else NULL
if (!is.null(unf) && nrow(unf)) {
    L <- c(L, "## Runs stopped before they finished", "",
           "Stopped at the deadline; their time and memory so far are lower bounds.", "",
           table_md(data.frame(set = unf$size, search = unf$search, method = unf$method,
                               `wall s so far` = sec(unf$wall_s), `CPU s so far` = sec(unf$cpu_s),
                               `peak MB so far` = mb(unf$maxrss_kb), stage = unf$stage,
                               check.names = FALSE)), "")
}
# targets
L <- c(L, "## Targets (set by set)", "")
for (big in unique(res$size)) for (s in unique(res$search[res$size == big])) {
    r <- res[res$size == big & res$search == s, ]
    mcl <- r[grepl("^mcl_", r$method), ]
    ex <- r[r$method == RECOMMENDED, ]
    cli <- r[r$method == sub("exolabel_", "exolabel_cli_", RECOMMENDED), ]
    u <- if (is.null(unf)) NULL else unf[unf$size == big & unf$search == s & grepl("^mcl_", unf$method), ]
    if (!nrow(mcl) && !is.null(u) && nrow(u) && nrow(ex)) {
        lb <- u[which.min(u$wall_s), ]
        L <- c(L, sprintf("Set %s (%s proteins), %s: MCL did not finish (see above); lower bounds from %s:",
                          big, format(ex$proteins[1], big.mark = ","), s, lb$method), "",
               sprintf("- ExoLabel %s: %s s wall, %s s CPU, %s MB: MCL is at least %.0fx slower in wall time, %.0fx in CPU, and its peak memory is at least %.1fx ExoLabel's (R process)",
                       sub("exolabel_", "", RECOMMENDED), sec(ex$wall), sec(ex$cpu), mb(ex$rss),
                       lb$wall_s / ex$wall, lb$cpu_s / ex$cpu, lb$maxrss_kb / ex$rss))
        for (alt in c(sub("exolabel_", "exolabel_cli_", RECOMMENDED), paste0(RECOMMENDED, "_32MB"),
                      paste0(sub("exolabel_", "exolabel_cli_", RECOMMENDED), "_32MB"))) {
            a <- r[r$method == alt, ]
            if (nrow(a)) L <- c(L, sprintf("- %s: %s s wall, %s s CPU, %s MB: MCL at least %.0fx slower (wall), %.0fx (CPU), memory at least %.1fx",
                                          alt, sec(a$wall), sec(a$cpu), mb(a$rss), lb$wall_s / a$wall,
                                          lb$cpu_s / a$cpu, lb$maxrss_kb / a$rss))
        }
        L <- c(L, "")
        next
    }
    if (!nrow(mcl) || !nrow(ex)) next
    best <- mcl[which.max(mcl$nmi), ]
    sm <- if (is.null(sd)) NULL else sd[sd$size == big & sd$search == s &
                                       sd$method == sub("exolabel_", "exolabel_cli_", RECOMMENDED), ]
    L <- c(L, sprintf("Set %s (%s proteins), %s: ExoLabel %s against MCL's best (%s):", big,
                      format(r$proteins[1], big.mark = ","), s, sub("exolabel_", "", RECOMMENDED), best$method), "")
    if (!is.null(sm) && nrow(sm))
        L <- c(L, sprintf("- NMI median over %d seeds %s (min %s, max %s) vs %s (target: at least MCL's) -> %s",
                          nrow(sm), fmt(stats::median(sm$nmi)), fmt(min(sm$nmi)), fmt(max(sm$nmi)), fmt(best$nmi),
                          if (stats::median(sm$nmi) >= best$nmi) "met" else "missed"))
    L <- c(L,
           sprintf("- NMI of the R run (seed from set.seed(1)) %s vs %s -> %s", fmt(ex$nmi), fmt(best$nmi),
                   if (ex$nmi >= best$nmi) "at least MCL's" else "below MCL's"),
           sprintf("- wall time %s s vs %s s: %.1fx faster (target 50x) -> %s", sec(ex$wall), sec(best$wall),
                   best$wall / ex$wall, if (best$wall / ex$wall >= 50) "met" else "missed"),
           sprintf("- CPU time %s s vs %s s: %.1fx less", sec(ex$cpu), sec(best$cpu), best$cpu / ex$cpu),
           sprintf("- peak memory %s MB (R process) vs %s MB: %.2f of MCL's (target at most 0.2) -> %s",
                   mb(ex$rss), mb(best$rss), ex$rss / best$rss, if (ex$rss / best$rss <= 0.2) "met" else "missed"))
    for (alt in c(paste0(RECOMMENDED, "_32MB"), paste0(sub("exolabel_", "exolabel_cli_", RECOMMENDED), "_32MB"))) {
        a <- r[r$method == alt, ]
        if (nrow(a)) L <- c(L, sprintf("- %s: %s s wall (%.1fx faster than MCL), %s s CPU (%.1fx less), %s MB (%.2f of MCL's)",
                                      alt, sec(a$wall), best$wall / a$wall, sec(a$cpu), best$cpu / a$cpu,
                                      mb(a$rss), a$rss / best$rss))
    }
    if (nrow(cli))
        L <- c(L, sprintf("- the same clustering from the command-line tool: %s s wall (%.1fx faster than MCL), %s s CPU (%.1fx less), %s MB (%.2f of MCL's)",
                          sec(cli$wall), best$wall / cli$wall, sec(cli$cpu), best$cpu / cli$cpu,
                          mb(cli$rss), cli$rss / best$rss))
    L <- c(L, "")
}
# real proteins (real.sh): real_search.csv and real.csv, ExoLabel rows as
# medians over seeds
if (file.exists(file.path(dir, "real.csv"))) {
    rr <- rd("real.csv"); rs <- rd("real_search.csv")
    rm_ <- if (file.exists(file.path(dir, "real_machine.txt"))) readLines(file.path(dir, "real_machine.txt")) else character()
    sets_ <- unique(rr$set)
    names_ <- c(scop40 = "SCOP40", scop40_fusions = "SCOP40 with fusions", swissprot_ec = "Swiss-Prot enzymes", balifam = "balifam (Pfam)")
    L <- c(L, paste0("## Real proteins: ", paste(ifelse(sets_ %in% names(names_), names_[sets_], sets_), collapse = " and ")), "",
           if (length(rm_)) c(paste0("- ", rm_), "") else NULL,
           if ("scop40" %in% sets_) c(
           "scop40: SCOPe domains filtered to at most 40% identity (11,206 sequences with their SCOP",
           "family and superfamily; shared/data/scop40/README.md).") else NULL,
           if ("scop40_fusions" %in% sets_) c(
           "scop40_fusions: the same domains plus 1,500 artificial two-domain proteins, each two",
           "SCOP40 domains of different superfamilies joined end to end (benchmarks/ssn/make_fusions.R,",
           "seed 54): bridges between families, as multi-domain proteins make them; only the",
           "11,206 domains are scored.") else NULL,
           if ("swissprot_ec" %in% sets_) c(
           "swissprot_ec: 7,757 full-length Swiss-Prot enzymes (many with several domains) with",
           "their EC numbers: family = the full EC number, superfamily = the EC sub-subclass",
           "(first three fields); a protein with several EC numbers has their sorted list as its",
           "class (benchmarks/ssn-data/swissprot_ec/README.md: source, CC BY 4.0, caveats). EC",
           "numbers describe function, not descent, so no sequence method reaches ARI 1 there.") else NULL,
           if ("balifam" %in% sets_) c(
           "balifam: 7,221 Pfam domain sequences of 59 families around BAliBASE references",
           "(benchmarks/ssn-data/balifam/README.md: source, CC0); family level only (its",
           "superfamily columns repeat the family).") else NULL,
           "Each set is searched all against all with e-value 1e-3 and at most 1000 targets per",
           "query (benchmarks/ssn/real.sh). Scores: ARI and pair precision / recall at family and",
           "superfamily level. NMI is given but inflated: most families have one member, and every",
           "protein in its own cluster already scores a family NMI of 0.91 on SCOP40 and 0.87 on",
           "the Swiss-Prot enzymes (ARI 0).", "",
           table_md(data.frame(set = rs$set, search = rs$search, `wall s` = sec(rs$search_s),
                               `CPU s` = sec(rs$user_s + rs$sys_s), `peak MB` = mb(rs$maxrss_kb),
                               hits = rs$hits, check.names = FALSE)), "")
    med <- function(x) stats::median(x)
    rk <- paste(rr$set, rr$search, rr$method)
    ra <- do.call(rbind, lapply(split(rr, rk), function(t) data.frame(
        set = t$set[1], search = t$search[1], method = t$method[1], seeds = nrow(t),
        fari = med(t$family_ari), fprec = med(t$family_prec), frec = med(t$family_rec),
        sari = med(t$superfamily_ari), sprec = med(t$superfamily_prec), srec = med(t$superfamily_rec),
        fnmi = med(t$family_nmi), fari_min = min(t$family_ari), fari_max = max(t$family_ari),
        clusters = med(t$clusters), wall = med(t$wall_s), cpu = med(t$user_s + t$sys_s),
        rss = med(t$maxrss_kb))))
    for (st in unique(ra$set)) for (s in unique(ra$search[ra$set == st])) {
        r <- ra[ra$set == st & ra$search == s, ]
        r <- r[order(-r$fari), ]
        L <- c(L, sprintf("### %s, %s search", st, s), "",
               table_md(data.frame(method = label_of(r$method), seeds = r$seeds, `family ARI` = fmt(r$fari),
                                   `ARI min-max` = ifelse(r$seeds > 1, paste0(fmt(r$fari_min), "-", fmt(r$fari_max)), ""),
                                   `family prec` = fmt(r$fprec), `family rec` = fmt(r$frec),
                                   `superfamily ARI` = fmt(r$sari), `sf prec` = fmt(r$sprec), `sf rec` = fmt(r$srec),
                                   `family NMI (inflated)` = fmt(r$fnmi), clusters = r$clusters,
                                   `wall s` = sec(r$wall), `CPU s` = sec(r$cpu), `peak MB` = mb(r$rss),
                                   check.names = FALSE)), "")
        pe <- r[grepl("^mcl_", r$method) | r$method %in% c("igraph_leiden", "igraph_cpm"), ]
        whos <- c(exolabel_blast_default = "today's default (`format = \"blast\"` alone: Leiden CPM, resolution \"auto\")",
                  exolabel_default = "label propagation (`exolabel_lp`, the default before the switch)",
                  exolabel_cpm_strength = "candidate cpm_strength (R prototype of \"auto\")")
        for (who in names(whos)) {
            ex <- r[r$method == who, ]
            if (!nrow(ex) || !nrow(pe)) next
            bf <- pe[which.max(pe$fari), ]; bs <- pe[which.max(pe$sari), ]
            L <- c(L, sprintf("Target, %s: ARI >= the best of MCL and igraph Leiden: family %s vs %s (%s) -> %s; superfamily %s vs %s (%s) -> %s",
                              whos[[who]],
                              fmt(ex$fari), fmt(bf$fari), bf$method, if (ex$fari >= bf$fari) "met" else "missed",
                              fmt(ex$sari), fmt(bs$sari), bs$method, if (ex$sari >= bs$sari) "met" else "missed"), "")
        }
    }
    L <- c(L, "Rows: ExoLabel rows (`exolabel_*`, cluster_exolabel.R, `format = \"blast\"` plus the",
           "setting's arguments; `exolabel_blast_default` gives none, `exolabel_lp` is label",
           "propagation) are medians over seeds 1..5 (ARI min-max: the range); peers ran",
           "once (seed 1). `mmseqs_easy-cluster` clusters the sequences with its own search",
           "(default settings) and is the same row under every search. Wall s and peak MB: the",
           "whole process (R start-up included) under GNU time.", "")
}
L <- c(L, notes)
writeLines(L, out)
