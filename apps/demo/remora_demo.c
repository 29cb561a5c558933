/* Remora demonstration: one-sided work on one node.
 *
 * Every rank puts a block into each neighbour's segment (ring left and right), every rank
 * atomically increments a shared counter on rank 0 many times with fetch-add, and every rank
 * sends an active message to the next rank. Each rank verifies what it received; rank 0 prints
 * the results and the timings. Run: remorarun -n 4 ./remora_demo */
#include <remora.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_WORDS 4096 /* 32 KiB per neighbour */
#define INCREMENTS 20000

static void check(int status, const char* what) {
  if (status < 0) {
    fprintf(stderr, "%s failed: %s: %s\n", what, remora_strerror(status), remora_last_error());
    remora_abort(1, what);
  }
}

static int messages_received = 0;
static int message_source_sum = 0;

static void greet(int source, const void* payload, size_t bytes, void* context) {
  (void)context;
  int value = 0;
  if (bytes == sizeof value) memcpy(&value, payload, sizeof value);
  messages_received++;
  message_source_sum += value - 1000 * source; /* 0 when the payload says who sent it */
}

int main(int argc, char** argv) {
  check(remora_init(&argc, &argv), "remora_init");
  const int rank = remora_rank(), size = remora_size();
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;

  /* Segment layout per rank: [0] the counter (used on rank 0), then a block from the left
   * neighbour and a block from the right neighbour. */
  const size_t block_bytes = BLOCK_WORDS * sizeof(int64_t);
  remora_segment_t segment;
  check(remora_segment_allocate(8 + 2 * block_bytes, &segment), "remora_segment_allocate");
  int greet_id;
  check(remora_am_register(greet, NULL, &greet_id), "remora_am_register");
  check(remora_barrier(), "remora_barrier");

  int64_t* block = malloc(block_bytes);
  for (int i = 0; i < BLOCK_WORDS; i++) block[i] = (int64_t)rank * 1000000 + i;

  /* 1. Put my block to both neighbours: to the right one's "from left" slot, to the left
   *    one's "from right" slot. */
  double t0 = remora_wtime();
  check(remora_put(segment, right, 8, block, block_bytes), "remora_put");
  check(remora_put(segment, left, 8 + block_bytes, block, block_bytes), "remora_put");
  check(remora_flush_all(segment), "remora_flush_all");
  check(remora_barrier(), "remora_barrier");
  double t_put = remora_wtime() - t0;

  int64_t* mine;
  check(remora_segment_pointer(segment, rank, (void**)&mine), "remora_segment_pointer");
  long bad = 0;
  for (int i = 0; i < BLOCK_WORDS; i++) {
    if (mine[1 + i] != (int64_t)left * 1000000 + i) bad++;
    if (mine[1 + BLOCK_WORDS + i] != (int64_t)right * 1000000 + i) bad++;
  }

  /* 2. Everyone increments the counter on rank 0. */
  t0 = remora_wtime();
  for (int i = 0; i < INCREMENTS; i++)
    check(remora_fetch_add(segment, 0, 0, 1, NULL), "remora_fetch_add");
  check(remora_barrier(), "remora_barrier");
  double t_add = remora_wtime() - t0;
  int64_t total = 0;
  check(remora_get(segment, 0, 0, &total, sizeof total), "remora_get");

  /* 3. An active message to the right neighbour, carrying 1000 * my rank. */
  int payload = 1000 * rank;
  t0 = remora_wtime();
  check(remora_am_send(right, greet_id, &payload, sizeof payload), "remora_am_send");
  while (messages_received < 1) check(remora_progress(), "remora_progress");
  check(remora_barrier(), "remora_barrier");
  double t_am = remora_wtime() - t0;

  /* Each rank checked what it received; the job passes only when every rank's checks did. */
  const int put_ok = bad == 0, add_ok = total == (int64_t)size * INCREMENTS,
            am_ok = messages_received == 1 && message_source_sum == 0;
  if (!put_ok || !add_ok || !am_ok)
    fprintf(stderr,
            "rank %d: %ld wrong words, counter %lld (expected %lld), %d messages, "
            "message check %d\n",
            rank, bad, (long long)total, (long long)size * INCREMENTS, messages_received,
            message_source_sum);
  remora_comm_t world;
  check(remora_comm_world(&world), "remora_comm_world");
  int mine_ok[3] = {put_ok, add_ok, am_ok}, all_ok[3];
  check(remora_allreduce(mine_ok, all_ok, 3, REMORA_INT32, REMORA_OP_MIN, world, REMORA_COLL_AUTO),
        "remora_allreduce");
  const int ok = all_ok[0] && all_ok[1] && all_ok[2];
  if (rank == 0) {
    printf("Remora demo on %d ranks (one node, shared memory)\n", size);
    printf("  put %zu KiB to each neighbour, %-9s %8.1f us\n", block_bytes / 1024,
           all_ok[0] ? "verified:" : "WRONG:", t_put * 1e6);
    printf("  %d fetch-adds per rank, counter = %lld (expected %lld): %8.1f us, %.2f us each\n",
           INCREMENTS, (long long)total, (long long)size * INCREMENTS, t_add * 1e6,
           t_add * 1e6 / INCREMENTS);
    printf("  active message around the ring, %-9s %8.1f us\n",
           all_ok[2] ? "verified:" : "WRONG:", t_am * 1e6);
  }
  free(block);
  check(remora_segment_free(&segment), "remora_segment_free");
  check(remora_finalize(), "remora_finalize");
  if (rank == 0) printf(ok ? "  all checks passed\n" : "  CHECKS FAILED (see above)\n");
  return ok ? 0 : 1;
}
