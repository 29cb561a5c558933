/* A small ARMCI benchmark (armci.h only, MPI start-up), for Remora's libremora_armci and
 * ARMCI-MPI alike (tools/armci-bench.sh builds and runs both): rank 0 works on rank 1's memory
 * while the other ranks wait in a barrier. Prints one line per measure: the mean time per
 * operation over a timed loop (after a warm-up), and bandwidth for the large transfers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <armci.h>
#include <message.h>
#include <mpi.h>

enum { SMALL = 8, LARGE = 1 << 20 };

static double now(void) {
  return MPI_Wtime();
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ARMCI_Init();
  int me = armci_msg_me(), nproc = armci_msg_nproc();
  if (nproc < 2) ARMCI_Error("armci-bench needs 2 ranks", 1);
  void** ptrs = malloc(sizeof(void*) * (size_t)nproc);
  ARMCI_Malloc(ptrs, LARGE);
  char* buf = ARMCI_Malloc_local(LARGE);
  memset(buf, 1, LARGE);
  ARMCI_Barrier();
  if (me == 0) {
    const int target = 1, small_iters = 20000, large_iters = 200, rmw_iters = 20000;
    char* remote = ptrs[target];
    for (int pass = 0; pass < 2; pass++) { /* pass 0: warm-up */
      double t, get_small, put_small, get_large, put_large, fadd, acc;
      t = now();
      for (int i = 0; i < small_iters; i++) ARMCI_Get(remote, buf, SMALL, target);
      get_small = (now() - t) / small_iters;
      t = now();
      for (int i = 0; i < small_iters; i++) {
        ARMCI_Put(buf, remote, SMALL, target);
        ARMCI_Fence(target);
      }
      put_small = (now() - t) / small_iters;
      t = now();
      for (int i = 0; i < large_iters; i++) ARMCI_Get(remote, buf, LARGE, target);
      get_large = (now() - t) / large_iters;
      t = now();
      for (int i = 0; i < large_iters; i++) {
        ARMCI_Put(buf, remote, LARGE, target);
        ARMCI_Fence(target);
      }
      put_large = (now() - t) / large_iters;
      t = now();
      long old = 0;
      for (int i = 0; i < rmw_iters; i++)
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, remote + LARGE - 8, 1, target);
      fadd = (now() - t) / rmw_iters;
      double scale = 1.0;
      t = now();
      for (int i = 0; i < small_iters; i++) {
        ARMCI_Acc(ARMCI_ACC_DBL, &scale, buf, remote, 8 * sizeof(double), target);
        ARMCI_Fence(target);
      }
      acc = (now() - t) / small_iters;
      if (pass == 1) {
        printf("get_8B_us %.3f\n", get_small * 1e6);
        printf("put_fence_8B_us %.3f\n", put_small * 1e6);
        printf("get_1MiB_GBps %.3f\n", LARGE / get_large / 1e9);
        printf("put_fence_1MiB_GBps %.3f\n", LARGE / put_large / 1e9);
        printf("fetch_add_us %.3f\n", fadd * 1e6);
        printf("acc_8dbl_fence_us %.3f\n", acc * 1e6);
      }
    }
  }
  ARMCI_Barrier();
  ARMCI_Free_local(buf);
  ARMCI_Free(ptrs[me]);
  free(ptrs);
  ARMCI_Finalize();
  MPI_Finalize();
  return 0;
}
