/* Errors of operations that take the MPI transport's remote path (run with REMORA_NODE_SIZE=1:
 * every other rank is on another node). A target rank outside the job or the window, and ranges
 * outside the target's segment or window part, return their documented codes (REMORA_ERR_RANK,
 * REMORA_ERR_RANGE) with messages that name the function, the argument and its value, before
 * anything reaches MPI; the rank stays usable (a put, an rget, an accumulate and a get to the next
 * rank afterwards carry their values). Accumulates and rgets to the next rank are refused once
 * their epoch (lock_all, then lock) has ended (REMORA_ERR_STATE). Then every rank makes the failing
 * call named by argv[1] ("rank": remora_put to rank size; "range": remora_win_get past the next
 * rank's window), prints remora_last_error() and exits with the code's magnitude after
 * remora_finalize: the test checks the launcher's exit status and the message (expect_exit.cmake).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mpi_check.h"
#include "remora.h"

enum { kBytes = 64 };

/* The call failed with code and its message contains each of the (up to three) fragments. */
static void expect_error(int status, int code, const char* a, const char* b, const char* c) {
  const char* message = remora_last_error();
  if (status != code || strstr(message, a) == NULL || (b != NULL && strstr(message, b) == NULL) ||
      (c != NULL && strstr(message, c) == NULL)) {
    fprintf(stderr, "expected %d with \"%s\" \"%s\" \"%s\", got %d: %s\n", code, a, b ? b : "",
            c ? c : "", status, message);
    mpi_check_abort_job();
  }
}

int main(int argc, char** argv) {
  const char* ending = argc > 1 ? argv[1] : "none";
  CHECK(remora_init(&argc, &argv) == REMORA_SUCCESS);
  const int rank = remora_rank(), size = remora_size();
  const int next = (rank + 1) % size;
  char text[64];
  remora_segment_t segment = NULL;
  CHECK(remora_segment_allocate(kBytes, &segment) == REMORA_SUCCESS);
  remora_win_t win = NULL;
  CHECK(remora_win_allocate(kBytes, 1, NULL, NULL, &win) == REMORA_SUCCESS);
  CHECK(remora_win_lock_all(win, 0) == REMORA_SUCCESS);
  int64_t value = 1000 + rank, got = 0;

  /* Target ranks outside the job (segments) and outside the window. */
  snprintf(text, sizeof text, "target=%d", size);
  expect_error(remora_put(segment, size, 0, &value, sizeof value), REMORA_ERR_RANK, "remora_put",
               text, "is not a rank of this job");
  expect_error(remora_get(segment, -1, 0, &got, sizeof got), REMORA_ERR_RANK, "remora_get",
               "target=-1", NULL);
  expect_error(remora_flush(segment, size + 3), REMORA_ERR_RANK, "remora_flush", NULL, NULL);
  expect_error(remora_win_put(win, size, 0, &value, 1, REMORA_INT64), REMORA_ERR_RANK,
               "remora_win_put", text, "outside the window's ranks");
  remora_request_t request = REMORA_REQUEST_NULL;
  expect_error(remora_win_rget(win, -2, 0, &got, 1, REMORA_INT64, &request), REMORA_ERR_RANK,
               "remora_win_rget", "target=-2", NULL);
  CHECK(request == REMORA_REQUEST_NULL);

  /* Ranges outside the next rank's part (on another node). */
  expect_error(remora_put(segment, next, kBytes - 4, &value, sizeof value), REMORA_ERR_RANGE,
               "remora_put", "offset=60 bytes=8", "lies outside rank");
  expect_error(remora_get(segment, next, kBytes + 8, &got, sizeof got), REMORA_ERR_RANGE,
               "remora_get", "offset=72", NULL);
  expect_error(remora_win_put(win, next, kBytes - 4, &value, 1, REMORA_INT64), REMORA_ERR_RANGE,
               "remora_win_put", "disp=60 count=1", "lies outside target");
  expect_error(remora_win_rget(win, next, kBytes, &got, 1, REMORA_INT64, &request),
               REMORA_ERR_RANGE, "remora_win_rget", "disp=64", NULL);
  CHECK(request == REMORA_REQUEST_NULL);
  const double one = 1.0;
  expect_error(
      remora_win_accumulate(win, next, kBytes - 4, &one, 1, REMORA_DOUBLE, REMORA_OP_SUM, NULL),
      REMORA_ERR_RANGE, "remora_win_accumulate", "disp=60", NULL);

  /* The rank is still usable: values travel to and from the next rank. */
  CHECK(remora_put(segment, next, 0, &value, sizeof value) == REMORA_SUCCESS);
  CHECK(remora_flush(segment, next) == REMORA_SUCCESS);
  const double zero = 0.0;
  CHECK(remora_win_put(win, next, 0, &value, 1, REMORA_INT64) == REMORA_SUCCESS);
  CHECK(remora_win_put(win, next, 8, &zero, 1, REMORA_DOUBLE) == REMORA_SUCCESS);
  CHECK(remora_win_flush(win, next) == REMORA_SUCCESS);
  CHECK(remora_win_accumulate(win, next, 8, &one, 1, REMORA_DOUBLE, REMORA_OP_SUM, NULL) ==
        REMORA_SUCCESS);
  CHECK(remora_win_flush(win, next) == REMORA_SUCCESS);
  CHECK(remora_barrier() == REMORA_SUCCESS);
  CHECK(remora_win_rget(win, next, 0, &got, 1, REMORA_INT64, &request) == REMORA_SUCCESS);
  CHECK(remora_request_wait(&request) == REMORA_SUCCESS);
  CHECK(got == 1000 + rank); /* what this rank put there */
  double sum = 0;
  CHECK(remora_win_get(win, next, 8, &sum, 1, REMORA_DOUBLE) == REMORA_SUCCESS);
  CHECK(sum == 1.0);
  const int previous = (rank + size - 1) % size;
  CHECK(remora_get(segment, rank, 0, &got, sizeof got) == REMORA_SUCCESS);
  CHECK(got == 1000 + previous);
  CHECK(remora_barrier() == REMORA_SUCCESS);

  /* Accumulates (MPI's, across nodes) and rgets are refused once their epoch has ended. */
  CHECK(remora_win_unlock_all(win) == REMORA_SUCCESS);
  expect_error(remora_win_accumulate(win, next, 8, &one, 1, REMORA_DOUBLE, REMORA_OP_SUM, NULL),
               REMORA_ERR_STATE, "remora_win_accumulate", "no access epoch to target", NULL);
  expect_error(remora_win_rget(win, next, 0, &got, 1, REMORA_INT64, &request), REMORA_ERR_STATE,
               "remora_win_rget", "is not locked", NULL);
  CHECK(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, next, 0) == REMORA_SUCCESS);
  CHECK(remora_win_accumulate(win, next, 8, &one, 1, REMORA_DOUBLE, REMORA_OP_SUM, NULL) ==
        REMORA_SUCCESS);
  CHECK(remora_win_unlock(win, next) == REMORA_SUCCESS);
  expect_error(remora_win_accumulate(win, next, 8, &one, 1, REMORA_DOUBLE, REMORA_OP_SUM, NULL),
               REMORA_ERR_STATE, "remora_win_accumulate", "no access epoch to target", NULL);
  CHECK(remora_win_lock_all(win, 0) == REMORA_SUCCESS);
  CHECK(remora_win_get(win, next, 8, &sum, 1, REMORA_DOUBLE) == REMORA_SUCCESS);
  CHECK(sum == 2.0);
  CHECK(remora_barrier() == REMORA_SUCCESS);

  int status = REMORA_SUCCESS;
  if (strcmp(ending, "rank") == 0)
    status = remora_put(segment, size, 0, &value, sizeof value);
  else if (strcmp(ending, "range") == 0)
    status = remora_win_get(win, next, 2 * kBytes, &got, 1, REMORA_INT64);
  if (status != REMORA_SUCCESS) fprintf(stderr, "rank %d: %s\n", rank, remora_last_error());
  CHECK(remora_win_unlock_all(win) == REMORA_SUCCESS);
  CHECK(remora_win_free(&win) == REMORA_SUCCESS);
  CHECK(remora_segment_free(&segment) == REMORA_SUCCESS);
  CHECK(remora_finalize() == REMORA_SUCCESS);
  return -status;
}
