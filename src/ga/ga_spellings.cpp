// The NGA_ spellings GA provides for GA_ calls with the same arguments: each forwards to the
// GA_ call, which validates its arguments and names itself in its errors.
#include "ga.h"

extern "C" {

int NGA_Allocate(int g_a) {
  return GA_Allocate(g_a);
}
int NGA_Compare_distr(int g_a, int g_b) {
  return GA_Compare_distr(g_a, g_b);
}
int NGA_Create_handle(void) {
  return GA_Create_handle();
}
void NGA_Destroy(int g_a) {
  GA_Destroy(g_a);
}
int NGA_Destroy_mutexes(void) {
  return GA_Destroy_mutexes();
}
void NGA_Dgop(double x[], int n, char* op) {
  GA_Dgop(x, n, op);
}
int NGA_Duplicate(int g_a, char* array_name) {
  return GA_Duplicate(g_a, array_name);
}
void NGA_Error(char* message, int code) {
  GA_Error(message, code);
}
void NGA_Fence(void) {
  GA_Fence();
}
void NGA_Fill(int g_a, void* value) {
  GA_Fill(g_a, value);
}
void NGA_Get_block_info(int g_a, int num_blocks[], int block_dims[]) {
  GA_Get_block_info(g_a, num_blocks, block_dims);
}
int NGA_Get_pgroup(int g_a) {
  return GA_Get_pgroup(g_a);
}
int NGA_Get_pgroup_size(int grp_id) {
  return GA_Get_pgroup_size(grp_id);
}
void NGA_Get_proc_grid(int g_a, int dims[]) {
  GA_Get_proc_grid(g_a, dims);
}
void NGA_Igop(int x[], int n, char* op) {
  GA_Igop(x, n, op);
}
void NGA_Init_fence(void) {
  GA_Init_fence();
}
void NGA_Initialize(void) {
  GA_Initialize();
}
int NGA_Initialize_comm(MPI_Comm comm) {
  return GA_Initialize_comm(comm);
}
void NGA_Initialize_ltd(size_t limit) {
  GA_Initialize_ltd(limit);
}
int NGA_Initialized(void) {
  return GA_Initialized();
}
size_t NGA_Inquire_memory(void) {
  return GA_Inquire_memory();
}
char* NGA_Inquire_name(int g_a) {
  return GA_Inquire_name(g_a);
}
void NGA_Lock(int mutex) {
  GA_Lock(mutex);
}
void NGA_Mask_sync(int first, int last) {
  GA_Mask_sync(first, last);
}
size_t NGA_Memory_avail(void) {
  return GA_Memory_avail();
}
int NGA_Memory_limited(void) {
  return GA_Memory_limited();
}
int NGA_Ndim(int g_a) {
  return GA_Ndim(g_a);
}
int NGA_Nnodes(void) {
  return GA_Nnodes();
}
int NGA_Nodeid(void) {
  return GA_Nodeid();
}
int NGA_Pgroup_create(int* list, int count) {
  return GA_Pgroup_create(list, count);
}
int NGA_Pgroup_destroy(int grp) {
  return GA_Pgroup_destroy(grp);
}
void NGA_Pgroup_dgop(int grp_id, double* x, int n, char* op) {
  GA_Pgroup_dgop(grp_id, x, n, op);
}
int NGA_Pgroup_get_default(void) {
  return GA_Pgroup_get_default();
}
int NGA_Pgroup_get_world(void) {
  return GA_Pgroup_get_world();
}
void NGA_Pgroup_igop(int grp_id, int* x, int n, char* op) {
  GA_Pgroup_igop(grp_id, x, n, op);
}
void NGA_Pgroup_lgop(int grp_id, long* x, int n, char* op) {
  GA_Pgroup_lgop(grp_id, x, n, op);
}
int NGA_Pgroup_nnodes(int grp) {
  return GA_Pgroup_nnodes(grp);
}
int NGA_Pgroup_nodeid(int grp) {
  return GA_Pgroup_nodeid(grp);
}
void NGA_Pgroup_set_default(int grp) {
  GA_Pgroup_set_default(grp);
}
void NGA_Pgroup_sync(int grp_id) {
  GA_Pgroup_sync(grp_id);
}
void NGA_Pgroup_llgop(int grp, long long x[], int n, char* op) {
  GA_Pgroup_llgop(grp, x, n, op);
}
void NGA_Pgroup_fgop(int grp, float x[], int n, char* op) {
  GA_Pgroup_fgop(grp, x, n, op);
}
void NGA_Pgroup_zgop(int grp, DoubleComplex x[], int n, char* op) {
  GA_Pgroup_zgop(grp, x, n, op);
}
int NGA_Pgroup_split(int grp_id, int num_group) {
  return GA_Pgroup_split(grp_id, num_group);
}
int NGA_Pgroup_split_irreg(int grp_id, int color) {
  return GA_Pgroup_split_irreg(grp_id, color);
}
int NGA_Pgroup_self(void) {
  return GA_Pgroup_self();
}
int NGA_Pgroup_duplicate(int grp) {
  return GA_Pgroup_duplicate(grp);
}
int NGA_Pgroup_absolute_id(int pgroup, int pid) {
  return GA_Pgroup_absolute_id(pgroup, pid);
}
int NGA_Pgroup_get_mirror(void) {
  return GA_Pgroup_get_mirror();
}
void NGA_Get_proc_index(int g_a, int iproc, int subscript[]) {
  GA_Get_proc_index(g_a, iproc, subscript);
}
void NGA_List_nodeid(int* list, int nprocs) {
  GA_List_nodeid(list, nprocs);
}
int NGA_Deallocate(int g_a) {
  return GA_Deallocate(g_a);
}
void NGA_Set_memory_limit(size_t limit) {
  GA_Set_memory_limit(limit);
}
void NGA_Set_debug(int flag) {
  GA_Set_debug(flag);
}
int NGA_Get_debug(void) {
  return GA_Get_debug();
}
void NGA_Set_irreg_flag(int g_a, int flag) {
  GA_Set_irreg_flag(g_a, flag);
}
void NGA_Set_memory_dev(int g_a, char* device) {
  GA_Set_memory_dev(g_a, device);
}
void NGA_Set_array_name(int g_a, char* name) {
  GA_Set_array_name(g_a, name);
}
void NGA_Set_block_cyclic(int g_a, int dims[]) {
  GA_Set_block_cyclic(g_a, dims);
}
void NGA_Set_block_cyclic_proc_grid(int g_a, int dims[], int proc_grid[]) {
  GA_Set_block_cyclic_proc_grid(g_a, dims, proc_grid);
}
void NGA_Set_chunk(int g_a, int chunk[]) {
  GA_Set_chunk(g_a, chunk);
}
void NGA_Set_data(int g_a, int ndim, int dims[], int type) {
  GA_Set_data(g_a, ndim, dims, type);
}
void NGA_Set_data64(int g_a, int ndim, int64_t dims[], int type) {
  GA_Set_data64(g_a, ndim, dims, type);
}
void NGA_Set_irreg_distr(int g_a, int map[], int nblock[]) {
  GA_Set_irreg_distr(g_a, map, nblock);
}
void NGA_Set_irreg_distr64(int g_a, int64_t map[], int64_t nblock[]) {
  GA_Set_irreg_distr64(g_a, map, nblock);
}
void NGA_Set_pgroup(int g_a, int p_handle) {
  GA_Set_pgroup(g_a, p_handle);
}
void NGA_Set_tiled_proc_grid(int g_a, int dims[], int proc_grid[]) {
  GA_Set_tiled_proc_grid(g_a, dims, proc_grid);
}
void NGA_Sync(void) {
  GA_Sync();
}
void NGA_Terminate(void) {
  GA_Terminate();
}
int NGA_Total_blocks(int g_a) {
  return GA_Total_blocks(g_a);
}
int NGA_Valid_handle(int g_a) {
  return GA_Valid_handle(g_a);
}
int NGA_Verify_handle(int g_a) {
  return GA_Verify_handle(g_a);
}
int NGA_Get_dimension(int g_a) {
  return GA_Get_dimension(g_a);
}
int NGA_Uses_proc_grid(int g_a) {
  return GA_Uses_proc_grid(g_a);
}
void NGA_Nblock(int g_a, int nblock[]) {
  GA_Nblock(g_a, nblock);
}
void NGA_Unlock(int mutex) {
  GA_Unlock(mutex);
}
int NGA_Uses_ma(void) {
  return GA_Uses_ma();
}
double NGA_Wtime(void) {
  return GA_Wtime();
}
void NGA_Zero(int g_a) {
  GA_Zero(g_a);
}

}  // extern "C"
