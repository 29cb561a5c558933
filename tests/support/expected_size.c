/* Linked into every multi-rank test, which calls remora_init through it (-Wl,--wrap, see
 * tests/CMakeLists.txt): once the library is initialised, the job must have the number of ranks
 * the test was launched with (REMORATEST_RANKS, set by cmake/RemoraTesting.cmake). A
 * launcher that does not match the library (every process a job of one rank) would otherwise
 * run N singletons, each passing. */
#include <stdio.h>
#include <stdlib.h>

#include "remora.h"

int __real_remora_init(int* argc, char*** argv);
int __real_remora_init_thread(int* argc, char*** argv, int required, int* provided);

static int check_expected_size(int status) {
  const char* expected = getenv("REMORATEST_RANKS");
  if (status != REMORA_SUCCESS || expected == NULL) return status;
  if (remora_size() != atoi(expected)) {
    fprintf(stderr,
            "FAILED: remora_size() is %d, but the test was launched with %s ranks (the launcher "
            "and the library do not match)\n",
            remora_size(), expected);
    exit(1);
  }
  return status;
}

int __wrap_remora_init(int* argc, char*** argv) {
  return check_expected_size(__real_remora_init(argc, argv));
}

int __wrap_remora_init_thread(int* argc, char*** argv, int required, int* provided) {
  return check_expected_size(__real_remora_init_thread(argc, argv, required, provided));
}
