/* The PARMCI profiling interface: this program defines its own ARMCI_Put and ARMCI_Acc, which
 * count and reach the layer through PARMCI_Put / PARMCI_Acc; with ARMCI_TOOL defined it is
 * also linked with armci_profiling_tool.c (a shared library defining ARMCI_Get and
 * ARMCI_Barrier). Checks that every ARMCI_ call of the program went through the wrappers (the
 * counts), that PARMCI_ calls and the layer's own work do not (the counts stay), and that the
 * data moved. Usage: armci_profiling_test (any number of ranks). */
#include <stdio.h>
#include <stdlib.h>

#include <armci.h>
#include <message.h>
#include <mpi.h>

static int me, nproc, failures, put_calls, put_bytes, accs;

#include "armci_check.h"

int ARMCI_Put(void* src, void* dst, int size, int target) {
  put_calls++;
  put_bytes += size;
  return PARMCI_Put(src, dst, size, target);
}

int ARMCI_Acc(int datatype, void* scale, void* src, void* dst, int bytes, int proc) {
  accs++;
  return PARMCI_Acc(datatype, scale, src, dst, bytes, proc);
}

#ifdef ARMCI_TOOL
extern int armci_tool_gets, armci_tool_get_bytes, armci_tool_barriers;
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ARMCI_Init();
  me = armci_msg_me();
  nproc = armci_msg_nproc();
  int** a = malloc(sizeof(int*) * (size_t)nproc);
  ARMCI_Malloc((void**)a, 8 * sizeof(int));
  ARMCI_Access_begin(a[me]);
  for (int i = 0; i < 8; i++) a[me][i] = 0;
  ARMCI_Access_end(a[me]);
  ARMCI_Barrier();
  int right = (me + 1) % nproc, left = (me - 1 + nproc) % nproc;
  int v[4] = {me, me + 1, me + 2, me + 3}, one = 1, scale = 2;
  ARMCI_Put(v, a[right], sizeof v, right);         /* counted */
  PARMCI_Put(v, a[right] + 4, sizeof(int), right); /* not counted */
  ARMCI_PutValueInt(5, a[right] + 5, right);       /* the layer's own put: not counted */
  for (int r = 0; r < nproc; r++) ARMCI_Acc(ARMCI_ACC_INT, &scale, &one, a[r] + 6, sizeof(int), r);
  ARMCI_Barrier();
  int got[8];
  ARMCI_Get(a[left], got, sizeof got, left); /* through the tool when linked */
  int writer = (left - 1 + nproc) % nproc;
  for (int i = 0; i < 4; i++)
    CHECK(got[i] == writer + i, "got[%d]=%d from rank %d", i, got[i], left);
  CHECK(got[4] == writer && got[5] == 5, "got[4..5]=%d %d", got[4], got[5]);
  CHECK(got[6] == 2 * nproc, "accumulated %d, expected %d", got[6], 2 * nproc);
  CHECK(put_calls == 1 && put_bytes == (int)sizeof v, "ARMCI_Put wrapper saw %d calls, %d bytes",
        put_calls, put_bytes);
  CHECK(accs == nproc, "ARMCI_Acc wrapper saw %d calls, expected %d", accs, nproc);
#ifdef ARMCI_TOOL
  CHECK(armci_tool_gets == 1 && armci_tool_get_bytes == (int)sizeof got,
        "the tool's ARMCI_Get saw %d calls, %d bytes", armci_tool_gets, armci_tool_get_bytes);
  CHECK(armci_tool_barriers == 2, "the tool's ARMCI_Barrier saw %d calls, expected 2",
        armci_tool_barriers);
#endif
  ARMCI_Barrier();
  ARMCI_Free(a[me]);
  free(a);
  int total = failures;
  armci_msg_igop(&total, 1, "+");
  if (me == 0) printf("armci_profiling: %s\n", total == 0 ? "ok" : "FAILED");
  ARMCI_Finalize();
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
