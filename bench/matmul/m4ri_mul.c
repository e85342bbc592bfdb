/*
 * m4ri_mul.c: anchor timing for dense GF(2) matrix products with M4RI.
 *
 *   m4ri_mul N REPS SEED [--dump FILE]
 *
 * Builds two N x N matrices A, B over GF(2) whose bits come from a
 * splitmix64 stream seeded with SEED (so the seed alone fixes the data,
 * independently of M4RI's own random generator), then times
 *
 *   mzd_mul(C, A, B, 0)       (Strassen-Winograd + M4RM, default cutoff)
 *   mzd_mul_m4rm(C, A, B, 0)  (Method of the Four Russians, default k)
 *
 * Each is called once untimed (warm-up), then REPS timed calls; the median
 * wall-clock time (CLOCK_MONOTONIC) and the median process CPU time
 * (CLOCK_PROCESS_CPUTIME_ID) are printed.  Only the multiplication call is
 * inside the timed region.  Output, one "name value" per line:
 *
 *   m4ri_mul_N        <median seconds>
 *   m4ri_mul_N_cpu    <median CPU seconds>
 *   m4ri_m4rm_N       <median seconds>
 *   m4ri_m4rm_N_cpu   <median CPU seconds>
 *   m4ri_agree_N  1 if both products are identical, else 0
 *
 * With --dump FILE, A, B and C (= the mzd_mul product) are written as text:
 * a header line "<name> <rows> <cols>" followed by one line of '0'/'1'
 * characters per row, for the three matrices in the order A, B, C.  Meant
 * for small N so a test can cross-check the product elsewhere.
 *
 * Exit status: 0 on success, 1 on usage or allocation errors, 2 when the
 * two products disagree.
 */
#include <m4ri/m4ri.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng_state;

/* splitmix64: small, well-mixed, fully determined by the seed. */
static uint64_t next_u64(void) {
  uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static void usage(const char *prog) {
  fprintf(stderr, "usage: %s N REPS SEED [--dump FILE]\n", prog);
}

static int parse_long(const char *s, long min, long max, long *out) {
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < min || v > max) return -1;
  *out = v;
  return 0;
}

static int parse_u64(const char *s, uint64_t *out) {
  char *end = NULL;
  if (s[0] == '-') return -1;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0') return -1;
  *out = (uint64_t)v;
  return 0;
}

static double clock_seconds(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, long n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  if (n % 2 == 1) return v[n / 2];
  return 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Fill M with uniform random bits, word by word; bits beyond ncols in the
 * last word of each row are cleared, as M4RI expects. */
static void fill_random(mzd_t *M) {
  for (rci_t i = 0; i < M->nrows; i++) {
    word *row = mzd_row(M, i);
    for (wi_t w = 0; w < M->width; w++) row[w] = (word)next_u64();
    row[M->width - 1] &= M->high_bitmask;
  }
}

static int dump_matrix(FILE *f, const char *name, const mzd_t *M) {
  if (fprintf(f, "%s %d %d\n", name, (int)M->nrows, (int)M->ncols) < 0) return -1;
  for (rci_t i = 0; i < M->nrows; i++) {
    for (rci_t j = 0; j < M->ncols; j++) {
      if (fputc(mzd_read_bit(M, i, j) ? '1' : '0', f) == EOF) return -1;
    }
    if (fputc('\n', f) == EOF) return -1;
  }
  return 0;
}

typedef mzd_t *(*mul_fn)(mzd_t *, mzd_t const *, mzd_t const *, int);

/* One warm-up call, then reps timed calls; returns the median wall time or
 * -1, and the median CPU time in *cpu. */
static double time_mul(mul_fn f, mzd_t *C, const mzd_t *A, const mzd_t *B, long reps, double *times,
                       double *cpu) {
  if (f(C, A, B, 0) != C) return -1.0;
  for (long r = 0; r < reps; r++) {
    double c0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    double t0 = clock_seconds(CLOCK_MONOTONIC);
    mzd_t *res = f(C, A, B, 0);
    double t1 = clock_seconds(CLOCK_MONOTONIC);
    double c1 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    if (res != C) return -1.0;
    times[r] = t1 - t0;
    times[reps + r] = c1 - c0;
  }
  *cpu = median(times + reps, reps);
  return median(times, reps);
}

int main(int argc, char **argv) {
  const char *dump_path = NULL;
  const char *pos[3];
  int npos = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--dump") == 0) {
      if (i + 1 >= argc) { usage(argv[0]); return 1; }
      dump_path = argv[++i];
    } else if (npos < 3) {
      pos[npos++] = argv[i];
    } else {
      usage(argv[0]);
      return 1;
    }
  }
  if (npos != 3) { usage(argv[0]); return 1; }

  long n, reps;
  uint64_t seed;
  if (parse_long(pos[0], 1, 1L << 20, &n) != 0) {
    fprintf(stderr, "m4ri_mul: bad N %s (need 1..%ld)\n", pos[0], 1L << 20);
    return 1;
  }
  if (parse_long(pos[1], 1, 1000000, &reps) != 0) {
    fprintf(stderr, "m4ri_mul: bad REPS %s (need 1..1000000)\n", pos[1]);
    return 1;
  }
  if (parse_u64(pos[2], &seed) != 0) {
    fprintf(stderr, "m4ri_mul: bad SEED %s (need a non-negative integer)\n", pos[2]);
    return 1;
  }
  rng_state = seed;

  /* Open the dump file first so a bad path fails before any timing. */
  FILE *dump = NULL;
  if (dump_path != NULL) {
    dump = fopen(dump_path, "w");
    if (dump == NULL) {
      fprintf(stderr, "m4ri_mul: cannot open %s: %s\n", dump_path, strerror(errno));
      return 1;
    }
  }

  int status = 1;
  double *times = malloc(2 * (size_t)reps * sizeof *times);
  mzd_t *A = mzd_init((rci_t)n, (rci_t)n);
  mzd_t *B = mzd_init((rci_t)n, (rci_t)n);
  mzd_t *C = mzd_init((rci_t)n, (rci_t)n);
  mzd_t *D = mzd_init((rci_t)n, (rci_t)n);
  if (times == NULL || A == NULL || B == NULL || C == NULL || D == NULL) {
    fprintf(stderr, "m4ri_mul: out of memory (N = %ld)\n", n);
    goto out;
  }
  fill_random(A);
  fill_random(B);

  double c_m4rm = 0, c_mul = 0;
  double t_m4rm = time_mul(mzd_mul_m4rm, D, A, B, reps, times, &c_m4rm);
  double t_mul = time_mul(mzd_mul, C, A, B, reps, times, &c_mul);
  if (t_mul < 0 || t_m4rm < 0) {
    fprintf(stderr, "m4ri_mul: multiplication failed\n");
    goto out;
  }
  int agree = mzd_equal(C, D) ? 1 : 0;

  printf("m4ri_mul_%ld %.6g\n", n, t_mul);
  printf("m4ri_mul_%ld_cpu %.6g\n", n, c_mul);
  printf("m4ri_m4rm_%ld %.6g\n", n, t_m4rm);
  printf("m4ri_m4rm_%ld_cpu %.6g\n", n, c_m4rm);
  printf("m4ri_agree_%ld %d\n", n, agree);
  fflush(stdout);

  if (dump != NULL) {
    FILE *f = dump;
    dump = NULL;
    int bad = dump_matrix(f, "A", A) || dump_matrix(f, "B", B) || dump_matrix(f, "C", C);
    if (fclose(f) != 0) bad = 1;
    if (bad) {
      fprintf(stderr, "m4ri_mul: error writing %s\n", dump_path);
      goto out;
    }
  }
  status = agree ? 0 : 2;
  if (!agree) fprintf(stderr, "m4ri_mul: mzd_mul and mzd_mul_m4rm disagree\n");

out:
  if (dump) fclose(dump);
  if (D) mzd_free(D);
  if (C) mzd_free(C);
  if (B) mzd_free(B);
  if (A) mzd_free(A);
  free(times);
  return status;
}
