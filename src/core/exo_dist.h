/* exo_dist.h: the distributed run (P cooperating processes, "ranks"), from
 * edge-list files to one "name<sep>cluster" file, over an abstract
 * transport. The MPI program (mpi/exolabel_mpi.c) supplies the transport with
 * MPI collectives; the Check suite supplies an in-process one (threads), so
 * this module includes no MPI header and is tested without MPI.
 *
 * Every rank calls exo_dist_run() with the same options (its rank and P are
 * in the transport). Design:
 *
 * 1. Reading. With at least P files, rank r parses the input files i with
 *    i % P == r (whole files; gzip works, the header applies per file).
 *    With fewer files than ranks, every plain regular file is cut into P
 *    byte ranges, rank r parsing the lines that start in
 *    [size * r / P, size * (r + 1) / P) with positioned reads
 *    (exo_parse_range: a line straddling a boundary goes to the rank where
 *    it starts; an error names the file and its absolute line, counted on
 *    the error path), while gzip files and pipes stay whole (file i on rank
 *    i % P). Either way the rank parses through exo_parse with a rank-local name
 *    table: each edge is spooled to a temp file as (local id a, local id b,
 *    weight) and each distinct name once to the local names file. Edges
 *    below min_weight and dropped self-loops are not spooled (their names
 *    are nodes all the same).
 * 2. Ownership. A node belongs to rank owner(name) = high 64 bits of
 *    h2 * P, where h2 is the second lane of exo_names_hash(name) (the table
 *    indexes by the first lane, so owned names still spread over its slots).
 *    No rank ever holds all names. The owner numbers its nodes 0, 1, 2, ...
 *    in the order it receives them (local index i) and the global id is
 *    g = i * P + r: owner(g) = g % P and index(g) = g / P need no table.
 * 3. Name resolution. Rank r streams its local names file and, in rounds of
 *    at most exchange_bytes per rank, sends each name to its owner
 *    ("name\n" text, alltoallv); the owner interns it in its owned-name table
 *    (exo_names: the owned names file lists them in index order, which is
 *    what the output needs) and answers with g (alltoallv). Rank r keeps
 *    g for each local id (8 bytes per distinct name it read).
 * 4. Arcs. The edge spool is replayed with global ids; each arc (sign
 *    convention of exo_record.h; w <= 0 stores nothing but both names are
 *    nodes) goes to the owner of its key node, in rounds of at most
 *    exchange_bytes per rank (20-byte records, alltoallv). The owner adds
 *    (index(key), g(nbr), w) to exo_sort, which writes its part of the CSR
 *    out of core: offsets over its owned indices, neighbours as global ids.
 * 5. Label propagation in supersteps (bulk synchronous across ranks,
 *    asynchronous inside a rank). Labels are global ids; every node starts
 *    with its own id and active. In a superstep each rank makes one sweep
 *    over its active nodes exactly as exo_lp.h describes (blocks of
 *    EXO_LP_BLOCK indices, a seeded permutation inside a block, the same
 *    winner rule, tie breaking by visit number, the visit cap, local
 *    out-neighbours activated to run later in the same sweep or in the next
 *    superstep). Neighbour labels come from the rank's own array for owned
 *    nodes and, for "ghosts" (neighbours owned elsewhere), from a copy
 *    refreshed between supersteps. After the sweep one alltoallv carries,
 *    for each pair of ranks, (position, label) for every node the receiver
 *    reads whose label changed in the sweep (16 bytes each; the lists of
 *    who reads what are agreed once after the CSR is built) and the global
 *    ids of the receiver's nodes to activate (8 bytes each, at most once per
 *    ghost and superstep): an out-neighbour on another rank is activated
 *    by its owner, under the same visit cap, instead of in place.
 *    Differences from the single-machine rule: a ghost's label is the one
 *    from the end of the previous superstep (owned labels are current), the
 *    "label differs" test before activating a remote out-neighbour is left
 *    out, and from the second superstep on a boundary node (one with a
 *    voting arc from a ghost) takes part in a superstep only when a seeded
 *    coin of (seed, node, superstep) says so (otherwise it stays active for
 *    the next one): with stale labels two nodes on different ranks could
 *    otherwise take each other's label forever. The tie threshold is
 *    exo_lp.h's, and so is the visit cap at P = 1; at P > 1 the automatic
 *    cap (from the global maximum degree) is doubled: a visit that reads
 *    last superstep's ghost labels decides on older news, and with the
 *    single-machine cap communities spread over the ranks stayed in
 *    fragments on noisy graphs (10^5 nodes, mixing 0.6, unweighted, mean
 *    NMI of 3 seeds: 0.974 at P = 4 against 0.993 at P = 1; 0.992 with
 *    the doubled cap).
 *    The volume penalty (resolution > 0) is exo_lp.h's, with the same
 *    arithmetic (exo_lprule.h): every rank keeps the volume of every label
 *    (indexed by global id, so P * max(owned nodes) entries; summed over
 *    the ranks from the degrees at the start, m being all ranks' adjacency
 *    entries), updates it live for its own changes, and sends every other
 *    rank its superstep's changes (from, to, degree) with the label
 *    messages; so a rank sees the other ranks' changes of the current
 *    superstep only at the next one.
 *    The run stops when, after an exchange, no rank has an active node
 *    (allreduce). No attenuation and no self-loop cutoff in this mode.
 *    Randomness: rank r draws from the seed mixed with r, so the same seed,
 *    the same P and the same files give the same bytes; another P gives
 *    another (equally valid) partition. With P = 1 there are no ghosts and
 *    the run is exo_lp's algorithm (its ids differ: names are numbered by
 *    the owner, so tie draws differ from the single-machine run's).
 * 6. Output. Clusters are numbered 1..K globally: each rank sends the
 *    distinct labels of its nodes to the labels' owners, rank q marks the
 *    labels it owns that are used (a bitmap over its indices), K_q comes from
 *    an allgather, and label g gets number 1 + sum(K_<q) + (used labels of q
 *    below index(g)). So clusters are numbered by (owner rank of the label's
 *    origin node, its index there). Each rank writes its lines with
 *    exo_output_write (names streamed from its owned names file) to a part
 *    file, then copies it with pwrite into "<out>.mpi-tmp" at the offset the
 *    sizes of the lower ranks give (allgather); rank 0 renames that file
 *    over out_path at the end. Line order: rank 0's nodes, then rank 1's,
 *    ...; within a rank in the order the owner received the names (rank 0's
 *    files' names first, each sender in its order of first appearance).
 *    The output path must be on a file system every rank sees.
 *
 * Errors: every exchange round, the end of each stage and every superstep
 * start with a checkpoint (allreduce) where each rank reports whether it
 * failed; when one did, every rank stops at that point, removes its files
 * and returns: the failing rank its own error (e.g. "<file>:<line>: ..."),
 * the others EXO_EIO "stopped: rank R failed (EXO_...)"; result->agreed is
 * then 1 and the host may end normally (non-zero exit). A transport failure
 * (a callback returning non-zero, e.g. a dead rank) gives EXO_EIO with
 * agreed = 0: the host must end the whole job (MPI_Abort). On every return
 * the files this call made in opt->tmpdir are gone (the directory itself is
 * the host's).
 *
 * Memory per rank (the shares dist_* of exo_budget.h): the sort,
 * exchange_bytes (default dist_exchange) for each of the send and receive
 * buffers of a round, the adjacency read buffer of label propagation (an
 * exo_csr_window; block order and active ranges from exo_sweep.h); per
 * name read 8 bytes (its global id) + the local name table (exo_names.h),
 * per owned node the owned-name table while resolving, then 8 (offsets) +
 * 8 (label) + 2 (visits) + 3/8 (active, changed and boundary bits); per
 * ghost (every remote neighbour) 16 (label, global id) + 1/8 (notify bit),
 * with resolution > 0 also 8 per node of the whole graph (the label
 * volumes, on every rank) and 24 per label change of the superstep in the
 * change list and in the message to each other rank,
 * plus, only while the ghosts are found and the adjacency is rewritten, an
 * exo_tally (exo_tally.h) of 56 to 112 bytes per ghost; per entry of the send lists 8
 * (index); the label messages of a superstep take at most 16 bytes per
 * send-list entry plus 8 per ghost; 1 MiB more for the lists read outside
 * the block buffer (a longer list is read in 1 MiB pieces); while numbering clusters
 * 24 bytes per distinct label of its nodes and 8 per node (a sorted copy).
 * Temporary disk per rank: edge spool (20 bytes per edge
 * read), names files, the sort's runs and CSR part (offsets 8 bytes per
 * owned node, 8 or 12 bytes per arc), the CSR adjacency rewritten with local
 * ids (8 or 12 bytes per arc; the global one is removed as it is read), the
 * output part. */
#ifndef EXO_DIST_H
#define EXO_DIST_H

#include <stddef.h>
#include <stdint.h>

#include "exo_ctx.h"
#include "exo_parse.h"
#include "exo_sort.h"

/* The collectives the run needs. Every call is collective over all ranks;
 * each returns 0 on success and non-zero on failure. */
enum { EXO_DIST_SUM = 0, EXO_DIST_MAX = 1 };
typedef struct exo_dist_comm {
  void *user;
  int rank, size;
  /* Send scounts[q] bytes to rank q (blocks laid out one after the other in
   * rank order in sendbuf) and receive rcounts[q] bytes from rank q (the
   * caller knows them: every call is preceded by an alltoall_u64 of the
   * counts) into recvbuf in rank order. */
  int (*alltoallv)(void *user, const void *sendbuf, const uint64_t *scounts,
                   void *recvbuf, const uint64_t *rcounts);
  /* send[q] goes to rank q; recv[q] comes from rank q. */
  int (*alltoall_u64)(void *user, const uint64_t *send, uint64_t *recv);
  /* In place, element-wise over n values, op EXO_DIST_SUM or EXO_DIST_MAX. */
  int (*allreduce_u64)(void *user, uint64_t *vals, int n, int op);
  /* all[q] = rank q's value. */
  int (*allgather_u64)(void *user, uint64_t value, uint64_t *all);
} exo_dist_comm;

typedef struct exo_dist_options {
  const char *const *files; /* the same list on every rank */
  size_t nfiles;
  exo_parse_options parse;  /* threads is honoured per rank (parsing) */
  int directed;
  float min_weight;         /* as exo_build_options: edges whose weight is
                               below store nothing (their names are nodes) */
  int drop_self_loops;      /* an edge A-A registers A but stores no arc */
  exo_combine combine;      /* equal arcs in a rank's CSR part (exo_sort.h);
                               an arc and its duplicates meet at one owner,
                               so the result is the single-machine one */
  const char *tmpdir;       /* existing private directory of this rank */
  uint64_t memory_limit;    /* per rank */
  uint64_t exchange_bytes;  /* per round and rank; 0 = the share dist_exchange
                               (exo_budget.h; other values, >= 64, are for tests) */
  uint32_t max_visits;      /* 0 = automatic */
  double resolution;        /* label propagation's volume penalty (exo_lp.h),
                               >= 0; 0 = none (the drivers' default is
                               EXO_LP_RESOLUTION) */
  uint64_t seed;
  const char *out_path;
  char sep;
} exo_dist_options;

#define EXO_DIST_MAX_STEPS 4096 /* supersteps recorded in the result */

typedef struct exo_dist_result {
  int agreed;            /* on failure: every rank stopped at one checkpoint */
  /* global figures (the same on every rank) */
  uint64_t num_nodes, num_lines, num_clusters;
  uint64_t num_arcs;     /* arcs label propagation votes over, as exo_graph's
                            num_edges: 2 per undirected edge (1 per self-loop),
                            1 per directed edge; weight > 0 only */
  uint64_t num_entries;  /* adjacency entries in all CSR parts */
  uint32_t max_visits;
  uint64_t supersteps, pops, changes;
  /* this rank */
  uint64_t own_nodes, own_arcs, ghosts, boundary_nodes, send_list;
  uint64_t bytes_sent[4];  /* resolve, arcs, LP, output numbering */
  double seconds[5];       /* parse, resolve, arcs+CSR, LP, output */
  uint64_t temp_disk;      /* bytes: spool + names + sort peak + part */
  uint64_t sort_runs;
  /* per superstep (first EXO_DIST_MAX_STEPS): label bytes this rank sent,
   * and global label changes */
  uint64_t *step_bytes, *step_changes; /* malloc'd, free with exo_dist_result_free */
} exo_dist_result;

exo_status exo_dist_run(const exo_dist_options *opt, const exo_dist_comm *comm,
                        exo_ctx *ctx, exo_dist_result *res);
void exo_dist_result_free(exo_dist_result *res);

#endif
