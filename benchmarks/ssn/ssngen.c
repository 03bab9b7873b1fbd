/*
 * ssngen - a seeded simulator of protein families for the sequence-similarity
 * network benchmark (make ssn-bench, benchmarks/SSN.md).
 *
 * It writes N protein sequences (FASTA) and a truth table giving each
 * protein's family. The sequences are meant to be searched all against all
 * with a real tool (DIAMOND, MMseqs2), so the model aims at what makes real
 * search output hard to cluster: families of very different sizes, members
 * so diverged that a search misses part of their relations, and multi-domain
 * proteins that carry domains of two families.
 *
 * MODEL
 * -----
 * 1. Family sizes follow a discrete power law P(m) ~ m^-tau on
 *    [--min-family, --max-family] (tau = --family-exponent, default 2.0,
 *    sizes 2..3000 by default, capped at N/10), drawn until the families
 *    hold N*(1 - chimera share) proteins (the last one takes what is left).
 * 2. Every family has an ancestral sequence whose length is log-normal
 *    (median 300, sdlog 0.45) clamped to [100, 800] residues, drawn
 *    independently from the background amino-acid frequencies (BG below:
 *    rounded composition of UniProtKB/Swiss-Prot, a published fact).
 *    Every residue carries its own relative rate of change, drawn from a
 *    Gamma(alpha, 1/alpha) distribution (alpha = --gamma-shape, default
 *    1.0; mean 1), so some positions stay conserved over long distances as
 *    in real families; inserted residues draw a fresh rate.
 * 3. Each family evolves along a random ultrametric tree of depth D
 *    (expected substitutions per average site from root to every leaf), D
 *    uniform in [--min-depth, --max-depth] (default 0.3..2.4) per family.
 *    The tree is grown top down: a clade of m > 1 members with remaining
 *    depth d first evolves along a branch of length d*U(0.05, 0.5), then
 *    splits into two clades of k and m-k members, k uniform in 1..m-1. A
 *    single member evolves along the whole remaining depth. Two leaves are
 *    thus up to 2D apart: with D = 2.4 and alpha = 1, a pair of leaves
 *    whose last common ancestor is the root share about 20% identical
 *    residues, in the twilight zone where searches start to miss hits.
 * 4. Substitutions: along a branch of length t a residue of rate r
 *    undergoes Poisson(t*r) substitution events. Each event replaces the
 *    amino acid: with probability --group-bias (default 0.6) by one drawn
 *    from its own physico-chemical group (weighted by BG, the current
 *    residue excluded), otherwise by one drawn from BG (which may be the
 *    same residue: a silent event). Groups: aliphatic/hydrophobic AVLIM,
 *    aromatic FWY, small polar ST, amides NQ, acids DE, bases KRH, and G, P,
 *    C alone (for which an in-group event is silent). This gives a
 *    BLOSUM-like pattern (conservative exchanges are most frequent) without
 *    using any published matrix; its stationary composition is close to BG.
 * 5. Indels: along a branch of length t, Poisson(t * len * --indel-rate)
 *    events (default 0.02, i.e. one indel per 50 substitutions), half
 *    insertions of random BG residues, half deletions, at uniform positions,
 *    of geometric length (mean 3, at most 20). A deletion that would leave
 *    fewer than 60 residues is skipped.
 * 6. Chimeras (multi-domain proteins): --chimeras (default 0.03) of the N
 *    proteins are fusions of a member of family A and a member of family B
 *    (A != B, both picked with probability proportional to family size,
 *    i.e. as a random protein), joined by a random 5..15 residue linker and
 *    evolved further along a branch of length U(0, 0.3). The TRUTH of a
 *    chimera is the family of its LONGER domain (A on a tie); the truth
 *    table also names the other family so that metrics can be computed with
 *    chimeras excluded.
 * 7. Proteins are shuffled (seeded) and named p0000001.. in output order,
 *    so names and positions carry no family information.
 *
 * OUTPUT
 *   --fasta FILE   the sequences, 80 residues per line
 *   --truth FILE   tab-separated with a header: protein family chimera
 *                  family2 len len1 len2 (family2/len2 are NA and chimera
 *                  0 for single-domain proteins; family is the truth)
 * A summary goes to stderr. The same seed and options give byte-identical
 * output on the same platform (libm log/exp/pow are used while drawing).
 *
 * Build: cc -std=c11 -O2 -Wall -Wextra -o ssngen ssngen.c -lm
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAA 20
static const char AA[NAA + 1] = "ARNDCQEGHILKMFPSTWYV";
/* background composition (percent), UniProtKB/Swiss-Prot release statistics,
 * rounded; order as AA */
static const double BG[NAA] = {8.25, 5.53, 4.06, 5.45, 1.37, 3.93, 6.75, 7.07, 2.27, 5.96,
                               9.66, 5.84, 2.42, 3.86, 4.70, 6.56, 5.34, 1.08, 2.92, 6.87};
/* physico-chemical group of each amino acid (order as AA) */
static const char *GROUPS[] = {"AVLIM", "FWY", "ST", "NQ", "DE", "KRH", "G", "P", "C"};
#define NGROUP 9

/* ---- random numbers: xoshiro256** seeded by splitmix64 ---- */
typedef struct { uint64_t s[4]; } rng_t;
static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static void rng_seed(rng_t *r, uint64_t seed) {
    for (int i = 0; i < 4; i++) r->s[i] = splitmix(&seed);
}
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t rng_next(rng_t *r) {
    uint64_t *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
    return res;
}
static double unif(rng_t *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }
static double unif_pos(rng_t *r) { double u; do u = unif(r); while (u <= 0.0); return u; }
static uint64_t below(rng_t *r, uint64_t n) { return (uint64_t)(unif(r) * (double)n); }
static double normal(rng_t *r) {
    return sqrt(-2.0 * log(unif_pos(r))) * cos(6.283185307179586 * unif(r));
}
/* Marsaglia-Tsang; shape a > 0, scale 1 */
static double gamma_draw(rng_t *r, double a) {
    if (a < 1.0) return gamma_draw(r, a + 1.0) * pow(unif_pos(r), 1.0 / a);
    double d = a - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x, v;
        do { x = normal(r); v = 1.0 + c * x; } while (v <= 0.0);
        v = v * v * v;
        double u = unif_pos(r);
        if (log(u) < 0.5 * x * x + d - d * v + d * log(v)) return d * v;
    }
}
static unsigned poisson(rng_t *r, double lambda) {
    if (lambda > 30.0) {
        double x = lambda + sqrt(lambda) * normal(r) + 0.5;
        return x < 0 ? 0u : (unsigned)x;
    }
    double L = exp(-lambda), p = 1.0;
    unsigned k = 0;
    do { k++; p *= unif(r); } while (p > L);
    return k - 1;
}
static unsigned geometric_len(rng_t *r) { /* mean 3, at most 20 */
    unsigned k = 1;
    while (k < 20 && unif(r) < 2.0 / 3.0) k++;
    return k;
}

/* ---- amino-acid sampling tables ---- */
static double bg_cum[NAA];
static int group_of[NAA];
static int group_members[NGROUP][NAA], group_size[NGROUP];
static void init_tables(void) {
    double s = 0;
    for (int i = 0; i < NAA; i++) s += BG[i];
    double c = 0;
    for (int i = 0; i < NAA; i++) { c += BG[i] / s; bg_cum[i] = c; }
    bg_cum[NAA - 1] = 1.0;
    for (int g = 0; g < NGROUP; g++) {
        group_size[g] = 0;
        for (const char *p = GROUPS[g]; *p; p++) {
            int a = (int)(strchr(AA, *p) - AA);
            group_of[a] = g;
            group_members[g][group_size[g]++] = a;
        }
    }
}
static int draw_bg(rng_t *r) {
    double u = unif(r);
    int i = 0;
    while (i < NAA - 1 && u >= bg_cum[i]) i++;
    return i;
}
static double group_bias = 0.6;
static int substitute(rng_t *r, int a) {
    if (unif(r) >= group_bias) return draw_bg(r);
    int g = group_of[a];
    if (group_size[g] == 1) return a;
    double tot = 0;
    for (int k = 0; k < group_size[g]; k++)
        if (group_members[g][k] != a) tot += BG[group_members[g][k]];
    double u = unif(r) * tot;
    int last = a;
    for (int k = 0; k < group_size[g]; k++) {
        int b = group_members[g][k];
        if (b == a) continue;
        last = b;
        if ((u -= BG[b]) < 0) return b;
    }
    return last;
}

/* ---- sequences with per-residue rates ---- */
typedef struct { unsigned char *aa; float *rate; size_t len, cap; } seq_t;
static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) { fprintf(stderr, "ssngen: out of memory\n"); exit(1); }
    return p;
}
static void seq_reserve(seq_t *s, size_t cap) {
    if (cap <= s->cap) return;
    size_t c = s->cap ? s->cap : 64;
    while (c < cap) c *= 2;
    s->aa = realloc(s->aa, c);
    s->rate = realloc(s->rate, c * sizeof(float));
    if (!s->aa || !s->rate) { fprintf(stderr, "ssngen: out of memory\n"); exit(1); }
    s->cap = c;
}
static void seq_copy(seq_t *dst, const seq_t *src) {
    seq_reserve(dst, src->len);
    memcpy(dst->aa, src->aa, src->len);
    memcpy(dst->rate, src->rate, src->len * sizeof(float));
    dst->len = src->len;
}
static void seq_free(seq_t *s) { free(s->aa); free(s->rate); memset(s, 0, sizeof *s); }

static double gamma_shape = 1.0, indel_rate = 0.02;
static float site_rate(rng_t *r) { return (float)(gamma_draw(r, gamma_shape) / gamma_shape); }
static void seq_random(rng_t *r, seq_t *s, size_t len) {
    seq_reserve(s, len);
    for (size_t i = 0; i < len; i++) { s->aa[i] = (unsigned char)draw_bg(r); s->rate[i] = site_rate(r); }
    s->len = len;
}

/* evolve s in place along a branch of length t */
static void evolve(rng_t *r, seq_t *s, double t) {
    if (t <= 0) return;
    for (size_t i = 0; i < s->len; i++) {
        unsigned k = poisson(r, t * s->rate[i]);
        while (k--) s->aa[i] = (unsigned char)substitute(r, s->aa[i]);
    }
    unsigned nindel = poisson(r, t * (double)s->len * indel_rate);
    for (unsigned e = 0; e < nindel; e++) {
        unsigned L = geometric_len(r);
        if (unif(r) < 0.5) { /* insertion before position p */
            size_t p = below(r, s->len + 1);
            seq_reserve(s, s->len + L);
            memmove(s->aa + p + L, s->aa + p, s->len - p);
            memmove(s->rate + p + L, s->rate + p, (s->len - p) * sizeof(float));
            for (unsigned j = 0; j < L; j++) { s->aa[p + j] = (unsigned char)draw_bg(r); s->rate[p + j] = site_rate(r); }
            s->len += L;
        } else {
            if (s->len < 60 + L) continue;
            size_t p = below(r, s->len - L + 1);
            memmove(s->aa + p, s->aa + p + L, s->len - p - L);
            memmove(s->rate + p, s->rate + p + L, (s->len - p - L) * sizeof(float));
            s->len -= L;
        }
    }
}

/* ---- proteins ---- */
typedef struct {
    unsigned char *aa; size_t len;
    int family, family2;   /* family2 = -1 unless chimera */
    size_t len1, len2;
} protein_t;
static protein_t *prot;
static size_t nprot;

static void emit(const seq_t *s, int fam) {
    protein_t *p = &prot[nprot++];
    p->aa = xmalloc(s->len);
    memcpy(p->aa, s->aa, s->len);
    p->len = s->len; p->family = fam; p->family2 = -1; p->len1 = s->len; p->len2 = 0;
}
/* the clade of m members descending from s with remaining depth d; leaves
 * are kept (with rates) in leaves[] for chimera building */
static void grow(rng_t *r, const seq_t *s, size_t m, double d, int fam, seq_t *leaves, size_t *nleaf) {
    seq_t x = {0};
    seq_copy(&x, s);
    if (m == 1) {
        evolve(r, &x, d);
        emit(&x, fam);
        seq_copy(&leaves[(*nleaf)++], &x);
        seq_free(&x);
        return;
    }
    double t = d * (0.05 + 0.45 * unif(r));
    evolve(r, &x, t);
    size_t k = 1 + (size_t)below(r, m - 1);
    grow(r, &x, k, d - t, fam, leaves, nleaf);
    grow(r, &x, m - k, d - t, fam, leaves, nleaf);
    seq_free(&x);
}

static void usage(void) {
    fprintf(stderr,
        "usage: ssngen -n N --fasta FILE --truth FILE [--seed S] [--chimeras F]\n"
        "  [--family-exponent TAU] [--min-family M] [--max-family M]\n"
        "  [--min-depth D] [--max-depth D] [--gamma-shape A] [--group-bias P]\n"
        "  [--indel-rate R]   (see the comment at the top of ssngen.c)\n");
    exit(2);
}
static double num_arg(const char *name, const char *v) {
    char *end; errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || *end) { fprintf(stderr, "ssngen: bad value for %s: %s\n", name, v); exit(2); }
    return x;
}

int main(int argc, char **argv) {
    size_t n = 0; uint64_t seed = 1;
    double chim = 0.03, tau = 2.0, min_depth = 0.3, max_depth = 2.4;
    double min_fam = 2, max_fam = 3000;
    const char *fasta = NULL, *truth = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc) usage();
        const char *v = argv[++i];
        if (!strcmp(a, "-n")) n = (size_t)num_arg(a, v);
        else if (!strcmp(a, "--seed")) seed = (uint64_t)num_arg(a, v);
        else if (!strcmp(a, "--fasta")) fasta = v;
        else if (!strcmp(a, "--truth")) truth = v;
        else if (!strcmp(a, "--chimeras")) chim = num_arg(a, v);
        else if (!strcmp(a, "--family-exponent")) tau = num_arg(a, v);
        else if (!strcmp(a, "--min-family")) min_fam = num_arg(a, v);
        else if (!strcmp(a, "--max-family")) max_fam = num_arg(a, v);
        else if (!strcmp(a, "--min-depth")) min_depth = num_arg(a, v);
        else if (!strcmp(a, "--max-depth")) max_depth = num_arg(a, v);
        else if (!strcmp(a, "--gamma-shape")) gamma_shape = num_arg(a, v);
        else if (!strcmp(a, "--group-bias")) group_bias = num_arg(a, v);
        else if (!strcmp(a, "--indel-rate")) indel_rate = num_arg(a, v);
        else usage();
    }
    if (n < 10 || !fasta || !truth || chim < 0 || chim > 0.5 || tau <= 1 || min_fam < 1 ||
        max_fam < min_fam || min_depth < 0 || max_depth < min_depth || gamma_shape <= 0 ||
        group_bias < 0 || group_bias > 1 || indel_rate < 0)
        usage();
    if (max_fam > (double)n / 10) max_fam = (double)n / 10 < min_fam ? min_fam : (double)n / 10;
    init_tables();
    rng_t r; rng_seed(&r, seed);

    size_t nchim = (size_t)((double)n * chim + 0.5), nfam_prot = n - nchim;
    /* family sizes: inverse-CDF draw from the continuous power law on
     * [min, max+1), floored */
    size_t cap = 1024, nfam = 0, *fsize = xmalloc(cap * sizeof *fsize), total = 0;
    double lo = pow(min_fam, 1 - tau), hi = pow(max_fam + 1, 1 - tau);
    while (total < nfam_prot) {
        size_t m = (size_t)pow(lo + (hi - lo) * unif(&r), 1.0 / (1 - tau));
        if (m < (size_t)min_fam) m = (size_t)min_fam;
        if (m > (size_t)max_fam) m = (size_t)max_fam;
        if (total + m > nfam_prot) m = nfam_prot - total;
        if (nfam == cap) { cap *= 2; fsize = realloc(fsize, cap * sizeof *fsize); if (!fsize) return 1; }
        fsize[nfam++] = m; total += m;
    }
    prot = xmalloc(n * sizeof *prot);
    seq_t *leaves = xmalloc(nfam_prot * sizeof *leaves);
    memset(leaves, 0, nfam_prot * sizeof *leaves);
    size_t nleaf = 0;
    seq_t anc = {0};
    for (size_t f = 0; f < nfam; f++) {
        double L = exp(log(300.0) + 0.45 * normal(&r));
        if (L < 100) L = 100;
        if (L > 800) L = 800;
        seq_random(&r, &anc, (size_t)L);
        double D = min_depth + (max_depth - min_depth) * unif(&r);
        grow(&r, &anc, fsize[f], D, (int)f, leaves, &nleaf);
    }
    /* chimeras: leaf i is protein i (both are filled in the same order) */
    seq_t c = {0};
    for (size_t i = 0; i < nchim && nfam > 1; i++) {
        size_t la = below(&r, nleaf), lb;
        int fa = prot[la].family, fb;
        do { lb = below(&r, nleaf); fb = prot[lb].family; } while (fb == fa);
        const seq_t *A = &leaves[la], *B = &leaves[lb];
        size_t link = 5 + below(&r, 11);
        c.len = 0;
        seq_reserve(&c, A->len + link + B->len);
        memcpy(c.aa, A->aa, A->len); memcpy(c.rate, A->rate, A->len * sizeof(float));
        for (size_t j = 0; j < link; j++) { c.aa[A->len + j] = (unsigned char)draw_bg(&r); c.rate[A->len + j] = site_rate(&r); }
        memcpy(c.aa + A->len + link, B->aa, B->len);
        memcpy(c.rate + A->len + link, B->rate, B->len * sizeof(float));
        c.len = A->len + link + B->len;
        evolve(&r, &c, 0.3 * unif(&r));
        emit(&c, fa);
        protein_t *p = &prot[nprot - 1];
        p->len1 = A->len; p->len2 = B->len;
        if (B->len > A->len) { p->family = fb; p->family2 = fa; p->len1 = B->len; p->len2 = A->len; }
        else p->family2 = fb;
    }
    /* shuffle output order */
    size_t *ord = xmalloc(nprot * sizeof *ord);
    for (size_t i = 0; i < nprot; i++) ord[i] = i;
    for (size_t i = nprot; i > 1; i--) { size_t j = below(&r, i); size_t t = ord[i - 1]; ord[i - 1] = ord[j]; ord[j] = t; }
    FILE *ff = fopen(fasta, "w"), *ft = fopen(truth, "w");
    if (!ff || !ft) { fprintf(stderr, "ssngen: cannot open output: %s\n", strerror(errno)); return 1; }
    fprintf(ft, "protein\tfamily\tchimera\tfamily2\tlen\tlen1\tlen2\n");
    size_t nres = 0, maxf = 0;
    for (size_t f = 0; f < nfam; f++) if (fsize[f] > maxf) maxf = fsize[f];
    char line[81];
    for (size_t i = 0; i < nprot; i++) {
        const protein_t *p = &prot[ord[i]];
        fprintf(ff, ">p%07zu\n", i + 1);
        for (size_t j = 0; j < p->len; j += 80) {
            size_t k = p->len - j < 80 ? p->len - j : 80;
            for (size_t q = 0; q < k; q++) line[q] = AA[p->aa[j + q]];
            line[k] = '\n';
            fwrite(line, 1, k + 1, ff);
        }
        nres += p->len;
        if (p->family2 < 0)
            fprintf(ft, "p%07zu\tF%05d\t0\tNA\t%zu\t%zu\tNA\n", i + 1, p->family + 1, p->len, p->len1);
        else
            fprintf(ft, "p%07zu\tF%05d\t1\tF%05d\t%zu\t%zu\t%zu\n", i + 1, p->family + 1, p->family2 + 1,
                    p->len, p->len1, p->len2);
    }
    if (fclose(ff) || fclose(ft)) { fprintf(stderr, "ssngen: write error\n"); return 1; }
    fprintf(stderr, "ssngen: %zu proteins (%zu chimeras), %zu families (largest %zu), %zu residues (mean length %.0f), seed %llu\n",
            nprot, nprot - nleaf, nfam, maxf, nres, (double)nres / (double)nprot, (unsigned long long)seed);
    for (size_t i = 0; i < nprot; i++) free(prot[i].aa);
    for (size_t i = 0; i < nleaf; i++) seq_free(&leaves[i]);
    free(prot); free(leaves); free(fsize); free(ord); seq_free(&anc); seq_free(&c);
    return 0;
}
