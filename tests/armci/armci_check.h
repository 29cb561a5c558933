/* CHECK for the ARMCI test programs, which also build against ARMCI-MPI (no Remora header): a
 * failed condition prints this rank, where, and a printf-style explanation (the first ten of
 * them), and counts in `failures`, which the program turns into its exit status. The includer
 * defines `me` (its rank) and `failures` before including this. */
#ifndef REMORA_TESTS_ARMCI_CHECK_H
#define REMORA_TESTS_ARMCI_CHECK_H

#include <stdio.h>

#define CHECK(cond, ...)                                                  \
  do {                                                                    \
    if (!(cond)) {                                                        \
      if (failures++ < 10) {                                              \
        printf("rank %d: %s:%d: check failed: ", me, __FILE__, __LINE__); \
        printf(__VA_ARGS__);                                              \
        printf("\n");                                                     \
        fflush(stdout);                                                   \
      }                                                                   \
    }                                                                     \
  } while (0)

#endif
