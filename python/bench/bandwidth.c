/* Bandwidth of window puts and gets of 1 KiB .. 16 MiB from C: the peer of bandwidth.py, the
 * same operations issued through the C API with the same library build.
 *
 *   remorarun -n 2 ./bandwidth [repetitions]
 *
 * Both ranks allocate a 16 MiB window of doubles; rank 0 opens a lock_all epoch and, for each
 * size, times n back-to-back remora_win_put calls to rank 1 followed by one flush, then n
 * remora_win_get calls into one buffer followed by one flush, `repetitions` times; n gives about
 * 64 MiB per timing (at least 8 calls). It prints one CSV line per operation and size:
 *     c,operation,bytes,median_GBps,max_GBps,calls,repetitions
 * The data rank 0 reads back is checked, so the copies cannot be skipped. */
#include <remora.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_BYTES ((size_t)16 << 20)

static void check(int rc, const char* what) {
  if (rc < 0) {
    fprintf(stderr, "bandwidth: %s failed: %s\n", what, remora_last_error());
    remora_abort(2, "bandwidth: a Remora call failed");
  }
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static void report(const char* op, size_t bytes, double* gbps, int reps, int calls) {
  qsort(gbps, (size_t)reps, sizeof(double), compare);
  const double median = reps % 2 ? gbps[reps / 2] : 0.5 * (gbps[reps / 2 - 1] + gbps[reps / 2]);
  printf("c,%s,%zu,%.3f,%.3f,%d,%d\n", op, bytes, median, gbps[reps - 1], calls, reps);
  fflush(stdout);
}

int main(int argc, char** argv) {
  check(remora_init(&argc, &argv), "remora_init");
  const int reps = argc > 1 ? atoi(argv[1]) : 9;
  if (remora_size() != 2 || reps < 1) {
    fprintf(stderr, "bandwidth: run on 2 ranks with repetitions >= 1\n");
    remora_abort(2, "usage");
  }
  void* base = NULL;
  remora_win_t win = NULL;
  check(remora_win_allocate(MAX_BYTES, sizeof(double), NULL, &base, &win), "remora_win_allocate");
  double* src = malloc(MAX_BYTES);
  double* dst = malloc(MAX_BYTES);
  double* gbps = malloc(sizeof(double) * (size_t)reps);
  if (src == NULL || dst == NULL || gbps == NULL) remora_abort(2, "out of memory");
  for (size_t i = 0; i < MAX_BYTES / sizeof(double); ++i) src[i] = (double)i;
  memset(dst, 0, MAX_BYTES);
  check(remora_barrier(), "remora_barrier");
  if (remora_rank() == 0) {
    check(remora_win_lock_all(win, 0), "remora_win_lock_all");
    for (size_t bytes = 1024; bytes <= MAX_BYTES; bytes *= 4) {
      const size_t count = bytes / sizeof(double);
      int calls = (int)(((size_t)64 << 20) / bytes);
      if (calls < 8) calls = 8;
      for (int r = -1; r < reps; ++r) { /* r = -1: warm-up */
        const double t0 = now();
        for (int i = 0; i < calls; ++i)
          check(remora_win_put(win, 1, 0, src, count, REMORA_DOUBLE), "remora_win_put");
        check(remora_win_flush(win, 1), "remora_win_flush");
        if (r >= 0) gbps[r] = (double)bytes * calls / (now() - t0) / 1e9;
      }
      report("put", bytes, gbps, reps, calls);
      for (int r = -1; r < reps; ++r) {
        const double t0 = now();
        for (int i = 0; i < calls; ++i)
          check(remora_win_get(win, 1, 0, dst, count, REMORA_DOUBLE), "remora_win_get");
        check(remora_win_flush(win, 1), "remora_win_flush");
        if (r >= 0) gbps[r] = (double)bytes * calls / (now() - t0) / 1e9;
      }
      if (dst[count - 1] != (double)(count - 1)) remora_abort(2, "bandwidth: get read wrong data");
      report("get", bytes, gbps, reps, calls);
    }
    check(remora_win_unlock_all(win), "remora_win_unlock_all");
  }
  check(remora_barrier(), "remora_barrier");
  check(remora_win_free(&win), "remora_win_free");
  free(src);
  free(dst);
  free(gbps);
  check(remora_finalize(), "remora_finalize");
  return 0;
}
