/* CHECK for C test programs that run under mpiexec: a failed condition prints where, what and
 * Remora's last error, then ends the whole job with MPI_Abort. Its includer defines
 * _POSIX_C_SOURCE 200809L (nanosleep) before any include. */
#ifndef REMORA_TESTS_MPI_CHECK_H
#define REMORA_TESTS_MPI_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <time.h>

#include "remora.h"

/* The launcher kills the job as soon as it hears of the abort: give the message a moment to
 * leave through its pipe first (as Remora's own abort does), or it is sometimes lost. */
static inline void mpi_check_abort_job(void) {
  const struct timespec moment = {0, 100000000};
  nanosleep(&moment, NULL);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

#define CHECK(condition)                                                                \
  do {                                                                                  \
    if (!(condition)) {                                                                 \
      fprintf(stderr, "%s:%d: check failed: %s (%s)\n", __FILE__, __LINE__, #condition, \
              remora_last_error());                                                     \
      mpi_check_abort_job();                                                            \
    }                                                                                   \
  } while (0)

#endif
