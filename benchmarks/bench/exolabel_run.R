# One timed ExoLabel() run, for benchmarks/bench/run.sh.
#   Rscript exolabel_run.R FILE TEMPDIR MEMORY_LIMIT [THREADS]
# EXO_ALGORITHM=leiden in the environment runs algorithm = "leiden"
# (objective modularity) instead of the label-propagation defaults and adds
# its quality (modularity) to the metrics.
# Prints "metric<TAB>value" lines: wall time of the call, stage times from
# attr(res, "stats"), peak RSS above the R baseline (VmHWM after resetting it
# through /proc/self/clear_refs, minus VmRSS before the call), the sort's own
# peak disk accounting and counts.
suppressPackageStartupMessages(library(ExoLabel))
args <- commandArgs(TRUE)
file <- args[1]; tmp <- args[2]; mem <- args[3]
threads <- if (length(args) > 3) as.integer(args[4]) else NULL
algorithm <- Sys.getenv("EXO_ALGORITHM", "lp")
status_kb <- function(field) {
    x <- grep(paste0("^", field, ":"), readLines("/proc/self/status"), value = TRUE)
    as.numeric(gsub("[^0-9]", "", x)) * 1024
}
out <- file.path(tmp, "clusters.tsv")
invisible(gc())
base <- status_kb("VmRSS")
reset <- tryCatch({ writeLines("5", "/proc/self/clear_refs"); TRUE }, error = function(e) FALSE)
set.seed(1)
t <- system.time(res <- ExoLabel(file, outfile = out, tempfiledir = tmp,
                                 memory_limit = mem, threads = threads,
                                 algorithm = algorithm))
peak <- status_kb("VmHWM")
st <- attr(res, "stats")
num <- function(x) if (is.null(x)) NA_real_ else as.numeric(x)[1]
vals <- c(wall = t[["elapsed"]], cpu = t[["user.self"]] + t[["sys.self"]],
          seconds_parse = num(st$seconds_parse), seconds_csr = num(st$seconds_csr),
          seconds_cluster = num(st$seconds_cluster), seconds_output = num(st$seconds_output),
          rss_base = base, rss_peak = peak, rss_above_base = if (reset) peak - base else NA,
          sort_peak_disk = num(st$peak_temp_disk), sort_runs = num(st$sort_runs),
          merge_passes = num(st$merge_passes), fan_in = num(st$fan_in),
          nodes = num(res$graph_stats[["num_vertices"]]),
          arcs = num(res$graph_stats[["num_edges"]]),
          clusters = num(st$num_clusters), iterations = num(res$parameters["iterations"]),
          quality = num(res$parameters["quality"]),
          output_bytes = file.size(out),
          names_bytes = as.numeric(system2("sh", c("-c", shQuote(paste("cut -f1", shQuote(out), "| wc -c"))),
                                           stdout = TRUE)))
unlink(out)
cat(sprintf("%s\t%.6g\n", names(vals), vals), sep = "")
