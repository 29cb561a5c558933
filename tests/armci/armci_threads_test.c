/* ARMCI's thread-safe mode: MPI_Init_thread(MPI_THREAD_MULTIPLE), ARMCI_Init_thread
 * (MPI_THREAD_MULTIPLE), then four POSIX threads per rank calling ARMCI at the same time on
 * memory from ARMCI_Malloc (allocated and checked by the main thread):
 *  - ARMCI_Acc of ints into every rank's accumulation block (scale = the thread's weight):
 *    every element must end at the exact sum of the weights times the rounds;
 *  - ARMCI_Put of a slot of its own on the next rank, then ARMCI_Get (odd rounds ARMCI_NbGet
 *    + ARMCI_Wait, or polling ARMCI_Test) of it back at once, compared; ARMCI_Fence between;
 *  - ARMCI_Rmw fetch-and-add tickets from rank 0's counter, each marked by an ARMCI_Acc of 1
 *    into the ticket table: every ticket handed out exactly once, the counter the total.
 * Argument: the number of ranks the job was launched with. */
#include <armci.h>
#include <message.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef REMORA_ARMCI_THREADS_QUERY_LEVEL
#include "remora.h"
#endif

enum { THREADS = 4, ROUNDS = 40, TICKETS = 50, N = 32, SLOT = 16 };

static int me, nproc;
static void **acc_ptrs, **slot_ptrs, **counter_ptrs, **ticket_ptrs;

#define CHECK(cond)                                                                         \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", me, __FILE__, __LINE__, #cond); \
      fflush(stderr);                                                                       \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                         \
    }                                                                                       \
  } while (0)

static int weight(int rank, int thread) {
  return rank * THREADS + thread + 1;
}

static void* work(void* arg) {
  const int t = *(const int*)arg;
  int scale = weight(me, t), one = 1;
  int ones[N], buf[SLOT], got[SLOT];
  for (int k = 0; k < N; ++k) ones[k] = 1;
  const int next = (me + 1) % nproc;
  for (int round = 0; round < ROUNDS || round < TICKETS; ++round) {
    if (round < ROUNDS) {
      const int target = (me + round + t) % nproc;
      CHECK(ARMCI_Acc(ARMCI_ACC_INT, &scale, ones, acc_ptrs[target], N * (int)sizeof(int),
                      target) == 0);
      int* slot = (int*)slot_ptrs[next] + (me * THREADS + t) * SLOT;
      for (int j = 0; j < SLOT; ++j) buf[j] = (me * THREADS + t) * 100000 + round * 100 + j;
      CHECK(ARMCI_Put(buf, slot, SLOT * (int)sizeof(int), next) == 0);
      if (round % 3 == 0) ARMCI_Fence(next);
      for (int j = 0; j < SLOT; ++j) got[j] = -1;
      if (round % 2 == 0) {
        CHECK(ARMCI_Get(slot, got, SLOT * (int)sizeof(int), next) == 0);
      } else {
        armci_hdl_t h;
        ARMCI_INIT_HANDLE(&h);
        CHECK(ARMCI_NbGet(slot, got, SLOT * (int)sizeof(int), next, &h) == 0);
        if (round % 4 == 1)
          CHECK(ARMCI_Wait(&h) == 0);
        else
          while (ARMCI_Test(&h) != 0) {
          }
      }
      for (int j = 0; j < SLOT; ++j) CHECK(got[j] == buf[j]);
    }
    if (round < TICKETS) {
      int ticket = -1;
      CHECK(ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &ticket, counter_ptrs[0], 1, 0) == 0);
      CHECK(ticket >= 0 && ticket < nproc * THREADS * TICKETS);
      const int owner = ticket % nproc, index = ticket / nproc;
      CHECK(ARMCI_Acc(ARMCI_ACC_INT, &one, &one, (int*)ticket_ptrs[owner] + index, (int)sizeof(int),
                      owner) == 0);
    }
  }
  ARMCI_AllFence();
  return NULL;
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided != MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "MPI provides thread level %d, not MPI_THREAD_MULTIPLE\n", provided);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  CHECK(ARMCI_Init_thread(MPI_THREAD_MULTIPLE) == 0);
  me = armci_msg_me();
  nproc = armci_msg_nproc();
  if (argc > 1) CHECK(nproc == atoi(argv[1]));
#ifdef REMORA_ARMCI_THREADS_QUERY_LEVEL
  int level = -1;
  CHECK(remora_query_thread(&level) == REMORA_SUCCESS);
  CHECK(level == REMORA_THREAD_MULTIPLE);
#endif
  const int total = nproc * THREADS * TICKETS;
  const int per_rank = (total + nproc - 1) / nproc;
  acc_ptrs = malloc(sizeof(void*) * (size_t)nproc);
  slot_ptrs = malloc(sizeof(void*) * (size_t)nproc);
  counter_ptrs = malloc(sizeof(void*) * (size_t)nproc);
  ticket_ptrs = malloc(sizeof(void*) * (size_t)nproc);
  CHECK(ARMCI_Malloc(acc_ptrs, N * sizeof(int)) == 0);
  CHECK(ARMCI_Malloc(slot_ptrs, (armci_size_t)nproc * THREADS * SLOT * sizeof(int)) == 0);
  CHECK(ARMCI_Malloc(counter_ptrs, sizeof(int)) == 0);
  CHECK(ARMCI_Malloc(ticket_ptrs, (armci_size_t)per_rank * sizeof(int)) == 0);
  ARMCI_Access_begin(acc_ptrs[me]);
  for (int k = 0; k < N; ++k) ((int*)acc_ptrs[me])[k] = 0;
  ARMCI_Access_end(acc_ptrs[me]);
  ARMCI_Access_begin(counter_ptrs[me]);
  *(int*)counter_ptrs[me] = 0;
  ARMCI_Access_end(counter_ptrs[me]);
  ARMCI_Access_begin(ticket_ptrs[me]);
  for (int k = 0; k < per_rank; ++k) ((int*)ticket_ptrs[me])[k] = 0;
  ARMCI_Access_end(ticket_ptrs[me]);
  ARMCI_Barrier();

  pthread_t threads[THREADS];
  int ids[THREADS];
  for (int t = 0; t < THREADS; ++t) {
    ids[t] = t;
    CHECK(pthread_create(&threads[t], NULL, work, &ids[t]) == 0);
  }
  for (int t = 0; t < THREADS; ++t) CHECK(pthread_join(threads[t], NULL) == 0);
  ARMCI_Barrier();

  /* Each rank checks its own memory. Accumulates: thread t of rank r hit rank (r + round + t)
   * % nproc in each round. */
  long expected = 0;
  for (int r = 0; r < nproc; ++r)
    for (int t = 0; t < THREADS; ++t)
      for (int round = 0; round < ROUNDS; ++round)
        if ((r + round + t) % nproc == me) expected += weight(r, t);
  ARMCI_Access_begin(acc_ptrs[me]);
  for (int k = 0; k < N; ++k) CHECK(((int*)acc_ptrs[me])[k] == expected);
  ARMCI_Access_end(acc_ptrs[me]);
  const int prev = (me - 1 + nproc) % nproc;
  ARMCI_Access_begin(slot_ptrs[me]);
  for (int t = 0; t < THREADS; ++t)
    for (int j = 0; j < SLOT; ++j)
      CHECK(((int*)slot_ptrs[me])[(prev * THREADS + t) * SLOT + j] ==
            (prev * THREADS + t) * 100000 + (ROUNDS - 1) * 100 + j);
  ARMCI_Access_end(slot_ptrs[me]);
  if (me == 0) CHECK(*(int*)counter_ptrs[0] == total);
  ARMCI_Access_begin(ticket_ptrs[me]);
  for (int k = 0; k < per_rank; ++k) {
    const int ticket = k * nproc + me;
    CHECK(((int*)ticket_ptrs[me])[k] == (ticket < total ? 1 : 0));
  }
  ARMCI_Access_end(ticket_ptrs[me]);
  ARMCI_Barrier();

  ARMCI_Free(ticket_ptrs[me]);
  ARMCI_Free(counter_ptrs[me]);
  ARMCI_Free(slot_ptrs[me]);
  ARMCI_Free(acc_ptrs[me]);
  free(acc_ptrs);
  free(slot_ptrs);
  free(counter_ptrs);
  free(ticket_ptrs);
  if (me == 0) printf("armci threads: %d ranks x %d threads, every check passed\n", nproc, THREADS);
  ARMCI_Finalize();
  MPI_Finalize();
  return 0;
}
