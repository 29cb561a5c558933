/* A whole GA program as a user writes one: MPI_Init and GA_Initialize, or with the argument
 * "args" GA_Initialize_args without MPI_Init (GA starts MPI); a 2-d grid on GA's default
 * distribution, each rank finding its four neighbours from NGA_Proc_topology and GA_Get_proc_grid,
 * and Jacobi sweeps in which every rank fetches the rows and columns bordering its block with
 * NGA_NbGet and polls NGA_NbTest while it updates its block's inside; the largest change per sweep
 * reduced with GA_Dgop(..., "max"). After the sweeps the grid must equal a serial run of the same
 * sweeps exactly; then GA_Terminate and the program's own MPI_Finalize, which must succeed.
 * Behaviours 1-3 of GA compatibility (NbTest's 1 once complete, topology coordinates in GA's order,
 * MPI left to the program). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga.h"
#include "ga_check.h"
#include "macdecls.h"

enum { ROWS = 23, COLS = 17, SWEEPS = 10 };

static double boundary(int i, int j) {
  return (double)(i * 3 + j * 5 % 7);
}

/* The grid before the first sweep: fixed values on its edge, zeros inside. */
static double initial(int i, int j) {
  return i == 0 || j == 0 || i == ROWS - 1 || j == COLS - 1 ? boundary(i, j) : 0.0;
}

/* One sweep of the serial reference; returns the largest change. */
static double serial_sweep(const double* from, double* to) {
  double change = 0.0;
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) {
      const int k = i * COLS + j;
      if (i == 0 || j == 0 || i == ROWS - 1 || j == COLS - 1) {
        to[k] = from[k];
        continue;
      }
      to[k] = 0.25 * (from[k - COLS] + from[k + COLS] + from[k - 1] + from[k + 1]);
      change = fmax(change, fabs(to[k] - from[k]));
    }
  return change;
}

/* The rank at C-order grid coordinates (r, c), or -1 off the grid. GA's C binding gives
   coordinates in Fortran order: coords[1] is the row, coords[0] the column. */
static int rank_at(const int grid[2], int r, int c) {
  if (r < 0 || c < 0 || r >= grid[1] || c >= grid[0]) return -1;
  return r * grid[0] + c;
}

int main(int argc, char** argv) {
  /* "args": GA_Initialize_args starts MPI (GA's MPI ports do; GA 5.8 over ARMCI-MPI needs
     MPI_Init first, so the reference run on GA uses the other start). */
  const int ga_starts_mpi = argc > 1 && strcmp(argv[1], "args") == 0;
  if (ga_starts_mpi) {
    ga_test_begin_without_mpi(&argc, &argv);
  } else {
    MPI_Init(&argc, &argv);
    GA_Initialize();
  }
  MA_init(C_DBL, 100000, 100000);
  const int me = GA_Nodeid(), nprocs = GA_Nnodes();
  int dims[2] = {ROWS, COLS};
  int g_old = NGA_Create(C_DBL, 2, dims, "grid", NULL);
  int g_new = GA_Duplicate(g_old, "next");
  CHECK(g_old != 0 && g_new != 0);

  int lo[2], hi[2];
  NGA_Distribution(g_old, me, lo, hi);
  const int owns = hi[0] >= lo[0] && hi[1] >= lo[1];
  int grid[2], coords[2] = {-1, -1};
  GA_Get_proc_grid(g_old, grid);
  int north = -1, south = -1, west = -1, east = -1;
  if (owns) {
    NGA_Proc_topology(g_old, me, coords);
    CHECK(rank_at(grid, coords[1], coords[0]) == me);
    north = rank_at(grid, coords[1] - 1, coords[0]);
    south = rank_at(grid, coords[1] + 1, coords[0]);
    west = rank_at(grid, coords[1], coords[0] - 1);
    east = rank_at(grid, coords[1], coords[0] + 1);
    /* Each neighbour owns the element just beyond this block's side, and none beyond an edge. */
    int out[2] = {lo[0] - 1, lo[1]};
    CHECK(lo[0] == 0 ? north == -1 : NGA_Locate(g_old, out) == north);
    out[0] = hi[0] + 1;
    CHECK(hi[0] == ROWS - 1 ? south == -1 : NGA_Locate(g_old, out) == south);
    out[0] = lo[0], out[1] = lo[1] - 1;
    CHECK(lo[1] == 0 ? west == -1 : NGA_Locate(g_old, out) == west);
    out[1] = hi[1] + 1;
    CHECK(hi[1] == COLS - 1 ? east == -1 : NGA_Locate(g_old, out) == east);
  }

  /* The initial grid, each rank writing its own block. */
  const int brows = owns ? hi[0] - lo[0] + 1 : 0, bcols = owns ? hi[1] - lo[1] + 1 : 0;
  /* This block with a border of one element on every side (filled from the neighbours). */
  const int prow = brows + 2, pcol = bcols + 2;
  double* padded = malloc(sizeof(double) * (size_t)(prow > 0 ? prow : 1) * (pcol > 0 ? pcol : 1));
  double* next = malloc(sizeof(double) * (size_t)(brows > 0 ? brows * bcols : 1));
  CHECK(padded != NULL && next != NULL);
  if (owns) {
    for (int i = 0; i < brows; ++i)
      for (int j = 0; j < bcols; ++j) next[i * bcols + j] = initial(lo[0] + i, lo[1] + j);
    int ld[1] = {bcols};
    NGA_Put(g_old, lo, hi, next, ld);
  }
  GA_Sync();

  double* serial = malloc(sizeof(double) * ROWS * COLS);
  double* serial_next = malloc(sizeof(double) * ROWS * COLS);
  CHECK(serial != NULL && serial_next != NULL);
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) serial[i * COLS + j] = initial(i, j);

  long polls = 0;
  for (int sweep = 0; sweep < SWEEPS; ++sweep) {
    double change = 0.0;
    if (owns) {
      /* This block into the padded buffer's middle, then the four borders fetched without
         blocking from the neighbours (a side on the grid's edge has none). */
      int ld[1] = {pcol};
      NGA_Get(g_old, lo, hi, padded + pcol + 1, ld);
      ga_nbhdl_t h[4];
      int pending[4] = {0, 0, 0, 0};
      const int nb[4] = {north, south, west, east};
      for (int s = 0; s < 4; ++s) {
        if (nb[s] < 0) continue;
        int blo[2] = {lo[0], lo[1]}, bhi[2] = {hi[0], hi[1]};
        double* into = padded;
        if (s == 0) blo[0] = bhi[0] = lo[0] - 1, into = padded + 1;
        if (s == 1) blo[0] = bhi[0] = hi[0] + 1, into = padded + (prow - 1) * pcol + 1;
        if (s == 2) blo[1] = bhi[1] = lo[1] - 1, into = padded + pcol;
        if (s == 3) blo[1] = bhi[1] = hi[1] + 1, into = padded + pcol + pcol - 1;
        NGA_NbGet(g_old, blo, bhi, into, ld, &h[s]);
        pending[s] = 1;
      }
      /* The inside of the block needs no border: computed while the borders arrive. */
      for (int pass = 0; pass < 2; ++pass)
        for (int i = 0; i < brows; ++i)
          for (int j = 0; j < bcols; ++j) {
            const int gi = lo[0] + i, gj = lo[1] + j;
            const int edge_of_block = i == 0 || j == 0 || i == brows - 1 || j == bcols - 1;
            if (edge_of_block != (pass == 1)) continue;
            if (pass == 1) /* GA's polling idiom: 1 once the operation is complete */
              for (int s = 0; s < 4; ++s)
                while (pending[s] && !NGA_NbTest(&h[s])) ++polls;
            const double* c = padded + (i + 1) * pcol + (j + 1);
            double v = *c;
            if (gi != 0 && gj != 0 && gi != ROWS - 1 && gj != COLS - 1)
              v = 0.25 * (c[-pcol] + c[pcol] + c[-1] + c[1]);
            change = fmax(change, fabs(v - *c));
            next[i * bcols + j] = v;
          }
      for (int s = 0; s < 4; ++s)
        if (pending[s]) {
          CHECK(NGA_NbTest(&h[s]) == 1); /* still 1 once complete */
          NGA_NbWait(&h[s]);
        }
      int nld[1] = {bcols};
      NGA_Put(g_new, lo, hi, next, nld);
    }
    GA_Dgop(&change, 1, "max");
    GA_Sync();
    const int t = g_old;
    g_old = g_new, g_new = t;
    const double want = serial_sweep(serial, serial_next);
    double* u = serial;
    serial = serial_next, serial_next = u;
    CHECK(change == want);
  }
  (void)polls; /* how often NbTest found a get pending depends on timing, not asserted */

  double* all = malloc(sizeof(double) * ROWS * COLS);
  CHECK(all != NULL);
  int alo[2] = {0, 0}, ahi[2] = {ROWS - 1, COLS - 1}, ald[1] = {COLS};
  NGA_Get(g_old, alo, ahi, all, ald);
  for (int k = 0; k < ROWS * COLS; ++k) CHECK(all[k] == serial[k]);
  CHECK(serial[(ROWS / 2) * COLS + COLS / 2] > 0.0); /* the edge values reached the middle */

  free(all), free(serial), free(serial_next), free(padded), free(next);
  GA_Destroy(g_old);
  GA_Destroy(g_new);
  if (me == 0) printf("halo_app: %d sweeps on %d ranks equal the serial ones\n", SWEEPS, nprocs);
  GA_Terminate();
  int finalized = 1;
  MPI_Finalized(&finalized);
  CHECK(!finalized); /* GA leaves MPI to the program */
  CHECK(MPI_Finalize() == MPI_SUCCESS);
  return 0;
}
