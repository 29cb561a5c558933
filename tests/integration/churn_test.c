/* Allocation churn: cycles of creating and freeing windows (allocated and over user memory),
 * segments, arrays and communicators of mixed sizes, each used once and checked. After a
 * warm-up, the process's file descriptors and shared-memory mappings must stay exactly as they
 * were, and its mapped and resident memory must not grow by more than an allocator's slack. Usage:
 * test_churn [cycles] (default 300; the long run in docs/benchmarks.md passes 100000). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remora.h"

/* AddressSanitizer keeps freed memory in quarantine and maps its own regions as it goes, so
 * mapped and resident memory say nothing about Remora there: only descriptors and
 * shared-memory mappings are checked. */
#if defined(__SANITIZE_ADDRESS__)
#define MEMORY_MEASURABLE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEMORY_MEASURABLE 0
#endif
#endif
#ifndef MEMORY_MEASURABLE
#define MEMORY_MEASURABLE 1
#endif

static int failures;

static void check(int ok, const char* what, long cycle) {
  if (ok) return;
  fprintf(stderr, "rank %d: FAILED in cycle %ld: %s (%s)\n", remora_rank(), cycle, what,
          remora_last_error());
  if (++failures > 10) exit(1);
}

static long count_fds(void) {
  DIR* dir = opendir("/proc/self/fd");
  long n = 0;
  if (dir == NULL) return -1;
  while (readdir(dir) != NULL) ++n;
  closedir(dir);
  return n;
}

/* Mappings of shared-memory objects (Remora's segments live in /dev/shm): each one leaked would
 * stay. Anonymous mappings are not counted: the kernel merges adjacent ones with equal
 * permissions, so their number changes with where the allocator's regions land, leak or not
 * (their size is checked through VmSize instead). */
static long count_shm_maps(void) {
  FILE* f = fopen("/proc/self/maps", "r");
  char line[512];
  long n = 0;
  if (f == NULL) return -1;
  while (fgets(line, sizeof line, f) != NULL) n += strstr(line, "/dev/shm/") != NULL;
  fclose(f);
  return n;
}

/* A field of /proc/self/status in KiB ("VmRSS:", "VmSize:"). */
static long status_kib(const char* field) {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  if (f == NULL) return -1;
  while (fgets(line, sizeof line, f) != NULL)
    if (strncmp(line, field, strlen(field)) == 0) kib = strtol(line + strlen(field), NULL, 10);
  fclose(f);
  return kib;
}

/* One cycle: every object is created, used with a value that depends on the cycle, checked
 * and freed. Sizes vary with the cycle so that allocators see mixed requests. */
static void cycle_once(long i, int rank, int size) {
  const int next = (rank + 1) % size;
  const int prev = (rank + size - 1) % size;
  const int64_t stamp = i * 1000 + rank;

  int64_t* base = NULL;
  remora_win_t win;
  const size_t words = 512 * (size_t)(1 + i % 13) + (size_t)(i % 61);
  check(remora_win_allocate(words * 8, 8, NULL, (void**)&base, &win) == 0, "win_allocate", i);
  check(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, next, 0) == 0, "lock", i);
  check(remora_win_put(win, next, words - 1, &stamp, 1, REMORA_INT64) == 0, "put", i);
  check(remora_win_unlock(win, next) == 0, "unlock", i);
  check(remora_barrier() == 0, "barrier", i);
  check(base[words - 1] == i * 1000 + prev, "window value from the previous rank", i);
  check(remora_win_free(&win) == 0, "win_free", i);

  int64_t* user = calloc(words, 8);
  check(remora_win_create(user, words * 8, 8, NULL, &win) == 0, "win_create", i);
  check(remora_win_fence(win, 0) == 0, "fence", i);
  check(remora_win_put(win, next, i % (long)words, &stamp, 1, REMORA_INT64) == 0, "put", i);
  check(remora_win_fence(win, 0) == 0, "fence", i);
  check(user[i % (long)words] == i * 1000 + prev, "user-memory window value", i);
  check(remora_win_free(&win) == 0, "win_free (user memory)", i);
  free(user);

  remora_segment_t segment;
  check(remora_segment_allocate(4096 * (size_t)(1 + i % 7) + 8, &segment) == 0, "segment", i);
  check(remora_put(segment, next, 0, &stamp, sizeof stamp) == 0, "segment put", i);
  check(remora_flush(segment, next) == 0, "segment flush", i); /* remote completion */
  check(remora_barrier() == 0, "barrier", i);
  int64_t got = -1;
  check(remora_get(segment, rank, 0, &got, sizeof got) == 0, "segment get", i);
  check(got == i * 1000 + prev, "segment value from the previous rank", i);
  check(remora_barrier() == 0, "barrier", i);
  check(remora_segment_free(&segment) == 0, "segment_free", i);

  const int64_t dims[2] = {8 + i % 37, 3 + i % 11};
  remora_array_t array;
  check(remora_array_create(REMORA_DOUBLE, 2, dims, "churn", &array) == 0, "array_create", i);
  const int64_t lo[2] = {dims[0] - 1, dims[1] - 1};
  const double value = (double)i;
  const int64_t ld[1] = {1};
  double read = -1;
  if (rank == 0) check(remora_array_put(array, lo, lo, &value, ld) == 0, "array_put", i);
  check(remora_array_sync() == 0, "array_sync", i); /* completes the put everywhere */
  check(remora_array_get(array, lo, lo, &read, ld) == 0, "array_get", i);
  check(read == value, "array value", i);
  check(remora_array_destroy(&array) == 0, "array_destroy", i);

  remora_comm_t world, comm;
  check(remora_comm_world(&world) == 0, "comm_world", i);
  check(remora_comm_split(world, rank % 2, rank, &comm) == 0, "comm_split", i);
  check(remora_comm_free(&comm) == 0, "comm_free", i);
}

int main(int argc, char** argv) {
  if (remora_init(&argc, &argv) != REMORA_SUCCESS) {
    fprintf(stderr, "remora_init failed: %s\n", remora_last_error());
    return 1;
  }
  const long cycles = argc > 1 ? strtol(argv[1], NULL, 10) : 300;
  const long warmup = cycles < 50 ? cycles : 50;
  const int rank = remora_rank();
  const int size = remora_size();
  long i = 0;
  for (; i < warmup; ++i) cycle_once(i, rank, size);
  const long fds = count_fds(), maps = count_shm_maps();
  const long rss = status_kib("VmRSS:"), vm = status_kib("VmSize:");
  for (; i < cycles; ++i) cycle_once(i, rank, size);
  const long fds_end = count_fds(), maps_end = count_shm_maps();
  const long rss_end = status_kib("VmRSS:"), vm_end = status_kib("VmSize:");
  printf(
      "rank %d: %ld cycles: fds %ld -> %ld, shared-memory mappings %ld -> %ld, "
      "VmSize %ld -> %ld KiB, RSS %ld -> %ld KiB\n",
      rank, cycles, fds, fds_end, maps, maps_end, vm, vm_end, rss, rss_end);
  check(fds_end == fds, "open file descriptors unchanged after the warm-up", i);
  check(maps_end == maps, "shared-memory mappings unchanged after the warm-up", i);
  if (MEMORY_MEASURABLE) {
    /* Flat, up to the C library's and the kernel's page-granular slack. */
    check(vm_end - vm <= 4096, "mapped memory grew by at most 4 MiB after the warm-up", i);
    check(rss_end - rss <= 1024, "resident memory grew by at most 1 MiB after the warm-up", i);
  } else if (rank == 0) {
    printf("mapped and resident memory not checked: AddressSanitizer's allocator\n");
  }
  check(remora_finalize() == REMORA_SUCCESS, "remora_finalize", i);
  return failures == 0 ? 0 : 1;
}
