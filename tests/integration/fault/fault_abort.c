/* Rank 1 calls remora_abort(3, ...) while the others wait in a barrier. */
#include "fault_common.h"

int main(int argc, char** argv) {
  const int rank = fault_start(&argc, &argv);
  if (rank == 1) {
    usleep(100 * 1000); /* let the others reach the barrier and sleep there */
    remora_abort(3, "deliberate abort");
  }
  return fault_wait_in_barrier();
}
