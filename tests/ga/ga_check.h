/* Checks for the GA test programs: a failed check prints where and ends the job. */
#ifndef REMORA_GA_TEST_CHECK_H
#define REMORA_GA_TEST_CHECK_H

#include <stdio.h>

#include "ga.h"
#include "macdecls.h"

#define CHECK(condition)                                                                     \
  do {                                                                                       \
    if (!(condition)) {                                                                      \
      fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", GA_Nodeid(), __FILE__, __LINE__, \
              #condition);                                                                   \
      fflush(stderr);                                                                        \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                          \
    }                                                                                        \
  } while (0)

/* The start of a GA test program: MPI, GA, and MA (GA needs it for its temporary buffers). */
static inline void ga_test_begin(int* argc, char*** argv, int* me, int* nprocs) {
  MPI_Init(argc, argv);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000);
  *me = GA_Nodeid();
  *nprocs = GA_Nnodes();
}

#endif /* REMORA_GA_TEST_CHECK_H */
