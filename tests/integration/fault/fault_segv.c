/* Rank 1 crashes with a segmentation fault after remora_init; the others wait in a barrier.
 * Before crashing, rank 1 creates a shared-memory object named like the job's segments, as a
 * rank killed between creating a segment and unlinking it would leave behind: the launcher
 * must remove it. */
#include "fault_common.h" /* first: it selects the POSIX features */

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>

/* A real SIGSEGV even in sanitizer builds: UBSan would report the null store and exit, and
 * ASan's SEGV handler would exit with 1, so reset the handler and exempt this function. */
__attribute__((no_sanitize("undefined"), noinline)) static void crash(void) {
  signal(SIGSEGV, SIG_DFL);
  /* Both volatile: the compiler may neither drop the store nor turn it into a trap. */
  volatile int* volatile nowhere = NULL;
  *nowhere = 42;
}

int main(int argc, char** argv) {
  const int rank = fault_start(&argc, &argv);
  if (rank == 1) {
    char name[128];
    snprintf(name, sizeof(name), "/remora-%s-s-fault-test", getenv("REMORA_JOB_ID"));
    const int fd = shm_open(name, O_CREAT | O_RDWR, 0600);
    if (fd >= 0) printf("leaked %s\n", name);
    fflush(stdout);
    crash();
  }
  return fault_wait_in_barrier();
}
