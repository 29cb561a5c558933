/* The default distribution GA chooses (NGA_Create without and with chunk): for each shape and
 * rank count, the block starts per dimension (C order) must be those Global Arrays 5.8 gives;
 * the table below was printed by this program run on GA 5.8 (`distr_test print`). Ranks own
 * the blocks in row-major order of the block grid (the last dimension fastest), ranks beyond
 * the grid own nothing, NGA_Proc_topology and GA_Get_proc_grid agree with that (GA's C
 * binding: Fortran order, not reversed), and the distributions tile the array. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

struct shape {
  int ndim;
  int dims[3];
  int has_chunk;
  int chunk[3];
};

static const struct shape shapes[] = {
    {1, {10}, 0, {0}},
    {1, {7}, 0, {0}},
    {1, {3}, 0, {0}},
    {1, {1000}, 0, {0}},
    {2, {9, 14}, 0, {0}},
    {2, {14, 9}, 0, {0}},
    {2, {10, 10}, 0, {0}},
    {2, {100, 3}, 0, {0}},
    {2, {3, 100}, 0, {0}},
    {2, {7, 5}, 0, {0}},
    {2, {1, 20}, 0, {0}},
    {2, {20, 1}, 0, {0}},
    {2, {2, 2}, 0, {0}},
    {2, {17, 23}, 0, {0}},
    {2, {5, 1000}, 0, {0}},
    {3, {4, 6, 8}, 0, {0}},
    {3, {10, 10, 10}, 0, {0}},
    {3, {2, 3, 5}, 0, {0}},
    {3, {1, 1, 7}, 0, {0}},
    {3, {9, 14, 3}, 0, {0}},
    {2, {9, 14}, 1, {3, -1}},
    {2, {9, 14}, 1, {-1, 7}},
    {2, {100, 100}, 1, {50, 50}},
    {2, {100, 100}, 1, {0, 10}},
    {2, {100, 100}, 1, {10, 0}},
    {2, {6, 4}, 1, {4, 4}},
    {3, {12, 10, 8}, 1, {-1, 5, -1}},
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

/* Expected block starts, "s0,s1,...|s0,...", per shape, for 1, 2, 3, 4 and 6 ranks. */
static const int rank_counts[] = {1, 2, 3, 4, 6};
#include "distr_expected.h"

/* The block starts of g_a per dimension, from every rank's distribution, as a string. */
static void describe(int g_a, int ndim, const int* dims, int nprocs, char* out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int d = 0; d < ndim; ++d) {
    int starts[64], n = 0;
    for (int p = 0; p < nprocs; ++p) {
      int lo[GA_MAX_DIM], hi[GA_MAX_DIM], empty = 0;
      NGA_Distribution(g_a, p, lo, hi);
      for (int e = 0; e < ndim; ++e)
        if (hi[e] < lo[e]) empty = 1;
      if (empty) continue;
      CHECK(lo[d] >= 0 && hi[d] < dims[d]);
      int seen = 0;
      for (int k = 0; k < n; ++k)
        if (starts[k] == lo[d]) seen = 1;
      if (!seen) starts[n++] = lo[d];
    }
    for (int k = 0; k < n; ++k)
      used += (size_t)snprintf(out + used, size - used, "%s%d", k > 0 ? "," : (d > 0 ? "|" : ""),
                               starts[k]);
  }
}

/* Rank p owns block (c_0, ..., c_n-1) of the block grid in row-major order; beyond it, nothing.
 * NGA_Proc_topology gives the coordinates in Fortran order; GA_Get_proc_grid the grid so. */
static void check_layout(int g_a, int ndim, const int* dims, int nprocs) {
  int grid[GA_MAX_DIM], cells = 1;
  GA_Get_proc_grid(g_a, grid); /* Fortran order */
  for (int d = 0; d < ndim; ++d) cells *= grid[d];
  CHECK(cells >= 1 && cells <= nprocs);
  long covered = 0, total = 1;
  for (int d = 0; d < ndim; ++d) total *= dims[d];
  for (int p = 0; p < nprocs; ++p) {
    int lo[GA_MAX_DIM], hi[GA_MAX_DIM];
    NGA_Distribution(g_a, p, lo, hi);
    long v = 1;
    for (int d = 0; d < ndim; ++d) v *= hi[d] >= lo[d] ? hi[d] - lo[d] + 1 : 0;
    covered += v;
    if (p >= cells) {
      CHECK(v == 0);
      continue;
    }
    CHECK(v > 0);
    int coords[GA_MAX_DIM];
    NGA_Proc_topology(g_a, p, coords);
    int index = 0;
    for (int d = 0; d < ndim; ++d) { /* C dimension d is Fortran dimension ndim-1-d */
      const int c = coords[ndim - 1 - d];
      CHECK(c >= 0 && c < grid[ndim - 1 - d]);
      index = index * grid[ndim - 1 - d] + c;
    }
    CHECK(index == p);
  }
  CHECK(covered == total);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  const int nprocs = GA_Nnodes(), me = GA_Nodeid();
  const int print = argc > 1 && strcmp(argv[1], "print") == 0;
  int column = -1;
  for (int k = 0; k < (int)(sizeof rank_counts / sizeof rank_counts[0]); ++k)
    if (rank_counts[k] == nprocs) column = k;
  for (int s = 0; s < NSHAPES; ++s) {
    const struct shape* sh = &shapes[s];
    int dims[3], chunk[3];
    memcpy(dims, sh->dims, sizeof dims);
    memcpy(chunk, sh->chunk, sizeof chunk);
    const int g_a = NGA_Create(C_DBL, sh->ndim, dims, "distr", sh->has_chunk ? chunk : NULL);
    CHECK(g_a != 0);
    char got[512];
    describe(g_a, sh->ndim, dims, nprocs, got, sizeof got);
    if (print) {
      if (me == 0) printf("    /* %d */ \"%s\",\n", s, got);
    } else {
      check_layout(g_a, sh->ndim, dims, nprocs);
      if (column >= 0 && strcmp(got, expected[s][column]) != 0) {
        fprintf(stderr, "rank %d: shape %d on %d ranks: block starts %s, GA's are %s\n", me, s,
                nprocs, got, expected[s][column]);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    }
    GA_Destroy(g_a);
  }
  GA_Sync();
  if (me == 0 && !print) printf("distr: %d shapes match GA's distribution\n", NSHAPES);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
