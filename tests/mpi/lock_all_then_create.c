/* lock_all / unlock_all across nodes immediately followed by another window creation, many
 * times: every rank must leave unlock_all while the others are already in the next collective
 * (with manual progress nobody serves requests outside Remora calls). A hang fails by the
 * launcher's and CTest's timeouts. */
#include <stdio.h>

#include "remora.h"

static void require(int status, const char* what) {
  if (status == REMORA_SUCCESS) return;
  fprintf(stderr, "rank %d: %s failed: %s\n", remora_rank(), what, remora_last_error());
  remora_abort(1, what);
}

int main(int argc, char** argv) {
  require(remora_init(&argc, &argv), "remora_init");
  for (int round = 0; round < 20; ++round) {
    void* base = NULL;
    remora_win_t window, next;
    require(remora_win_allocate(128, 8, NULL, &base, &window), "remora_win_allocate");
    require(remora_win_lock_all(window, 0), "remora_win_lock_all");
    require(remora_win_unlock_all(window), "remora_win_unlock_all");
    require(remora_win_allocate(8, 8, NULL, &base, &next), "second remora_win_allocate");
    require(remora_win_free(&next), "remora_win_free");
    require(remora_win_free(&window), "remora_win_free");
  }
  if (remora_rank() == 0) printf("lock_all then create: 20 rounds ok\n");
  return remora_finalize();
}
