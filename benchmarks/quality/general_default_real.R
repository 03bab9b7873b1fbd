# The default for plain edge lists on small real networks with known groups
# (issue 25, item 3): igraphdata's karate (groups: V(g)$Faction) and
# UKfaculty (directed, weighted: made undirected as igraph users do,
# as.undirected(mode = "collapse") with the weights of both directions
# summed; groups: V(g)$Group). Both are clustered with their weights.
#   Rscript benchmarks/quality/general_default_real.R OUT.csv [SEEDS]
# Appends rows case,view,seed,method,nmi,k,cpu_s,elapsed_s to OUT.csv.
# NMI is igraph::compare(method = "nmi"). Candidates in prototype (R) form:
# "+greedy merge" contracts ExoLabel's clusters and merges the pair of
# largest modularity gain until no merge gains (a final merge pass).
suppressPackageStartupMessages({library(ExoLabel); library(igraph); library(igraphdata)})
args <- commandArgs(TRUE)
out <- args[1]
seeds <- if (length(args) > 1) seq_len(as.integer(args[2])) else 1:9
data(karate, package = "igraphdata"); data(UKfaculty, package = "igraphdata")
uk <- as.undirected(UKfaculty, mode = "collapse", edge.attr.comb = list(weight = "sum"))
graphs <- list(karate = list(g = karate, truth = V(karate)$Faction),
               UKfaculty = list(g = uk, truth = V(uk)$Group))
nmi <- function(a, b) compare(as.integer(factor(a)), as.integer(factor(b)), method = "nmi")
cpu <- function(expr) {
    t0 <- proc.time(); v <- force(expr); t <- proc.time() - t0
    list(v = v, cpu = sum(t[c("user.self", "sys.self", "user.child", "sys.child")], na.rm = TRUE),
         el = unname(t[["elapsed"]]))
}
emit <- function(d) write.table(d, out, append = file.exists(out), col.names = !file.exists(out),
                                sep = ",", row.names = FALSE, quote = TRUE)
greedy_merge <- function(g, m) {
    f <- as.integer(factor(m))
    cg <- simplify(contract(g, f, vertex.attr.comb = "ignore"), remove.multiple = TRUE,
                   remove.loops = FALSE, edge.attr.comb = list(weight = "sum"))
    A <- as.matrix(as_adjacency_matrix(cg, attr = "weight")); diag(A) <- 2 * diag(A)
    tot <- sum(A); memb <- seq_len(nrow(A))
    repeat {
        ids <- sort(unique(memb))
        B <- sapply(ids, function(i) sapply(ids, function(j) sum(A[memb == i, memb == j])))
        B <- matrix(B, length(ids))
        vol <- rowSums(B); G <- B - outer(vol, vol) / tot; diag(G) <- -Inf
        if (max(G) <= 0) break
        ij <- which(G == max(G), arr.ind = TRUE)[1, ]
        memb[memb == ids[ij[2]]] <- ids[ij[1]]
    }
    memb[f]
}
exo <- list(
    list(lab = "ExoLabel default (resolution=1 refine=0)", a = list(refine = 0)),  # the default before
    list(lab = "ExoLabel refine=TRUE", a = list(refine = TRUE)),
    list(lab = "ExoLabel resolution=0", a = list(resolution = 0, refine = 0)),
    list(lab = "ExoLabel resolution=0 refine=TRUE", a = list(resolution = 0, refine = TRUE)),
    list(lab = "ExoLabel resolution=0.5", a = list(resolution = 0.5, refine = 0)),
    list(lab = "ExoLabel resolution=0.5 refine=TRUE", a = list(resolution = 0.5, refine = TRUE)),
    list(lab = "ExoLabel resolution=0.25", a = list(resolution = 0.25, refine = 0)),
    list(lab = "ExoLabel algorithm=leiden", a = list(algorithm = "leiden")),
    list(lab = "ExoLabel default +greedy merge (prototype)", a = list(refine = 0), gm = TRUE),
    list(lab = "ExoLabel resolution=0 +greedy merge (prototype)", a = list(resolution = 0, refine = 0), gm = TRUE))
for (nm in names(graphs)) {
    g <- graphs[[nm]]$g; tr <- graphs[[nm]]$truth
    f <- tempfile(fileext = ".tsv")
    write.table(data.frame(as_edgelist(g, names = FALSE), E(g)$weight), f, sep = "\t",
                quote = FALSE, row.names = FALSE, col.names = FALSE)
    row <- function(method, s, m, t) data.frame(case = nm, view = "weighted", seed = s, method = method,
        nmi = round(nmi(m, tr), 4), k = length(unique(m)), cpu_s = round(t$cpu, 3),
        elapsed_s = round(t$el, 3))
    for (s in seeds) {
        set.seed(s); t <- cpu(membership(cluster_label_prop(g))); emit(row("igraph label_prop", s, t$v, t))
        set.seed(s); t <- cpu(membership(cluster_leiden(g, objective_function = "modularity")))
        emit(row("igraph leiden (modularity)", s, t$v, t))
        for (r in exo) {
            set.seed(s)
            t <- cpu(do.call(ExoLabel, c(list(f, return_table = TRUE, verbose = FALSE), r$a)))
            m <- t$v$results$Cluster[match(as.character(seq_len(vcount(g))), t$v$results$Vertex)]
            if (isTRUE(r$gm)) m <- greedy_merge(g, m)
            emit(row(r$lab, s, m, t))
        }
    }
    unlink(f)
}
