/* GA_Set_tiled_irreg_proc_grid (and NGA_, 64): an 11 x 10 array cut into 5 x 4 tiles of
 * irregular extents (rows at 0, 2, 5, 6, 9; columns at 0, 3, 4, 8), dealt over a process grid.
 * Checked against the tiles computed here: GA_Total_blocks, NGA_Distribution of every tile
 * (tiles numbered row-major), NGA_Locate of every element, NGA_Locate_region of an inner patch
 * (the tiles it meets, clipped), data written tile by tile by the rank the grid gives each tile
 * and read back whole by every rank, and the same layout from the other spellings. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { ROWS = 11, COLS = 10, NT0 = 5, NT1 = 4 };
static const int row_starts[NT0] = {0, 2, 5, 6, 9}, col_starts[NT1] = {0, 3, 4, 8};

static double value(int i, int j) {
  return 100.0 * i + j + 0.75;
}

static void tile(int k, int lo[2], int hi[2]) {
  const int i = k / NT1, j = k % NT1;
  lo[0] = row_starts[i];
  hi[0] = (i + 1 < NT0 ? row_starts[i + 1] : ROWS) - 1;
  lo[1] = col_starts[j];
  hi[1] = (j + 1 < NT1 ? col_starts[j + 1] : COLS) - 1;
}

static int tile_of(int i, int j) {
  int ti = 0, tj = 0;
  while (ti + 1 < NT0 && row_starts[ti + 1] <= i) ++ti;
  while (tj + 1 < NT1 && col_starts[tj + 1] <= j) ++tj;
  return ti * NT1 + tj;
}

/* form 0: GA_ int, 1: NGA_ int, 2: GA_ 64, 3: NGA_ 64. */
static int make(int form, const int grid[2]) {
  int dims[2] = {ROWS, COLS}, nblocks[2] = {NT0, NT1}, mapc[NT0 + NT1],
      pgrid[2] = {grid[0], grid[1]};
  int64_t nblocks64[2] = {NT0, NT1}, mapc64[NT0 + NT1], grid64[2] = {grid[0], grid[1]};
  for (int k = 0; k < NT0; ++k) mapc[k] = row_starts[k], mapc64[k] = row_starts[k];
  for (int k = 0; k < NT1; ++k) mapc[NT0 + k] = col_starts[k], mapc64[NT0 + k] = col_starts[k];
  const int g = GA_Create_handle();
  GA_Set_data(g, 2, dims, C_DBL);
  if (form == 0) GA_Set_tiled_irreg_proc_grid(g, mapc, nblocks, pgrid);
  if (form == 1) NGA_Set_tiled_irreg_proc_grid(g, mapc, nblocks, pgrid);
  if (form == 2) GA_Set_tiled_irreg_proc_grid64(g, mapc64, nblocks64, grid64);
  if (form == 3) NGA_Set_tiled_irreg_proc_grid64(g, mapc64, nblocks64, grid64);
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
  for (int form = 0; form < 4; ++form) {
    const int g = make(form, grid);
    CHECK(GA_Total_blocks(g) == NT0 * NT1);
    for (int k = 0; k < NT0 * NT1; ++k) {
      int lo[2], hi[2], elo[2], ehi[2];
      NGA_Distribution(g, k, lo, hi);
      tile(k, elo, ehi);
      CHECK(lo[0] == elo[0] && lo[1] == elo[1] && hi[0] == ehi[0] && hi[1] == ehi[1]);
    }
    for (int i = 0; i < ROWS; ++i)
      for (int j = 0; j < COLS; ++j) {
        int sub[2] = {i, j};
        CHECK(NGA_Locate(g, sub) == tile_of(i, j));
      }
    {
      int lo[2] = {1, 2}, hi[2] = {7, 8}, map[4 * NT0 * NT1], procs[NT0 * NT1], n = 0;
      const int count = NGA_Locate_region(g, lo, hi, map, procs);
      for (int i = 0; i < NT0; ++i)
        for (int j = 0; j < NT1; ++j) {
          int tlo[2], thi[2];
          tile(i * NT1 + j, tlo, thi);
          if (thi[0] < lo[0] || tlo[0] > hi[0] || thi[1] < lo[1] || tlo[1] > hi[1]) continue;
          CHECK(n < count && procs[n] == i * NT1 + j);
          CHECK(map[4 * n] == (tlo[0] > lo[0] ? tlo[0] : lo[0]));
          CHECK(map[4 * n + 1] == (tlo[1] > lo[1] ? tlo[1] : lo[1]));
          CHECK(map[4 * n + 2] == (thi[0] < hi[0] ? thi[0] : hi[0]));
          CHECK(map[4 * n + 3] == (thi[1] < hi[1] ? thi[1] : hi[1]));
          ++n;
        }
      CHECK(n == count);
    }
    /* Tile (i, j) is written by grid position (i mod grid[0], j mod grid[1]), ranks row-major. */
    for (int k = 0; k < NT0 * NT1; ++k) {
      const int i = k / NT1, j = k % NT1;
      if ((i % grid[0]) * grid[1] + j % grid[1] != me) continue;
      int lo[2], hi[2], ld[1];
      tile(k, lo, hi);
      double buf[ROWS * COLS];
      ld[0] = hi[1] - lo[1] + 1;
      for (int r = lo[0]; r <= hi[0]; ++r)
        for (int c = lo[1]; c <= hi[1]; ++c) buf[(r - lo[0]) * ld[0] + (c - lo[1])] = value(r, c);
      NGA_Put(g, lo, hi, buf, ld);
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
  if (me == 0) printf("tiled_irreg: all checks passed on %d processes\n", nprocs);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
