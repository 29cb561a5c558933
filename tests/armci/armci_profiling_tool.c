/* A profiling tool in a shared library of its own (libarmci_profiling_tool), linked before
 * libremora_armci: its ARMCI_Get and ARMCI_Barrier count the calls and reach the layer through
 * PARMCI_Get and PARMCI_Barrier (armci_profiling_test.c). */
#include <armci.h>

int armci_tool_gets = 0, armci_tool_get_bytes = 0, armci_tool_barriers = 0;

int ARMCI_Get(void* src, void* dst, int size, int target) {
  armci_tool_gets++;
  armci_tool_get_bytes += size;
  return PARMCI_Get(src, dst, size, target);
}

void ARMCI_Barrier(void) {
  armci_tool_barriers++;
  PARMCI_Barrier();
}
