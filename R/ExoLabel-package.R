#' ExoLabel: out-of-memory clustering of sequence-similarity networks
#'
#' ExoLabel clusters graphs given as edge-list files (one `A<sep>B<sep>W`
#' line per edge) whose edges do not fit in memory, with the Leiden
#' algorithm or label propagation; protein families straight from DIAMOND,
#' BLAST+ or MMseqs2 search output with `format = "blast"`. See
#' [ExoLabel()] for the entry point and `vignette("ExoLabel")` for a
#' walk-through.
#'
#' @keywords internal
#' @name ExoLabel-package
#' @aliases ExoLabel-package
#' @docType package
#' @useDynLib ExoLabel, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom cli cli_progress_bar
NULL
