/* Writes lines to stdout and stderr for --tag-output, then rank 3 exits with code 7 after a
 * clean remora_finalize: the launcher must exit with 7. Rank 3 also ends its output with a
 * line that has no newline, which the launcher must still forward. */
#include "fault_common.h"

int main(int argc, char** argv) {
  const int rank = fault_start(&argc, &argv);
  printf("hello from rank %d of %d\n", rank, remora_size());
  fprintf(stderr, "note from rank %d\n", rank);
  printf("second line from rank %d\n", rank);
  if (remora_finalize() != REMORA_SUCCESS) return 1;
  if (rank == 3) {
    printf("partial line from rank %d", rank);
    return 7;
  }
  return 0;
}
