/* GA_Set_restricted / GA_Set_restricted_range (and the NGA_ spellings): only the listed
 * processes hold data, list[i] holding block i of the distribution computed over the list's
 * length. Checked against a serial reference: the block bounds each process reports
 * (NGA_Distribution: a process outside the list owns nothing), NGA_Locate of every element,
 * NGA_Locate_region of the whole array, direct access by the owners, and the data written
 * through them and read back by every process. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

static double value(int i, int j) {
  return 100.0 * i + j + 0.25;
}

/* Block b of 1..nblocks over n elements, as GA's default distribution cuts one dimension
 * (the first n - (size-1)*nblocks blocks get one more element). */
static void cut(int n, int nblocks, int b, int* lo, int* hi) {
  const int size = (n + nblocks - 1) / nblocks, full = n - (size - 1) * nblocks;
  *lo = b < full ? b * size : full * size + (b - full) * (size - 1);
  *hi = *lo + (b < full ? size : size - 1) - 1;
}

/* Checks a 2-d array of dims whose block k (row-major over a grid of g0 x g1 blocks, starts
 * s0[] and s1[]) belongs to process list[k]; fills it through the owners and reads it back. */
static void check_layout(int g_a, const int dims[2], int g0, const int* s0, int g1, const int* s1,
                         const int* list, int count) {
  const int me = GA_Nodeid(), nprocs = GA_Nnodes();
  int block_of[64];
  for (int p = 0; p < nprocs; ++p) block_of[p] = -1;
  for (int k = 0; k < count; ++k) block_of[list[k]] = k;
  for (int p = 0; p < nprocs; ++p) {
    int lo[2], hi[2];
    NGA_Distribution(g_a, p, lo, hi);
    const int k = block_of[p];
    if (k < 0 || k >= g0 * g1) {
      CHECK(hi[0] < lo[0] || hi[1] < lo[1]);
      continue;
    }
    const int b0 = k / g1, b1 = k % g1;
    CHECK(lo[0] == s0[b0] && hi[0] == (b0 + 1 < g0 ? s0[b0 + 1] : dims[0]) - 1);
    CHECK(lo[1] == s1[b1] && hi[1] == (b1 + 1 < g1 ? s1[b1 + 1] : dims[1]) - 1);
  }
  for (int i = 0; i < dims[0]; ++i)
    for (int j = 0; j < dims[1]; ++j) {
      int b0 = 0, b1 = 0, sub[2] = {i, j};
      while (b0 + 1 < g0 && s0[b0 + 1] <= i) ++b0;
      while (b1 + 1 < g1 && s1[b1 + 1] <= j) ++b1;
      CHECK(NGA_Locate(g_a, sub) == list[b0 * g1 + b1]);
    }
  {
    int lo[2] = {0, 0}, hi[2] = {dims[0] - 1, dims[1] - 1}, map[4 * 64], procs[64];
    const int n = NGA_Locate_region(g_a, lo, hi, map, procs);
    CHECK(n == g0 * g1);
    for (int k = 0; k < n; ++k) {
      int slo[2] = {map[4 * k], map[4 * k + 1]};
      CHECK(NGA_Locate(g_a, slo) == procs[k]);
    }
  }
  /* The owner writes its block in place. */
  const int k = block_of[me];
  if (k >= 0 && k < g0 * g1) {
    int lo[2], hi[2], ld[1];
    double* p = NULL;
    NGA_Distribution(g_a, me, lo, hi);
    NGA_Access(g_a, lo, hi, &p, ld);
    CHECK(p != NULL);
    for (int i = lo[0]; i <= hi[0]; ++i)
      for (int j = lo[1]; j <= hi[1]; ++j) p[(i - lo[0]) * ld[0] + (j - lo[1])] = value(i, j);
    NGA_Release_update(g_a, lo, hi);
  }
  GA_Sync();
  double* all = malloc(sizeof(double) * dims[0] * dims[1]);
  int lo[2] = {0, 0}, hi[2] = {dims[0] - 1, dims[1] - 1}, ld[1] = {dims[1]};
  NGA_Get(g_a, lo, hi, all, ld);
  for (int i = 0; i < dims[0]; ++i)
    for (int j = 0; j < dims[1]; ++j) CHECK(all[i * dims[1] + j] == value(i, j));
  /* Every process adds 1 to one row through the owners; then the row is checked. */
  GA_Sync();
  {
    const int row = dims[0] / 2;
    int rlo[2] = {row, 0}, rhi[2] = {row, dims[1] - 1}, rld[1] = {dims[1]};
    double ones[64], alpha = 1.0;
    for (int j = 0; j < dims[1]; ++j) ones[j] = 1.0;
    NGA_Acc(g_a, rlo, rhi, ones, rld, &alpha);
    GA_Sync();
    NGA_Get(g_a, rlo, rhi, ones, rld);
    for (int j = 0; j < dims[1]; ++j) CHECK(ones[j] == value(row, j) + nprocs);
  }
  free(all);
  GA_Sync();
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  const int nprocs = GA_Nnodes();
  int list[64];

  /* 1: a 1 x 13 row, restricted to every process in reverse order: block i on nprocs-1-i. */
  {
    int dims[2] = {1, 13}, s0[1] = {0}, s1[64];
    for (int i = 0; i < nprocs; ++i) list[i] = nprocs - 1 - i;
    const int blocks = nprocs < 13 ? nprocs : 13;
    for (int b = 0; b < blocks; ++b) {
      int lo, hi;
      cut(13, blocks, b, &lo, &hi);
      s1[b] = lo;
    }
    const int g_a = GA_Create_handle();
    GA_Set_data(g_a, 2, dims, C_DBL);
    GA_Set_restricted(g_a, list, nprocs);
    CHECK(GA_Allocate(g_a) == 1);
    check_layout(g_a, dims, 1, s0, blocks, s1, list, nprocs);
    GA_Destroy(g_a);
  }
  /* 2: a 17-row column on the last process alone (NGA_ spelling). */
  {
    int dims[2] = {17, 1}, s0[1] = {0}, s1[1] = {0};
    list[0] = nprocs - 1;
    const int g_a = NGA_Create_handle();
    NGA_Set_data(g_a, 2, dims, C_DBL);
    NGA_Set_restricted(g_a, list, 1);
    CHECK(NGA_Allocate(g_a) == 1);
    check_layout(g_a, dims, 1, s0, 1, s1, list, 1);
    /* A duplicate keeps the layout. */
    const int g_b = GA_Duplicate(g_a, "restricted copy");
    CHECK(g_b != 0);
    check_layout(g_b, dims, 1, s0, 1, s1, list, 1);
    GA_Destroy(g_b);
    GA_Destroy(g_a);
  }
  /* 3: a range, the upper half of the processes: a 9-row column over them. */
  {
    const int first = nprocs / 2, count = nprocs - first;
    int dims[2] = {9, 1}, s0[64], s1[1] = {0};
    for (int i = 0; i < count; ++i) list[i] = first + i;
    for (int b = 0; b < count; ++b) {
      int lo, hi;
      cut(9, count, b, &lo, &hi);
      s0[b] = lo;
    }
    const int g_a = GA_Create_handle();
    GA_Set_data(g_a, 2, dims, C_DBL);
    GA_Set_restricted_range(g_a, first, nprocs - 1);
    CHECK(GA_Allocate(g_a) == 1);
    check_layout(g_a, dims, count, s0, 1, s1, list, count);
    GA_Destroy(g_a);
  }
  /* 4: an irregular distribution (rows cut at 0, 3, ...) whose blocks go to the processes in
   * an order rotated by one (NGA_Set_restricted_range is not used: the list is not a range). */
  {
    int dims[2] = {3 * nprocs + 1, 5}, s0[64], s1[1] = {0}, nblock[2] = {nprocs, 1}, map[65];
    for (int b = 0; b < nprocs; ++b) map[b] = s0[b] = 3 * b;
    map[nprocs] = 0;
    for (int i = 0; i < nprocs; ++i) list[i] = (i + 1) % nprocs;
    const int g_a = GA_Create_handle();
    GA_Set_data(g_a, 2, dims, C_DBL);
    GA_Set_irreg_distr(g_a, map, nblock);
    GA_Set_restricted(g_a, list, nprocs);
    CHECK(GA_Allocate(g_a) == 1);
    check_layout(g_a, dims, nprocs, s0, 1, s1, list, nprocs);
    GA_Destroy(g_a);
  }
  if (GA_Nodeid() == 0) printf("restricted: all checks passed on %d processes\n", nprocs);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
