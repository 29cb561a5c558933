/* A nonblocking allreduce overlapped with computation (MPI_Iallreduce + MPI_Test + MPI_Wait).
 *
 * Each rank starts the sum of a vector (element i on rank r is r + i), computes a local
 * quantity meanwhile, and then waits. With the default manual progress a started collective
 * advances only inside Remora calls, so the compute loop calls remora_request_test now and then;
 * with REMORA_PROGRESS=thread it advances in the background as well. Every rank checks the sum
 * (size * i + size (size - 1) / 2) and its computed value; exit status 1 when wrong. */
#include <remora.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_check.h"

enum { COUNT = 1 << 16, STEPS = 1 << 20, TEST_EVERY = 1 << 10 };

int main(int argc, char** argv) {
  CHECK(remora_init(&argc, &argv));
  int rank = remora_rank(), size = remora_size();
  double* send = malloc(COUNT * sizeof(double));
  double* sum = malloc(COUNT * sizeof(double));
  if (!send || !sum) remora_abort(2, "out of memory");
  for (int i = 0; i < COUNT; i++) send[i] = rank + i;

  remora_comm_t world;
  CHECK(remora_comm_world(&world));
  remora_request_t request;
  CHECK(remora_iallreduce(send, sum, COUNT, REMORA_DOUBLE, REMORA_OP_SUM, world, REMORA_COLL_AUTO,
                          &request));

  /* Computation while the reduction proceeds: an integer sum, exact, with an occasional test
   * (which drives the collective under manual progress). send must not change meanwhile. */
  int64_t local = 0;
  int flag = 0, tests = 0;
  for (int64_t k = 0; k < STEPS; k++) {
    local += (k * (rank + 1)) % 7;
    if (!flag && k % TEST_EVERY == 0) {
      CHECK(remora_request_test(&request, &flag));
      tests++;
    }
  }
  if (!flag) CHECK(remora_request_wait(&request));

  int errors = 0;
  for (int i = 0; i < COUNT; i++) {
    double want = (double)size * i + (double)size * (size - 1) / 2;
    if (sum[i] != want && errors++ < 5)
      fprintf(stderr, "iallreduce_overlap: rank %d: sum[%d] = %g, expected %g\n", rank, i, sum[i],
              want);
  }
  int64_t want_local = 0;
  for (int64_t k = 0; k < STEPS; k++) want_local += (k * (rank + 1)) % 7;
  if (local != want_local) errors++;

  int all_errors = 0;
  CHECK(remora_allreduce(&errors, &all_errors, 1, REMORA_INT32, REMORA_OP_SUM, world,
                         REMORA_COLL_AUTO));
  if (rank == 0)
    printf("iallreduce_overlap: %d ranks, %d doubles summed during compute (%d tests, %s): %s\n",
           size, COUNT, tests, flag ? "done before the wait" : "finished by the wait",
           all_errors ? "WRONG" : "correct");
  free(sum);
  free(send);
  CHECK(remora_finalize());
  return all_errors ? 1 : 0;
}
