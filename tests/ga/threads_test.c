/* GA's thread-safe mode: MPI_Init_thread(MPI_THREAD_MULTIPLE), then GA_Initialize, then four
 * POSIX threads per rank calling GA's one-sided operations on shared arrays at the same time:
 *  - NGA_Acc: every thread of every rank adds its own weight (alpha) to the whole integer array
 *    ACC_ROUNDS times, in patches that cross the owners' blocks; every element must end at the
 *    exact sum of the weights times ACC_ROUNDS;
 *  - NGA_Put then NGA_Get / NGA_NbGet + NGA_NbWait of a row of its own (rows are spread over
 *    the owners), each round with new values, read back at once and compared;
 *  - NGA_NbAcc on three handles, completed by polling NGA_NbTest;
 *  - NGA_Read_inc on one counter: every ticket is marked by an NGA_Acc of 1 into a ticket
 *    array, so that afterwards every ticket 0..total-1 was handed out exactly once and the
 *    counter equals the total.
 * The arrays are created, checked and destroyed by the main thread (collectives stay
 * single-threaded, as in GA). Argument: the number of ranks the job was launched with. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

#ifdef REMORA_GA_THREADS_QUERY_LEVEL
#include "remora.h"
#endif

enum { THREADS = 4, ACC_ROUNDS = 30, PUT_ROUNDS = 40, TICKETS = 60, N = 24, ROW = 20 };

static int g_acc, g_rows, g_counter, g_tickets, g_nbacc;
static int me, nproc;

static int weight(int rank, int thread) {
  return rank * THREADS + thread + 1;
}

static int row_value(int row, int round, int j) {
  return row * 100000 + round * 100 + j;
}

struct job {
  int thread;
  int failed;
};

#define TCHECK(condition)                                                                        \
  do {                                                                                           \
    if (!(condition)) {                                                                          \
      fprintf(stderr, "rank %d thread %d: %s:%d: check failed: %s\n", me, job->thread, __FILE__, \
              __LINE__, #condition);                                                             \
      fflush(stderr);                                                                            \
      job->failed = 1;                                                                           \
      return NULL;                                                                               \
    }                                                                                            \
  } while (0)

static void* work(void* arg) {
  struct job* job = arg;
  const int t = job->thread;
  const int row = me * THREADS + t;
  int alpha = weight(me, t);
  int ones[N * N], buf[ROW], got[ROW];
  for (int k = 0; k < N * N; ++k) ones[k] = 1;
  for (int round = 0; round < PUT_ROUNDS || round < ACC_ROUNDS || round < TICKETS; ++round) {
    if (round < ACC_ROUNDS) {
      /* Two patches covering the array, split at a row that moves with the round. */
      const int split = (round * 7 + t) % (N - 1);
      int lo1[2] = {0, 0}, hi1[2] = {split, N - 1}, lo2[2] = {split + 1, 0},
          hi2[2] = {N - 1, N - 1};
      int ld[1] = {N};
      NGA_Acc(g_acc, lo1, hi1, ones, ld, &alpha);
      NGA_Acc(g_acc, lo2, hi2, ones, ld, &alpha);
    }
    if (round < PUT_ROUNDS) {
      for (int j = 0; j < ROW; ++j) buf[j] = row_value(row, round, j);
      int lo[2] = {row, 0}, hi[2] = {row, ROW - 1}, ld[1] = {ROW};
      NGA_Put(g_rows, lo, hi, buf, ld);
      for (int j = 0; j < ROW; ++j) got[j] = -1;
      if (round % 2 == 0) {
        NGA_Get(g_rows, lo, hi, got, ld);
      } else {
        /* Two halves on two handles, waited for in the opposite order. */
        int mid[2] = {row, ROW / 2 - 1}, mid2[2] = {row, ROW / 2};
        ga_nbhdl_t h1, h2;
        NGA_NbGet(g_rows, lo, mid, got, ld, &h1);
        NGA_NbGet(g_rows, mid2, hi, got + ROW / 2, ld, &h2);
        NGA_NbWait(&h2);
        NGA_NbWait(&h1);
      }
      for (int j = 0; j < ROW; ++j) TCHECK(got[j] == buf[j]);
    }
    if (round < TICKETS) {
      int zero[1] = {0}, one = 1;
      const long ticket = NGA_Read_inc(g_counter, zero, 1);
      TCHECK(ticket >= 0 && ticket < (long)nproc * THREADS * TICKETS);
      int at[1] = {(int)ticket};
      NGA_Acc(g_tickets, at, at, &one, NULL, &one);
    }
  }
  /* Nonblocking accumulates on three handles, completed by polling NGA_NbTest. */
  ga_nbhdl_t h[3];
  int lo[1] = {0}, hi[1] = {N - 1};
  for (int k = 0; k < 3; ++k) NGA_NbAcc(g_nbacc, lo, hi, ones, NULL, &alpha, &h[k]);
  for (int k = 0; k < 3; ++k)
    while (!NGA_NbTest(&h[k])) {
    }
  return NULL;
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided != MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "MPI provides thread level %d, not MPI_THREAD_MULTIPLE\n", provided);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  GA_Initialize();
  me = GA_Nodeid();
  nproc = GA_Nnodes();
  if (argc > 1) CHECK(nproc == atoi(argv[1]));
#ifdef REMORA_GA_THREADS_QUERY_LEVEL
  int level = -1;
  CHECK(remora_query_thread(&level) == REMORA_SUCCESS);
  CHECK(level == REMORA_THREAD_MULTIPLE);
#endif
  int dims[2] = {N, N};
  g_acc = NGA_Create(C_INT, 2, dims, "acc", NULL);
  int rdims[2] = {nproc * THREADS, ROW};
  g_rows = NGA_Create(C_INT, 2, rdims, "rows", NULL);
  int one_dim[1] = {1};
  g_counter = NGA_Create(C_LONG, 1, one_dim, "counter", NULL);
  int tdims[1] = {nproc * THREADS * TICKETS};
  g_tickets = NGA_Create(C_INT, 1, tdims, "tickets", NULL);
  int ndims[1] = {N};
  g_nbacc = NGA_Create(C_INT, 1, ndims, "nbacc", NULL);
  GA_Zero(g_acc);
  GA_Zero(g_rows);
  GA_Zero(g_counter);
  GA_Zero(g_tickets);
  GA_Zero(g_nbacc);
  GA_Sync();

  pthread_t threads[THREADS];
  struct job jobs[THREADS];
  for (int t = 0; t < THREADS; ++t) {
    jobs[t].thread = t;
    jobs[t].failed = 0;
    CHECK(pthread_create(&threads[t], NULL, work, &jobs[t]) == 0);
  }
  int failed = 0;
  for (int t = 0; t < THREADS; ++t) {
    CHECK(pthread_join(threads[t], NULL) == 0);
    failed |= jobs[t].failed;
  }
  CHECK(!failed);
  GA_Sync();

  int total_weight = 0;
  for (int r = 0; r < nproc; ++r)
    for (int t = 0; t < THREADS; ++t) total_weight += weight(r, t);
  /* Every rank checks every array, whole. */
  int* acc = malloc(sizeof(int) * N * N);
  int lo[2] = {0, 0}, hi[2] = {N - 1, N - 1}, ld[1] = {N};
  NGA_Get(g_acc, lo, hi, acc, ld);
  for (int k = 0; k < N * N; ++k) CHECK(acc[k] == ACC_ROUNDS * total_weight);
  free(acc);

  int* rows = malloc(sizeof(int) * nproc * THREADS * ROW);
  int rhi[2] = {nproc * THREADS - 1, ROW - 1}, rld[1] = {ROW};
  NGA_Get(g_rows, lo, rhi, rows, rld);
  for (int r = 0; r < nproc * THREADS; ++r)
    for (int j = 0; j < ROW; ++j) CHECK(rows[r * ROW + j] == row_value(r, PUT_ROUNDS - 1, j));
  free(rows);

  const int total = nproc * THREADS * TICKETS;
  long counter = -1;
  int zero[1] = {0};
  NGA_Get(g_counter, zero, zero, &counter, NULL);
  CHECK(counter == total);
  int* tickets = malloc(sizeof(int) * (size_t)total);
  int thi[1] = {total - 1};
  NGA_Get(g_tickets, zero, thi, tickets, NULL);
  for (int k = 0; k < total; ++k) CHECK(tickets[k] == 1);
  free(tickets);

  int nb[N];
  int nhi[1] = {N - 1};
  NGA_Get(g_nbacc, zero, nhi, nb, NULL);
  for (int k = 0; k < N; ++k) CHECK(nb[k] == 3 * total_weight);

  GA_Sync();
  GA_Destroy(g_nbacc);
  GA_Destroy(g_tickets);
  GA_Destroy(g_counter);
  GA_Destroy(g_rows);
  GA_Destroy(g_acc);
  if (me == 0) printf("threads: %d ranks x %d threads, every check passed\n", nproc, THREADS);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
