# The default for plain edge lists on planted graphs (issue 25, item 3):
# graphs from benchmarks/gen/exogen as benchmarks/quality/run.R makes them
# (mean degree 20, communities of 20..min(N/20, 1000) nodes), weighted and
# unweighted views, igraph's label propagation and Leiden (modularity) on
# the simplified graph as in run.R, ExoLabel's defaults and candidates.
#   Rscript benchmarks/quality/general_default_planted.R OUT.csv MIXINGS SEEDS WORK EXOGEN NODES
#   e.g. ... out.csv 0.7,0.75 1,2 /tmp/work build/exogen 1e5 [grid-only]
# Rows: case,view,seed,method,nmi,k,cpu_s,elapsed_s (CPU seconds of this R
# process, threads included; NA for the runs of one vectorised call).
suppressPackageStartupMessages({library(ExoLabel); library(igraph)})
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE)[1])), "planted_case.R"))
args <- commandArgs(TRUE); out <- args[1]; mixes <- as.numeric(strsplit(args[2], ",")[[1]]); seeds <- as.integer(strsplit(args[3], ",")[[1]])
work <- args[4]; exogen <- args[5]; n <- as.numeric(args[6])
grid_only <- length(args) > 6 && args[7] == "grid-only"  # only the vectorised resolution/refine grid
nmi <- function(a, b) compare(as.integer(factor(a)), as.integer(factor(b)), method = "nmi")
cpu <- function(expr) { t0 <- proc.time(); v <- force(expr); t <- proc.time() - t0
  list(v = v, cpu = unname(t[["user.self"]] + t[["sys.self"]] + t[["user.child"]] + t[["sys.child"]]), el = unname(t[["elapsed"]])) }
emit <- function(d) write.table(d, out, append = file.exists(out), col.names = !file.exists(out), sep = ",", row.names = FALSE, quote = TRUE)
for (mu in mixes) for (s in seeds) {
  pc <- planted_case(work, exogen, n, mu, s); f <- pc$f; gr <- pc$gr; vx <- pc$vx; tr <- pc$tr
  for (view in c("weighted", "unweighted")) {
    gg <- if (view == "weighted") gr else delete_edge_attr(gr, "weight")
    row <- function(method, m, t) data.frame(case = sprintf("planted n=%g mu=%.2f", n, mu), view = view, seed = s, method = method,
      nmi = round(nmi(m, tr), 4), k = length(unique(m)), cpu_s = round(t$cpu, 2), elapsed_s = round(t$el, 2))
    ex <- function(label, ...) {
      set.seed(1000 * s + round(100 * mu))
      t <- cpu(ExoLabel(f, return_table = TRUE, ignore_weights = view == "unweighted", tempfiledir = work,
                        memory_limit = "1GB", threads = 1, verbose = FALSE, ...))
      rs <- if (!is.null(t$v$results)) list(t$v$results) else lapply(t$v, `[[`, "results")
      for (i in seq_along(rs)) { m <- rs[[i]]$Cluster[match(vx, rs[[i]]$Vertex)]
        emit(row(label[i], m, if (length(rs) == 1) t else list(cpu = NA, el = NA))) }
    }
    if (grid_only) {
      ex(c("ExoLabel resolution=0", "ExoLabel resolution=0 refine=TRUE", "ExoLabel resolution=0.5", "ExoLabel resolution=0.5 refine=TRUE"),
         resolution = c(0, 0, 0.5, 0.5), refine = c(0, 5, 0, 5))
      next
    }
    set.seed(s); t <- cpu(membership(cluster_label_prop(gg))); emit(row("igraph label_prop", t$v, t))
    set.seed(s); t <- cpu(membership(cluster_leiden(gg, objective_function = "modularity"))); emit(row("igraph leiden (modularity)", t$v, t))
    ex("ExoLabel default (resolution=1 refine=0)", refine = 0)  # the default before this change
    ex("ExoLabel refine=TRUE", refine = TRUE)
    ex(c("ExoLabel resolution=0", "ExoLabel resolution=0 refine=TRUE", "ExoLabel resolution=0.5", "ExoLabel resolution=0.5 refine=TRUE"),
       resolution = c(0, 0, 0.5, 0.5), refine = c(0, 5, 0, 5))
    ex("ExoLabel algorithm=leiden", algorithm = "leiden")
  }
}
