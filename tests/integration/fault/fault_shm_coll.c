/* The last rank dies by SIGKILL inside a collective of the shm algorithm (ranks exchange flags
 * and data through the communicator's shared area), while the others wait in that collective
 * for its flags. Driven by run_fault_test.py (cases shm-coll-*), which checks that the
 * launcher ends the job with the dead rank named and its exit status, that no process survives
 * and that no shared-memory object of the job (segments, the communicators' areas) is left.
 *
 * Usage: fault_shm_coll iallreduce|ibarrier|ialltoall|ialltoall-round|loop|blocks|bypass
 *   iallreduce: the victim starts a 2 MiB shm allreduce on the world (many rounds of 64 KiB
 *     cells), advances it with remora_request_test and dies; the others are in the same
 *     allreduce, blocking.
 *   ibarrier: the victim starts a shm barrier on a duplicate and dies; the others pass that
 *     barrier (the victim arrived) and wait in a shm allreduce on the world.
 *   ialltoall: the victim starts one small shm ialltoall on a duplicate (a request without a
 *     schedule, coll/shm_request.hpp), advances it and dies; the others start six and wait for
 *     them all, the later ones waiting for the victim's flags (and for its cells).
 *   ialltoall-round: as ialltoall with blocks of 64 KiB on the pairs of a split (the victim's
 *     pair: a request whose one round fills the members' cells, ShmArea::alltoall_piece); the
 *     other pair completes its six and waits in a shm allreduce on the world.
 *   loop: every rank runs shm allreduces of 2 MiB and shm barriers on the world and on a
 *     split; a thread of the victim kills it once its main thread has finished three rounds,
 *     so that it dies while its main thread is inside a collective.
 *   blocks: as loop, with single-copy shm reduces, gathers, scatters, allgathers and alltoalls
 *     (blocks of 2 MiB / P, above the single-copy size: members read and write each other's
 *     buffers), so that the victim dies inside one while the others copy from or to it.
 *   bypass: the victim dies instead of contributing to an application-bypass reduce through
 *     the shared slots (coll/bypass_slots.hpp); rank 0, the root, waits for its slot, the
 *     others contribute and wait in a barrier. */
#include "fault_common.h" /* first: it selects the POSIX features */

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

enum { kElements = 256 * 1024 }; /* int64: 2 MiB, 32 cells of 64 KiB */

static atomic_int rounds_done;

static void require(int status, const char* what) {
  if (status == REMORA_SUCCESS) return;
  fprintf(stderr, "rank %d: %s failed: %s\n", remora_rank(), what, remora_last_error());
  exit(2);
}

static void die(void) {
  printf("victim dies now\n");
  fflush(stdout);
  kill(getpid(), SIGKILL);
}

static void* killer(void* unused) {
  (void)unused;
  while (atomic_load(&rounds_done) < 3) usleep(100);
  die();
  return NULL;
}

static void allreduce(const int64_t* in, int64_t* out, remora_comm_t comm) {
  require(remora_allreduce(in, out, kElements, REMORA_INT64, REMORA_OP_SUM, comm, REMORA_COLL_SHM),
          "remora_allreduce (shm)");
}

/* The victim starts one shm ialltoall of `block` int64 per block on comm, advances it and dies;
 * the others start six and wait for them all. */
static void ialltoalls(const int64_t* in, int64_t* out, size_t block, remora_comm_t comm,
                       int is_victim) {
  enum { kCalls = 6 };
  int size = 0;
  require(remora_comm_size(comm, &size), "remora_comm_size");
  remora_request_t requests[kCalls];
  const int calls = is_victim ? 1 : kCalls;
  for (int k = 0; k < calls; ++k)
    require(remora_ialltoall(in + k, out + block * (size_t)size * (size_t)k, block, REMORA_INT64,
                             comm, REMORA_COLL_SHM, &requests[k]),
            "remora_ialltoall (shm)");
  if (is_victim) {
    int flag = 0;
    require(remora_request_test(&requests[0], &flag), "test");
    die();
  }
  require(remora_request_waitall(kCalls, requests), "remora_request_waitall");
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(
        stderr,
        "usage: fault_shm_coll iallreduce|ibarrier|ialltoall|ialltoall-round|loop|blocks|bypass\n");
    return 2;
  }
  const char* how = argv[1];
  const int rank = fault_start(&argc, &argv);
  const int victim = remora_size() - 1;
  remora_comm_t world, dup, half;
  require(remora_comm_world(&world), "remora_comm_world");
  require(remora_comm_dup(world, &dup), "remora_comm_dup");
  require(remora_comm_split(world, rank % 2, rank, &half), "remora_comm_split");
  int64_t* in = calloc(kElements, sizeof(int64_t));
  int64_t* out = calloc(kElements, sizeof(int64_t));
  if (in == NULL || out == NULL) return 2;
  for (size_t i = 0; i < kElements; ++i) in[i] = rank + (int64_t)i;
  /* One collective that every rank completes first: the areas are in use before the death. */
  allreduce(in, out, world);

  if (strcmp(how, "iallreduce") == 0) {
    if (rank == victim) {
      remora_request_t request;
      require(remora_iallreduce(in, out, kElements, REMORA_INT64, REMORA_OP_SUM, world,
                                REMORA_COLL_SHM, &request),
              "remora_iallreduce (shm)");
      int flag = 0;
      for (int i = 0; i < 3; ++i) require(remora_request_test(&request, &flag), "test");
      die();
    }
    allreduce(in, out, world);
  } else if (strcmp(how, "ibarrier") == 0) {
    if (rank == victim) {
      remora_request_t request;
      require(remora_ibarrier(dup, REMORA_COLL_SHM, &request), "remora_ibarrier (shm)");
      int flag = 0;
      require(remora_request_test(&request, &flag), "test");
      die();
    }
    require(remora_comm_barrier(dup, REMORA_COLL_SHM), "remora_comm_barrier (shm)");
    allreduce(in, out, world);
  } else if (strcmp(how, "ialltoall") == 0) {
    ialltoalls(in, out, 1, dup, rank == victim);
  } else if (strcmp(how, "ialltoall-round") == 0) {
    ialltoalls(in, out, 8192, half, rank == victim); /* int64: 64 KiB, one round at 2 ranks */
    allreduce(in, out, world);
  } else if (strcmp(how, "bypass") == 0) {
    if (rank == victim) die();
    require(remora_reduce(in, out, 4, REMORA_INT64, REMORA_OP_SUM, 0, world,
                          REMORA_COLL_APPLICATION_BYPASS),
            "remora_reduce (bypass)");
    require(remora_barrier(), "remora_barrier");
  } else if (strcmp(how, "loop") == 0) {
    pthread_t thread;
    if (rank == victim && pthread_create(&thread, NULL, killer, NULL) != 0) return 2;
    for (int round = 0;; ++round) {
      allreduce(in, out, round % 2 ? half : world);
      require(remora_comm_barrier(round % 3 ? world : dup, REMORA_COLL_SHM), "barrier (shm)");
      atomic_store(&rounds_done, round + 1);
    }
  } else if (strcmp(how, "blocks") == 0) {
    pthread_t thread;
    if (rank == victim && pthread_create(&thread, NULL, killer, NULL) != 0) return 2;
    const size_t block = kElements / (size_t)remora_size();
    for (int round = 0;; ++round) {
      const int root = round % remora_size();
      require(remora_reduce(in, out, kElements, REMORA_INT64, REMORA_OP_SUM, root, world,
                            REMORA_COLL_SHM),
              "remora_reduce (shm)");
      require(remora_gather(in, out, block, REMORA_INT64, root, world, REMORA_COLL_SHM),
              "remora_gather (shm)");
      require(remora_scatter(in, out, block, REMORA_INT64, root, world, REMORA_COLL_SHM),
              "remora_scatter (shm)");
      require(remora_allgather(in, out, block, REMORA_INT64, world, REMORA_COLL_SHM),
              "remora_allgather (shm)");
      require(remora_alltoall(in, out, block, REMORA_INT64, world, REMORA_COLL_SHM),
              "remora_alltoall (shm)");
      atomic_store(&rounds_done, round + 1);
    }
  } else {
    fprintf(stderr, "fault_shm_coll: unknown case '%s'\n", how);
    return 2;
  }
  /* Not reached by the survivors: the victim's death ends the job while they wait. */
  fprintf(stderr, "rank %d: the collective completed without the dead rank\n", rank);
  return 3;
}
