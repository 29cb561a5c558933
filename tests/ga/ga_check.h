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

/* GA_Initialize_args without MPI_Init: GA starts MPI (and leaves finalizing it to the program). */
static inline void ga_test_begin_without_mpi(int* argc, char*** argv) {
  int mpi_up = 1;
  MPI_Initialized(&mpi_up);
  CHECK(!mpi_up);
  GA_Initialize_args(argc, argv);
}

/* The end of a GA test program whose checks all passed: rank 0 says so, then GA and MPI end. */
static inline int ga_test_end(const char* program, int me, int nprocs) {
  if (me == 0) printf("%s: all checks passed on %d ranks\n", program, nprocs);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}

#endif /* REMORA_GA_TEST_CHECK_H */
