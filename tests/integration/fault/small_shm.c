/* Run by small_shm.sh with /dev/shm a 64 MiB tmpfs: allocations larger than it fail on every
 * rank with REMORA_ERR_NOMEM and a message that names the free space and the fix (never
 * SIGBUS), and the job stays usable for allocations that fit. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "remora.h"

#define MIB ((size_t)1 << 20)

static int failures;

static void check(int ok, const char* what) {
  if (ok) return;
  fprintf(stderr, "rank %d: FAILED: %s\n", remora_rank(), what);
  ++failures;
}

static void check_refusal(int status, const char* call) {
  char what[256];
  snprintf(what, sizeof what, "%s of 100 MiB per rank returns REMORA_ERR_NOMEM (got %d: %s)", call,
           status, status == REMORA_SUCCESS ? "success" : remora_last_error());
  check(status == REMORA_ERR_NOMEM, what);
  if (status != REMORA_ERR_NOMEM) return;
  const char* message = remora_last_error();
  snprintf(what, sizeof what, "%s's message names /dev/shm's free space and the fix: %s", call,
           message);
  check(strstr(message, "/dev/shm has") != NULL && strstr(message, "MiB free") != NULL &&
            strstr(message, "--shm-size") != NULL,
        what);
}

int main(int argc, char** argv) {
  if (remora_init(&argc, &argv) != REMORA_SUCCESS) {
    fprintf(stderr, "remora_init failed: %s\n", remora_last_error());
    return 1;
  }
  const int rank = remora_rank();
  const int size = remora_size();

  void* base = NULL;
  remora_win_t win;
  check_refusal(remora_win_allocate(100 * MIB, 1, NULL, &base, &win), "remora_win_allocate");
  remora_segment_t segment;
  check_refusal(remora_segment_allocate(100 * MIB, &segment), "remora_segment_allocate");

  /* What fits still works: 8 MiB per rank, each rank writes its neighbour's last word. */
  int64_t* mine = NULL;
  int status = remora_win_allocate(8 * MIB, sizeof(int64_t), NULL, (void**)&mine, &win);
  check(status == REMORA_SUCCESS, "remora_win_allocate of 8 MiB per rank after the refusals");
  if (status == REMORA_SUCCESS) {
    const size_t last = 8 * MIB / sizeof(int64_t) - 1;
    const int target = (rank + 1) % size;
    const int64_t value = 1000 + rank;
    check(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, target, 0) == REMORA_SUCCESS, "lock");
    check(remora_win_put(win, target, last, &value, 1, REMORA_INT64) == REMORA_SUCCESS, "put");
    check(remora_win_unlock(win, target) == REMORA_SUCCESS, "unlock");
    check(remora_barrier() == REMORA_SUCCESS, "barrier");
    check(mine[last] == 1000 + (rank + size - 1) % size, "the neighbour's put arrived");
    check(remora_win_free(&win) == REMORA_SUCCESS, "remora_win_free");
  }
  const int finalized = remora_finalize();
  if (failures == 0 && finalized == REMORA_SUCCESS) printf("rank %d: small /dev/shm ok\n", rank);
  return failures == 0 && finalized == REMORA_SUCCESS ? 0 : 1;
}
