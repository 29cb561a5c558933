/* One rank of a job dies at a random point of a loop of window operations and collectives;
 * the others carry on until they block on it. Driven by run_fault_test.py (cases random-kill,
 * random-segv, random-abort, random-remora-abort), under remorarun or mpiexec, which checks
 * that the launcher ends the job, names the dead rank, and that no process nor shared-memory
 * object of the job is left.
 *
 * Usage: fault_random kill|segv|abort|remora-abort SEED
 * The victim is the last rank; it dies after a number of operations drawn from SEED (printed).
 * Every rank first announces "job=<id> rank=<r> pid=<p>": <id> starts the names of the job's
 * shared-memory objects (/dev/shm/remora-<id>-...): REMORA_JOB_ID under remorarun, the pid of
 * rank 0 under MPI. */
#define _DEFAULT_SOURCE

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "remora.h"

enum { kOperations = 200, kElements = 64 };

static void require(int status, const char* what) {
  if (status == REMORA_SUCCESS) return;
  fprintf(stderr, "rank %d: %s failed: %s\n", remora_rank(), what, remora_last_error());
  exit(2);
}

/* A real SIGSEGV even in sanitizer builds (as fault_segv.c). */
__attribute__((no_sanitize("undefined"), noinline)) static void crash(void) {
  signal(SIGSEGV, SIG_DFL);
  volatile int* volatile nowhere = NULL;
  *nowhere = 42;
}

static void die(const char* how) {
  printf("victim dies now\n");
  fflush(stdout);
  if (strcmp(how, "kill") == 0) kill(getpid(), SIGKILL);
  if (strcmp(how, "segv") == 0) crash();
  if (strcmp(how, "abort") == 0) abort();
  if (strcmp(how, "remora-abort") == 0) remora_abort(9, "the victim gives up");
  fprintf(stderr, "fault_random: unknown way to die '%s'\n", how);
  exit(2);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: fault_random kill|segv|abort|remora-abort SEED\n");
    return 2;
  }
  const char* how = argv[1];
  const unsigned seed = (unsigned)strtoul(argv[2], NULL, 10);
  require(remora_init(&argc, &argv), "remora_init");
  const int rank = remora_rank();
  const int size = remora_size();
  remora_comm_t world;
  require(remora_comm_world(&world), "remora_comm_world");
  long leader = (long)getpid();
  require(remora_allreduce(rank == 0 ? &leader : &(long){0}, &leader, 1, REMORA_INT64,
                           REMORA_OP_SUM, world, REMORA_COLL_AUTO),
          "remora_allreduce (leader pid)");
  const char* job = getenv("REMORA_JOB_ID");
  if (job != NULL)
    printf("job=%s rank=%d pid=%d\n", job, rank, (int)getpid());
  else
    printf("job=%ld rank=%d pid=%d\n", leader, rank, (int)getpid());
  fflush(stdout);

  const int victim = size - 1;
  srand(seed);
  const int dies_after = rand() % kOperations;
  if (rank == victim) {
    printf("victim=%d how=%s seed=%u after=%d operations\n", victim, how, seed, dies_after);
    fflush(stdout);
  }

  void* base = NULL;
  remora_win_t window;
  require(remora_win_allocate(kElements * sizeof(long), sizeof(long), NULL, &base, &window),
          "remora_win_allocate");
  long values[kElements];
  for (int i = 0; i < kElements; ++i) values[i] = rank + i;
  for (int op = 0; op < kOperations; ++op) {
    if (rank == victim && op == dies_after) die(how);
    const int target = (rank + 1 + op) % size;
    switch (op % 6) {
      case 0:
        require(remora_win_lock(window, REMORA_LOCK_EXCLUSIVE, target, 0), "remora_win_lock");
        require(remora_win_put(window, target, 0, values, kElements, REMORA_INT64),
                "remora_win_put");
        require(remora_win_unlock(window, target), "remora_win_unlock");
        break;
      case 1:
        require(remora_win_lock(window, REMORA_LOCK_SHARED, target, 0), "remora_win_lock");
        require(remora_win_get(window, target, 0, values, kElements, REMORA_INT64),
                "remora_win_get");
        require(remora_win_unlock(window, target), "remora_win_unlock");
        break;
      case 2:
        require(remora_win_lock_all(window, 0), "remora_win_lock_all");
        require(remora_win_accumulate(window, target, 0, values, kElements, REMORA_INT64,
                                      REMORA_OP_SUM, NULL),
                "remora_win_accumulate");
        require(remora_win_unlock_all(window), "remora_win_unlock_all");
        break;
      case 3:
        require(remora_barrier(), "remora_barrier");
        break;
      case 4: {
        long sum = 0;
        require(remora_allreduce(&values[0], &sum, 1, REMORA_INT64, REMORA_OP_SUM, world,
                                 REMORA_COLL_AUTO),
                "remora_allreduce");
        break;
      }
      default: {
        /* A window created and freed: the shared-memory objects come and go. */
        void* other_base = NULL;
        remora_win_t other;
        require(remora_win_allocate(4096, 1, NULL, &other_base, &other), "remora_win_allocate");
        require(remora_win_fence(other, 0), "remora_win_fence");
        require(remora_win_free(&other), "remora_win_free");
      }
    }
  }
  /* Unreachable for the others while the victim lives up to its operation: they block above. */
  require(remora_win_free(&window), "remora_win_free");
  return remora_finalize();
}
