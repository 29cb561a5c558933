/* Helpers of the collective-operation GA tests: 2-D arrays on three distributions (GA's block
 * default, irregular blocks, ScaLAPACK block-cyclic), and whole-array load/fetch against a
 * serial reference of longs kept identically on every rank (elements hold small integers;
 * complex elements (v, -v), see ga_test_util.h). */
#ifndef REMORA_GA_COLL_UTIL_H
#define REMORA_GA_COLL_UTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "ga.h"
#include "ga_check.h"
#include "ga_test_util.h"

enum { COLL_BLOCK, COLL_IRREGULAR, COLL_SCALAPACK, COLL_LAYOUTS };

/* Collective: a rows x cols array of type on layout (any value, wrapped). */
static inline int coll_create(int layout, int type, int rows, int cols, const char* name) {
  int dims[2] = {rows, cols}, nprocs = GA_Nnodes(), g_a = 0;
  switch (layout % COLL_LAYOUTS) {
    case COLL_BLOCK:
      g_a = NGA_Create(type, 2, dims, (char*)name, NULL);
      break;
    case COLL_IRREGULAR: { /* uneven row blocks over up to nprocs ranks, columns whole */
      int parts = nprocs < rows ? nprocs : rows, block[2] = {parts, 1}, map[64];
      for (int b = 0; b < parts; ++b) map[b] = b == 0 ? 0 : b * rows / parts + (b % 2);
      map[parts] = 0;
      g_a = NGA_Create_irreg(type, 2, dims, (char*)name, block, map);
      break;
    }
    default: { /* 2 x 3 blocks dealt over a 1 x P (2 x 2 at 4 ranks) grid */
      int block[2] = {2, 3}, grid[2] = {nprocs == 4 ? 2 : 1, nprocs == 4 ? 2 : nprocs};
      g_a = GA_Create_handle();
      GA_Set_data(g_a, 2, dims, type);
      GA_Set_array_name(g_a, (char*)name);
      GA_Set_block_cyclic_proc_grid(g_a, block, grid);
      CHECK(GA_Allocate(g_a));
      break;
    }
  }
  CHECK(g_a != 0);
  return g_a;
}

/* Collective: rank 0 puts the reference (n = rows * cols longs) into g_a. */
static inline void coll_load(int g_a, int type, int rows, int cols, const long* ref) {
  if (GA_Nodeid() == 0) {
    char* buf = (char*)malloc((size_t)(rows * cols) * elem_size(type));
    for (long i = 0; i < (long)rows * cols; ++i) set_value(type, buf, i, ref[i]);
    int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols};
    NGA_Put(g_a, lo, hi, buf, ld);
    free(buf);
  }
  GA_Sync();
}

/* Every rank reads g_a and checks it against the reference. */
static inline void coll_expect(int g_a, int type, int rows, int cols, const long* ref,
                               const char* what) {
  char* buf = (char*)malloc((size_t)(rows * cols) * elem_size(type));
  int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols};
  NGA_Get(g_a, lo, hi, buf, ld);
  for (long i = 0; i < (long)rows * cols; ++i) {
    const long got = get_value(type, buf, i);
    if (got != ref[i]) {
      fprintf(stderr, "rank %d: %s (type %d): element %ld is %ld, expected %ld\n", GA_Nodeid(),
              what, type, i, got, ref[i]);
      fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  free(buf);
  GA_Sync();
}

/* Small random integers in [-6, 6]. */
static inline void coll_random(long* ref, long n, uint64_t seed) {
  rng_seed(seed);
  for (long i = 0; i < n; ++i) ref[i] = rng(13) - 6;
}

#endif /* REMORA_GA_COLL_UTIL_H */
