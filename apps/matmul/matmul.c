/* Distributed matrix multiply (paper 003, Fig. 8): C = op(A) op(B) for all four transpose
 * combinations, on block and element-cyclic distributions. Verifies sampled
 * entries of C against dot products of the inputs, prints MFLOPS per combination, prints
 * "verified" and exits 0 only if every check passed.
 *
 * Usage: remorarun -n 4 remora_matmul [n=256] [repetitions=2] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <remora.h>

#define CHECK(call)                                                   \
  do {                                                                \
    int status_ = (call);                                             \
    if (status_ < 0) {                                                \
      fprintf(stderr, "%s failed: %s\n", #call, remora_last_error()); \
      remora_abort(2, "matmul: a Remora call failed");                \
    }                                                                 \
  } while (0)

static double a_value(int64_t i, int64_t j) {
  return (double)((i * 3 + j * 5) % 11) - 5.0;
}
static double b_value(int64_t i, int64_t j) {
  return (double)((i * 7 + j * 2) % 13) - 6.0;
}

/* Each rank writes its slab of rows of an n x n matrix filled by value(i, j). */
static void fill(remora_array_t m, int64_t n, double (*value)(int64_t, int64_t)) {
  const int rank = remora_rank(), size = remora_size();
  const int64_t first = n * rank / size, last = n * (rank + 1) / size - 1;
  if (first <= last) {
    double* rows = malloc(sizeof(double) * (size_t)((last - first + 1) * n));
    for (int64_t i = first; i <= last; ++i)
      for (int64_t j = 0; j < n; ++j) rows[(i - first) * n + j] = value(i, j);
    const int64_t lo[2] = {first, 0}, hi[2] = {last, n - 1}, ld[1] = {n};
    CHECK(remora_array_put(m, lo, hi, rows, ld));
    free(rows);
  }
  CHECK(remora_array_sync());
}

static remora_array_t create(int cyclic, int64_t n, const char* name) {
  const int64_t dims[2] = {n, n};
  remora_array_t m;
  if (cyclic)
    CHECK(remora_array_create_element_cyclic(REMORA_DOUBLE, dims, NULL, name, &m));
  else
    CHECK(remora_array_create(REMORA_DOUBLE, 2, dims, name, &m));
  return m;
}

/* Checks 64 sampled entries of C on every rank; returns the number of mismatches. */
static int verify(remora_array_t c, int64_t n, char ta, char tb, unsigned seed) {
  int bad = 0;
  for (int s = 0; s < 64; ++s) {
    seed = seed * 1103515245u + 12345u;
    const int64_t i = (int64_t)(seed >> 8) % n;
    seed = seed * 1103515245u + 12345u;
    const int64_t j = (int64_t)(seed >> 8) % n;
    double want = 0;
    for (int64_t p = 0; p < n; ++p)
      want +=
          (ta == 'N' ? a_value(i, p) : a_value(p, i)) * (tb == 'N' ? b_value(p, j) : b_value(j, p));
    double got = 0;
    const int64_t at[2] = {i, j}, ld[1] = {1};
    CHECK(remora_array_get(c, at, at, &got, ld));
    if (fabs(got - want) > 1e-9 * (fabs(want) + 1)) ++bad;
  }
  return bad;
}

int main(int argc, char** argv) {
  CHECK(remora_init(&argc, &argv));
  const int64_t n = argc > 1 ? atoll(argv[1]) : 256;
  const int repetitions = argc > 2 ? atoi(argv[2]) : 2;
  if (n < 1 || repetitions < 1) remora_abort(2, "usage: remora_matmul [n >= 1] [repetitions >= 1]");
  const int rank = remora_rank();
  int failures = 0;
  if (rank == 0)
    printf("matmul n=%lld ranks=%d blas=%s\n%-16s %-5s %12s\n", (long long)n, remora_size(),
           remora_array_gemm_uses_blas() ? "yes" : "no", "layout", "op", "MFLOPS");
  for (int cyclic = 0; cyclic <= 1; ++cyclic) {
    remora_array_t a = create(cyclic, n, "A"), b = create(cyclic, n, "B"),
                   c = create(cyclic, n, "C");
    fill(a, n, a_value);
    fill(b, n, b_value);
    const char ops[4][2] = {{'N', 'N'}, {'N', 'T'}, {'T', 'N'}, {'T', 'T'}};
    for (int k = 0; k < 4; ++k) {
      const double one = 1, zero = 0;
      double best = 1e30;
      for (int r = 0; r < repetitions; ++r) {
        CHECK(remora_barrier());
        const double start = remora_wtime();
        CHECK(remora_array_gemm(ops[k][0], ops[k][1], &one, a, b, &zero, c));
        const double elapsed = remora_wtime() - start;
        if (elapsed < best) best = elapsed;
      }
      const int bad = verify(c, n, ops[k][0], ops[k][1], (unsigned)(rank * 7 + k + 1));
      int total = bad;
      remora_comm_t world;
      CHECK(remora_comm_world(&world));
      CHECK(remora_allreduce(REMORA_IN_PLACE, &total, 1, REMORA_INT32, REMORA_OP_SUM, world,
                             REMORA_COLL_AUTO));
      failures += total;
      if (rank == 0)
        printf("%-16s %c%c    %12.1f%s\n", cyclic ? "element_cyclic" : "block", ops[k][0],
               ops[k][1], 2.0 * (double)n * (double)n * (double)n / best / 1e6,
               total ? "  WRONG" : "");
      CHECK(remora_array_sync());
    }
    CHECK(remora_array_destroy(&a));
    CHECK(remora_array_destroy(&b));
    CHECK(remora_array_destroy(&c));
  }
  if (rank == 0) printf("%s\n", failures == 0 ? "verified" : "NOT verified");
  remora_finalize();
  return failures == 0 ? 0 : 1;
}
