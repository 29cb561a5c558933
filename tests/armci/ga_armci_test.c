/* ARMCI beside Global Arrays, as GA applications (NWChem) use them: "ga_first": GA_Initialize
 * starts ARMCI too, so ARMCI calls work without an ARMCI_Init of the program's own, and
 * GA_Terminate ends both; "armci_first": ARMCI_Init, then GA_Initialize, GA_Terminate, and
 * ARMCI_Finalize last. Both check a GA array and ARMCI memory used side by side, and that MPI is
 * still usable after both end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <armci.h>
#include <ga.h>
#include <mpi.h>

static int check(int ok, const char* what) {
  if (!ok) {
    printf("rank %d: check failed: %s\n", GA_Nodeid(), what);
    fflush(stdout);
  }
  return ok ? 0 : 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int armci_first = argc > 1 && strcmp(argv[1], "armci_first") == 0;
  if (armci_first) ARMCI_Init();
  GA_Initialize();
  int failures = check(ARMCI_Initialized() == 1, "ARMCI is initialized after GA_Initialize");
  int me = GA_Nodeid(), nproc = GA_Nnodes();
  failures += check(armci_msg_me() == me && armci_msg_nproc() == nproc, "ARMCI ranks are GA's");
  /* A GA counter and an ARMCI counter, each incremented once by every rank. */
  int dims[1] = {1}, zero[1] = {0};
  int g = NGA_Create(C_LONG, 1, dims, "counter", NULL);
  GA_Zero(g);
  void** ptrs = malloc(sizeof(void*) * (size_t)nproc);
  ARMCI_Malloc(ptrs, sizeof(long));
  ARMCI_Barrier();
  GA_Sync();
  long ticket = NGA_Read_inc(g, zero, 1), old = -1;
  ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, ptrs[nproc - 1], 1, nproc - 1);
  GA_Sync();
  ARMCI_Barrier();
  long total = -1;
  NGA_Get(g, zero, zero, &total, NULL);
  failures += check(total == nproc && ticket >= 0 && ticket < nproc, "GA counter");
  failures +=
      check(ARMCI_GetValueLong(ptrs[nproc - 1], nproc - 1) == nproc && old >= 0 && old < nproc,
            "ARMCI counter");
  ARMCI_Free(ptrs[me]);
  free(ptrs);
  GA_Destroy(g);
  GA_Terminate();
  if (armci_first) {
    failures += check(ARMCI_Initialized() == 1, "ARMCI still initialized after GA_Terminate");
    ARMCI_Finalize();
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0)
    printf("ga_armci %s: %d ranks, %s\n", armci_first ? "armci_first" : "ga_first", nproc,
           all == 0 ? "all correct" : "FAILED");
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
