// benchmarks/bench/gve_one.cxx: a driver of ours for the GVE codes
// (github.com/puzzlef/leiden-communities-openmp and rak-communities-openmp)
// that runs exactly one method once, so that a whole-process time compares
// method with method. The projects' own main.cxx runs Louvain before Leiden
// (and repeats each method), which would add another algorithm's time to
// their side. Built by gve_lib.sh's gve_build_one against the headers of a
// checkout (-I SRC/inc); GVE_METHOD is GVE_LEIDEN or GVE_LPA.
//
//   gve-one FILE.mtx SYMMETRIC WEIGHTED
//
// Prints, on one line each: the reading time, the method's own timers (total
// and phases), the number of communities and the modularity (computed after
// the method, timed apart).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <omp.h>
#include "main.hxx"

#define GVE_LEIDEN 1
#define GVE_LPA 2
#ifndef GVE_METHOD
#define GVE_METHOD GVE_LEIDEN
#endif
#ifndef MAX_THREADS
#define MAX_THREADS 2
#endif

using namespace std;

static double seconds_since(chrono::steady_clock::time_point t0) {
  return chrono::duration<double>(chrono::steady_clock::now() - t0).count();
}

template <class G, class M>
static void report_partition(const G& x, const M& membership, double t_method) {
  auto t0 = chrono::steady_clock::now();
  double w = edgeWeightOmp(x) / 2;
  auto community = [&](auto u) { return membership[u]; };
  double q = modularityByOmp(x, community, w, 1.0);
  size_t n = communities(x, membership).size();
  printf("gve_method_s\t%.3f\ngve_communities\t%zu\ngve_modularity\t%.9f\ngve_modularity_s\t%.3f\n",
         t_method, n, q, seconds_since(t0));
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE.mtx [SYMMETRIC [WEIGHTED]]\n", argv[0]);
    return 2;
  }
  using K = uint32_t;
  using V = TYPE;
  bool symmetric = argc > 2 ? atoi(argv[2]) != 0 : false;
  bool weighted = argc > 3 ? atoi(argv[3]) != 0 : false;
  /* OMP_NUM_THREADS, when set, picks the threads (device_run.sh varies
   * them); else MAX_THREADS, as the projects' main does */
  if (!getenv("OMP_NUM_THREADS")) omp_set_num_threads(MAX_THREADS);
  auto t0 = chrono::steady_clock::now();
  DiGraph<K, None, V> x;
  readMtxOmpW(x, argv[1], weighted);
  if (!symmetric) x = symmetricizeOmp(x);
  printf("gve_threads\t%d\ngve_nodes\t%zu\ngve_arcs\t%zu\ngve_read_s\t%.3f\n", omp_get_max_threads(),
         size_t(x.order()), size_t(x.size()), seconds_since(t0));
  t0 = chrono::steady_clock::now();
#if GVE_METHOD == GVE_LEIDEN
  auto a = leidenStaticOmp(x, LeidenOptions(1));
  double t = seconds_since(t0);
  printf("gve_leiden_ms\t%.1f\ngve_local_move_ms\t%.1f\ngve_refine_ms\t%.1f\n"
         "gve_aggregate_ms\t%.1f\ngve_passes\t%d\ngve_iterations\t%d\n",
         a.time, a.localMoveTime, a.refinementTime, a.aggregationTime, a.passes, a.iterations);
#else
  auto a = rakStaticOmp(x, RakOptions(1));
  double t = seconds_since(t0);
  printf("gve_lpa_ms\t%.1f\ngve_iterations\t%d\n", a.time, a.iterations);
#endif
  report_partition(x, a.membership, t);
  return 0;
}
