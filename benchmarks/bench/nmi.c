/* benchmarks/bench/nmi.c: the NMI of a clustering against a ground truth,
 * for machines without R (the device script, benchmarks/bench/device_run.sh).
 *
 *   nmi TRUTH CLUSTERS
 *
 * TRUTH: name<TAB>community per line (exogen --truth); CLUSTERS: name<TAB>
 * cluster per line (the command-line tool's output). Labels are compared as
 * strings. Prints "nmi<TAB>x", "nodes<TAB>n" (names in both files),
 * "missing<TAB>m" (truth names absent from CLUSTERS) and "clusters<TAB>k".
 * NMI = 2 I(T;C) / (H(T) + H(C)), natural logarithms, as igraph's
 * compare(method = "nmi") and ExoLabel's ClusterNMI; 1 when both entropies
 * are 0. Exit status 1 with a message on bad input.
 *
 * cc -std=c11 -O2 -o nmi benchmarks/bench/nmi.c -lm */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char **key;   /* NULL: empty slot */
  uint64_t *val;
  size_t cap, n;
} map;

static void fail(const char *msg, const char *what) {
  fprintf(stderr, "nmi: %s%s%s\n", msg, what ? ": " : "", what ? what : "");
  exit(1);
}

static void *xcalloc(size_t n, size_t s) {
  void *p = calloc(n, s);
  if (!p) fail("out of memory", NULL);
  return p;
}

static uint64_t hash(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static void map_init(map *m) {
  m->cap = 1024;
  m->n = 0;
  m->key = xcalloc(m->cap, sizeof *m->key);
  m->val = xcalloc(m->cap, sizeof *m->val);
}

/* The slot of key s (found, or empty where it would go). */
static size_t map_slot(const map *m, const char *s) {
  size_t i = hash(s) & (m->cap - 1);
  while (m->key[i] && strcmp(m->key[i], s)) i = (i + 1) & (m->cap - 1);
  return i;
}

static void map_grow(map *m) {
  map g = {xcalloc(m->cap * 2, sizeof(char *)), xcalloc(m->cap * 2, 8), m->cap * 2, m->n};
  for (size_t i = 0; i < m->cap; i++)
    if (m->key[i]) {
      size_t j = map_slot(&g, m->key[i]);
      g.key[j] = m->key[i];
      g.val[j] = m->val[i];
    }
  free(m->key);
  free(m->val);
  *m = g;
}

/* The value of s; with add, a new key gets value `fresh` (and *added = 1). */
static uint64_t *map_get(map *m, const char *s, int add, uint64_t fresh, int *added) {
  if (added) *added = 0;
  if (add && 2 * (m->n + 1) > m->cap) map_grow(m);
  size_t i = map_slot(m, s);
  if (m->key[i]) return &m->val[i];
  if (!add) return NULL;
  if (!(m->key[i] = strdup(s))) fail("out of memory", NULL);
  m->val[i] = fresh;
  m->n++;
  if (added) *added = 1;
  return &m->val[i];
}

/* Split "a<TAB>b[<TAB>...]\n" in place; 0 when the line has no tab. */
static int fields(char *line, char **a, char **b) {
  line[strcspn(line, "\r\n")] = 0;
  char *t = strchr(line, '\t');
  if (!t) return 0;
  *t = 0;
  *a = line;
  *b = t + 1;
  (*b)[strcspn(*b, "\t")] = 0;
  return 1;
}

static double entropy(const uint64_t *count, size_t k, double n) {
  double h = 0.0;
  for (size_t i = 0; i < k; i++)
    if (count[i]) h -= (double)count[i] / n * log((double)count[i] / n);
  return h;
}

int main(int argc, char **argv) {
  if (argc != 3) fail("usage: nmi TRUTH CLUSTERS", NULL);
  map names, tlab, clab, pairs;
  map_init(&names);
  map_init(&tlab);
  map_init(&clab);
  map_init(&pairs);
  char *line = NULL, *a, *b;
  size_t lcap = 0;
  FILE *f = fopen(argv[1], "r");
  if (!f) fail("cannot open", argv[1]);
  while (getline(&line, &lcap, f) >= 0) {
    if (!fields(line, &a, &b)) continue;
    int added;
    uint64_t t = *map_get(&tlab, b, 1, tlab.n, NULL);
    map_get(&names, a, 1, t, &added);
    if (!added) fail("a name is given twice in the truth file", a);
  }
  fclose(f);
  const size_t T = tlab.n;
  uint8_t *seen = xcalloc(names.cap, 1); /* by slot of names: 1 once clustered */
  uint64_t n = 0;
  if (!(f = fopen(argv[2], "r"))) fail("cannot open", argv[2]);
  char key[64];
  while (getline(&line, &lcap, f) >= 0) {
    if (!fields(line, &a, &b)) continue;
    size_t slot = map_slot(&names, a);
    if (!names.key[slot]) continue; /* not in the truth */
    if (seen[slot]) fail("a name is given twice in the clusters file", a);
    seen[slot] = 1;
    uint64_t c = *map_get(&clab, b, 1, clab.n, NULL);
    snprintf(key, sizeof key, "%llu %llu", (unsigned long long)names.val[slot],
             (unsigned long long)c);
    (*map_get(&pairs, key, 1, 0, NULL))++;
    n++;
  }
  fclose(f);
  free(line);
  const size_t K = clab.n;
  uint64_t *ct = xcalloc(T ? T : 1, 8), *cc = xcalloc(K ? K : 1, 8);
  double I = 0.0;
  for (size_t i = 0; i < pairs.cap; i++)
    if (pairs.key[i]) {
      unsigned long long t, c;
      sscanf(pairs.key[i], "%llu %llu", &t, &c);
      ct[t] += pairs.val[i];
      cc[c] += pairs.val[i];
    }
  for (size_t i = 0; i < pairs.cap; i++)
    if (pairs.key[i]) {
      unsigned long long t, c;
      sscanf(pairs.key[i], "%llu %llu", &t, &c);
      const double p = (double)pairs.val[i] / (double)n;
      I += p * log(p / ((double)ct[t] / (double)n * (double)cc[c] / (double)n));
    }
  const double ht = n ? entropy(ct, T, (double)n) : 0.0, hc = n ? entropy(cc, K, (double)n) : 0.0;
  const double nmi = ht + hc > 0.0 ? 2.0 * I / (ht + hc) : 1.0;
  printf("nmi\t%.6f\nnodes\t%llu\nmissing\t%llu\nclusters\t%llu\n", nmi, (unsigned long long)n,
         (unsigned long long)(names.n - n), (unsigned long long)K);
  return 0;
}
