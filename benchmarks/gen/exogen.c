/*
 * exogen - a fast, seeded generator of benchmark graphs with planted
 * communities, written for ExoLabel.
 *
 * MODEL
 * -----
 * 1. Community sizes are drawn from a power law P(s) ~ s^-tau on the integers
 *    [min-comm, max-comm] (tau = --comm-exponent) until they add up to N; the
 *    last community takes what is left, or, when that is below min-comm, the
 *    leftover nodes are spread one by one over random communities.
 *    Communities are numbered 1..K in the order they were drawn.
 * 2. Every node gets a target-degree weight w_i.  With --degree-exponent 0 all
 *    weights are equal (realised degrees are then Poisson around 2M/N).  With
 *    an exponent gamma > 0 the weights follow a continuous power law
 *    P(w) ~ w^-gamma on [k_min, --max-degree], where k_min is solved
 *    numerically so that the mean is 2M/N (as in the LFR benchmark).  The
 *    expected degree of node i is about 2M * w_i / sum(w).
 * 3. Nodes are placed into communities LFR-style: in decreasing order of their
 *    expected intra-community degree (1-MU)*k_i, each node takes a random free
 *    slot among the communities large enough to hold that many neighbours
 *    (size >= (1-MU)*k_i + 1).  When none is left it falls back to the largest
 *    remaining community; such nodes are counted and reported on stderr since
 *    they create many duplicate edges.  Ties are broken by a seeded random key,
 *    so node indices carry no information about communities.
 * 4. Each of the M edges is drawn independently: the source u is picked with
 *    probability proportional to w (alias table over all nodes, O(1)).  With
 *    probability MU the target is picked among all nodes outside u's community
 *    (proportional to w, by rejection from the global alias table), otherwise
 *    inside it (proportional to w, from a per-community alias table, rejecting
 *    u itself).  So the share of inter-community edges is Binomial(M, MU)/M.
 *    Edges are undirected and written once; there are no self-loops.
 *    Duplicate edges can occur (sampling is with replacement); their share is
 *    roughly k_in / (2 s) for intra degree k_in in a community of size s.
 * 5. Weighted output: intra-community weights are uniform in [0.5, 1.0],
 *    inter-community weights uniform in [0.05, 0.6], on a 1e-4 grid, printed
 *    with at most 4 decimals.
 *
 * Node names look like "g12_c345_p6789" (10..20 bytes): p is the node index
 * (which makes names unique); g and c are derived from a seeded hash of the
 * node index and do NOT identify the community (use the truth file).
 *
 * Memory is O(nodes): edges are streamed as they are generated through a
 * 4 MiB output buffer (optionally through zlib).  --shuffle permutes lines
 * within windows of 2^20 edges and randomly orients each edge (the base
 * stream is already a sequence of independent draws, so it is not sorted).
 * The same seed gives byte-identical files on the same platform (setup uses
 * libm pow/log; edge generation uses integer arithmetic only).
 *
 * Build: cc -std=c11 -O2 -Wall -Wextra -o exogen exogen.c -lz -lm
 */
#define _POSIX_C_SOURCE 200809L
#if defined(__linux__)
#define _DEFAULT_SOURCE /* madvise */
#endif
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define EXOGEN_VERSION "1.0"
#define NAME_SLOT 24          /* bytes per stored name; byte 23 = length */
#define OUTBUF_SIZE (4u << 20) /* output block size */
#define OUTBUF_SLACK 256      /* room for one more line past the block */
#define SHUF_WINDOW (1u << 20)
#define EDGE_BATCH 256

#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)0)
#endif

/* ------------------------------------------------------------------ utils */

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("exogen: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

/* Tables of many nodes are read at random once per edge: on Linux, blocks
 * of 8 MiB and more are 2 MiB aligned and asked for transparent huge pages,
 * which saves most of the TLB misses at 10^7 nodes and more. The bytes are
 * the same either way; free() releases both kinds. */
#define BIG_BLOCK ((size_t)8 << 20)
#define HUGE_ALIGN ((size_t)2 << 20)

static void *xmalloc(size_t n)
{
    void *p = NULL;
#if defined(__linux__)
    if (n >= BIG_BLOCK) {
        if (posix_memalign(&p, HUGE_ALIGN, n) != 0)
            p = NULL;
        else
            (void)madvise(p, n, MADV_HUGEPAGE);
    } else
#endif
        p = malloc(n ? n : 1);
    if (!p)
        die("out of memory (%zu bytes)", n);
    return p;
}

static void *xcalloc(size_t n, size_t sz)
{
    if (sz && n > SIZE_MAX / sz)
        die("out of memory (%zu x %zu bytes)", n, sz);
    void *p = xmalloc(n * sz);
    memset(p, 0, n * sz);
    return p;
}

/* ------------------------------------------------------------------- RNG */
/* xoshiro256** seeded through splitmix64. */

typedef struct {
    uint64_t s[4];
} rng_t;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void rng_seed(rng_t *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl64(uint64_t v, int k)
{
    return (v << k) | (v >> (64 - k));
}

static inline uint64_t rng_next(rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return out;
}

/* uniform double in [0,1) */
static inline double rng_unit(rng_t *r)
{
    return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* uniform integer in [0,n) from the high 32 bits (n < 2^32) */
static inline uint32_t hi_below(uint64_t x, uint32_t n)
{
    return (uint32_t)(((x >> 32) * (uint64_t)n) >> 32);
}

/* uniform integer in [0,n), n up to 2^64-1, negligible bias for our n */
static inline uint64_t rng_below64(rng_t *r, uint64_t n)
{
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;
    return (uint64_t)(((u128)rng_next(r) * n) >> 64);
#else
    return rng_next(r) % n;
#endif
}

/* ------------------------------------------------------------ alias table */
/* Walker/Vose alias method: pick bucket j uniformly, keep it if the low 32
 * bits of the draw are below thr[j], else take alias[j]. */

typedef struct {
    uint32_t thr;
    uint32_t alias;
} alias_t;

/* w_at(i) = weight of item i, i < n.  scaled/stack: scratch of n entries. */
static void alias_build(uint32_t n, const double *w, const uint32_t *map,
                        alias_t *out, double *scaled, uint32_t *stack)
{
    double sum = 0.0;
    for (uint32_t i = 0; i < n; i++)
        sum += w[map ? map[i] : i];
    if (!(sum > 0.0)) {
        for (uint32_t i = 0; i < n; i++) {
            out[i].thr = UINT32_MAX;
            out[i].alias = i;
        }
        return;
    }
    /* small items grow from the bottom of stack, large from the top */
    uint32_t ns = 0, nl = 0;
    for (uint32_t i = 0; i < n; i++) {
        scaled[i] = w[map ? map[i] : i] * (double)n / sum;
        if (scaled[i] < 1.0)
            stack[ns++] = i;
        else
            stack[n - 1 - nl++] = i;
    }
    while (ns > 0 && nl > 0) {
        uint32_t s = stack[--ns];
        uint32_t l = stack[n - nl]; /* top of the large stack */
        double t = scaled[s] * 4294967296.0;
        out[s].thr = t >= 4294967295.0 ? UINT32_MAX : (uint32_t)t;
        out[s].alias = l;
        scaled[l] = (scaled[l] + scaled[s]) - 1.0;
        if (scaled[l] < 1.0) {
            nl--;
            stack[ns++] = l;
        }
    }
    while (nl > 0) {
        uint32_t l = stack[n - nl--];
        out[l].thr = UINT32_MAX;
        out[l].alias = l;
    }
    while (ns > 0) { /* only left over by rounding */
        uint32_t s = stack[--ns];
        out[s].thr = UINT32_MAX;
        out[s].alias = s;
    }
}

static inline uint32_t alias_pick(const alias_t *a, uint32_t n, uint64_t x)
{
    uint32_t j = hi_below(x, n);
    return (uint32_t)x < a[j].thr ? j : a[j].alias;
}

/* --------------------------------------------------------------- output */

typedef struct {
    char *buf;
    size_t len;
    FILE *fp;
    gzFile gz;
    const char *path;
} out_t;

static void out_open(out_t *o, const char *path, int gzip, int level)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->buf = xmalloc(OUTBUF_SIZE + OUTBUF_SLACK);
    int to_stdout = strcmp(path, "-") == 0;
    if (gzip) {
        char mode[8];
        snprintf(mode, sizeof mode, "wb%d", level);
        if (to_stdout) {
            int fd = dup(STDOUT_FILENO);
            if (fd < 0)
                die("cannot dup stdout: %s", strerror(errno));
            o->gz = gzdopen(fd, mode);
        } else {
            o->gz = gzopen(path, mode);
        }
        if (!o->gz)
            die("cannot open %s for writing", path);
        gzbuffer(o->gz, 1u << 20);
    } else {
        o->fp = to_stdout ? stdout : fopen(path, "wb");
        if (!o->fp)
            die("cannot open %s: %s", path, strerror(errno));
    }
}

static void out_flush(out_t *o)
{
    if (o->len == 0)
        return;
    if (o->gz) {
        if (gzwrite(o->gz, o->buf, (unsigned)o->len) != (int)o->len) {
            int e;
            die("write error on %s: %s", o->path, gzerror(o->gz, &e));
        }
    } else if (fwrite(o->buf, 1, o->len, o->fp) != o->len) {
        die("write error on %s: %s", o->path, strerror(errno));
    }
    o->len = 0;
}

static void out_close(out_t *o)
{
    out_flush(o);
    if (o->gz) {
        if (gzclose(o->gz) != Z_OK)
            die("error closing %s", o->path);
    } else if (o->fp == stdout) {
        if (fflush(stdout) != 0)
            die("write error on stdout: %s", strerror(errno));
    } else if (fclose(o->fp) != 0) {
        die("error closing %s: %s", o->path, strerror(errno));
    }
    free(o->buf);
}

/* write decimal of v at p, return new end */
static inline char *put_u64(char *p, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* weight in units of 1e-4 (1..10000) as "0.xxxx" without trailing zeros */
static inline char *put_weight(char *p, uint32_t w)
{
    if (w >= 10000) {
        *p++ = '1';
        return p;
    }
    *p++ = '0';
    *p++ = '.';
    char d[4] = {(char)('0' + w / 1000), (char)('0' + w / 100 % 10),
                 (char)('0' + w / 10 % 10), (char)('0' + w % 10)};
    int n = 4;
    while (n > 1 && d[n - 1] == '0')
        n--;
    memcpy(p, d, 4);
    return p + n;
}

/* formatted weights 0..10000 (units of 1e-4): 7 bytes text + length byte */
static char g_wtab[10001 * 8];

static void init_weight_table(void)
{
    for (uint32_t w = 0; w <= 10000; w++) {
        char *e = g_wtab + (size_t)w * 8;
        memset(e, 0, 8);
        e[7] = (char)(put_weight(e, w) - e);
    }
}

/* --------------------------------------------------------------- options */

typedef struct {
    uint64_t nodes, edges, seed;
    double mixing;
    uint64_t min_comm, max_comm; /* max_comm 0 = default */
    double comm_exp;
    double deg_exp;
    double max_degree; /* 0 = default */
    int weighted;
    const char *out, *truth;
    int gzip, gzip_level;
    int shuffle;
    int quiet;
} opts_t;

static void usage(FILE *f)
{
    fputs(
        "usage: exogen [options]\n"
        "Generate a benchmark graph with planted communities as a TSV edge list\n"
        "(A<TAB>B<TAB>W or A<TAB>B) plus a ground-truth file (name<TAB>community).\n"
        "\n"
        "Graph:\n"
        "  --nodes N            number of nodes, >= 2 (default 10000)\n"
        "  --edges M            number of edges written, each undirected edge once,\n"
        "                       no self-loops (default 10*N); edges are drawn with\n"
        "                       replacement, so some repeat: the summary on stderr\n"
        "                       estimates their share (small when communities are\n"
        "                       much larger than the intra-community degree)\n"
        "  --mixing MU          share of each node's edges that leave its community,\n"
        "                       0..1 (default 0.3)\n"
        "  --min-comm S         smallest community size (default 10)\n"
        "  --max-comm S         largest community size\n"
        "                       (default min(N/20, 1000), at least --min-comm)\n"
        "  --comm-exponent T    power-law exponent of community sizes, >= 0\n"
        "                       (default 2; 0 = uniform in [min,max])\n"
        "  --degree-exponent G  0 = equal degree weights, degrees Poisson around\n"
        "                       2M/N (default); > 0 = power-law degrees with this\n"
        "                       exponent and mean 2M/N (LFR-style, e.g. 2..3)\n"
        "  --max-degree D       largest expected degree for --degree-exponent > 0,\n"
        "                       must exceed 2M/N (default min(N-1, 10*2M/N))\n"
        "Output:\n"
        "  --weighted           write a third column with weights (default):\n"
        "                       intra-community uniform [0.5,1.0], inter-community\n"
        "                       uniform [0.05,0.6], at most 4 decimals\n"
        "  --unweighted         write only A<TAB>B\n"
        "  --out FILE           edge list file, - for stdout (default -)\n"
        "  --truth FILE         also write name<TAB>community for every node,\n"
        "                       communities numbered 1..K (default: not written)\n"
        "  --gzip               compress the edge list with zlib (gzip format)\n"
        "  --gzip-level L       zlib level 1..9 (default 1, fastest)\n"
        "  --shuffle            permute lines within windows of 2^20 edges and\n"
        "                       orient each edge randomly (the default order is\n"
        "                       already a sequence of independent draws)\n"
        "Other:\n"
        "  --seed S             random seed, unsigned 64-bit (default 1); the same\n"
        "                       seed and options give byte-identical files\n"
        "  --quiet              no summary on stderr (warnings are still shown)\n"
        "  --help               this text\n"
        "  --version            print the version\n"
        "Options take their value as the next argument or after '='.\n"
        "Numbers accept forms like 20000000, 2e7 (integers must be whole).\n",
        f);
}

static double parse_double(const char *opt, const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v))
        die("%s: invalid number '%s'", opt, s);
    return v;
}

static uint64_t parse_u64(const char *opt, const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end != s && *end == '\0' && !errno && s[0] != '-')
        return (uint64_t)v;
    double d = parse_double(opt, s); /* allow 2e7 */
    if (d < 0 || d != floor(d) || d > 1.8e19)
        die("%s: expected a non-negative integer, got '%s'", opt, s);
    return (uint64_t)d;
}

static void parse_args(int argc, char **argv, opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->nodes = 10000;
    o->edges = UINT64_MAX; /* default 10*N */
    o->seed = 1;
    o->mixing = 0.3;
    o->min_comm = 10;
    o->comm_exp = 2.0;
    o->weighted = 1;
    o->out = "-";
    o->gzip_level = 1;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (strncmp(a, "--", 2) != 0)
            die("unexpected argument '%s' (see --help)", a);
        char name[64];
        const char *val = NULL;
        char *eq = strchr(a, '=');
        size_t nl = eq ? (size_t)(eq - a) : strlen(a);
        if (nl >= sizeof name)
            die("unknown option '%s'", a);
        memcpy(name, a, nl);
        name[nl] = '\0';
        /* flags */
        static const char *flags[] = {"--weighted", "--unweighted", "--gzip",
                                      "--shuffle",  "--quiet",      "--help",
                                      "--version"};
        int is_flag = 0;
        for (size_t k = 0; k < sizeof flags / sizeof *flags; k++)
            if (strcmp(name, flags[k]) == 0)
                is_flag = 1;
        if (is_flag) {
            if (eq)
                die("%s takes no value", name);
            if (!strcmp(name, "--weighted"))
                o->weighted = 1;
            else if (!strcmp(name, "--unweighted"))
                o->weighted = 0;
            else if (!strcmp(name, "--gzip"))
                o->gzip = 1;
            else if (!strcmp(name, "--shuffle"))
                o->shuffle = 1;
            else if (!strcmp(name, "--quiet"))
                o->quiet = 1;
            else if (!strcmp(name, "--help")) {
                usage(stdout);
                exit(0);
            } else {
                printf("exogen %s (zlib %s)\n", EXOGEN_VERSION, zlibVersion());
                exit(0);
            }
            continue;
        }
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            die("%s needs a value", name);
        if (!strcmp(name, "--nodes"))
            o->nodes = parse_u64(name, val);
        else if (!strcmp(name, "--edges"))
            o->edges = parse_u64(name, val);
        else if (!strcmp(name, "--seed"))
            o->seed = parse_u64(name, val);
        else if (!strcmp(name, "--mixing"))
            o->mixing = parse_double(name, val);
        else if (!strcmp(name, "--min-comm"))
            o->min_comm = parse_u64(name, val);
        else if (!strcmp(name, "--max-comm"))
            o->max_comm = parse_u64(name, val);
        else if (!strcmp(name, "--comm-exponent"))
            o->comm_exp = parse_double(name, val);
        else if (!strcmp(name, "--degree-exponent"))
            o->deg_exp = parse_double(name, val);
        else if (!strcmp(name, "--max-degree"))
            o->max_degree = parse_double(name, val);
        else if (!strcmp(name, "--out"))
            o->out = val;
        else if (!strcmp(name, "--truth"))
            o->truth = val;
        else if (!strcmp(name, "--gzip-level")) {
            uint64_t l = parse_u64(name, val);
            if (l < 1 || l > 9)
                die("--gzip-level must be 1..9");
            o->gzip_level = (int)l;
        } else
            die("unknown option '%s' (see --help)", name);
    }
    if (o->nodes < 2)
        die("--nodes must be at least 2");
    if (o->truth && !strcmp(o->truth, "-") && !strcmp(o->out, "-"))
        die("--truth and --out cannot both be stdout");
    if (o->nodes > UINT32_MAX - 1)
        die("--nodes must be below 2^32-1");
    if (o->edges == UINT64_MAX)
        o->edges = o->nodes * 10;
    if (!(o->mixing >= 0.0 && o->mixing <= 1.0))
        die("--mixing must be in [0,1]");
    if (o->min_comm < 2)
        die("--min-comm must be at least 2");
    if (o->comm_exp < 0)
        die("--comm-exponent must be >= 0");
    if (o->deg_exp < 0)
        die("--degree-exponent must be >= 0");
    if (o->max_degree < 0)
        die("--max-degree must be positive");
}

/* ------------------------------------------------------------ power laws */

/* continuous power law x^-g on [a,b], inverse CDF at u in [0,1) */
static double powerlaw_inv(double a, double b, double g, double u)
{
    if (fabs(g - 1.0) < 1e-12)
        return a * pow(b / a, u);
    double ea = pow(a, 1.0 - g), eb = pow(b, 1.0 - g);
    double x = pow(ea + u * (eb - ea), 1.0 / (1.0 - g));
    if (x < a)
        x = a;
    if (x > b)
        x = b;
    return x;
}

static double powerlaw_mean(double a, double b, double g)
{
    if (fabs(g - 1.0) < 1e-9)
        return (b - a) / log(b / a);
    if (fabs(g - 2.0) < 1e-9)
        return log(b / a) / (1.0 / a - 1.0 / b);
    return (1.0 - g) / (2.0 - g) * (pow(b, 2.0 - g) - pow(a, 2.0 - g)) /
           (pow(b, 1.0 - g) - pow(a, 1.0 - g));
}

/* k_min such that the mean of the power law on [k_min, kmax] is `mean` */
static double solve_kmin(double mean, double kmax, double g, int *clamped)
{
    double lo = log(kmax) - 60.0, hi = log(kmax); /* in log space */
    *clamped = 0;
    if (powerlaw_mean(exp(lo), kmax, g) > mean) {
        *clamped = 1;
        return exp(lo);
    }
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (powerlaw_mean(exp(mid), kmax, g) < mean)
            lo = mid;
        else
            hi = mid;
    }
    return exp(0.5 * (lo + hi));
}

/* ---------------------------------------------------------------- names */

static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDull;
    z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ull;
    return z ^ (z >> 33);
}

/* "g%02u_c%03u_p%u": 10 fixed bytes + 1..10 digits = 11..20 bytes */
static void make_name(char *slot, uint32_t idx, uint64_t key)
{
    uint64_t h = mix64((uint64_t)idx ^ key);
    unsigned g = (unsigned)(h % 100), c = (unsigned)((h / 100) % 1000);
    char *p = slot;
    *p++ = 'g';
    *p++ = (char)('0' + g / 10);
    *p++ = (char)('0' + g % 10);
    *p++ = '_';
    *p++ = 'c';
    *p++ = (char)('0' + c / 100);
    *p++ = (char)('0' + c / 10 % 10);
    *p++ = (char)('0' + c % 10);
    *p++ = '_';
    *p++ = 'p';
    p = put_u64(p, idx);
    size_t len = (size_t)(p - slot);
    memset(p, 0, NAME_SLOT - len);
    slot[NAME_SLOT - 1] = (char)len;
}

/* ------------------------------------------------------------- the graph */

typedef struct {
    uint32_t n, k;        /* nodes, communities */
    uint32_t *comm;       /* node -> community (0-based) */
    uint32_t *cstart;     /* community -> first index in members (k+1) */
    uint32_t *members;    /* nodes grouped by community */
    alias_t *galias;      /* over all nodes */
    alias_t *calias;      /* per community, indexed like members */
    char *names;          /* n * NAME_SLOT */
    uint64_t over_capacity;
    uint32_t smin, smax;
    double kmin, kmax;
    int kmin_clamped;
    double dup_share;     /* expected share of repeated edges */
    uint32_t small_last;  /* size of a last community below --min-comm */
} graph_t;

typedef struct {
    uint64_t key;
    uint32_t need;
    uint32_t node;
} order_t;

static int order_cmp(const void *pa, const void *pb)
{
    const order_t *a = pa, *b = pb;
    if (a->need != b->need)
        return a->need > b->need ? -1 : 1;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->node < b->node ? -1 : (a->node > b->node);
}

static const uint32_t *g_sizes; /* for size_cmp */
static int size_cmp(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    if (g_sizes[a] != g_sizes[b])
        return g_sizes[a] > g_sizes[b] ? -1 : 1;
    return a < b ? -1 : (a > b);
}

static void build_graph(const opts_t *o, graph_t *g)
{
    memset(g, 0, sizeof *g);
    uint32_t n = (uint32_t)o->nodes;
    g->n = n;
    rng_t r;
    rng_seed(&r, o->seed, 1);

    /* ---- community sizes ---- */
    uint64_t smin = o->min_comm;
    uint64_t smax = o->max_comm;
    if (smax == 0) {
        smax = n / 20;
        if (smax > 1000)
            smax = 1000;
        if (smax < smin)
            smax = smin;
    }
    if (smax < smin)
        die("--max-comm (%llu) is below --min-comm (%llu)",
            (unsigned long long)smax, (unsigned long long)smin);
    if (smin > n)
        smin = n;
    if (smax > n)
        smax = n;
    uint32_t cap = 16, k = 0;
    uint32_t *sizes = xmalloc(cap * sizeof *sizes);
    uint64_t sum = 0;
    while (sum < n) {
        uint64_t rem = n - sum;
        double x = powerlaw_inv((double)smin, (double)smax + 1.0, o->comm_exp,
                                rng_unit(&r));
        uint64_t s = (uint64_t)x;
        if (s < smin)
            s = smin;
        if (s > smax)
            s = smax;
        if (s >= rem) {
            if (rem >= smin || k == 0) {
                s = rem;
            } else {
                /* spread the leftover nodes over random communities that
                 * still have room below max; if they do not fit, the last
                 * community is made smaller than min instead */
                uint64_t room = 0;
                for (uint32_t c = 0; c < k; c++)
                    room += smax - sizes[c];
                if (room >= rem) {
                    uint32_t *open = xmalloc((size_t)k * sizeof *open);
                    uint32_t nopen = 0;
                    for (uint32_t c = 0; c < k; c++)
                        if (sizes[c] < smax)
                            open[nopen++] = c;
                    while (rem > 0) {
                        uint32_t j = (uint32_t)rng_below64(&r, nopen);
                        uint32_t c = open[j];
                        sizes[c]++;
                        rem--;
                        if (sizes[c] == smax)
                            open[j] = open[--nopen];
                    }
                    free(open);
                    break;
                }
                s = rem;
                g->small_last = (uint32_t)rem;
            }
        }
        if (k == cap) {
            cap *= 2;
            uint32_t *ns = realloc(sizes, cap * sizeof *sizes);
            if (!ns)
                die("out of memory");
            sizes = ns;
        }
        sizes[k++] = (uint32_t)s;
        sum += s;
    }
    g->k = k;
    g->smin = UINT32_MAX;
    for (uint32_t c = 0; c < k; c++) {
        if (sizes[c] < g->smin)
            g->smin = sizes[c];
        if (sizes[c] > g->smax)
            g->smax = sizes[c];
    }

    /* ---- degree weights ---- */
    double *w = xmalloc((size_t)n * sizeof *w);
    double mean = 2.0 * (double)o->edges / (double)n;
    if (o->deg_exp > 0) {
        double kmax = o->max_degree > 0 ? o->max_degree : 10.0 * mean;
        if (kmax > (double)(n - 1))
            kmax = (double)(n - 1);
        if (!(kmax > mean))
            die("--max-degree (%g) must exceed the mean degree 2M/N = %g",
                kmax, mean);
        g->kmax = kmax;
        g->kmin = solve_kmin(mean, kmax, o->deg_exp, &g->kmin_clamped);
        for (uint32_t i = 0; i < n; i++)
            w[i] = powerlaw_inv(g->kmin, kmax, o->deg_exp, rng_unit(&r));
    } else {
        g->kmin = g->kmax = mean;
        for (uint32_t i = 0; i < n; i++)
            w[i] = 1.0;
    }
    double wsum = 0;
    for (uint32_t i = 0; i < n; i++)
        wsum += w[i];

    /* ---- place nodes into communities (LFR-style) ---- */
    order_t *ord = xmalloc((size_t)n * sizeof *ord);
    for (uint32_t i = 0; i < n; i++) {
        double kin = (1.0 - o->mixing) * 2.0 * (double)o->edges * w[i] / wsum;
        double need = ceil(kin - 1e-9) + 1.0;
        ord[i].need = need > 4e9 ? 4000000000u : (uint32_t)need;
        ord[i].key = rng_next(&r);
        ord[i].node = i;
    }
    qsort(ord, n, sizeof *ord, order_cmp);
    uint32_t *corder = xmalloc((size_t)k * sizeof *corder);
    for (uint32_t c = 0; c < k; c++)
        corder[c] = c;
    g_sizes = sizes;
    qsort(corder, k, sizeof *corder, size_cmp);
    uint32_t *slots = xmalloc((size_t)n * sizeof *slots);
    {
        uint32_t p = 0;
        for (uint32_t c = 0; c < k; c++)
            for (uint32_t j = 0; j < sizes[corder[c]]; j++)
                slots[p++] = corder[c];
    }
    g->comm = xmalloc((size_t)n * sizeof *g->comm);
    uint32_t used = 0, elig = 0, ci = 0;
    for (uint32_t t = 0; t < n; t++) {
        uint32_t need = ord[t].need;
        while (ci < k && sizes[corder[ci]] >= need)
            elig += sizes[corder[ci++]];
        while (elig == used) /* nothing big enough left: next largest */
            elig += sizes[corder[ci++]];
        uint32_t pick = used + (uint32_t)rng_below64(&r, elig - used);
        uint32_t c = slots[pick];
        slots[pick] = slots[used];
        slots[used] = c;
        used++;
        g->comm[ord[t].node] = c;
        if (sizes[c] < need)
            g->over_capacity++;
    }
    free(slots);
    free(corder);
    free(ord);

    /* ---- members grouped by community ---- */
    g->cstart = xcalloc((size_t)k + 1, sizeof *g->cstart);
    for (uint32_t i = 0; i < n; i++)
        g->cstart[g->comm[i] + 1]++;
    for (uint32_t c = 0; c < k; c++)
        g->cstart[c + 1] += g->cstart[c];
    g->members = xmalloc((size_t)n * sizeof *g->members);
    {
        uint32_t *fill = xmalloc((size_t)k * sizeof *fill);
        memcpy(fill, g->cstart, (size_t)k * sizeof *fill);
        for (uint32_t i = 0; i < n; i++)
            g->members[fill[g->comm[i]]++] = i;
        free(fill);
    }
    free(sizes);

    /* ---- alias tables ---- */
    double *scaled = xmalloc((size_t)n * sizeof *scaled);
    uint32_t *stack = xmalloc((size_t)n * sizeof *stack);
    g->galias = xmalloc((size_t)n * sizeof *g->galias);
    alias_build(n, w, NULL, g->galias, scaled, stack);
    g->calias = xmalloc((size_t)n * sizeof *g->calias);
    for (uint32_t c = 0; c < k; c++) {
        uint32_t s = g->cstart[c], len = g->cstart[c + 1] - s;
        alias_build(len, w, g->members + s, g->calias + s, scaled, stack);
    }
    free(scaled);
    free(stack);

    /* ---- expected share of duplicate edges (Poisson approximation) ----
     * For pair probabilities p_ij (unordered, no self-loops) proportional to
     * q_i q_j, sum p_ij^2 = 2 (Q2^2 - Q4) / (1 - Q2)^2 with Qr = sum q_i^r.
     * With P = 1 / sum p_ij^2 "effective pairs", m draws give about
     * m - P (1 - exp(-m / P)) repeats. */
    {
        double dup = 0.0;
        double mu = (k == 1) ? 0.0 : o->mixing;
        double m_all = (double)o->edges;
        for (uint32_t c = 0; c <= k; c++) {
            /* c < k: one community's intra edges; c == k: all inter edges */
            uint32_t s = c < k ? g->cstart[c] : 0;
            uint32_t e = c < k ? g->cstart[c + 1] : n;
            double wc = 0.0, q2 = 0.0, q4 = 0.0;
            for (uint32_t j = s; j < e; j++)
                wc += w[c < k ? g->members[j] : j];
            for (uint32_t j = s; j < e; j++) {
                double q = w[c < k ? g->members[j] : j] / wc, qq = q * q;
                q2 += qq;
                q4 += qq * qq;
            }
            double sp = 2.0 * (q2 * q2 - q4) / ((1.0 - q2) * (1.0 - q2));
            double m = c < k ? m_all * (1.0 - mu) * wc / wsum : m_all * mu;
            if (c < k && e - s < 2)
                m = 0.0;
            if (m <= 0.0 || !(sp > 0.0))
                continue;
            double pe = 1.0 / sp;
            dup += m - pe * -expm1(-m / pe);
        }
        g->dup_share = m_all > 0 ? dup / m_all : 0.0;
    }
    free(w);

    /* ---- names ---- */
    uint64_t key = mix64(o->seed ^ 0x6E616D6573ull) | 1;
    g->names = xmalloc((size_t)n * NAME_SLOT);
    for (uint32_t i = 0; i < n; i++)
        make_name(g->names + (size_t)i * NAME_SLOT, i, key);
}

static void write_truth(const opts_t *o, const graph_t *g)
{
    out_t t;
    out_open(&t, o->truth, 0, 0);
    for (uint32_t i = 0; i < g->n; i++) {
        const char *nm = g->names + (size_t)i * NAME_SLOT;
        char *p = t.buf + t.len;
        memcpy(p, nm, NAME_SLOT);
        p += (unsigned char)nm[NAME_SLOT - 1];
        *p++ = '\t';
        p = put_u64(p, (uint64_t)g->comm[i] + 1);
        *p++ = '\n';
        t.len = (size_t)(p - t.buf);
        if (t.len >= OUTBUF_SIZE)
            out_flush(&t);
    }
    out_close(&t);
}

/* ------------------------------------------------------------ edge stream */

typedef struct {
    uint32_t a, b, w;
} edge_t;

static inline char *put_edge(char *p, const graph_t *g, uint32_t a, uint32_t b,
                             int weighted, uint32_t w)
{
    const char *na = g->names + (size_t)a * NAME_SLOT;
    const char *nb = g->names + (size_t)b * NAME_SLOT;
    memcpy(p, na, NAME_SLOT);
    p += (unsigned char)na[NAME_SLOT - 1];
    *p++ = '\t';
    memcpy(p, nb, NAME_SLOT);
    p += (unsigned char)nb[NAME_SLOT - 1];
    if (weighted) {
        *p++ = '\t';
        const char *ws = g_wtab + (size_t)w * 8;
        memcpy(p, ws, 8);
        p += (unsigned char)ws[7];
    }
    *p++ = '\n';
    return p;
}

/* --shuffle: permute a window of edges, orient each randomly, write it */
static void flush_window(out_t *out, const graph_t *g, edge_t *win,
                         uint32_t *nwin, int weighted, rng_t *r)
{
    uint32_t m = *nwin;
    for (uint32_t i = m; i > 1; i--) {
        uint32_t j = hi_below(rng_next(r), i);
        edge_t t = win[i - 1];
        win[i - 1] = win[j];
        win[j] = t;
    }
    for (uint32_t i = 0; i < m; i++) {
        uint32_t a = win[i].a, b = win[i].b;
        if (rng_next(r) >> 63) {
            a = win[i].b;
            b = win[i].a;
        }
        char *p = put_edge(out->buf + out->len, g, a, b, weighted, win[i].w);
        out->len = (size_t)(p - out->buf);
        if (out->len >= OUTBUF_SIZE)
            out_flush(out);
    }
    *nwin = 0;
}

static void write_edges(const opts_t *o, const graph_t *g, uint64_t *n_inter)
{
    out_t out;
    out_open(&out, o->out, o->gzip, o->gzip_level);
    init_weight_table();
    /* separate streams for edges, weights and shuffling, so that
     * --unweighted and --shuffle give the very same edges */
    rng_t r, rw, rs;
    rng_seed(&r, o->seed, 2);
    rng_seed(&rw, o->seed, 3);
    rng_seed(&rs, o->seed, 4);
    const uint32_t n = g->n, k = g->k;
    const uint32_t *comm = g->comm, *cstart = g->cstart, *members = g->members;
    const alias_t *ga = g->galias, *ca = g->calias;
    /* P(inter) = mixing, compared against 53 random bits */
    const uint64_t mu_thr = (uint64_t)(o->mixing * 9007199254740992.0);
    const int weighted = o->weighted;
    edge_t *win = NULL;
    uint32_t nwin = 0;
    if (o->shuffle)
        win = xmalloc((size_t)SHUF_WINDOW * sizeof *win);
    uint64_t inter_count = 0;
    /* Edges are made in batches, one stage at a time over the batch, so
     * that the random memory accesses of different edges overlap. */
    uint32_t bu[EDGE_BATCH], bv[EDGE_BATCH], bw[EDGE_BATCH];
    uint64_t bx[EDGE_BATCH];
    uint8_t bi[EDGE_BATCH];

    for (uint64_t done = 0; done < o->edges;) {
        uint32_t nb = o->edges - done < EDGE_BATCH ? (uint32_t)(o->edges - done)
                                                   : EDGE_BATCH;
        /* stage 1: sources, proportional to degree weight */
        for (uint32_t i = 0; i < nb; i++)
            bu[i] = alias_pick(ga, n, rng_next(&r));
        for (uint32_t i = 0; i < nb; i++) {
            uint32_t u = bu[i];
            PREFETCH(g->names + (size_t)u * NAME_SLOT);
            bv[i] = comm[u];
        }
        /* stage 2: inside or outside the community; draw the first target
         * candidate and prefetch its alias entry */
        for (uint32_t i = 0; i < nb; i++) {
            uint32_t cu = bv[i];
            uint32_t s0 = cstart[cu], len = cstart[cu + 1] - s0;
            int inter = (rng_next(&r) >> 11) < mu_thr;
            if (k == 1)
                inter = 0;
            else if (len < 2)
                inter = 1;
            bi[i] = (uint8_t)inter;
            uint64_t x = rng_next(&r);
            bx[i] = x;
            if (inter)
                PREFETCH(ga + hi_below(x, n));
            else
                PREFETCH(ca + s0 + hi_below(x, len));
        }
        /* stage 3: targets (rejecting the own community resp. the source) */
        for (uint32_t i = 0; i < nb; i++) {
            uint32_t u = bu[i], cu = bv[i], v;
            uint64_t x = bx[i];
            if (bi[i]) {
                for (;;) {
                    v = alias_pick(ga, n, x);
                    if (comm[v] != cu)
                        break;
                    x = rng_next(&r);
                }
            } else {
                uint32_t s0 = cstart[cu], len = cstart[cu + 1] - s0;
                for (;;) {
                    v = members[s0 + alias_pick(ca + s0, len, x)];
                    if (v != u)
                        break;
                    x = rng_next(&r);
                }
            }
            PREFETCH(g->names + (size_t)v * NAME_SLOT);
            bv[i] = v;
        }
        /* stage 4: weights */
        for (uint32_t i = 0; i < nb; i++) {
            uint32_t wt = 0;
            if (weighted) {
                uint64_t x = rng_next(&rw);
                wt = bi[i] ? 500 + hi_below(x, 5501) : 5000 + hi_below(x, 5001);
            }
            bw[i] = wt;
            inter_count += bi[i];
        }
        /* stage 5: output */
        for (uint32_t i = 0; i < nb; i++) {
            if (win) {
                win[nwin].a = bu[i];
                win[nwin].b = bv[i];
                win[nwin].w = bw[i];
                if (++nwin == SHUF_WINDOW)
                    flush_window(&out, g, win, &nwin, weighted, &rs);
            } else {
                char *p = put_edge(out.buf + out.len, g, bu[i], bv[i], weighted,
                                   bw[i]);
                out.len = (size_t)(p - out.buf);
                if (out.len >= OUTBUF_SIZE)
                    out_flush(&out);
            }
        }
        done += nb;
    }
    if (win && nwin)
        flush_window(&out, g, win, &nwin, weighted, &rs);
    free(win);
    out_close(&out);
    *n_inter = inter_count;
}

int main(int argc, char **argv)
{
    opts_t o;
    parse_args(argc, argv, &o);
    graph_t g;
    build_graph(&o, &g);
    if (o.truth)
        write_truth(&o, &g);
    uint64_t n_inter = 0;
    write_edges(&o, &g, &n_inter);

    double mean = 2.0 * (double)o.edges / (double)g.n;
    if (!o.quiet) {
        fprintf(stderr,
                "exogen: %u nodes, %u communities (sizes %u..%u), %llu edges, "
                "mean degree %.3g, inter-community share %.4f, "
                "expected duplicate share %.2f%%\n",
                g.n, g.k, g.smin, g.smax, (unsigned long long)o.edges, mean,
                o.edges ? (double)n_inter / (double)o.edges : 0.0,
                100.0 * g.dup_share);
        if (o.deg_exp > 0)
            fprintf(stderr, "exogen: degree weights power law %.3g on [%.4g, %.4g]\n",
                    o.deg_exp, g.kmin, g.kmax);
    }
    if (g.k == 1 && o.mixing > 0)
        fprintf(stderr, "exogen: warning: only one community, all edges are "
                        "intra-community (--mixing ignored)\n");
    if (g.small_last)
        fprintf(stderr, "exogen: warning: the sizes cannot add up to --nodes "
                        "within [--min-comm, --max-comm]; one community has %u "
                        "nodes\n", g.small_last);
    if (o.deg_exp > 0 && g.kmin < 1.0)
        fprintf(stderr, "exogen: warning: the smallest expected degree is %.3g "
                        "(< 1), so many nodes get no edge at all; raise "
                        "--degree-exponent or lower --max-degree\n", g.kmin);
    if (g.kmin_clamped)
        fprintf(stderr, "exogen: warning: degree power law cannot reach the "
                        "mean degree; lower --max-degree or raise the exponent\n");
    if (g.over_capacity > 0)
        fprintf(stderr,
                "exogen: warning: %llu nodes (%.1f%%) expect more intra-community "
                "neighbours than their community has; they create many duplicate "
                "edges (raise --min-comm/--max-comm or lower --edges)\n",
                (unsigned long long)g.over_capacity,
                100.0 * (double)g.over_capacity / (double)g.n);
    if (o.edges > 0 && mean >= (double)g.n - 1)
        fprintf(stderr, "exogen: warning: more edges than node pairs; many "
                        "duplicates\n");
    free(g.comm);
    free(g.cstart);
    free(g.members);
    free(g.galias);
    free(g.calias);
    free(g.names);
    return 0;
}
