/* A rank of an MPI job dies while the others wait in a barrier: by a signal (kill), by
 * remora_abort, or by returning from main without remora_finalize. The job must end with a
 * message and a non-zero exit, never hang. Usage: dead_rank kill|abort|no-finalize */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "remora.h"

int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "kill";
  if (remora_init(&argc, &argv) != REMORA_SUCCESS) return 3;
  if (remora_rank() == 1) {
    if (strcmp(how, "abort") == 0) remora_abort(7, "rank 1 gives up");
    if (strcmp(how, "no-finalize") == 0) return 0;
    kill(getpid(), SIGKILL);
  }
  remora_barrier(); /* never completes: rank 1 is gone */
  remora_finalize();
  return 0;
}
