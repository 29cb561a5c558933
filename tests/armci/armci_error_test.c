/* ARMCI misuse that must end the job with a message naming the call and the bad argument
 * (tests/armci/CMakeLists.txt matches the message). Usage: armci_error_test <mode>, 2 ranks. */
#include <stdlib.h>
#include <string.h>

#include <armci.h>
#include <armcix.h>
#include <message.h>
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ARMCI_Init();
  const char* mode = argc > 1 ? argv[1] : "";
  int me = armci_msg_me();
  void* ptrs[2];
  ARMCI_Malloc(ptrs, 8 * sizeof(double));
  ARMCI_Create_mutexes(2);
  double buf[8] = {0};
  if (me == 0) {
    if (strcmp(mode, "proc") == 0) ARMCI_Put(buf, ptrs[1], 8, 9);
    if (strcmp(mode, "address") == 0) ARMCI_Get(buf, buf, 8, 1);
    if (strcmp(mode, "past_end") == 0) ARMCI_Put(buf, (double*)ptrs[1] + 7, 16, 1);
    if (strcmp(mode, "datatype") == 0) {
      double scale = 1;
      ARMCI_Acc(17, &scale, buf, ptrs[1], 8, 1);
    }
    if (strcmp(mode, "stride") == 0) {
      int stride[9] = {0}, count[10] = {8, 1, 1, 1, 1, 1, 1, 1, 1, 1};
      ARMCI_PutS(buf, stride, ptrs[1], stride, count, 9, 1);
    }
    if (strcmp(mode, "unlock") == 0) ARMCI_Unlock(0, 0);
    if (strcmp(mode, "mutex") == 0) ARMCI_Lock(3, 1);
    if (strcmp(mode, "rmw") == 0) {
      int old = 0;
      ARMCI_Rmw(7, &old, ptrs[1], 1, 1);
    }
    if (strcmp(mode, "error") == 0) ARMCI_Error("the application gives up", 5);
  }
  if (strcmp(mode, "op") == 0) armci_msg_dgop(buf, 1, "avg");
  if (strcmp(mode, "group_list") == 0) {
    int list[2] = {0, 0};
    ARMCI_Group g;
    ARMCI_Group_create(2, list, &g);
  }
  if (strncmp(mode, "group_", 6) == 0) {
    int list[1] = {1};
    ARMCI_Group g, world;
    ARMCI_Group_create(1, list, &g);
    ARMCI_Group_get_world(&world);
    if (me == 0 && strcmp(mode, "group_member") == 0) ARMCI_Absolute_id(&g, 0);
    if (me == 0 && strcmp(mode, "group_rank") == 0) ARMCI_Absolute_id(&world, 5);
    if (me == 0 && strcmp(mode, "group_freed") == 0) {
      ARMCI_Group copy = g;
      int size = 0;
      ARMCI_Group_free(&g);
      ARMCI_Group_size(&copy, &size);
    }
  }
  if (strncmp(mode, "x_", 2) == 0) { /* armcix.h */
    ARMCI_Group world, alone;
    ARMCI_Group_get_world(&world);
    if (strcmp(mode, "x_color") == 0) ARMCIX_Group_split(&world, -1, 0, &alone);
    ARMCIX_Group_split(&world, me, 0, &alone); /* each rank a group of its own */
    armcix_mutex_hdl_t own = ARMCIX_Create_mutexes_hdl(1, &alone);
    if (me == 0 && strcmp(mode, "x_member") == 0) ARMCIX_Lock_hdl(own, 0, 1);
    if (strcmp(mode, "x_handle") == 0) {
      ARMCIX_Destroy_mutexes_hdl(own);
      if (me == 0) ARMCIX_Trylock_hdl(own, 0, 0);
    }
  }
  ARMCI_Barrier();
  ARMCI_Destroy_mutexes();
  ARMCI_Free(ptrs[me]);
  ARMCI_Finalize();
  MPI_Finalize();
  return 0; /* not reached in any mode: each must end the job */
}
