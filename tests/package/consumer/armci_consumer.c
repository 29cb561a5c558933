/* An ARMCI program outside the Remora tree, built against an installed Remora's armci.h. */
#include <armci.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ARMCI_Init();
  int me = armci_msg_me(), nproc = armci_msg_nproc();
  void* ptrs[64];
  if (nproc > 64) ARMCI_Error("armci consumer: at most 64 ranks", 1);
  ARMCI_Malloc(ptrs, sizeof(long));
  if (me == 0) *(long*)ptrs[0] = 0;
  ARMCI_Barrier();
  long ticket = -1;
  ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &ticket, ptrs[0], 1, 0);
  ARMCI_Barrier();
  long total = ARMCI_GetValueLong(ptrs[0], 0);
  int ok = total == nproc && ticket >= 0 && ticket < nproc;
  if (me == 0) printf("armci consumer: %d ranks, counter %ld\n", nproc, total);
  if (!ok)
    fprintf(stderr, "armci consumer: rank %d got ticket %ld, counter %ld\n", me, ticket, total);
  ARMCI_Free(ptrs[me]);
  ARMCI_Finalize();
  MPI_Finalize();
  return ok ? 0 : 1;
}
