/* A distributed histogram, load-balanced by a ticket counter: the MPI-3 RMA pattern of
 * MPI_Win_allocate + MPI_Fetch_and_op + MPI_Accumulate, with Remora windows.
 *
 * The data are NCHUNKS chunks of CHUNK values, each chunk generated from its index. A rank takes
 * the next chunk by fetch-and-add on a counter on rank 0 (a ticket), bins its values locally,
 * and at the end adds its local counts into the global histogram, whose bins are spread over
 * the ranks (bin b on rank b % size). Every rank then checks the global histogram against one it
 * computes itself, and the number of chunks taken against NCHUNKS; exit status 1 when wrong. */
#include <remora.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_check.h"

enum { NBINS = 64, NCHUNKS = 200, CHUNK = 1000 };

/* Value i of chunk c, in [0, NBINS): a small deterministic generator. */
static int value(int64_t c, int i) {
  uint64_t x = (uint64_t)c * 6364136223846793005u + (uint64_t)i * 1442695040888963407u + 1;
  x ^= x >> 29;
  x *= 0xbf58476d1ce4e5b9u;
  x ^= x >> 32;
  return (int)(x % NBINS);
}

int main(int argc, char** argv) {
  CHECK(remora_init(&argc, &argv));
  int rank = remora_rank(), size = remora_size();

  /* The counter: one int64 on rank 0 (0 bytes elsewhere). The bins: this rank's share. */
  remora_win_t counter, bins;
  CHECK(
      remora_win_allocate(rank == 0 ? sizeof(int64_t) : 0, sizeof(int64_t), NULL, NULL, &counter));
  int my_bins = (NBINS - rank + size - 1) / size; /* bins b with b % size == rank */
  CHECK(remora_win_allocate((size_t)my_bins * sizeof(int64_t), sizeof(int64_t), NULL, NULL, &bins));

  /* Take chunks until the tickets run out (MPI_Fetch_and_op with MPI_SUM). */
  int64_t local[NBINS] = {0};
  int64_t taken = 0;
  const int64_t one = 1;
  CHECK(remora_win_lock(counter, REMORA_LOCK_SHARED, 0, 0));
  for (;;) {
    int64_t ticket;
    CHECK(remora_win_fetch_and_op(counter, 0, 0, &one, &ticket, REMORA_INT64, REMORA_OP_SUM));
    if (ticket >= NCHUNKS) break;
    for (int i = 0; i < CHUNK; i++) local[value(ticket, i)]++;
    taken++;
  }
  CHECK(remora_win_unlock(counter, 0));

  /* Add the local counts into the distributed bins (MPI_Accumulate with MPI_SUM). */
  CHECK(remora_win_lock_all(bins, 0));
  for (int b = 0; b < NBINS; b++) {
    if (local[b] != 0) {
      CHECK(remora_win_accumulate(bins, b % size, (size_t)(b / size), &local[b], 1, REMORA_INT64,
                                  REMORA_OP_SUM, NULL));
    }
  }
  CHECK(remora_win_unlock_all(bins));
  CHECK(remora_barrier()); /* every rank's accumulates are complete at their targets */

  /* Check: read every bin and compare with the histogram computed here. */
  int64_t expected[NBINS] = {0};
  for (int64_t c = 0; c < NCHUNKS; c++)
    for (int i = 0; i < CHUNK; i++) expected[value(c, i)]++;
  int errors = 0;
  CHECK(remora_win_lock_all(bins, 0));
  for (int b = 0; b < NBINS; b++) {
    int64_t got = -1;
    CHECK(remora_win_get(bins, b % size, (size_t)(b / size), &got, 1, REMORA_INT64));
    CHECK(remora_win_flush(bins, b % size));
    if (got != expected[b]) {
      if (errors++ < 5)
        fprintf(stderr, "histogram: rank %d: bin %d holds %lld, expected %lld\n", rank, b,
                (long long)got, (long long)expected[b]);
    }
  }
  CHECK(remora_win_unlock_all(bins));
  remora_comm_t world;
  CHECK(remora_comm_world(&world));
  int64_t total_taken = 0;
  CHECK(remora_allreduce(&taken, &total_taken, 1, REMORA_INT64, REMORA_OP_SUM, world,
                         REMORA_COLL_AUTO));
  if (total_taken != NCHUNKS) {
    fprintf(stderr, "histogram: %lld chunks taken, expected %d\n", (long long)total_taken, NCHUNKS);
    errors++;
  }
  int all_errors = 0;
  CHECK(remora_allreduce(&errors, &all_errors, 1, REMORA_INT32, REMORA_OP_SUM, world,
                         REMORA_COLL_AUTO));
  if (rank == 0)
    printf("histogram: %d ranks, %d values in %d bins, %lld chunks taken: %s\n", size,
           NCHUNKS * CHUNK, NBINS, (long long)total_taken, all_errors ? "WRONG" : "correct");

  CHECK(remora_win_free(&bins));
  CHECK(remora_win_free(&counter));
  CHECK(remora_finalize());
  return all_errors ? 1 : 0;
}
