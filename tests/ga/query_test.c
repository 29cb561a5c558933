/* Queries against what they must agree with: the distribution of every rank tiles the array
 * exactly once; NGA_Locate names the rank whose distribution holds the element (on
 * block-cyclic arrays, as GA, the block holding it);
 * NGA_Locate_region splits a patch into pieces inside their owners' distributions; process
 * grid, topology, block information; GA_Compare_distr; creation through GA_Create_handle and
 * the 64-bit forms; GA_Duplicate. */
#include <mpi.h>
#include <stdio.h>

#include "ga.h"
#include "ga_check.h"
#include "ga_test_util.h"
#include "macdecls.h"

static int nprocs, me;

static long volume(int ndim, const int* lo, const int* hi) {
  long v = 1;
  for (int d = 0; d < ndim; ++d) v *= hi[d] >= lo[d] ? hi[d] - lo[d] + 1 : 0;
  return v;
}

static int inside(int ndim, const int* x, const int* lo, const int* hi) {
  for (int d = 0; d < ndim; ++d)
    if (x[d] < lo[d] || x[d] > hi[d]) return 0;
  return 1;
}

/* Block / irregular arrays: distributions tile the array; Locate agrees element by element. */
static void check_regular(int g_a, int ndim, const int* dims) {
  int type, n, d2[GA_MAX_DIM];
  NGA_Inquire(g_a, &type, &n, d2);
  CHECK(n == ndim && GA_Ndim(g_a) == ndim);
  for (int d = 0; d < ndim; ++d) CHECK(d2[d] == dims[d]);
  int64_t d64[GA_MAX_DIM];
  NGA_Inquire64(g_a, &type, &n, d64);
  for (int d = 0; d < ndim; ++d) CHECK(d64[d] == dims[d]);

  int lo[64][GA_MAX_DIM], hi[64][GA_MAX_DIM];
  long covered = 0, total = 1;
  for (int d = 0; d < ndim; ++d) total *= dims[d];
  for (int p = 0; p < nprocs; ++p) {
    NGA_Distribution(g_a, p, lo[p], hi[p]);
    covered += volume(ndim, lo[p], hi[p]);
    int64_t lo64[GA_MAX_DIM], hi64[GA_MAX_DIM];
    NGA_Distribution64(g_a, p, lo64, hi64);
    for (int d = 0; d < ndim; ++d) CHECK(lo64[d] == lo[p][d] && hi64[d] == hi[p][d]);
  }
  CHECK(covered == total);
  for (long k = 0; k < total; ++k) {
    int x[GA_MAX_DIM];
    for (int d = ndim - 1, rest = (int)k; d >= 0; --d) x[d] = rest % dims[d], rest /= dims[d];
    const int owner = NGA_Locate(g_a, x);
    CHECK(owner >= 0 && owner < nprocs && inside(ndim, x, lo[owner], hi[owner]));
    int64_t x64[GA_MAX_DIM];
    to_int64(x, ndim, x64);
    CHECK(NGA_Locate64(g_a, x64) == owner);
  }
  /* Random patches: pieces inside their owners' blocks, volumes add up. */
  for (int r = 0; r < 10; ++r) {
    Patch p = random_patch(ndim, dims, 0);
    int map[64 * 2 * GA_MAX_DIM], procs[64];
    const int count = NGA_Locate_region(g_a, p.lo, p.hi, map, procs);
    CHECK(count >= 1 && count <= nprocs && count == NGA_Locate_nnodes(g_a, p.lo, p.hi));
    long sum = 0;
    for (int i = 0; i < count; ++i) {
      const int* plo = &map[2 * i * ndim];
      const int* phi = &map[(2 * i + 1) * ndim];
      CHECK(inside(ndim, plo, lo[procs[i]], hi[procs[i]]) &&
            inside(ndim, phi, lo[procs[i]], hi[procs[i]]));
      CHECK(inside(ndim, plo, p.lo, p.hi) && inside(ndim, phi, p.lo, p.hi));
      sum += volume(ndim, plo, phi);
    }
    CHECK(sum == p.count);
    Patch64 q = patch64(&p);
    int64_t map64[64 * 2 * GA_MAX_DIM];
    CHECK(NGA_Locate_region64(g_a, q.lo, q.hi, map64, procs) == count);
    CHECK(NGA_Locate_nnodes64(g_a, q.lo, q.hi) == count);
    for (int i = 0; i < 2 * count * ndim; ++i) CHECK(map64[i] == map[i]);
  }
  /* Process grid and topology as GA's C binding gives them: both in Fortran order (its C
     binding copies them without reversing), so the first coordinate varies fastest with the
     rank, and the grid is the reverse of the block counts (which are in C order). */
  int grid[GA_MAX_DIM], cells = 1;
  GA_Get_proc_grid(g_a, grid);
  for (int d = 0; d < ndim; ++d) cells *= grid[d];
  CHECK(cells >= 1 && cells <= nprocs);
  for (int p = 0; p < nprocs; ++p) {
    int coords[GA_MAX_DIM], rank = 0, stride = 1;
    NGA_Proc_topology(g_a, p, coords);
    if (p >= cells) { /* owns nothing: GA wraps it around the grid */
      for (int d = 0, rest = p; d < ndim; rest /= grid[d], ++d) CHECK(coords[d] == rest % grid[d]);
      continue;
    }
    for (int d = 0; d < ndim; ++d) {
      CHECK(coords[d] >= 0 && coords[d] < grid[d]);
      rank += coords[d] * stride;
      stride *= grid[d];
    }
    CHECK(rank == p);
  }
  /* GA_Get_block_info describes block-cyclic arrays only (GA gives zeros here). */
  CHECK(GA_Total_blocks(g_a) == -1);
  {
    int all_lo[GA_MAX_DIM] = {0}, all_hi[GA_MAX_DIM];
    for (int d = 0; d < ndim; ++d) all_hi[d] = dims[d] - 1;
    CHECK(NGA_Locate_num_blocks(g_a, all_lo, all_hi) == -1); /* as GA 5.8 */
  }
  /* GA_Nblock: the partitions per dimension in C order, here the process grid. */
  int nblock[GA_MAX_DIM];
  NGA_Nblock(g_a, nblock);
  for (int d = 0; d < ndim; ++d) CHECK(nblock[d] == grid[ndim - 1 - d]);
  CHECK(GA_Get_dimension(g_a) == ndim && NGA_Get_dimension(g_a) == ndim);
  CHECK(GA_Uses_proc_grid(g_a) == 0);
  /* Outside the array: no owner (GA aborts in NGA_Locate_region for such a patch). */
  int out_lo[GA_MAX_DIM] = {0};
  out_lo[0] = dims[0];
  CHECK(NGA_Locate(g_a, out_lo) == -1);
}

/* Block-cyclic: blocks, their bounds (NGA_Distribution names blocks), and NGA_Locate /
 * NGA_Locate_region naming blocks as GA does. */
static void check_cyclic(int g_a, const int* dims, const int* block) {
  int num_blocks[2], block_dims[2];
  GA_Get_block_info(g_a, num_blocks, block_dims);
  CHECK(block_dims[0] == block[0] && block_dims[1] == block[1]);
  CHECK(num_blocks[0] == (dims[0] + block[0] - 1) / block[0]);
  CHECK(num_blocks[1] == (dims[1] + block[1] - 1) / block[1]);
  CHECK(GA_Total_blocks(g_a) == num_blocks[0] * num_blocks[1]);
  int nblock[2];
  GA_Nblock(g_a, nblock);
  CHECK(nblock[0] == num_blocks[0] && nblock[1] == num_blocks[1]);
  int fortran_grid[2];
  GA_Get_proc_grid(g_a, fortran_grid);
  const int grid[2] = {fortran_grid[1], fortran_grid[0]}; /* C order */
  CHECK(grid[0] * grid[1] <= nprocs);
  long covered = 0;
  for (int b = 0; b < GA_Total_blocks(g_a); ++b) {
    int lo[2], hi[2];
    NGA_Distribution(g_a, b, lo, hi);
    CHECK(lo[0] == (b / num_blocks[1]) * block[0] && lo[1] == (b % num_blocks[1]) * block[1]);
    covered += volume(2, lo, hi);
    /* As GA (5.8, checked): NGA_Locate names the block holding the element, not a rank. */
    CHECK(NGA_Locate(g_a, lo) == b && NGA_Locate(g_a, hi) == b);
  }
  CHECK(covered == (long)dims[0] * dims[1]);
  for (int r = 0; r < 5; ++r) {
    Patch p = random_patch(2, dims, 0);
    int map[4 * 64 * 4], procs[256];
    const int count = NGA_Locate_nnodes(g_a, p.lo, p.hi);
    CHECK(count <= 256);
    /* as GA 5.8: the blocks the patch meets */
    CHECK(NGA_Locate_num_blocks(g_a, p.lo, p.hi) ==
          (p.hi[0] / block[0] - p.lo[0] / block[0] + 1) *
              (p.hi[1] / block[1] - p.lo[1] / block[1] + 1));
    CHECK(NGA_Locate_num_blocks(g_a, p.lo, p.hi) == count);
    CHECK(NGA_Locate_region(g_a, p.lo, p.hi, map, procs) == count);
    long sum = 0;
    for (int i = 0; i < count; ++i) {
      sum += volume(2, &map[4 * i], &map[4 * i + 2]);
      CHECK(NGA_Locate(g_a, &map[4 * i]) == procs[i]);
    }
    CHECK(sum == p.count);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000); /* GA needs MA for its temporary buffers */
  me = GA_Nodeid();
  nprocs = GA_Nnodes();
  rng_seed(99);

  int dims2[2] = {9, 14}, dims3[3] = {4, 7, 5};
  int g_block = NGA_Create(C_DBL, 2, dims2, "block", NULL);
  check_regular(g_block, 2, dims2);
  CHECK(strcmp(GA_Inquire_name(g_block), "block") == 0);

  /* Duplicate: same distribution, own name. */
  int g_dup = GA_Duplicate(g_block, "dup");
  CHECK(g_dup != 0 && g_dup != g_block && GA_Compare_distr(g_block, g_dup) == 0);
  CHECK(strcmp(GA_Inquire_name(g_dup), "dup") == 0);

  /* Irregular, with and without the 64-bit form and the config form (world group: -1). */
  int block[2] = {nprocs > 1 ? 2 : 1, 1}, map[3] = {0, 5, 0};
  if (nprocs == 1) map[1] = 0;
  int g_irr = NGA_Create_irreg_config(C_INT, 2, dims2, "irreg", block, map, -1);
  check_regular(g_irr, 2, dims2);
  int64_t dims64[2] = {9, 14}, block64[2] = {block[0], 1}, map64[3] = {0, map[1], 0};
  int g_irr64 = NGA_Create_irreg64(C_INT, 2, dims64, "irreg64", block64, map64);
  CHECK(GA_Compare_distr(g_irr, g_irr64) == 0);
  if (nprocs > 1) CHECK(GA_Compare_distr(g_irr, g_block) == 1);
  int dims_other[2] = {9, 13};
  int g_other = NGA_Create_config(C_DBL, 2, dims_other, "other", NULL, -1);
  CHECK(GA_Compare_distr(g_block, g_other) == 1);

  /* Chunked: chunk[1] = dims[1] keeps rows whole. */
  int chunk[2] = {1, 14};
  int g_chunk = NGA_Create(C_LONG, 2, dims2, "chunk", chunk);
  check_regular(g_chunk, 2, dims2);
  int lo[2], hi[2];
  NGA_Distribution(g_chunk, me, lo, hi);
  CHECK(hi[1] < lo[1] || (lo[1] == 0 && hi[1] == 13));

  /* The handle sequence, 3-d, with a chunk; and NGA_Create64. */
  int g_h = GA_Create_handle();
  GA_Set_data(g_h, 3, dims3, C_FLOAT);
  GA_Set_array_name(g_h, "handle3d");
  int chunk3[3] = {-1, 7, -1};
  GA_Set_chunk(g_h, chunk3);
  CHECK(GA_Allocate(g_h) == 1);
  check_regular(g_h, 3, dims3);
  int64_t dims3_64[3] = {4, 7, 5}, chunk3_64[3] = {-1, 7, -1};
  int g_64 = NGA_Create64(C_FLOAT, 3, dims3_64, "create64", chunk3_64);
  CHECK(GA_Compare_distr(g_h, g_64) == 0);

  /* GA_Set_irreg_distr through the handle sequence. */
  int g_hi = GA_Create_handle();
  int64_t dims2_64[2] = {9, 14};
  GA_Set_data64(g_hi, 2, dims2_64, C_DBL);
  GA_Set_irreg_distr(g_hi, map, block);
  CHECK(GA_Allocate(g_hi) == 1);
  CHECK(GA_Compare_distr(g_hi, g_irr) == 0);

  /* Block-cyclic (round-robin request and ScaLAPACK grid). */
  int cyc_block[2] = {2, 3}, grid[2] = {1, nprocs};
  int g_bc = GA_Create_handle();
  GA_Set_data(g_bc, 2, dims2, C_DBL);
  GA_Set_block_cyclic(g_bc, cyc_block);
  CHECK(GA_Allocate(g_bc));
  check_cyclic(g_bc, dims2, cyc_block);
  int g_sc = GA_Create_handle();
  GA_Set_data(g_sc, 2, dims2, C_DBL);
  GA_Set_block_cyclic_proc_grid(g_sc, cyc_block, grid);
  CHECK(GA_Allocate(g_sc));
  check_cyclic(g_sc, dims2, cyc_block);
  int got_grid[2];
  GA_Get_proc_grid(g_sc, got_grid);
  CHECK(got_grid[0] == nprocs && got_grid[1] == 1); /* Fortran order, as GA returns it */
  CHECK(GA_Compare_distr(g_sc, g_block) == 1);
  CHECK(GA_Uses_proc_grid(g_sc) == 1 && NGA_Uses_proc_grid(g_sc) == 1);
  CHECK(GA_Uses_proc_grid(g_bc) == 0);

  /* Handle validity, as GA: from GA_Allocate until GA_Destroy (a created handle is not valid
   * before it is allocated). */
  int g_pending = GA_Create_handle();
  CHECK(GA_Valid_handle(g_pending) == 0 && NGA_Verify_handle(g_pending) == 0);
  int pending_dims[2] = {3, 2};
  GA_Set_data(g_pending, 2, pending_dims, C_INT);
  CHECK(GA_Valid_handle(g_pending) == 0 && GA_Verify_handle(g_pending) == 0);
  CHECK(GA_Allocate(g_pending) == 1);
  CHECK(GA_Valid_handle(g_pending) == 1 && NGA_Verify_handle(g_pending) == 1);
  GA_Check_handle(g_pending, "query_test");
  GA_Check_handle(g_sc, "query_test");
  CHECK(GA_Valid_handle(0) == 0 && GA_Verify_handle(12345) == 0 && NGA_Valid_handle(-999999) == 0);
  GA_Destroy(g_pending);
  CHECK(GA_Valid_handle(g_pending) == 0);

  GA_Print_distribution(g_irr);
  GA_Print_distribution(g_sc);

  int handles[] = {g_block, g_dup, g_irr, g_irr64, g_other, g_chunk, g_h, g_64, g_hi, g_bc, g_sc};
  for (size_t i = 0; i < sizeof handles / sizeof handles[0]; ++i) GA_Destroy(handles[i]);
  GA_Terminate();
  MPI_Finalize();
  if (me == 0) printf("ga query: %d ranks ok\n", nprocs);
  return 0;
}
