/* Atomics and synchronisation: NGA_Read_inc tickets are handed out exactly once (C_INT,
 * C_LONG and F_INT counters); a counter updated under GA_Lock with get + put loses no
 * increment; GA_Fence makes a put visible before an MPI message says so; NGA_Access /
 * NGA_Release_update write in place (also an access never released, and blocks of a
 * block-cyclic array with NGA_Access_block). */
#include <mpi.h>
#include <stdio.h>

#include "ga-mpi.h"
#include "ga.h"
#include "ga_check.h"
#include "ga_test_util.h"
#include "macdecls.h"

enum { TICKETS = 40, LOCKED_INCREMENTS = 25 };
static int nprocs, me;

static void tickets(int type) {
  int dims[1] = {3}, subscript[1] = {1};
  int g_counter = NGA_Create(type, 1, dims, "counter", NULL);
  if (me == 0) {
    char zeros[3 * 16] = {0};
    int lo[1] = {0}, hi[1] = {2};
    NGA_Put(g_counter, lo, hi, zeros, NULL);
  }
  GA_Sync();
  long mine[TICKETS];
  for (int i = 0; i < TICKETS; ++i) {
    if (i % 2) {
      int64_t s64[1] = {1};
      mine[i] = NGA_Read_inc64(g_counter, s64, 1);
    } else {
      mine[i] = NGA_Read_inc(g_counter, subscript, 1);
    }
  }
  long* all = malloc(sizeof(long) * TICKETS * (size_t)nprocs);
  MPI_Allgather(mine, TICKETS, MPI_LONG, all, TICKETS, MPI_LONG, GA_MPI_Comm());
  char* seen = calloc((size_t)(TICKETS * nprocs), 1);
  for (int i = 0; i < TICKETS * nprocs; ++i) {
    CHECK(all[i] >= 0 && all[i] < TICKETS * nprocs && !seen[all[i]]);
    seen[all[i]] = 1;
  }
  GA_Sync();
  /* The counter holds the total; increments other than 1 too. */
  CHECK(NGA_Read_inc(g_counter, subscript, 0) == TICKETS * nprocs);
  GA_Sync();
  const long before = NGA_Read_inc(g_counter, subscript, 10);
  CHECK(before >= TICKETS * nprocs && (before - TICKETS * nprocs) % 10 == 0);
  free(all);
  free(seen);
  GA_Destroy(g_counter);
}

static void locked_counter(void) {
  int dims[1] = {2};
  int g_a = NGA_Create(C_DBL, 1, dims, "locked", NULL);
  CHECK(GA_Create_mutexes(2) == 1);
  int lo[1] = {1}, hi[1] = {1};
  if (me == 0) {
    double zero = 0;
    NGA_Put(g_a, lo, hi, &zero, NULL);
  }
  GA_Sync();
  for (int i = 0; i < LOCKED_INCREMENTS; ++i) {
    GA_Lock(1);
    double value;
    NGA_Get(g_a, lo, hi, &value, NULL);
    value += 1;
    GA_Init_fence(); /* GA requires it before GA_Fence */
    NGA_Put(g_a, lo, hi, &value, NULL);
    GA_Fence(); /* the put is complete before the lock is released */
    GA_Unlock(1);
  }
  GA_Sync();
  double total = 0;
  NGA_Get(g_a, lo, hi, &total, NULL);
  CHECK(total == (double)(LOCKED_INCREMENTS * nprocs));
  CHECK(GA_Destroy_mutexes() == 1);
  GA_Destroy(g_a);
}

/* GA_Init_fence / GA_Fence: rank 0 puts, fences, then tells rank 1 with an MPI message. */
static void fence(void) {
  int dims[2] = {6, 6};
  int g_a = NGA_Create(C_INT, 2, dims, "fence", NULL);
  GA_Sync();
  int lo[2] = {2, 0}, hi[2] = {3, 5}, ld[1] = {6}, values[12], got[12];
  for (int i = 0; i < 12; ++i) values[i] = 100 + i;
  if (me == 0) {
    GA_Init_fence();
    NGA_Put(g_a, lo, hi, values, ld);
    GA_Fence();
    if (nprocs > 1) MPI_Send(values, 1, MPI_INT, 1, 5, GA_MPI_Comm());
  }
  if (me == 1 || nprocs == 1) {
    if (nprocs > 1) MPI_Recv(got, 1, MPI_INT, 0, 5, GA_MPI_Comm(), MPI_STATUS_IGNORE);
    NGA_Get(g_a, lo, hi, got, ld);
    for (int i = 0; i < 12; ++i) CHECK(got[i] == 100 + i);
  }
  GA_Sync();
  GA_Destroy(g_a);
}

/* Each rank writes its own block in place; an access left open is harmless. */
static void access_release(void) {
  int dims[2] = {10, 7};
  int g_a = NGA_Create(C_DBL, 2, dims, "access", NULL);
  int lo[2], hi[2], ld[1];
  NGA_Distribution(g_a, me, lo, hi);
  const int owns = hi[0] >= lo[0] && hi[1] >= lo[1];
  if (owns) {
    double* p = NULL;
    NGA_Access(g_a, lo, hi, &p, ld);
    CHECK(p != NULL && ld[0] >= hi[1] - lo[1] + 1);
    for (int i = 0; i <= hi[0] - lo[0]; ++i)
      for (int j = 0; j <= hi[1] - lo[1]; ++j) p[i * ld[0] + j] = (lo[0] + i) * 100 + lo[1] + j;
    NGA_Release_update(g_a, lo, hi);
    /* Access again and never release it. */
    double* q = NULL;
    NGA_Access(g_a, lo, hi, &q, ld);
    CHECK(q[0] == lo[0] * 100 + lo[1]);
  }
  GA_Sync();
  /* The 64-bit access of a remote-or-local patch reads the same values; released read-only. */
  int64_t lo64[2] = {0, 0}, hi64[2] = {9, 6}, ld64[1];
  double* all = NULL;
  NGA_Access64(g_a, lo64, hi64, &all, ld64);
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 7; ++j) CHECK(all[i * ld64[0] + j] == i * 100 + j);
  NGA_Release64(g_a, lo64, hi64);
  /* Later operations are unaffected by the open access. */
  double v[70];
  int wlo[2] = {0, 0}, whi[2] = {9, 6}, wld[1] = {7};
  GA_Sync();
  if (me == nprocs - 1) {
    for (int i = 0; i < 70; ++i) v[i] = -i;
    NGA_Put(g_a, wlo, whi, v, wld);
  }
  GA_Sync();
  NGA_Get(g_a, wlo, whi, v, wld);
  for (int i = 0; i < 70; ++i) CHECK(v[i] == -i);
  GA_Sync();
  GA_Destroy(g_a); /* with the access still open */
}

/* Block-cyclic: every rank writes the blocks it owns through NGA_Access_block. */
static void access_blocks(void) {
  int dims[2] = {7, 9}, block[2] = {2, 4};
  int g_a = GA_Create_handle();
  GA_Set_data(g_a, 2, dims, C_LONG);
  GA_Set_array_name(g_a, "blocks");
  GA_Set_block_cyclic(g_a, block);
  CHECK(GA_Allocate(g_a));
  GA_Sync();
  for (int b = 0; b < GA_Total_blocks(g_a); ++b) {
    int lo[2], hi[2], ld[1];
    NGA_Distribution(g_a, b, lo, hi);
    if (b % nprocs != me) continue; /* GA deals block b to rank b mod P (NGA_Locate names b) */
    long* p = NULL;
    NGA_Access_block(g_a, b, &p, ld);
    for (int i = 0; i <= hi[0] - lo[0]; ++i)
      for (int j = 0; j <= hi[1] - lo[1]; ++j) p[i * ld[0] + j] = (lo[0] + i) * 10 + lo[1] + j + b;
    NGA_Release_update_block(g_a, b);
  }
  GA_Sync();
  long all[63];
  int lo[2] = {0, 0}, hi[2] = {6, 8}, ld[1] = {9};
  NGA_Get(g_a, lo, hi, all, ld);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 9; ++j) {
      const int b = (i / 2) * 3 + j / 4;
      CHECK(all[i * 9 + j] == i * 10 + j + b);
    }
  /* Read-only block access, released without update. */
  long* p = NULL;
  int bld[1];
  NGA_Access_block(g_a, 0, &p, bld);
  CHECK(p[0] == 0 && p[1] == 1);
  NGA_Release_block(g_a, 0);
  GA_Sync();
  GA_Destroy(g_a);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000); /* GA needs MA for its temporary buffers */
  me = GA_Nodeid();
  nprocs = GA_Nnodes();
  tickets(C_INT);
  tickets(C_LONG);
  tickets(F_INT);
  locked_counter();
  fence();
  access_release();
  access_blocks();
  GA_Mask_sync(0, 1); /* accepted; synchronisation stays */
  GA_Sync();
  GA_Terminate();
  MPI_Finalize();
  if (me == 0) printf("ga sync: %d ranks ok\n", nprocs);
  return 0;
}
