/* remorarun --bind-to: each rank compares its CPU affinity mask with the launcher's (its parent)
 * and the environment remorarun gave it.
 *   core: rank r runs on the (r mod n)-th CPU of the launcher's n CPUs, alone there while the
 *         ranks fit (the ranks' CPUs, gathered, are distinct);
 *   none: the rank's mask is the launcher's;
 *   auto: as core when the ranks fit on the launcher's CPUs one each (and REMORA_PROGRESS is
 *         unset or manual), with REMORA_OVERSUBSCRIBED=no; else as none.
 * Usage: remorarun -n N [--bind-to MODE] test_binding MODE */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "remora.h"

static int failures = 0;

static void expect(int condition, const char* what) {
  if (condition) return;
  fprintf(stderr, "rank %d: FAILED: %s\n", remora_rank(), what);
  ++failures;
}

int main(int argc, char** argv) {
  if (remora_init(&argc, &argv) != REMORA_SUCCESS) return 1;
  const char* mode = argc > 1 ? argv[1] : "auto";
  cpu_set_t mine, launcher;
  CPU_ZERO(&mine);
  CPU_ZERO(&launcher);
  expect(sched_getaffinity(0, sizeof(mine), &mine) == 0, "sched_getaffinity of the rank");
  expect(sched_getaffinity(getppid(), sizeof(launcher), &launcher) == 0,
         "sched_getaffinity of the launcher");
  const int n = CPU_COUNT(&launcher), rank = remora_rank(), size = remora_size();
  const char* progress = getenv("REMORA_PROGRESS");
  const int one_thread = progress == NULL || strcmp(progress, "manual") == 0;
  int bound = strcmp(mode, "core") == 0 || (strcmp(mode, "auto") == 0 && one_thread && size <= n);
  if (bound) {
    int cpu = -1;
    for (int c = 0, k = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &launcher) && k++ == rank % n) cpu = c;
    expect(CPU_COUNT(&mine) == 1 && CPU_ISSET(cpu, &mine), "bound to its CPU of the launcher's");
    int32_t own = cpu, all[4096];
    remora_comm_t world = REMORA_COMM_NULL;
    expect(size <= 4096, "at most 4096 ranks");
    expect(remora_comm_world(&world) == REMORA_SUCCESS, "remora_comm_world");
    expect(remora_allgather(&own, all, 1, REMORA_INT32, world, REMORA_COLL_AUTO) == REMORA_SUCCESS,
           "allgather of the CPUs");
    if (size <= n)
      for (int r = 0; r < size; ++r)
        for (int q = r + 1; q < size; ++q) expect(all[r] != all[q], "one rank per CPU");
  } else {
    expect(CPU_EQUAL(&mine, &launcher), "the launcher's affinity mask");
  }
  const char* oversubscribed = getenv("REMORA_OVERSUBSCRIBED");
  if (strcmp(mode, "auto") == 0 && bound)
    expect(oversubscribed != NULL && strcmp(oversubscribed, "no") == 0,
           "REMORA_OVERSUBSCRIBED=no with auto binding");
  if (strcmp(mode, "none") == 0)
    expect(oversubscribed == NULL, "no REMORA_OVERSUBSCRIBED from the launcher");
  if (remora_finalize() != REMORA_SUCCESS) return 1;
  if (failures == 0 && rank == 0) printf("binding %s: %d ranks on %d CPUs: ok\n", mode, size, n);
  return failures == 0 ? 0 : 1;
}
