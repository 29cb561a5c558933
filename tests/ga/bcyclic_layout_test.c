/* Where GA keeps the elements of block-cyclic arrays, and the calls that show it.
 * GA_Set_block_cyclic (1- to 4-d): block k, numbered row-major over the block grid, lives on
 * rank k mod P, and each rank's memory (NGA_Access_block_segment) holds its blocks in number
 * order, each row-major with its own extents. GA_Set_block_cyclic_proc_grid: block (i, j) on
 * grid position (i mod R, j mod C), rank = row * C + column, each rank's memory its ScaLAPACK
 * local matrix, row-major. Each rank writes f(element) at every place of its own segment,
 * computed from that layout, and every rank then reads the whole array and compares; the
 * queries (GA_Total_blocks, NGA_Get_block_info, NGA_Distribution, NGA_Locate) are checked
 * beside it. Then every rank writes the blocks of its grid position through
 * NGA_Access_block_grid. All as GA 5.8 itself does (tools/ga-reference-run.sh). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

#define MAXD 4

struct shape {
  int ndim, dims[MAXD], block[MAXD];
};

static const struct shape dealt[] = {
    {1, {11}, {3}},
    {2, {10, 9}, {3, 2}},
    {2, {9, 14}, {2, 3}},
    {3, {5, 4, 3}, {2, 3, 2}},
    {4, {4, 3, 5, 2}, {3, 2, 2, 1}},
};

static int me, nprocs;

static double value(long global, int round) {
  return 2.0 * (double)global + 0.5 + 1000000.0 * round;
}

static long elements(const struct shape* s) {
  long n = 1;
  for (int d = 0; d < s->ndim; ++d) n *= s->dims[d];
  return n;
}

/* Every rank reads the whole array and compares it with value(global index, round). */
static void check_all(int g_a, const struct shape* s, int round) {
  const long n = elements(s);
  double* all = malloc(sizeof(double) * (size_t)n);
  int lo[MAXD] = {0}, hi[MAXD], ld[MAXD];
  for (int d = 0; d < s->ndim; ++d) {
    hi[d] = s->dims[d] - 1;
    ld[d] = s->dims[d];
  }
  NGA_Get(g_a, lo, hi, all, ld + 1);
  for (long i = 0; i < n; ++i) CHECK(all[i] == value(i, round));
  free(all);
}

/* This rank's memory of the array through NGA_Access_block_segment (form 0) or its 64 form. */
static double* my_segment(int g_a, int form, long* len) {
  double* seg = NULL;
  if (form == 0) {
    int len32 = -1;
    NGA_Access_block_segment(g_a, me, &seg, &len32);
    *len = len32;
  } else {
    int64_t len64 = -1;
    NGA_Access_block_segment64(g_a, me, &seg, &len64);
    *len = (long)len64;
  }
  return seg;
}

/* GA_Set_block_cyclic: the queries, and my segment filled in GA's layout. */
static void check_dealt(const struct shape* s, int form) {
  const int g_a = GA_Create_handle();
  int dims[MAXD], block[MAXD];
  for (int d = 0; d < s->ndim; ++d) dims[d] = s->dims[d], block[d] = s->block[d];
  GA_Set_data(g_a, s->ndim, dims, C_DBL);
  if (form == 0)
    GA_Set_block_cyclic(g_a, block);
  else
    NGA_Set_block_cyclic(g_a, block);
  CHECK(GA_Allocate(g_a) == 1);
  int counts[MAXD], total = 1;
  for (int d = 0; d < s->ndim; ++d) {
    counts[d] = (s->dims[d] + s->block[d] - 1) / s->block[d];
    total *= counts[d];
  }
  CHECK(GA_Total_blocks(g_a) == total);
  int nb[MAXD], bd[MAXD];
  NGA_Get_block_info(g_a, nb, bd);
  /* (no GA_Get_proc_grid: GA 5.8 has no grid here and returns what its handle slot held) */
  for (int d = 0; d < s->ndim; ++d) CHECK(nb[d] == counts[d] && bd[d] == s->block[d]);
  /* Block k: its bounds (row-major numbering), NGA_Locate naming it, and (mine) its place. */
  long expected_len = 0;
  for (int k = 0; k < total; ++k) {
    int lo[MAXD], hi[MAXD], c[MAXD];
    NGA_Distribution(g_a, k, lo, hi);
    long size = 1;
    for (int d = s->ndim - 1, rest = k; d >= 0; rest /= counts[d], --d) {
      c[d] = rest % counts[d];
      CHECK(lo[d] == c[d] * s->block[d]);
      CHECK(hi[d] == (lo[d] + s->block[d] < s->dims[d] ? lo[d] + s->block[d] : s->dims[d]) - 1);
      size *= hi[d] - lo[d] + 1;
    }
    CHECK(NGA_Locate(g_a, lo) == k && NGA_Locate(g_a, hi) == k);
    if (k % nprocs == me) expected_len += size;
  }
  long len = -1;
  double* seg = my_segment(g_a, form, &len);
  CHECK(len == expected_len && (len == 0 || seg != NULL));
  long at = 0;
  for (int k = me; k < total; k += nprocs) {
    int lo[MAXD], hi[MAXD], i[MAXD];
    NGA_Distribution(g_a, k, lo, hi);
    for (int d = 0; d < s->ndim; ++d) i[d] = lo[d];
    for (;;) { /* the block's elements row-major: their places in my segment, in order */
      long global = 0;
      for (int d = 0; d < s->ndim; ++d) global = global * s->dims[d] + i[d];
      seg[at++] = value(global, 0);
      int d = s->ndim - 1;
      while (d >= 0 && ++i[d] > hi[d]) i[d] = lo[d], --d;
      if (d < 0) break;
    }
  }
  CHECK(at == len);
  /* NGA_Access_block of each of my blocks: a pointer into my segment where the block starts,
   * ld its own extents (GA's pnga_access_block_ptr), not a copy. */
  at = 0;
  for (int k = me; k < total; k += nprocs) {
    int lo[MAXD], hi[MAXD], ld[MAXD] = {0};
    double* p = NULL;
    NGA_Distribution(g_a, k, lo, hi);
    NGA_Access_block(g_a, k, &p, ld);
    CHECK(p == seg + at);
    long size = hi[0] - lo[0] + 1;
    for (int d = 1; d < s->ndim; ++d) {
      CHECK(ld[d - 1] == hi[d] - lo[d] + 1);
      size *= hi[d] - lo[d] + 1;
    }
    NGA_Release_block(g_a, k);
    at += size;
  }
  NGA_Release_update_block_segment(g_a, me);
  GA_Sync();
  check_all(g_a, s, 0);
  GA_Sync();
  GA_Destroy(g_a);
}

/* GA_Set_block_cyclic_proc_grid: the ScaLAPACK local matrix as my segment, then the blocks of
 * my grid position through NGA_Access_block_grid. */
static void check_grid(int form) {
  const struct shape s = {2, {10, 9}, {3, 2}};
  const int rows = nprocs % 2 == 0 ? 2 : 1, cols = nprocs / rows; /* GA: R * C = P */
  int dims[2] = {10, 9}, block[2] = {3, 2}, grid[2] = {rows, cols};
  const int g_a = GA_Create_handle();
  GA_Set_data(g_a, 2, dims, C_DBL);
  GA_Set_block_cyclic_proc_grid(g_a, block, grid);
  CHECK(GA_Allocate(g_a) == 1);
  const int in_grid = me < rows * cols, pr = me / cols, pc = me % cols;
  if (in_grid) {
    long len = -1;
    double* seg = my_segment(g_a, form, &len);
    long at = 0;
    for (int i = 0; i < dims[0]; ++i) {
      if ((i / block[0]) % rows != pr) continue;
      for (int j = 0; j < dims[1]; ++j)
        if ((j / block[1]) % cols == pc) {
          CHECK(at < len);
          seg[at++] = value((long)i * dims[1] + j, 0);
        }
    }
    CHECK(at == len);
    NGA_Release_update_block_segment(g_a, me);
  }
  GA_Sync();
  check_all(g_a, &s, 0);
  GA_Sync();
  const int n0 = (dims[0] + block[0] - 1) / block[0], n1 = (dims[1] + block[1] - 1) / block[1];
  long len = -1;
  double* seg = in_grid ? my_segment(g_a, form, &len) : NULL;
  for (int bi = pr; in_grid && bi < n0; bi += rows)
    for (int bj = pc; bj < n1; bj += cols) {
      double* p = NULL;
      int lo[2] = {bi * block[0], bj * block[1]};
      int hi[2] = {lo[0] + block[0] - 1, lo[1] + block[1] - 1};
      if (hi[0] >= dims[0]) hi[0] = dims[0] - 1;
      if (hi[1] >= dims[1]) hi[1] = dims[1] - 1;
      long ld = 0;
      int index[2] = {bi, bj};
      if (form == 0) {
        int ld32[1];
        NGA_Access_block_grid(g_a, index, &p, ld32);
        ld = ld32[0];
      } else {
        int64_t index64[2] = {bi, bj}, ld64[1];
        NGA_Access_block_grid64(g_a, index64, &p, ld64);
        ld = (long)ld64[0];
      }
      CHECK(p != NULL && ld >= hi[1] - lo[1] + 1);
      /* In place: block (bi, bj) sits in my ScaLAPACK local matrix at local row
       * (bi / rows) * block[0], column (bj / cols) * block[1]. */
      CHECK(p == seg + ((bi / rows) * block[0]) * ld + (bj / cols) * block[1]);
      for (int i = lo[0]; i <= hi[0]; ++i)
        for (int j = lo[1]; j <= hi[1]; ++j)
          p[(i - lo[0]) * ld + (j - lo[1])] = value((long)i * dims[1] + j, 1);
      NGA_Release_update_block_grid(g_a, index);
    }
  GA_Sync();
  check_all(g_a, &s, 1);
  GA_Sync();
  GA_Destroy(g_a);
}

int main(int argc, char** argv) {
  ga_test_begin(&argc, &argv, &me, &nprocs);
  for (int form = 0; form < 2; ++form) {
    for (size_t s = 0; s < sizeof dealt / sizeof dealt[0]; ++s) check_dealt(&dealt[s], form);
    check_grid(form);
  }
  if (me == 0) printf("bcyclic_layout: block-cyclic ownership and memory layout as GA\n");
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
