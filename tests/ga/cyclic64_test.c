/* The 64-bit forms of the block-cyclic requests (GA_Set_block_cyclic64,
 * GA_Set_block_cyclic_proc_grid64, GA_Set_tiled_proc_grid64 and their NGA_ spellings) give the
 * layout of the int forms: the same blocks (NGA_Distribution of every block), the same owner
 * of every element (NGA_Locate), the same process grid; and data written through one reads back
 * (on the ScaLAPACK layout each rank writes the blocks GA's rule gives it, in place). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { ROWS = 10, COLS = 9 };

static double value(int i, int j) {
  return 50.0 * i + j + 0.5;
}

/* kind 0: simple block-cyclic, 1: ScaLAPACK grid, 2: tiled grid; form 0: int, 1: GA_ 64, 2: NGA_
 * 64. */
static int make(int kind, int form, const int* grid) {
  int dims[2] = {ROWS, COLS}, block[2] = {3, 2}, pgrid[2] = {grid[0], grid[1]};
  int64_t dims64[2] = {ROWS, COLS}, block64[2] = {3, 2}, grid64[2] = {grid[0], grid[1]};
  const int g = GA_Create_handle();
  if (form == 0)
    GA_Set_data(g, 2, dims, C_DBL);
  else
    GA_Set_data64(g, 2, dims64, C_DBL);
  if (kind == 0) {
    if (form == 0) GA_Set_block_cyclic(g, block);
    if (form == 1) GA_Set_block_cyclic64(g, block64);
    if (form == 2) NGA_Set_block_cyclic64(g, block64);
  } else if (kind == 1) {
    if (form == 0) GA_Set_block_cyclic_proc_grid(g, block, pgrid);
    if (form == 1) GA_Set_block_cyclic_proc_grid64(g, block64, grid64);
    if (form == 2) NGA_Set_block_cyclic_proc_grid64(g, block64, grid64);
  } else {
    if (form == 0) GA_Set_tiled_proc_grid(g, block, pgrid);
    if (form == 1) GA_Set_tiled_proc_grid64(g, block64, grid64);
    if (form == 2) NGA_Set_tiled_proc_grid64(g, block64, grid64);
  }
  CHECK(GA_Allocate(g) == 1);
  return g;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  const int nprocs = GA_Nnodes(), me = GA_Nodeid();
  int grid[2];
  grid[0] = nprocs % 2 == 0 ? 2 : 1;
  grid[1] = nprocs / grid[0];
  for (int kind = 0; kind < 3; ++kind) {
    const int g_int = make(kind, 0, grid);
    const int nblocks = GA_Total_blocks(g_int);
    CHECK(nblocks == 4 * 5);
    for (int form = 1; form <= 2; ++form) {
      const int g = make(kind, form, grid);
      CHECK(GA_Total_blocks(g) == nblocks);
      for (int k = 0; k < nblocks; ++k) {
        int lo_a[2], hi_a[2];
        int64_t lo_b[2], hi_b[2];
        NGA_Distribution(g_int, k, lo_a, hi_a);
        NGA_Distribution64(g, k, lo_b, hi_b);
        CHECK(lo_a[0] == lo_b[0] && lo_a[1] == lo_b[1] && hi_a[0] == hi_b[0] && hi_a[1] == hi_b[1]);
        CHECK(lo_a[0] == (k / 5) * 3 && lo_a[1] == (k % 5) * 2);
      }
      for (int i = 0; i < ROWS; ++i)
        for (int j = 0; j < COLS; ++j) {
          int sub[2] = {i, j};
          int64_t sub64[2] = {i, j};
          CHECK(NGA_Locate(g_int, sub) == NGA_Locate64(g, sub64));
        }
      if (kind > 0) {
        int grid_a[2], grid_b[2];
        GA_Get_proc_grid(g_int, grid_a);
        GA_Get_proc_grid(g, grid_b);
        CHECK(grid_a[0] == grid_b[0] && grid_a[1] == grid_b[1]);
      }
      if (kind == 1) {
        /* Block (i, j) belongs to grid position (i mod grid[0], j mod grid[1]), ranks row-major
         * over the grid (GA's Fortran-order rule seen from C); each rank writes its own.
         * (Not on the tiled layout: GA 5.8's NGA_Get does not see what was written through
         * NGA_Access_block there, even at one process.) */
        for (int k = 0; k < nblocks; ++k) {
          const int bi = k / 5, bj = k % 5;
          if ((bi % grid[0]) * grid[1] + bj % grid[1] != me) continue;
          int lo[2], hi[2], ld[1];
          double* p = NULL;
          NGA_Distribution(g, k, lo, hi);
          NGA_Access_block(g, k, &p, ld);
          CHECK(p != NULL);
          for (int i = lo[0]; i <= hi[0]; ++i)
            for (int j = lo[1]; j <= hi[1]; ++j) p[(i - lo[0]) * ld[0] + (j - lo[1])] = value(i, j);
          NGA_Release_update_block(g, k);
        }
      } else if (me == 0) {
        double buf[ROWS * COLS];
        for (int i = 0; i < ROWS; ++i)
          for (int j = 0; j < COLS; ++j) buf[i * COLS + j] = value(i, j);
        int64_t lo[2] = {0, 0}, hi[2] = {ROWS - 1, COLS - 1}, ld[1] = {COLS};
        NGA_Put64(g, lo, hi, buf, ld);
      }
      GA_Sync();
      double all[ROWS * COLS];
      int lo[2] = {0, 0}, hi[2] = {ROWS - 1, COLS - 1}, ld[1] = {COLS};
      NGA_Get(g, lo, hi, all, ld);
      for (int i = 0; i < ROWS; ++i)
        for (int j = 0; j < COLS; ++j) CHECK(all[i * COLS + j] == value(i, j));
      GA_Sync();
      GA_Destroy(g);
    }
    GA_Destroy(g_int);
  }
  if (me == 0) printf("cyclic64: all checks passed on %d processes\n", nprocs);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
