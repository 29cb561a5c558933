/* Rank 2 returns from main without remora_finalize while the others wait in a barrier. */
#include "fault_common.h"

int main(int argc, char** argv) {
  const int rank = fault_start(&argc, &argv);
  if (rank == 2) return 0;
  return fault_wait_in_barrier();
}
