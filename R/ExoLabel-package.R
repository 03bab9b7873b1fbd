#' ExoLabel: out-of-memory label propagation for very large graphs
#'
#' ExoLabel clusters graphs given as edge-list files (one `A<sep>B<sep>W`
#' line per edge) whose edges do not fit in memory. See [ExoLabel()] for the
#' entry point and `vignette("ExoLabel")` for a walk-through.
#'
#' @keywords internal
#' @name ExoLabel-package
#' @aliases ExoLabel-package
#' @docType package
#' @useDynLib ExoLabel, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom cli cli_progress_bar
NULL
