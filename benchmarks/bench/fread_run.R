# Baseline: data.table::fread of the edge list.  Rscript fread_run.R FILE
suppressPackageStartupMessages(library(data.table))
t <- system.time(d <- fread(commandArgs(TRUE)[1], sep = "\t", header = FALSE, quote = ""))
cat(sprintf("fread\t%.6g\n", t[["elapsed"]]))
