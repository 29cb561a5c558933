/* NGA_Set_property(g_a, "read_only"): the same patches, read many times by every rank with
 * NGA_Get, NGA_NbGet, NGA_Strided_get and NGA_Periodic_get, hold the values written before the
 * property was set (checked against the serial reference, element by element); after
 * NGA_Unset_property the array takes writes again and gets see them. Also a 3-d int array and
 * "read_cache": gets stay correct, and (Remora's cache, REMORA_GA_READ_CACHE_KEEPS) what a rank
 * has read is kept until it synchronises or writes the array itself: another rank's write
 * ordered only by MPI_Barrier is not seen, after GA_Sync it is. Writes while read-only:
 * error_test's read_only and read_only_zero modes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { N0 = 37, N1 = 29 };

static double ref2(int i, int j, int generation) {
  return 1000.0 * i + j + 0.25 + 100000.0 * generation;
}

static void fill2(int g_a, int generation) {
  if (GA_Nodeid() == 0) {
    double* buf = malloc(sizeof(double) * N0 * N1);
    for (int i = 0; i < N0; ++i)
      for (int j = 0; j < N1; ++j) buf[i * N1 + j] = ref2(i, j, generation);
    int lo[2] = {0, 0}, hi[2] = {N0 - 1, N1 - 1}, ld[1] = {N1};
    NGA_Put(g_a, lo, hi, buf, ld);
    free(buf);
  }
  GA_Sync();
}

/* This rank writes every element of generation `generation` (no synchronisation). */
static void fill2_here(int g_a, int generation) {
  double* buf = malloc(sizeof(double) * N0 * N1);
  for (int i = 0; i < N0; ++i)
    for (int j = 0; j < N1; ++j) buf[i * N1 + j] = ref2(i, j, generation);
  int lo[2] = {0, 0}, hi[2] = {N0 - 1, N1 - 1}, ld[1] = {N1};
  NGA_Put(g_a, lo, hi, buf, ld);
  free(buf);
}

/* Reads patches all over the array (every owner's) several ways; checks every element. */
static void read_patches(int g_a, int generation, int rounds) {
  const int me = GA_Nodeid();
  double buf[16 * 16];
  unsigned seed = 12345u + 77u * (unsigned)me;
  for (int r = 0; r < rounds; ++r) {
    seed = seed * 1103515245u + 12345u;
    int lo[2] = {(int)(seed >> 8) % N0, (int)(seed >> 16) % N1};
    int hi[2] = {lo[0] + (int)(seed % 16u), lo[1] + (int)((seed >> 4) % 16u)};
    if (hi[0] >= N0) hi[0] = N0 - 1;
    if (hi[1] >= N1) hi[1] = N1 - 1;
    int ld[1] = {16};
    const int way = r % 3;
    if (way == 0) {
      NGA_Get(g_a, lo, hi, buf, ld);
    } else {
      ga_nbhdl_t h;
      NGA_NbGet(g_a, lo, hi, buf, ld, &h);
      NGA_NbWait(&h);
    }
    for (int i = lo[0]; i <= hi[0]; ++i)
      for (int j = lo[1]; j <= hi[1]; ++j)
        CHECK(buf[(i - lo[0]) * 16 + (j - lo[1])] == ref2(i, j, generation));
  }
  /* Every second element of rows 1..9 and columns 2..20 (strided), and a patch wrapping round
   * the last column (periodic). */
  int lo[2] = {1, 2}, hi[2] = {9, 20}, skip[2] = {2, 2}, ld[1] = {10};
  double sbuf[5 * 10];
  NGA_Strided_get(g_a, lo, hi, skip, sbuf, ld);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 10; ++j) CHECK(sbuf[i * 10 + j] == ref2(1 + 2 * i, 2 + 2 * j, generation));
  int plo[2] = {N0 - 2, N1 - 3}, phi[2] = {N0 + 1, N1 + 1}, pld[1] = {5};
  double pbuf[4 * 5];
  NGA_Periodic_get(g_a, plo, phi, pbuf, pld);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j)
      CHECK(pbuf[i * 5 + j] == ref2((N0 - 2 + i) % N0, (N1 - 3 + j) % N1, generation));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  const int me = GA_Nodeid();
  int dims[2] = {N0, N1};
  const int g_a = NGA_Create(C_DBL, 2, dims, "density", NULL);
  CHECK(g_a != 0);
  fill2(g_a, 1);
  NGA_Set_property(g_a, "read_only");
  read_patches(g_a, 1, 200);
  NGA_Unset_property(g_a);
  fill2(g_a, 2); /* writable again */
  read_patches(g_a, 2, 20);
  NGA_Set_property(g_a, "read_only"); /* a second replica holds the new values */
  read_patches(g_a, 2, 50);
  NGA_Unset_property(g_a);
  GA_Set_property(g_a, "read_cache");
  read_patches(g_a, 2, 20);
  GA_Unset_property(g_a);
  GA_Sync();
#ifdef REMORA_GA_READ_CACHE_KEEPS
  if (GA_Nnodes() > 1) {
    const int last = GA_Nnodes() - 1;
    fill2(g_a, 3);
    NGA_Set_property(g_a, "read_cache");
    read_patches(g_a, 3, 20);
    double* buf = malloc(sizeof(double) * N0 * N1);
    int lo[2] = {0, 0}, hi[2] = {N0 - 1, N1 - 1}, ld[1] = {N1};
    NGA_Get(g_a, lo, hi, buf, ld); /* every block read (and kept) */
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == last) { /* every element, ordered by MPI_Barrier only */
      fill2_here(g_a, 4);
      GA_Fence();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (me != last) { /* the whole array: what this rank read before (its own block too) */
      NGA_Get(g_a, lo, hi, buf, ld);
      for (int i = 0; i < N0; ++i)
        for (int j = 0; j < N1; ++j) CHECK(buf[i * N1 + j] == ref2(i, j, 3));
    }
    free(buf);
    GA_Sync();
    read_patches(g_a, 4, 20);
    GA_Sync();
    /* A rank's own write empties its cache: it reads what it wrote. */
    if (me == 0) {
      double v = -1.5, got = 0;
      int at[2] = {N0 - 1, N1 - 1}, one[1] = {1};
      NGA_Put(g_a, at, at, &v, one);
      NGA_Get(g_a, at, at, &got, one);
      CHECK(got == -1.5);
    }
    GA_Unset_property(g_a);
    GA_Sync();
  }
#endif
  GA_Destroy(g_a);

  /* A 3-d int array: gets of whole planes from the replica. */
  int d3[3] = {5, 6, 7};
  const int g_b = NGA_Create(C_INT, 3, d3, "planes", NULL);
  if (me == 0) {
    int all[5 * 6 * 7];
    for (int k = 0; k < 5 * 6 * 7; ++k) all[k] = 3 * k + 1;
    int lo[3] = {0, 0, 0}, hi[3] = {4, 5, 6}, ld[2] = {6, 7};
    NGA_Put(g_b, lo, hi, all, ld);
  }
  GA_Sync();
  NGA_Set_property(g_b, "read_only");
  for (int rep = 0; rep < 10; ++rep)
    for (int p = 0; p < 5; ++p) {
      int plane[2 * 7], lo[3] = {p, 2, 0}, hi[3] = {p, 3, 6}, ld[2] = {2, 7};
      NGA_Get(g_b, lo, hi, plane, ld);
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 7; ++k) CHECK(plane[j * 7 + k] == 3 * ((p * 6 + 2 + j) * 7 + k) + 1);
    }
  NGA_Unset_property(g_b);
  GA_Destroy(g_b);
  if (me == 0) printf("property: read_only gets match the reference\n");
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
