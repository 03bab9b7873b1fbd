#' Cluster a graph too large for memory with label propagation or Leiden
#'
#' `ExoLabel()` reads one or more edge-list files, builds the graph on disk
#' and clusters it with asynchronous weighted label propagation or, with
#' `algorithm = "leiden"`, with the Leiden algorithm. Only the buffers
#' (bounded by `memory_limit`) and a few bytes per node are held in memory;
#' the edges stay on disk.
#'
#' Protein families: give the tabular output of an all-against-all DIAMOND,
#' BLAST+ or MMseqs2 search as it is, `ExoLabel("hits.tsv", format =
#' "blast")` (Leiden with CPM by default; see Search-tool output), and add
#' `cluster_table = TRUE` for one representative protein per family (see
#' Cluster table). The vignette (`vignette("ExoLabel")`) walks through both.
#'
#' @concept protein families
#' @concept sequence similarity network
#' @concept BLAST DIAMOND MMseqs2 search output
#' @concept cluster representative
#' @concept Leiden algorithm
#' @concept label propagation
#' @concept graph clustering out of memory
#'
#' @section Input format:
#' One edge per line, `A<sep>B<sep>W` or `A<sep>B` (weight 1): by default
#' columns 1, 2 and 3 (`columns` chooses others); columns after the last
#' one used are not read. Names are any bytes but the separator, line ends
#' and NUL (up to 64 MiB per line). Lines may end in LF or CRLF, the last
#' needs no newline, empty lines and a UTF-8 byte-order mark are skipped.
#' Files may be gzip-compressed (detected from their first bytes); several
#' files are read in order into one graph.
#' Edges with a weight of zero or below add both names to the graph (they
#' appear in the output) but no edge. Duplicate edges are all kept, so their
#' weights add up; a self-loop `A A w` is one arc from `A` to itself. A
#' malformed line stops the run with an error naming the file and line.
#'
#' A weight is a decimal or hexadecimal number (`1e-3`, `0x1p4`), rounded to
#' a single-precision float. Errors name the file and line: a weight that is
#' not a number, `NaN`, infinite or beyond about `3.4e38`; too few columns
#' (with a hint at the separator); an empty name, a NUL byte, a carriage
#' return inside a name. A header needs `header = TRUE`. Corrupt gzip files
#' are errors; bzip2, xz and zstd files are refused. Names are kept byte for
#' byte. Named pipes (FIFOs, `/dev/stdin`) are read once, as a stream.
#'
#' An input without any edge line (an empty file, only blank lines, only a
#' header) gives an empty result with a warning; when every edge has a
#' weight of zero or below, every node is its own cluster, with a warning.
#' Errors, interrupts and a full disk leave no temporary file behind and
#' the R session usable.
#'
#' @section Search-tool output (`format = "blast"`):
#' All-vs-all protein searches write one hit per line in the 12-column
#' tabular format that BLAST+ (`-outfmt 6`), DIAMOND (`--outfmt 6`) and
#' MMseqs2 (`easy-search` and `convertalis` with their default columns)
#' share: query, subject (MMseqs2: target), identity (a percentage; MMseqs2's
#' `fident` is a fraction), alignment length, mismatches, gap openings,
#' query start and end, subject start and end, e-value (column 11) and bit
#' score (column 12). Later columns (`qlen`, `qcov`...) are read past, unused.
#' A header of column names (DIAMOND `--header`, MMseqs2 `--format-mode 4`,
#' `# Fields:` of `-outfmt 7`) places the columns by name.
#'
#' The vignette's figures come from `diamond blastp -q proteins.fa -d
#' proteins -o hits.tsv --outfmt 6 --more-sensitive --evalue 1e-3
#' --max-target-seqs 1000`.
#'
#' `ExoLabel(file, format = "blast")` reads such a file as it is: the nodes
#' are columns 1 and 2 and the weight is the bit score of column 12 divided
#' by the larger self score of the two proteins (`weight_transform =
#' "selfnorm"`, below); the two hits `q -> s` and `s -> q` become one edge
#' with the larger weight and self hits (query = subject) are dropped once
#' they have given the self scores. Lines that start with `#` are skipped
#' (BLAST+'s `-outfmt 7`). Each default can be changed:
#'
#' * `columns`: e.g. `c(1, 2, 12)` with `weight_transform = "none"` weighs
#'   edges by the raw bit score; `c(1, 2)` gives every edge weight 1.
#' * `weight_transform = "selfnorm"` (the default of `"blast"`): the weight
#'   column is a bit score `B` and the weight of `q - s` is `B / max(self(q),
#'   self(s))`, where `self(x)` is the bit score of `x`'s hit to itself (the
#'   largest) or, for a protein without a self hit, its best hit: about 1
#'   for near-identical proteins, not growing with length. Self hits are
#'   read for this even with `self_hits = "drop"` (kept, they weigh 1). One
#'   more pass over the graph on disk; not available in the MPI program.
#' * `weight_transform = "neglog10"` (the default of `"blast"` in earlier
#'   versions; MCL users' `mcxload --stream-neg-log10 -stream-tf
#'   'ceil(200)'`; columns 1, 2, 11 unless `columns` says otherwise): the
#'   weight column is an e-value `E` and the weight
#'   \eqn{\min(-\log_{10} E, 200)}{min(-log10(E), 200)}, computed from the
#'   text, so `1e-400` is exact before the cap; `0` weighs 200; e-values of
#'   1 and above give no edge (their nodes stay); a negative or non-numeric
#'   e-value is an error naming the file and line. A two-column line keeps
#'   weight 1.
#' * `min_weight`: edges of a smaller weight are dropped, their nodes kept;
#'   with `"neglog10"`, `min_weight = 10` keeps e-values of `1e-10` or less;
#'   with `"selfnorm"` it applies to the bit scores before they are divided
#'   (`min_weight = 50`: hits of 50 bits or more).
#' * `self_hits = "keep"` keeps an edge from a protein to itself (one arc).
#' * `combine = "max"` keeps one edge per pair and direction, the largest
#'   weight, so the hits `q -> s` and `s -> q` become one edge (why: the
#'   vignette, section "Search hits: one edge per pair"); `"sum"` keeps
#'   every copy, weights adding up (plain edge lists, SynExtend's). In
#'   `"directed"` mode only copies of the same arc combine.
#' * `bridges = "cut"` (the default on files with the format's own columns):
#'   a protein whose hits fall in separate regions of it keeps only its hits
#'   in the strongest one, so a fusion of two domains cannot chain their
#'   families (a protein with a full-length homologue has one region); a
#'   lone hit far weaker than all other hits of both its proteins is
#'   dropped. `"keep"` turns both off.
#'
#' `format = "edges"` (the default) means columns 1, 2, 3, weights as they
#' are, self-loops kept and `combine = "sum"`: plain edge lists give exactly
#' the results of earlier versions. Edge-list tables in R (`data.frame`,
#' `data.table`, `DataFrame`) take `format = "blast"` and every option above
#' as files do, `format` and `columns` selecting the table's columns by
#' position (a 12-column table of search hits gives the file's result
#' with `bridges = "keep"`: tables have no bridge rules).
#' With `ignore_weights = TRUE` no weight column is read and nothing is
#' transformed.
#'
#' Clustering: `format = "blast"` with none of `algorithm`, `objective` and
#' `resolution` given runs Leiden with `objective = "CPM"` and `resolution =
#' "auto"` (see `resolution`); any of the three given, the usual defaults
#' apply to the others (`algorithm = "lp"` alone gives label propagation).
#' Which method to choose for protein families, and the benchmark behind
#' this default: the vignette, section "Which method for protein families".
#'
#' @section Label propagation:
#' Every node starts in its own cluster and is active. Nodes are processed
#' in sweeps over blocks of 1024 consecutive node ids, in a random order
#' inside each block (seeded from R's random number generator, so
#' [set.seed()] makes results reproducible), so that each sweep reads the
#' graph file front to back. An active node
#' adopts the label with the largest total weight among its neighbours (in
#' `"directed"` mode, among its in-neighbours: a line `A B w` is the arc
#' `A -> B`, and `B` listens to `A`). Exact ties are broken by the node's
#' visit number `k` (1 on its first visit) and
#' \eqn{T = \min(12, \lfloor 3 c / 4 \rfloor)}{T = min(12, floor(3 c / 4))},
#' `c` being the cap on visits (see `iterations`): while `k <= T` the node
#' picks uniformly at random among all the best labels, its current label
#' included (so it may stay or move); when `k > T` it keeps its current
#' label if that is among the best and otherwise picks uniformly among the
#' best. The picks come from the seed. With `iterations = 1`, `T = 0`.
#' When a node changes
#' label, its neighbours (out-neighbours when directed) that hold another
#' label become active again: later in the same sweep if they come after it,
#' otherwise in the next sweep. The run ends when no node is active. Results
#' do not depend on `memory_limit`.
#'
#' **Resolution.** A node with `d` edges is expected to have about
#' \eqn{e = \gamma\, d\, vol(l) / m}{e = gamma * d * vol(l) / m} of them
#' into cluster `l`, where `vol(l)` counts the edge ends at `l`'s nodes and
#' `m` all edge ends (the node's own edges are left out of its current
#' cluster). Each candidate label's weight is therefore reduced by `e`,
#' rounded to the nearest whole edge, times the node's mean edge weight,
#' and the node joins the label with the highest reduced weight (ties as
#' above; staying, when no neighbour holds the current label, is one more
#' candidate, reduced the same way). Without the rounding this is the
#' modularity gain of the move, with `resolution` the
#' \eqn{\gamma}{gamma} of modularity: larger values give smaller clusters;
#' `0` is plain label propagation (SynExtend's rule). The volumes take 8
#' bytes per node. In `"directed"` mode `d` counts the in-arcs and `vol`
#' all arcs. Why this default: the vignette, section "Resolution: no
#' flooding into one cluster".
#'
#' With attenuation `a > 0`, a neighbour `u` contributes
#' \eqn{w (1 - p^a d_u^a)}{w * (1 - p^a * d_u^a)} instead of `w`, where
#' \eqn{d_u}{d_u} is `u`'s hop distance from the node its label came from and
#' `p` the share of nodes that changed label in the previous sweep (0 in
#' the first). This damps labels that travel far
#' and keeps one label from flooding the graph.
#'
#' `add_self_loops` is a cutoff: a label can win only if at least one of the
#' node's arcs from that label has a raw weight of at least `add_self_loops`
#' (`FALSE` = 0: every positive edge qualifies; `TRUE` = 1).
#'
#' @section Merge passes (`refine`):
#' When many edges leave the communities (high mixing), label propagation
#' tends to split a community into several stable fragments. `refine = k`
#' runs up to `k` merge passes on the clusters found (`TRUE` = 5). For a
#' cluster `C`, let `in(C)` be the weight of the arcs inside it (each edge
#' counted from both ends), `w(C, D)` the weight of the edges between `C` and
#' another cluster `D`, `vol(C)` the weight of all arcs at `C`'s nodes and
#' `T` the weight of all arcs. The excess
#' \eqn{x(C, D) = w(C, D) - vol(C) vol(D) / T}{x(C, D) = w(C, D) - vol(C) vol(D) / T}
#' is the weight above what random wiring with the same volumes would give.
#' `C` wants to join the cluster `D*` of largest excess when
#' \eqn{x(C, D^*) > 0}{x(C, D*) > 0} and
#' \eqn{x(C, D^*) \ge 0.15\, in(C)}{x(C, D*) >= 0.15 in(C)}. Only clusters that
#' do not move themselves take newcomers (of two clusters that want each
#' other, the one with the smaller number stays), and a cluster takes
#' newcomers, in order of number, only while each keeps
#' \eqn{x(C, D) - vol(C) V / T > 0}{x(C, D) - vol(C) V / T > 0}, `V` being
#' the volume it has taken in the pass. Every merge raises the modularity,
#' and the passes stop early when one merges nothing. Each pass reads the
#' graph file once per thread (first once more when the pairs of clusters
#' overflow their memory) and needs about 41 bytes per cluster. A cluster
#' joins another only through an edge of raw weight at least
#' `add_self_loops`, as labels do. Default `TRUE` (5 passes; most runs stop
#' after 2 or 3; why, and why 0.15: the vignette, "Merge passes"). `FALSE`:
#' plain label propagation (with `resolution = 0`, SynExtend's).
#'
#' `iterations` caps how often any node is processed (the first visit
#' included), so `iterations = 1` visits each node once. `0` picks
#' `max(16, floor(sqrt(d)))`, where `d` is the largest number of arcs at a
#' node (so `T = 12`). The value used is reported in `$parameters`.
#'
#' @section Leiden (`algorithm = "leiden"`):
#' The method follows Traag, Waltman and van Eck (2019), "From Louvain to
#' Leiden: guaranteeing well-connected communities". The objective is
#' modularity (with resolution \eqn{\gamma}{g}:
#' \eqn{Q = \sum_C (in_C - \gamma K_C^2 / 2m) / 2m}{Q = sum_C (in_C - g K_C^2 / 2m) / 2m},
#' `in_C` the weight of the edges inside `C` counted from both ends, `K_C`
#' the total degree of its nodes, `2m` that of all nodes; a self-loop counts
#' twice, as in igraph) or CPM
#' (\eqn{H = \sum_C (e_C - \gamma n_C (n_C - 1) / 2)}{H = sum_C (e_C - g n_C (n_C - 1) / 2)},
#' `e_C` the weight of the edges inside `C`, `n_C` its number of nodes).
#' Weights are used as they are (directed graphs are clustered as
#' undirected ones, each directed edge an edge); duplicate edges add up.
#' Each level moves single nodes to the neighbouring community of best gain
#' in seeded sweeps over the graph file; a refinement step splits every
#' community into well-connected parts by merging single nodes greedily
#' (the paper draws these merges at random); the parts become the nodes of
#' the next, smaller graph (in memory when it fits `memory_limit`, else by
#' the external sort). Levels repeat until every community is one node, and
#' the whole algorithm runs again from its result: twice by default, as
#' igraph's `cluster_leiden()` (`iterations = k`: up to `k` rounds), fewer
#' when a round stops improving the score; a round that lowers it is
#' dropped, so a higher `iterations` never gives a lower score. The score reached is
#' reported as `quality` in `$parameters`. Memory: 32 bytes per node (40
#' above 2^32 nodes) on top of `memory_limit`; temporary disk: a round's
#' coarse graphs (about the input's size). Results are seeded and do not
#' depend on `memory_limit` or `threads` (vignette, "Leiden on several
#' threads").
#'
#' @section In-memory inputs:
#' In-memory graphs are streamed edge by edge into the same pipeline as
#' files, without writing a text file; the results are those of the same
#' edges read from a file.
#'
#' * Edge lists (`data.frame`, `data.table`, `DataFrame`): the first two
#'   columns (or those `columns` or `format = "blast"` choose) hold the
#'   nodes, as character, factor, `Date` or whole-number ids (written
#'   exactly in decimal; doubles below 2^53, bit64's `integer64` any 64-bit
#'   value); other classes are an error naming the column. The weight is
#'   the column named `weight` (any case) or else a numeric third column;
#'   without one every edge weighs 1. Missing values are an error. A
#'   character matrix (`cbind(from, to, score)`) is such an edge list.
#' * `igraph` graphs: edges with their `weight` attribute when there is one;
#'   vertices in the graph's order (isolated ones included) with its `name`
#'   attribute (or numbers `1..n`); `mode` defaults to the graph's
#'   directedness. Unless `outfile` is given, the result is an igraph
#'   `communities` object (`igraph::make_clusters()`), whose modularity is
#'   that of the weighted graph (weights of 0 or below are no edge).
#' * Adjacency matrices: row (or column) names are the node names (numbers
#'   `1..n` without names), every row is a node in matrix order. Directed,
#'   each stored entry `x[i, j]` is the arc `i -> j`. Undirected, the pair
#'   `{i, j}` is one edge weighing the larger of `x[i, j]` and `x[j, i]`
#'   (igraph's `mode = "max"`): a symmetric matrix or either triangle give
#'   the same graph; two triangles with different values get a warning.
#'   The diagonal holds self-loops; stored zeros register nodes without an
#'   edge.
#'
#' Node names must not contain the separator `sep`, line ends or NUL.
#'
#' @section Progress:
#' With `verbose = TRUE` every stage reports its progress: cli progress bars
#' when interactive, else `message()` lines every 10 seconds;
#' `options(ExoLabel.progress_bars = TRUE/FALSE)` chooses;
#' `options(ExoLabel.debug = TRUE)` adds internals. Ctrl-C works throughout.
#'
#' @section Output:
#' The output file has one line `name<sep>cluster` per node, in order of
#' first appearance of the names in the input (`order = "name"`: in byte
#' order of the names). Clusters are numbered `1..K` in order of first
#' appearance in that listing; with `initial`, they keep the previous
#' clustering's ids ([ExoLabelResult], "Stable cluster ids"); with `nested`,
#' one column per level ([ExoLabelNested]).
#'
#' @section Cluster table (`cluster_table`):
#' With `cluster_table = TRUE` each result also carries `$cluster_table`, a
#' `data.frame` with one row per cluster, in cluster number order.
#' `Cluster`: the cluster number of the results. `Size`: its number of
#' nodes. `InternalWeight`: the total weight of the edges with both ends in
#' the cluster, each edge once, self-loops included. `ExternalWeight`: the
#' total weight of the edges with one end in the cluster and the other
#' outside (`"directed"`: in either direction). `Density`: the share of
#' pairs of members joined by at least one edge, `p / (n (n - 1) / 2)` for
#' `p` such pairs among `n` members (directed: ordered pairs, `p / (n (n -
#' 1))`); self-loops do not count; `NA` for a single node.
#' `Representative`: the member with the largest internal weighted degree,
#' the total weight of its edges to other members (in and out when
#' directed; its self-loop left out); ties go to the member that appears
#' first in the input; a single node is its own representative.
#'
#' Edges are the graph's edges as stored (after `weight_transform`,
#' `min_weight`, `self_hits`; with `combine = "sum"` two copies of an edge
#' count twice in the weights and once in `Density`). The table takes one
#' more pass over the graph on disk after the clustering (so it cannot be
#' asked for afterwards) and about 60 bytes per cluster, and does not
#' depend on `threads` or `memory_limit`. The command-line tool's
#' `--cluster-table FILE` writes it with a header line of these names.
#'
#' @section Resources:
#' `memory_limit` caps the buffers of every stage (sort runs, merge buffers,
#' the adjacency buffer), which grow with the data up to it. While reading,
#' the table of name fingerprints (about 23 to 46 bytes per node) counts
#' against it too: the sort's buffers shrink as it grows, down to a quarter
#' of the budget. While clustering, 22 bytes per node come on top of
#' `memory_limit` (offsets 8, labels 4, visit counter 2, active bit, label
#' volumes 8; 4 more per node above 2^32 nodes and 4 more with attenuation;
#' 8 fewer with `resolution = 0`). Temporary disk: the node names, 12 bytes per
#' stored arc for the sort runs and 8 bytes per stored arc for the final
#' graph (20 and 12 bytes when there are more than 2^32 nodes); runs are
#' released while they are merged ([EstimateExoLabel()] predicts both
#' peaks). Before starting, `ExoLabel()` compares that estimate with the
#' free space in `tempfiledir` and stops with an error when it cannot fit
#' (for files the number of edges is guessed from their size; set
#' `options(ExoLabel.check_disk = FALSE)` to skip the check). Temporary
#' files go to a fresh private directory inside `tempfiledir`, removed when
#' the call ends, however it ends; that of a run killed outright
#' (`SIGKILL`) is removed by the next run in the same `tempfiledir` (its
#' lock file `exolabel.lock` is then free; not on Windows). The outputs and
#' `tempfiledir` are tried before any input is read, so a read-only or
#' full directory fails at once.
#'
#' @param edgelistfiles The graph: a character vector of paths to edge-list
#'   or search-output files (plain or gzip), read in order into one graph;
#'   or an edge list (`data.frame`, `data.table`, `S4Vectors::DataFrame`, a
#'   character matrix); or an `igraph` graph; or a square adjacency matrix
#'   (`Matrix` or base). See In-memory inputs.
#' @param outfile Path of the output file, or one path per clustering.
#'   Missing directories are created; a path ending in a slash (a
#'   directory) is an error. Ignored (with a warning) when
#'   `return_table = TRUE`. A regular file is written beside it
#'   (`<outfile>.tmp-XXXXXX`) and renamed over it at the end, so a failed
#'   run leaves any earlier file as it was; a symbolic link is replaced by
#'   the new file (its target is not written). A device (`/dev/null`) or a
#'   named pipe (FIFO) is written into as it is and never replaced; a FIFO
#'   is waited for until something reads it.
#' @param mode `"undirected"` (default) or `"directed"`; may be abbreviated.
#' @param add_self_loops `FALSE`, `TRUE` or a non-negative number: the
#'   weight cutoff described under Label propagation. A vector runs one
#'   clustering per value.
#' @param attenuation `FALSE`, `TRUE` (= 1) or a non-negative number: the
#'   attenuation power `a`. A vector runs one clustering per value.
#' @param ignore_weights If `TRUE`, every edge has weight 1 and columns after
#'   the second are ignored.
#' @param iterations Hard cap on how often a node is processed; `0`
#'   (default) chooses it automatically. Leiden: the most rounds of the
#'   whole algorithm (`0`: 2, or 1 with `initial`). A vector: a run each.
#' @param return_table If `TRUE`, return a `data.frame(Vertex, Cluster)`
#'   instead of a file path; names are returned byte for byte as in the input.
#' @param use_fast_sort Accepted (`TRUE` or `FALSE`) for SynExtend's
#'   scripts; no effect (ExoLabel has one external sort).
#' @param verbose Report progress (see Progress).
#' @param sep Field separator of the files: one byte, "tab" or "comma".
#' @param header `FALSE`, `TRUE` (= 1) or the number of lines to skip at the
#'   start of each input file. As in SynExtend, negative values are treated
#'   as 0 and decimals are truncated to whole numbers (`1.5` skips 1 line).
#' @param tempfiledir Directory for temporary files; created if missing.
#' @param memory_limit Memory for buffers: bytes, or a string like
#'   `"256MB"`, `"2GB"` (powers of 1024). At least 1MB. A cap, not an
#'   allocation: buffers grow with the data up to it, so a limit far above
#'   what the graph needs costs nothing. When memory runs out, the error
#'   names `memory_limit` and the machine's RAM.
#' @param threads Number of threads; `NULL` (default) uses every available
#'   core. Results do not depend on it: the clusters, the output file's
#'   bytes and every temporary file are the same for any `threads` (and any
#'   `memory_limit`); only the time and the division of `memory_limit` among
#'   buffers change. A number above the machine's cores is capped at them
#'   with a warning. Every stage uses the threads (reading and parsing,
#'   sorting and merging, label propagation and Leiden in fixed lanes of node
#'   ids, the merge passes, writing the output); the vignette describes how
#'   in section "How the stages use the threads".
#' @param refine `TRUE` (default, = 5 passes; not used, and 0 in
#'   `$parameters`, when Leiden runs and `refine` is not given), `FALSE` (=
#'   0, plain label propagation) or a whole number of
#'   merge passes (0 to 100) run after label propagation; see Merge passes.
#'   A vector runs one clustering per value. An error with `algorithm =
#'   "leiden"`, which refines its own partitions.
#' @param format `"edges"` (default): an edge list, columns 1, 2, 3. `"blast"`:
#'   BLAST+/DIAMOND/MMseqs2 tabular output, read as `columns = c(1, 2, 12)`,
#'   `weight_transform = "selfnorm"`, `self_hits = "drop"`, `combine =
#'   "max"` (with `weight_transform = "neglog10"`, columns 1, 2, 11), and,
#'   `bridges = "cut"` (files), and, when none of `algorithm`,
#'   `objective` and `resolution` is given, clustered with `algorithm =
#'   "leiden", objective = "CPM", resolution = "auto"`. Files and edge-list
#'   tables take it; see Search-tool output. An input of 12 columns that
#'   look like search-tool output, read without `format`, `columns` or
#'   `weight_transform`, gets a warning suggesting `format = "blast"`.
#' @param columns `NULL` (the format's columns) or 2 or 3 column numbers:
#'   node A, node B and optionally the weight (without it every edge weighs
#'   1), of a file or of an edge-list table.
#' @param weight_transform `NULL` (the format's), `"none"`, `"neglog10"`
#'   (the weight column is an e-value; the weight is its capped `-log10`) or
#'   `"selfnorm"` (the weight column is a bit score; the weight is it over
#'   the larger self score of the two ends). See Search-tool output.
#' @param min_weight `NULL` (no threshold) or a number: edges with a smaller
#'   weight (after the transform) are dropped, their nodes kept.
#' @param self_hits `NULL` (the format's), `"keep"` or `"drop"`: edges from
#'   a node to itself.
#' @param combine `NULL` (the format's), `"sum"` (every copy of an edge is
#'   kept, weights add up) or `"max"` (one edge per pair, the largest
#'   weight). `format`, `weight_transform`, `self_hits`, `combine` and
#'   `bridges` take any case and unique abbreviations.
#' @param bridges `NULL` (the format's), `"cut"` or `"keep"`: hits that
#'   chain protein families. `"cut"` (the default of `format = "blast"` on
#'   files with its own columns) reads where hits lie (columns 7-10): a
#'   protein whose hits fall in separate regions (less than 1/3 overlap)
#'   keeps only the partners it hits in its strongest region (largest sum of
#'   bit scores); a hit below 0.55 times every other hit of both its
#'   proteins (each with 8 or more consistent hits) is dropped. `"keep"`
#'   keeps every hit. See Search-tool output.
#' @param algorithm `"lp"` (label propagation, default; `"leiden"` with
#'   `format = "blast"`, see there), `"leiden"` or `"components"` (single
#'   linkage: connected components; takes no parameters), any case,
#'   abbreviated; see Leiden. With `"leiden"`, `add_self_loops` and
#'   `attenuation` are not used, `refine` must be 0, and `iterations`
#'   counts rounds of Leiden.
#' @param objective Leiden's objective: `"modularity"` (default) or `"CPM"`
#'   (constant Potts model), in any case. `"CPM"` needs `algorithm =
#'   "leiden"` (an error otherwise).
#' @param sequences `NULL`, or every sequence, each to appear in the result
#'   (those without an edge last, as singletons; unlisted nodes kept with a
#'   warning): a FASTA file (plain or gzip) or a file of names, an
#'   `XStringSet` (Biostrings) or a character vector of names. See
#'   [ClusterRepresentatives()].
#' @param order `"appearance"` (default, as before) or `"name"` (SynExtend's
#'   order; the names are held in memory); see Output.
#' @param nested `TRUE`: nested levels, one per `resolution` ([ExoLabelNested]).
#' @param cluster_table If `TRUE`, every result also has `$cluster_table`,
#'   a `data.frame` with the size, internal and external edge weight,
#'   density and representative member of each cluster; see Cluster table.
#' @param resolution A number >= 0 (default `1`) or `"auto"`: gamma, the
#'   weight of the chance term of the one quality function of every method;
#'   larger values give more, smaller clusters.
#'   \tabular{ll}{
#'   `"lp"`, merge passes \tab modularity in arcs; `0`: no penalty\cr
#'   `"leiden"` \tab modularity's or CPM's gamma\cr
#'   `"auto"` \tab CPM, 5e-5 x mean strength (selfnorm: 2e-5 x component's)\cr
#'   }
#'   A vector: a clustering per value. `"auto"` (default of
#'   `format = "blast"`): `$parameters` gives its factor x the mean;
#'   `"auto*X"`, `"auto/X"`: X times, 1/X of it.
#'   Figures: the vignette, "Which method for protein families".
#' @param keep_graph,graph Where to keep the graph; a kept graph to extend.
#'
#' @param initial A previous clustering: its ids stay (see [ExoLabelResult]).
#'
#' @return For one clustering, a list of class `"ExoLabelResult"` (see
#'   [print.ExoLabelResult()]) with
#'   \item{parameters}{named numeric: `add_self_loops`, `attenuation`,
#'     `iterations` (the cap actually used), `refine`, `resolution`; for
#'     Leiden `resolution` and `quality` (the objective's value reached), with
#'     attributes `algorithm` (`"leiden"`) and `objective`; with
#'     `resolution = "auto"`, `resolution` is the gamma used and the
#'     attributes `resolution` (`"auto"`), `per_strength` (the factor) and
#'     `strength_of` (`"the nodes with an edge, in each connected
#'     component"` or `"all nodes"`) say how; for components empty
#'     (attribute `algorithm`).}
#'   \item{graph_stats}{named numeric: `num_vertices`, `num_edges` (stored
#'     arcs, as in SynExtend: two per undirected edge with positive weight,
#'     one per directed edge or self-loop; edges dropped by `min_weight` or
#'     `self_hits` are not counted, and with `combine = "max"` the copies of
#'     an arc count once). The print and `summary()` count edges as a user
#'     does: `(num_edges + self-loops) / 2` when undirected.}
#'   \item{results}{the output file path, or with `return_table = TRUE` a
#'     `data.frame(Vertex, Cluster)`, or for `igraph` inputs an igraph
#'     `communities` object.}
#'   \item{cluster_table}{only with `cluster_table = TRUE`: a
#'     `data.frame(Cluster, Size, InternalWeight, ExternalWeight, Density,
#'     Representative)`, one row per cluster (see Cluster table).}
#'   For several clusterings (a vector of parameters or of `outfile`), a
#'   list of such lists, one per clustering, of class `"ExoLabelResults"`,
#'   returned visibly (SynExtend returns it invisibly) and named after the
#'   parameter values that differ (`"resolution=0.1"`, or
#'   `"attenuation=0, resolution=1"`; the output file names when only
#'   `outfile` differs); it prints one line per clustering.
#'   `as.data.frame()`, [ClusterMembership()], [ClusterSizes()] and `plot()`
#'   work on every shape (see [ExoLabelAccessors]). A result's default
#'   output file (no `outfile`, no `return_table`) is a `.tsv` file in
#'   `tempfiledir`, deleted when R exits if that is `tempdir()`; the print
#'   says so.
#'   Each carries an attribute `"stats"`: a list with the sorted runs,
#'   merge passes and fan-in, peak temporary disk (bytes), `input` (the
#'   input options in effect), the number of clusters, the largest
#'   cluster's size, `size_bins` (clusters of size 1, 2-3, 4-7, ...), the
#'   seconds per stage, `refine_merged` and `seconds_refine`, `quality` and
#'   `levels` (Leiden), `negative_edges` (dropped with a warning unless the
#'   weights are e-values), `self_arcs`, `sequences` (counts, with
#'   `sequences`), `directed`, `peak_rss` (the R
#'   process's peak resident memory, bytes) and `seed` (drawn from R's
#'   random numbers; the command-line tool's `--seed` reproduces it).
#'
#' @examples
#' edges <- system.file("extdata", "example_edges.tsv", package = "ExoLabel")
#' set.seed(1)
#' res <- ExoLabel(edges, return_table = TRUE)
#' res$graph_stats
#' head(res$results)
#' table(res$results$Cluster)
#' res   # a summary of the run
#'
#' # one row per cluster, with a representative member
#' tab <- ExoLabel(edges, cluster_table = TRUE)$cluster_table
#' head(tab)
#' tab$Representative[tab$Size > 1]
#'
#' # BLAST/DIAMOND/MMseqs2 tabular output (12 columns), read as it is
#' hits <- tempfile(fileext = ".m8")
#' writeLines(c("p1\tp2\t81.0\t120\t23\t0\t1\t120\t1\t120\t3e-50\t190",
#'              "p2\tp1\t81.0\t120\t23\t0\t1\t120\t1\t120\t1e-49\t188",
#'              "p1\tp1\t100.0\t120\t0\t0\t1\t120\t1\t120\t0\t250",
#'              "p3\tp4\t35.2\t80\t50\t2\t5\t84\t3\t82\t2e-8\t45"), hits)
#' ExoLabel(hits, format = "blast", return_table = TRUE)$results
#'
#' # an edge list already in R
#' df <- read.delim(edges, header = FALSE, col.names = c("from", "to", "weight"))
#' head(ExoLabel(df, return_table = TRUE)$results)
#' # igraph graphs and adjacency matrices: the vignette, section
#' # "Graphs already in R, and igraph"
#'
#' @export
ExoLabel <- function(edgelistfiles, outfile = tempfile(tmpdir = tempfiledir),
                     mode = c("undirected", "directed"), add_self_loops = FALSE,
                     attenuation = FALSE, ignore_weights = FALSE, iterations = 0L,
                     return_table = FALSE, use_fast_sort = TRUE,
                     verbose = interactive(), sep = "\t",
                     header = FALSE, tempfiledir = tempdir(),
                     memory_limit = "256MB", threads = NULL, refine = TRUE,
                     format = c("edges", "blast"), columns = NULL,
                     weight_transform = NULL, min_weight = NULL, self_hits = NULL,
                     combine = NULL, bridges = NULL,
                     algorithm = c("lp", "leiden", "components"),
                     objective = c("modularity", "CPM"), resolution = 1,
                     cluster_table = FALSE, sequences = NULL,
                     order = c("appearance", "name"), initial = NULL, keep_graph = NULL,
                     graph = NULL, nested = FALSE) {
    kind <- input_kind(edgelistfiles)
    if (kind == "edges" && is.matrix(edgelistfiles))
        edgelistfiles <- text_matrix_edges(edgelistfiles)
    if (kind == "igraph" && missing(mode))
        mode <- if (igraph::is_directed(edgelistfiles)) "directed" else "undirected"
    mode <- check_mode(mode)
    files <- if (kind == "files") check_input_files(edgelistfiles) else character()
    ignore_weights <- check_flag(ignore_weights, "ignore_weights")
    return_table <- check_flag(return_table, "return_table")
    cluster_table <- check_flag(cluster_table, "cluster_table")
    nested <- check_flag(nested, "nested")
    check_flag(use_fast_sort, "use_fast_sort") # accepted for SynExtend; no effect
    verbose <- check_flag(as.logical(verbose), "verbose")
    sep <- check_sep(sep)
    header <- check_header(header)
    memory <- parse_memory_limit(memory_limit)
    self_loops <- check_self_loops(add_self_loops, ignore_weights)
    attenuation <- check_attenuation(attenuation)
    iterations <- check_iterations(iterations)
    # algorithm, objective, resolution and refine reach the core only when
    # given: it resolves their defaults (format = "blast" with none of the
    # first three: Leiden, CPM, resolution "auto"; refine 5 passes for label
    # propagation, 0 for Leiden) and refuses the combinations that do not go
    # together, with the same rules and messages as the command-line tools
    given <- c(algorithm = !missing(algorithm), objective = !missing(objective),
               resolution = !missing(resolution), refine = !missing(refine))
    if (given[["algorithm"]])
        algorithm <- check_option(algorithm, "algorithm", c("lp", "leiden", "components"))
    if (given[["objective"]])
        objective <- check_option(objective, "objective", c("modularity", "CPM"))
    if (given[["resolution"]]) resolution <- check_resolution(resolution)
    refine <- if (given[["refine"]]) check_refine(refine) else integer()
    tempfiledir <- check_tempfiledir(tempfiledir)
    # a previous clustering: a path for the core (a temporary file for a
    # table, removed even on error)
    init <- prepare_initial(initial, sep, tempfiledir)
    if (!is.null(init$temp)) on.exit(unlink(init$temp), add = TRUE)
    threads <- check_threads(threads)
    seqs <- check_sequences(sequences)
    order <- check_option(order, "order", c("appearance", "name"))
    input <- check_input_options(kind, format, columns, weight_transform, min_weight,
                                 self_hits, combine, bridges, mode)
    if (kind == "edges" && (input$format == "blast" || !is.null(columns)))
        edgelistfiles <- select_columns(edgelistfiles, input$columns)
    # plain edge lists that look like 12-column search-tool output
    if (missing(format) && is.null(columns) && is.null(weight_transform) &&
        kind %in% c("files", "edges"))
        warn_search_output(if (kind == "files") files else edgelistfiles, sep, header)

    source <- switch(kind,
                     files = NULL,
                     edges = edges_source(edgelistfiles, ignore_weights),
                     igraph = igraph_source(edgelistfiles, ignore_weights),
                     matrix = matrix_source(edgelistfiles, mode == "directed",
                                            ignore_weights))
    # igraph inputs give a communities object unless a file is asked for
    communities <- kind == "igraph" && (return_table || missing(outfile)) && !nested
    if (communities && !is.null(sequences))
        stop("'sequences' would add nodes that the igraph graph does not have: add them ",
             "as vertices (igraph::add_vertices()), or give 'outfile'", call. = FALSE)
    want_table <- return_table || communities ||
        (nested && kind == "igraph" && missing(outfile))

    lens <- c(length(self_loops), length(attenuation), length(iterations),
              if (given[["refine"]]) length(refine), if (given[["resolution"]]) length(resolution))
    user_outfile <- !missing(outfile)
    if (user_outfile && return_table) {
        warning("'outfile' will be ignored since return_table=TRUE", call. = FALSE)
        user_outfile <- FALSE
    }
    if (nested) check_nested(given, resolution, lens, user_outfile, outfile)
    if (user_outfile) lens <- c(lens, length(outfile))
    nrun <- max(lens)
    # nested levels: one clustering per resolution, one output file
    nout <- if (nested) 1L else nrun
    if (any(lens != 1L & lens != nrun))
        stop("'add_self_loops', 'attenuation', 'iterations', 'refine', 'resolution' and ",
             "'outfile' must have ",
             "length 1 or the same length (", nrun, ")", call. = FALSE)
    if (user_outfile && length(outfile) != nout)
        stop("give one 'outfile' per clustering (", nout, ")", call. = FALSE)
    if (!user_outfile)
        outfile <- tempfile(rep("ExoLabel", nout), tmpdir = tempfiledir, fileext = ".tsv")
    outfile <- prepare_outfiles(outfile, nout)
    if (anyDuplicated(outfile))
        stop("'outfile' paths must differ from each other", call. = FALSE)
    # table results go through temporary files: gone even on error or interrupt
    if (want_table) on.exit(unlink(outfile), add = TRUE)

    # cluster tables go through temporary files, gone even on error or interrupt
    tables <- rep("", nout)
    if (cluster_table) {
        tables <- tempfile(rep("ExoLabelTable", nout), tmpdir = tempfiledir)
        on.exit(unlink(tables), add = TRUE)
    }

    input_bytes <- if (kind == "files") sum(file.size(files)) else 0
    check_disk_space(guess_input_size(files, source, input$format), memory, tempfiledir)

    self_loops <- rep_len(self_loops, nrun)
    attenuation <- rep_len(attenuation, nrun)
    iterations <- rep_len(iterations, nrun)
    seeds <- floor(stats::runif(nrun) * 2^53)

    progress <- if (!verbose) 0L
                else getOption("ExoLabel.progress_bars", interactive()) + 1L +
                    4L * isTRUE(getOption("ExoLabel.debug", FALSE))
    # every option that reaches the core, by name (src/core/exo_options.h
    # checks, resolves and fills the core's structs, as for the command-line
    # tools): `options` the same for every clustering, `runs` one entry each
    options <- list(mode = mode, ignore_weights = ignore_weights, sep = sep,
                    header = header, tempdir = tempfiledir, memory_limit = memory,
                    threads = threads, format = input$format,
                    # the format's own columns are left to the core: a
                    # header's names can move them (search output)
                    columns = if (!is.null(columns)) input$resolved$columns,
                    weight_transform = input$resolved$weight_transform,
                    min_weight = input$min_weight,
                    self_hits = input$resolved$self_hits,
                    combine = input$resolved$combine,
                    bridges = input$resolved$bridges, order = order,
                    initial = init$path,
                    keep_graph = if (is.character(keep_graph)) path.expand(keep_graph)
                                 else keep_graph,
                    graph = if (is.character(graph)) path.expand(graph) else graph,
                    nested = nested)
    runs <- list(add_self_loops = self_loops, attenuation = attenuation,
                 iterations = iterations, seed = seeds)
    if (given[["algorithm"]]) runs$algorithm <- rep(algorithm, nrun)
    if (given[["objective"]]) runs$objective <- rep(objective, nrun)
    if (given[["resolution"]]) runs$resolution <- rep_len(resolution, nrun)
    if (given[["refine"]]) runs$refine <- rep_len(refine, nrun)
    run <- .exolabel_run(files, source, outfile, tables, options, runs, progress,
                         input_bytes, seqs$file, seqs$names)

    if (run$negative_edges > 0 && input$transform != 1L)
        warning(sprintf(negative_dropped_fmt, format_count(run$negative_edges)),
                call. = FALSE)
    if (run$num_vertices == 0)
        warning("the input has no edges (empty, or only blank, header or comment lines): the result is empty",
                call. = FALSE)
    else if (run$num_edges == 0 && run$self_dropped > 0)
        warning("no edge with a positive weight between two different nodes: the self ",
                "hits (edges from a node to itself) were dropped (self_hits = \"drop\", ",
                "the default of format = \"blast\"); every node is its own cluster",
                call. = FALSE)
    else if (run$num_edges == 0)
        warning("no edge with a positive weight: every node is its own cluster",
                call. = FALSE)
    if (!is.na(run$listed[["not_listed"]]) && run$listed[["not_listed"]] > 0)
        warning(sprintf("%s node(s) of the edges are not among the 'sequences': they are kept",
                        format_count(run$listed[["not_listed"]])), call. = FALSE)
    if (!is.null(run$initial) && run$initial$missing > 0)
        warning(sprintf(initial_missing_fmt, format_count(run$initial$missing),
                        run$initial$first_missing), call. = FALSE)
    stats <- c(num_vertices = run$num_vertices, num_edges = run$num_edges)
    if (nested)
        return(nested_result(run, outfile, tables, want_table, user_outfile, sep, stats,
                             input, mode, seeds, tempfiledir))
    # how "auto" was given: "auto", "auto/8" (the default of format = "blast": "auto")
    auto_text <- if (given[["resolution"]] && is.character(resolution))
        rep_len(resolution, nrun) else rep("auto", nrun)
    out <- lapply(seq_len(nrun), function(i) {
        result <- outfile[i]
        if (want_table) {
            tab <- .exolabel_read_results(outfile[i], sep)
            unlink(outfile[i])
            result <- if (communities)
                make_communities(edgelistfiles, tab$Cluster, ignore_weights)
            else data.frame(Vertex = tab$Vertex, Cluster = tab$Cluster,
                            stringsAsFactors = FALSE)
        }
        # the options as the core resolved them
        params <- if (run$algorithm[i] == "lp")
            c(add_self_loops = self_loops[i], attenuation = attenuation[i],
              iterations = run$iterations[i], refine = run$refine[i],
              resolution = run$resolution[i])
        else if (run$algorithm[i] == "components") # no parameters
            structure(numeric(), names = character(), algorithm = "components")
        else if (run$resolution_auto[i])
            structure(c(resolution = run$resolution[i], quality = run$quality[i]),
                      algorithm = "leiden", objective = run$objective[i],
                      resolution = auto_text[i], per_strength = run$per_strength[i],
                      strength_of = paste0(if (run$strength_linked[i]) "the nodes with an edge"
                                           else "all nodes",
                                           if (run$per_component[i]) ", in each connected component"
                                           else ""))
        else structure(c(resolution = run$resolution[i], quality = run$quality[i]),
                       algorithm = "leiden", objective = run$objective[i])
        res <- new_result(parameters = params,
                   graph_stats = stats, results = result,
                   stats = c(run$sort,
                             list(algorithm = run$algorithm[i],
                                  num_clusters = run$num_clusters[i],
                                  largest_cluster = run$largest[i],
                                  size_bins = run$size_bins[[i]],
                                  seconds_cluster = run$seconds_cluster[i],
                                  refine_merged = run$refine_merged[i],
                                  quality = run$quality[i],
                                  levels = run$levels[i],
                                  seconds_refine = run$seconds_refine[i],
                                  seconds_output = run$seconds_output[i],
                                  seconds_table = run$seconds_table[i]),
                             build_stats(run, input, mode, sep, user_outfile, want_table,
                                         tempfiledir),
                             list(seed = seeds[i])))
        if (!is.null(run$ids[[i]])) # initial: the stable ids' counts
            attr(res, "stats")$ids <- run$ids[[i]]
        if (cluster_table) {
            res$cluster_table <- as.data.frame(.exolabel_read_table(tables[i], sep),
                                               stringsAsFactors = FALSE)
            unlink(tables[i])
        }
        res
    })
    if (nrun == 1L) return(out[[1L]])
    # several clusterings: SynExtend's list of results, visible and named
    # after the parameter values that differ between them
    varying <- list(add_self_loops = self_loops, attenuation = attenuation,
                    iterations = iterations, refine = refine,
                    resolution = if (given[["resolution"]]) rep_len(resolution, nrun))
    varying <- varying[vapply(varying, function(v) length(unique(v)) > 1L, logical(1))]
    nm <- if (length(varying))
        do.call(paste, c(lapply(names(varying), function(n)
            paste0(n, "=", vapply(varying[[n]], base::format, "", digits = 6))), sep = ", "))
    else basename(outfile)
    names(out) <- make.unique(nm, sep = "#")
    class(out) <- "ExoLabelResults"
    out
}

# The statistics of the graph build and the run that every result of one
# call shares (attr(res, "stats") after each clustering's own).
build_stats <- function(run, input, mode, sep, user_outfile, want_table, tempfiledir) {
    list(input_edges = run$input_edges,
         input = input$resolved,
         directed = mode == "directed",
         self_arcs = run$self_arcs,
         bridges = run$bridges,
         sequences = if (!is.na(run$listed[["sequences"]])) run$listed,
         negative_edges = run$negative_edges,
         sep = sep,
         temporary = !user_outfile && !want_table &&
             startsWith(tempfiledir, normalizePath(tempdir(), mustWork = FALSE)),
         peak_rss = run$peak_rss)
}

# Edges and nodes of the input, for the disk check: exact for in-memory
# sources; for files guessed from their size (32 bytes per line, 64 for the
# 12 columns of search-tool output, gzip files 3.5 times larger once
# decompressed, one node per 4 edges). Combining and dropped self hits only
# shrink the graph, so the estimate stays an upper bound.
# The warning for negative weights a transform left out.
negative_dropped_fmt <- paste0("%s edge(s) with a negative weight were dropped (their ",
                               "nodes are kept); ExoLabel clusters on positive weights only")

guess_input_size <- function(files, source, format = "edges") {
    if (is.null(source)) {
        gz <- vapply(files, is_gzip, logical(1))
        per_line <- if (format == "blast") 64 else 32
        edges <- sum(file.size(files) * ifelse(gz, 3.5, 1)) / per_line
        return(c(edges = edges, vertices = edges / 4))
    }
    edges <- source_edges(source)
    c(edges = edges, vertices = if (source$register > 0) source$register else edges / 4)
}

# Stop early when the temporary files cannot fit in tempfiledir;
# options(ExoLabel.check_disk = FALSE) skips the check.
# The words of the disk check's error (a constant: BiocCheck asks for no
# paste() inside a condition).
no_disk_fmt <- paste0("not enough free space in tempfiledir '%s': the run needs ",
                      "about %s of temporary files (estimated for %s edges) but ",
                      "only %s are free; choose another 'tempfiledir' or set ",
                      "options(ExoLabel.check_disk = FALSE) to try anyway")

check_disk_space <- function(size, memory, tempfiledir) {
    if (isFALSE(getOption("ExoLabel.check_disk", TRUE))) return(invisible())
    free <- .exolabel_free_space(tempfiledir)
    if (is.na(free)) return(invisible())
    est <- estimate_resources(size[["vertices"]], size[["edges"]], memory_limit = memory)
    need <- est$peak_temp_disk
    if (need > free)
        stop(sprintf(no_disk_fmt,
                     tempfiledir, format_bytes(need), format_count(round(size[["edges"]])),
                     format_bytes(free)), call. = FALSE)
    invisible()
}

# An igraph communities object; membership() names its entries after the
# vertices when the graph has names. Its modularity is that of the graph
# ExoLabel clustered: weighted by the "weight" attribute (unless
# ignore_weights), edges of weight 0 or below counting as absent.
make_communities <- function(graph, membership, ignore_weights = FALSE) {
    w <- NULL
    if (!ignore_weights && "weight" %in% igraph::edge_attr_names(graph))
        w <- pmax(as.numeric(igraph::edge_attr(graph, "weight")), 0)
    q <- if (igraph::ecount(graph) > 0 && (is.null(w) || sum(w) > 0))
        igraph::modularity(graph, membership, weights = w)
    else NA_real_
    comm <- igraph::make_clusters(graph, membership = membership, algorithm = "ExoLabel",
                                  modularity = q)
    nm <- igraph::vertex_attr(graph, "name")
    if (!is.null(nm)) comm$names <- nm
    comm
}

# Only regular files are opened: a named pipe's first bytes would be
# consumed (and opening it waits for a writer); pipes and devices count as
# plain text.
is_gzip <- function(path) {
    if (!.exolabel_regular_files(path)) return(FALSE)
    con <- file(path, "rb", raw = TRUE)
    on.exit(close(con))
    magic <- readBin(con, "raw", 2L)
    length(magic) == 2L && magic[1L] == as.raw(0x1f) && magic[2L] == as.raw(0x8b)
}
