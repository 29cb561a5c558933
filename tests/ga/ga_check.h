/* Checks for the GA test programs: a failed check prints where and ends the job. */
#ifndef REMORA_GA_TEST_CHECK_H
#define REMORA_GA_TEST_CHECK_H

#include <stdio.h>

#include "ga.h"

#define CHECK(condition)                                                                     \
  do {                                                                                       \
    if (!(condition)) {                                                                      \
      fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", GA_Nodeid(), __FILE__, __LINE__, \
              #condition);                                                                   \
      fflush(stderr);                                                                        \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                          \
    }                                                                                        \
  } while (0)

#endif /* REMORA_GA_TEST_CHECK_H */
