/* Failures end the whole job with a message and a non-zero exit, as in GA. The mode (argv[1])
 * picks the failure; the CMake registration checks the exit code and the message.
 *   error      GA_Error("...", 7) on the last rank
 *   nga_error  NGA_Error("...", 9) on rank 0
 *   handle     NGA_Put on a handle that never existed
 *   destroyed  NGA_Get on a destroyed array
 *   read_inc   NGA_Read_inc on a C_DBL array
 *   type       NGA_Create with a type code GA does not have
 *   bounds     NGA_Get outside the array
 *   ma_hard_fail  MA_push_get beyond MA_init's space with hard_fail on (the error callback
 *                 runs first) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "ga.h"
#include "macdecls.h"

static void ma_callback(void) {
  fprintf(stderr, "rank %d: MA error callback ran\n", GA_Nodeid());
  fflush(stderr);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  const char* mode = argc > 1 ? argv[1] : "error";
  int dims[2] = {4, 4}, lo[2] = {0, 0}, hi[2] = {1, 1}, ld[1] = {2};
  double buf[4] = {0};
  int g_a = NGA_Create(C_DBL, 2, dims, "a", NULL);
  GA_Sync();
  if (strcmp(mode, "error") == 0 && GA_Nodeid() == GA_Nnodes() - 1)
    GA_Error("the application gives up", 7);
  if (strcmp(mode, "nga_error") == 0 && GA_Nodeid() == 0) NGA_Error("NGA_Error gives up", 9);
  if (strcmp(mode, "handle") == 0) NGA_Put(12345, lo, hi, buf, ld);
  if (strcmp(mode, "check_handle") == 0) GA_Check_handle(777, "in my solver");
  if (strcmp(mode, "check_unallocated") == 0) GA_Check_handle(GA_Create_handle(), "before use");
  if (strcmp(mode, "destroyed") == 0) {
    GA_Destroy(g_a);
    NGA_Get(g_a, lo, hi, buf, ld);
  }
  if (strcmp(mode, "read_inc") == 0) NGA_Read_inc(g_a, lo, 1);
  if (strcmp(mode, "type") == 0) NGA_Create(4242, 2, dims, "bad", NULL);
  if (strcmp(mode, "bounds") == 0) {
    int far[2] = {4, 1};
    NGA_Get(g_a, lo, far, buf, ld);
  }
  if (strcmp(mode, "read_only") == 0) {
    NGA_Set_property(g_a, "read_only");
    NGA_Put(g_a, lo, hi, buf, ld);
  }
  if (strcmp(mode, "read_only_zero") == 0) { /* a collective write */
    NGA_Set_property(g_a, "read_only");
    GA_Zero(g_a);
  }
  if (strcmp(mode, "property") == 0) NGA_Set_property(g_a, "write_mostly");
  if (strcmp(mode, "restricted") == 0) {
    int list[1] = {GA_Nnodes()};
    GA_Set_restricted(GA_Create_handle(), list, 1);
  }
  if (strcmp(mode, "tiled_irreg") == 0) { /* tile starts not increasing */
    int tdims[2] = {8, 6}, mapc[4] = {0, 5, 3, 0}, nblocks[2] = {3, 1}, grid[2] = {1, 1};
    const int g = GA_Create_handle();
    GA_Set_data(g, 2, tdims, C_DBL);
    GA_Set_tiled_irreg_proc_grid(g, mapc, nblocks, grid);
    GA_Allocate(g);
  }
  if (strcmp(mode, "tiled_count") == 0) { /* more tiles in a dimension than an int counts */
    int64_t tdims[1] = {3000000000LL};
    int block[1] = {1}, grid[1] = {1};
    const int g = GA_Create_handle();
    NGA_Set_data64(g, 1, tdims, C_DBL);
    GA_Set_tiled_proc_grid(g, block, grid);
    GA_Allocate(g);
  }
  if (strcmp(mode, "restricted_range") == 0) NGA_Set_restricted_range(GA_Create_handle(), 1, 0);
  if (strcmp(mode, "ma_hard_fail") == 0) {
    Integer handle;
    MA_AccessIndex index;
    MA_init(MT_DBL, 10, 10);
    MA_set_hard_fail(MA_TRUE);
    MA_set_error_callback(ma_callback);
    MA_push_get(MT_DBL, 100, "big", &handle, &index);
  }
  /* Ranks without a failure of their own wait here for the job to end. */
  GA_Sync();
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
