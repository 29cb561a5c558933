/* A Global-Arrays-style task loop: ranks take tasks from a shared counter with
 * remora_array_read_inc (NGA_Read_inc), fill distributed matrices A and B one row block per
 * task with remora_array_put (NGA_Put), then multiply them with remora_array_gemm (GA_Dgemm).
 *
 * A[i][j] = i + j and B[k][j] = 1 for k <= j (else 0), so C = A B has
 * C[i][j] = sum_{k<=j} (i + k) = (j + 1) i + j (j + 1) / 2, exact in double. Every rank checks
 * the block of C it owns (remora_array_distribution, NGA_Distribution) and the number of tasks
 * done; exit status 1 when wrong. */
#include <remora.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_check.h"

enum { N = 96, ROWS = 8 }; /* N x N matrices; a task fills ROWS rows of A or of B */

int main(int argc, char** argv) {
  CHECK(remora_init(&argc, &argv));
  int rank = remora_rank(), size = remora_size();

  const int64_t dims[2] = {N, N};
  remora_array_t a, b, c, counter;
  CHECK(remora_array_create(REMORA_DOUBLE, 2, dims, "A", &a));
  CHECK(remora_array_create(REMORA_DOUBLE, 2, dims, "B", &b));
  CHECK(remora_array_create(REMORA_DOUBLE, 2, dims, "C", &c));
  const int64_t one_element = 1;
  CHECK(remora_array_create(REMORA_INT64, 1, &one_element, "counter", &counter));
  /* Arrays start zeroed; the counter is 0 on every rank before anyone increments it. */
  CHECK(remora_array_sync());

  /* The task loop: tasks 0 .. N/ROWS-1 fill row blocks of A, the next N/ROWS those of B. */
  const int64_t blocks = N / ROWS, tasks = 2 * blocks;
  const int64_t zero_subscript = 0;
  double rows[ROWS * N];
  int64_t done = 0;
  for (;;) {
    int64_t task;
    CHECK(remora_array_read_inc(counter, &zero_subscript, 1, &task));
    if (task >= tasks) break;
    int64_t first = (task % blocks) * ROWS;
    for (int r = 0; r < ROWS; r++) {
      int64_t i = first + r;
      for (int64_t j = 0; j < N; j++)
        rows[r * N + j] = task < blocks ? (double)(i + j) : (i <= j ? 1.0 : 0.0);
    }
    const int64_t lo[2] = {first, 0}, hi[2] = {first + ROWS - 1, N - 1}, ld[1] = {N};
    CHECK(remora_array_put(task < blocks ? a : b, lo, hi, rows, ld));
    done++;
  }
  CHECK(remora_array_sync()); /* GA_Sync: every put is complete and visible */

  const double alpha = 1.0, beta = 0.0;
  CHECK(remora_array_gemm('N', 'N', &alpha, a, b, &beta, c));

  /* Check the block of C this rank owns. */
  int64_t lo[2], hi[2];
  CHECK(remora_array_distribution(c, rank, lo, hi));
  int errors = 0;
  if (lo[0] <= hi[0] && lo[1] <= hi[1]) {
    int64_t rows_here = hi[0] - lo[0] + 1, cols = hi[1] - lo[1] + 1;
    double* block = malloc((size_t)(rows_here * cols) * sizeof(double));
    if (!block) remora_abort(2, "out of memory");
    const int64_t ld[1] = {cols};
    CHECK(remora_array_get(c, lo, hi, block, ld));
    for (int64_t i = lo[0]; i <= hi[0]; i++) {
      for (int64_t j = lo[1]; j <= hi[1]; j++) {
        double want = (double)((j + 1) * i + j * (j + 1) / 2);
        double got = block[(i - lo[0]) * cols + (j - lo[1])];
        if (got != want && errors++ < 5)
          fprintf(stderr, "ga_task_loop: rank %d: C[%lld][%lld] = %g, expected %g\n", rank,
                  (long long)i, (long long)j, got, want);
      }
    }
    free(block);
  }
  remora_comm_t world;
  CHECK(remora_comm_world(&world));
  int64_t all_done = 0;
  int all_errors = 0;
  CHECK(
      remora_allreduce(&done, &all_done, 1, REMORA_INT64, REMORA_OP_SUM, world, REMORA_COLL_AUTO));
  if (all_done != tasks) {
    if (rank == 0)
      fprintf(stderr, "ga_task_loop: %lld tasks done, expected %lld\n", (long long)all_done,
              (long long)tasks);
    errors++;
  }
  CHECK(remora_allreduce(&errors, &all_errors, 1, REMORA_INT32, REMORA_OP_SUM, world,
                         REMORA_COLL_AUTO));
  if (rank == 0)
    printf("ga_task_loop: %d ranks, %lld tasks, C = A B (%dx%d, %s): %s\n", size,
           (long long)all_done, N, N, remora_array_gemm_uses_blas() ? "BLAS" : "built-in loops",
           all_errors ? "WRONG" : "correct");

  CHECK(remora_array_destroy(&counter));
  CHECK(remora_array_destroy(&c));
  CHECK(remora_array_destroy(&b));
  CHECK(remora_array_destroy(&a));
  CHECK(remora_finalize());
  return all_errors ? 1 : 0;
}
