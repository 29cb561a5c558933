/* With REMORA_PROGRESS=ghost: every rank does owner-computes lock - accumulate - unlock on its
 * right neighbour forever, so every rank keeps waiting for the ghost's replies. The test kills
 * the ghost: the waits must return REMORA_ERR_ABORTED and the launcher end the job. */
#include "fault_common.h" /* first: it selects the POSIX features */

#include <stdint.h>

int main(int argc, char** argv) {
  const int rank = fault_start(&argc, &argv);
  const int target = (rank + 1) % remora_size();
  void* base = NULL;
  remora_win_t win = NULL;
  int status = remora_win_allocate(64, 8, "acc_strategy=owner", &base, &win);
  const int64_t one = 1;
  while (status == REMORA_SUCCESS) {
    status = remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, target, 0);
    if (status == REMORA_SUCCESS)
      status = remora_win_accumulate(win, target, 0, &one, 1, REMORA_INT64, REMORA_OP_SUM, NULL);
    if (status == REMORA_SUCCESS) status = remora_win_unlock(win, target);
  }
  fprintf(stderr, "rank %d: %s: %s\n", rank, remora_strerror(status), remora_last_error());
  return 1;
}
