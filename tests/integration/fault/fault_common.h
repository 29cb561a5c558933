/* Helpers for the fault-injection programs run by run_fault_test.py. */
#ifndef REMORA_FAULT_COMMON_H
#define REMORA_FAULT_COMMON_H

#define _DEFAULT_SOURCE /* usleep, shm_open, pause with -std=c11 */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "remora.h"

/* Every rank announces itself on stdout so the test learns the job id (to find the job's
 * shared-memory objects) and the pids (to check that none survives the teardown). */
static inline int fault_start(int* argc, char*** argv) {
  const int status = remora_init(argc, argv);
  if (status != REMORA_SUCCESS) {
    fprintf(stderr, "remora_init failed: %s\n", remora_last_error());
    exit(100);
  }
  const char* job = getenv("REMORA_JOB_ID");
  printf("job=%s rank=%d pid=%d\n", job != NULL ? job : "?", remora_rank(), (int)getpid());
  fflush(stdout);
  return remora_rank();
}

/* The ranks that do not fail wait here; they must be woken by the launcher's teardown. */
static inline int fault_wait_in_barrier(void) {
  const int status = remora_barrier();
  if (status != REMORA_SUCCESS) {
    fprintf(stderr, "rank %d: remora_barrier returned %s: %s\n", remora_rank(),
            remora_strerror(status), remora_last_error());
    return 1;
  }
  remora_finalize();
  return 0;
}

#endif /* REMORA_FAULT_COMMON_H */
