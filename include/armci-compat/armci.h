/* ARMCI-compatible C API on Remora (libremora_armci). The declarations match ARMCI-MPI's armci.h
 * (the ARMCI that GA 5.x and NWChem build on) for every call provided here, which is every call
 * of ARMCI-MPI's armci.h and message.h (its armcix.h extensions are not provided; see
 * docs/global-arrays.md, "ARMCI").
 *
 * Memory from ARMCI_Malloc is a Remora window (remora/win.h) under a passive-target epoch for
 * its whole life: remote addresses are the pointers ARMCI_Malloc returned to each rank, and any
 * rank may put, get, accumulate and update it at any time. Put and accumulate complete locally
 * when they return (the source buffer may be reused) and remotely after ARMCI_Fence(proc),
 * ARMCI_AllFence or ARMCI_Barrier; get returns with the data. An invalid argument ends the job
 * with a message naming the call, the argument and its value (as ARMCI_Error does). */
#ifndef _ARMCI_H_
#define _ARMCI_H_

#include <mpi.h>

/* Defined by this implementation (ARMCI-MPI defines ARMCI_MPI instead). */
#define REMORA_ARMCI 1

enum ARMCI_Acc_e {
  ARMCI_ACC_INT /* int */,
  ARMCI_ACC_LNG /* long */,
  ARMCI_ACC_FLT /* float */,
  ARMCI_ACC_DBL /* double */,
  ARMCI_ACC_CPL /* single complex: two floats */,
  ARMCI_ACC_DCP /* double complex: two doubles */
};

typedef long armci_size_t;

#ifdef __cplusplus
extern "C" {
#endif

/* Start-up. Collective. Repeated calls are counted: the matching number of ARMCI_Finalize calls
 * ends ARMCI (as ARMCI-MPI, for GA and TCGMSG which call them more than once). MPI may be
 * initialised first (then the program calls MPI_Finalize after ARMCI_Finalize); without it,
 * under remorarun, the job runs on shared memory with no MPI. */
int ARMCI_Init(void);
int ARMCI_Init_args(int* argc, char*** argv);
/* armci_requested: an MPI thread level (MPI_THREAD_SINGLE .. MPI_THREAD_MULTIPLE). */
int ARMCI_Init_thread(int armci_requested);
/* ARMCI on comm's processes only (MPI must be initialised); ranks are comm's ranks. */
int ARMCI_Init_thread_comm(int armci_requested, MPI_Comm comm);
int ARMCI_Initialized(void);
/* Collective. Frees what ARMCI_Malloc and ARMCI_Create_mutexes left allocated. */
int ARMCI_Finalize(void);
void ARMCI_Cleanup(void);
/* Prints msg and code with the rank and ends the whole job. */
void ARMCI_Error(const char* msg, int code);

/* Collective. Every rank allocates size bytes (may differ per rank, may be 0) of remotely
 * accessible memory; base_ptrs[r] (an array of ARMCI's number of ranks) receives rank r's
 * address, NULL where r gave 0 bytes. Returns 0. */
int ARMCI_Malloc(void** base_ptrs, armci_size_t size);
/* Collective. ptr: this rank's address from ARMCI_Malloc (NULL where it gave 0 bytes). */
int ARMCI_Free(void* ptr);
/* Local memory usable as a source or destination (plain heap memory here). */
void* ARMCI_Malloc_local(armci_size_t size);
int ARMCI_Free_local(void* ptr);

/* ARMCI_AllFence, then a barrier of every rank: afterwards every rank's puts and accumulates
 * are visible everywhere, also to loads from the target's own memory. */
void ARMCI_Barrier(void);
/* Remote completion of this rank's puts and accumulates to proc (every proc). */
void ARMCI_Fence(int proc);
void ARMCI_AllFence(void);
/* Direct loads and stores to this rank's own ARMCI_Malloc memory between the two calls. */
void ARMCI_Access_begin(void* ptr);
void ARMCI_Access_end(void* ptr);

/* Local copy of size bytes. */
void ARMCI_Copy(void* src, void* dst, int size);

/* Contiguous transfers: the remote address (src of Get, dst of Put and Acc) lies in proc's
 * ARMCI_Malloc memory. Acc: dst[i] += scale * src[i] in elements of datatype (ARMCI_ACC_*;
 * scale points to one element of that type, complex for CPL and DCP), atomic per element. */
int ARMCI_Get(void* src, void* dst, int size, int target);
int ARMCI_Put(void* src, void* dst, int size, int target);
int ARMCI_Acc(int datatype, void* scale, void* src, void* dst, int bytes, int proc);

/* Strided transfers: count[0] contiguous bytes, repeated count[1] times at strides
 * src_stride_ar[0] / dst_stride_ar[0] bytes, that whole count[2] times at strides [1], ... for
 * stride_levels levels (0: contiguous; at most 8). */
int ARMCI_PutS(void* src_ptr, int src_stride_ar[/*stride_levels*/], void* dst_ptr,
               int dst_stride_ar[/*stride_levels*/], int count[/*stride_levels+1*/],
               int stride_levels, int proc);
int ARMCI_GetS(void* src_ptr, int src_stride_ar[/*stride_levels*/], void* dst_ptr,
               int dst_stride_ar[/*stride_levels*/], int count[/*stride_levels+1*/],
               int stride_levels, int proc);
int ARMCI_AccS(int datatype, void* scale, void* src_ptr, int src_stride_ar[/*stride_levels*/],
               void* dst_ptr, int dst_stride_ar[/*stride_levels*/], int count[/*stride_levels+1*/],
               int stride_levels, int proc);

/* Put, then (once it is complete at proc) store value into the int at flag on proc. */
int ARMCI_Put_flag(void* src, void* dst, int size, int* flag, int value, int proc);
int ARMCI_PutS_flag(void* src_ptr, int src_stride_ar[/*stride_levels*/], void* dst_ptr,
                    int dst_stride_ar[/*stride_levels*/], int count[/*stride_levels+1*/],
                    int stride_levels, int* flag, int value, int proc);

/* Nonblocking handles (ARMCI-MPI's layout). */
typedef struct armci_hdl_s {
  int target;
  int aggregate;
} armci_hdl_t;

void ARMCI_INIT_HANDLE(armci_hdl_t* hdl);
void ARMCI_SET_AGGREGATE_HANDLE(armci_hdl_t* handle);
void ARMCI_UNSET_AGGREGATE_HANDLE(armci_hdl_t* handle);

/* Nonblocking forms: each contiguous piece is a request-based window operation. Wait (and Test
 * returning 0, ARMCI's "complete") mean a get's data has arrived and a put's or accumulate's
 * source may be reused; WaitProc / WaitAll do that for every nonblocking call to proc / to
 * every rank, NULL handles included. Remote completion: ARMCI_Fence, ARMCI_AllFence or
 * ARMCI_Barrier, which also complete the requests. ARMCI_NbPutValue* complete at once. On one
 * node every operation is already complete when the call returns. */
int ARMCI_NbPut(void* src, void* dst, int bytes, int proc, armci_hdl_t* hdl);
int ARMCI_NbGet(void* src, void* dst, int bytes, int proc, armci_hdl_t* hdl);
int ARMCI_NbAcc(int datatype, void* scale, void* src, void* dst, int bytes, int proc,
                armci_hdl_t* hdl);

int ARMCI_Wait(armci_hdl_t* hdl);
int ARMCI_Test(armci_hdl_t* hdl);
int ARMCI_WaitProc(int proc);
int ARMCI_WaitAll(void);

int ARMCI_NbPutS(void* src_ptr, int src_stride_ar[/*stride_levels*/], void* dst_ptr,
                 int dst_stride_ar[/*stride_levels*/], int count[/*stride_levels+1*/],
                 int stride_levels, int proc, armci_hdl_t* hdl);
int ARMCI_NbGetS(void* src_ptr, int src_stride_ar[/*stride_levels*/], void* dst_ptr,
                 int dst_stride_ar[/*stride_levels*/], int count[/*stride_levels+1*/],
                 int stride_levels, int proc, armci_hdl_t* hdl);
int ARMCI_NbAccS(int datatype, void* scale, void* src_ptr, int src_stride_ar[/*stride_levels*/],
                 void* dst_ptr, int dst_stride_ar[/*stride_levels*/],
                 int count[/*stride_levels+1*/], int stride_levels, int proc, armci_hdl_t* hdl);

/* Local strided copies between ptr (the strided side) and the packed buffer buf. */
void armci_write_strided(void* ptr, int stride_levels, int stride_arr[], int count[], char* buf);
void armci_read_strided(void* ptr, int stride_levels, int stride_arr[], int count[], char* buf);

/* Generalized I/O vectors: ptr_array_len segments of bytes bytes each, from src_ptr_array[i]
 * to dst_ptr_array[i]. */
typedef struct {
  void** src_ptr_array; /* source addresses of the segments */
  void** dst_ptr_array; /* destination addresses of the segments */
  int bytes;            /* bytes in each segment */
  int ptr_array_len;    /* number of segments */
} armci_giov_t;

int ARMCI_PutV(armci_giov_t* iov, int iov_len, int proc);
int ARMCI_GetV(armci_giov_t* iov, int iov_len, int proc);
int ARMCI_AccV(int datatype, void* scale, armci_giov_t* iov, int iov_len, int proc);

int ARMCI_NbPutV(armci_giov_t* iov, int iov_len, int proc, armci_hdl_t* handle);
int ARMCI_NbGetV(armci_giov_t* iov, int iov_len, int proc, armci_hdl_t* handle);
int ARMCI_NbAccV(int datatype, void* scale, armci_giov_t* iov, int iov_len, int proc,
                 armci_hdl_t* handle);

/* Single values. */
int ARMCI_PutValueInt(int src, void* dst, int proc);
int ARMCI_PutValueLong(long src, void* dst, int proc);
int ARMCI_PutValueFloat(float src, void* dst, int proc);
int ARMCI_PutValueDouble(double src, void* dst, int proc);

int ARMCI_NbPutValueInt(int src, void* dst, int proc, armci_hdl_t* hdl);
int ARMCI_NbPutValueLong(long src, void* dst, int proc, armci_hdl_t* hdl);
int ARMCI_NbPutValueFloat(float src, void* dst, int proc, armci_hdl_t* hdl);
int ARMCI_NbPutValueDouble(double src, void* dst, int proc, armci_hdl_t* hdl);

int ARMCI_GetValueInt(void* src, int proc);
long ARMCI_GetValueLong(void* src, int proc);
float ARMCI_GetValueFloat(void* src, int proc);
double ARMCI_GetValueDouble(void* src, int proc);

/* Mutexes. Create: collective, count mutexes on this rank (may differ per rank, may be 0);
 * destroy: collective. Lock(mutex, proc) waits for mutex number mutex of rank proc; Unlock
 * first completes this rank's puts and accumulates everywhere (ARMCI_AllFence), so the next
 * holder sees what was written under the lock. */
int ARMCI_Create_mutexes(int count);
int ARMCI_Destroy_mutexes(void);
void ARMCI_Lock(int mutex, int proc);
void ARMCI_Unlock(int mutex, int proc);

/* Atomic read-modify-write of the int (ARMCI_FETCH_AND_ADD, ARMCI_SWAP) or long (_LONG forms)
 * at prem on proc: fetch-and-add stores the old value at ploc and adds value; swap exchanges
 * *ploc with the remote value (value unused). */
enum ARMCI_Rmw_e { ARMCI_FETCH_AND_ADD, ARMCI_FETCH_AND_ADD_LONG, ARMCI_SWAP, ARMCI_SWAP_LONG };

int ARMCI_Rmw(int op, void* ploc, void* prem, int value, int proc);

/* Groups. An ARMCI_Group is a value naming a group of this rank (copies name the same group):
 * id (the layer's index of the group; 0: the world group), rank (this rank's rank in it, -1
 * when it is not a member) and size (0 when it is not a member). Ranks in pid_list are ranks
 * of the parent group; the transfers still take absolute ranks (ARMCI_Absolute_id converts).
 * ARMCI_Group_create(_child): collective over the default (the parent) group, every member
 * passing the same list; a rank outside the list receives a group with rank -1 and size 0.
 * ARMCI_Group_free: local on a non-member, collective over a member group's ranks otherwise;
 * the world group and the default group cannot be freed. ARMCI_Malloc and ARMCI_Free work
 * over the default group (ARMCI_Group_set_default; initially the world group): base_ptrs then
 * has the default group's size, indexed by group rank. ARMCI_Malloc_group / ARMCI_Free_group:
 * collective over group, ptr_arr indexed by group rank. */
typedef struct {
  int id;   /* the group's index in this rank's table of groups (0: the world group) */
  int rank; /* this rank's rank in the group, -1 when it is not a member */
  int size; /* the number of members, 0 when this rank is not a member */
} ARMCI_Group;

void ARMCI_Group_create(int grp_size, int* pid_list, ARMCI_Group* group_out);
void ARMCI_Group_create_child(int grp_size, int* pid_list, ARMCI_Group* group_out,
                              ARMCI_Group* group_parent);
void ARMCI_Group_free(ARMCI_Group* group);
/* *rank: -1 when this rank is not a member. Returns 0 for a member, 1 otherwise. */
int ARMCI_Group_rank(ARMCI_Group* group, int* rank);
void ARMCI_Group_size(ARMCI_Group* group, int* size);
/* group must contain this rank. */
void ARMCI_Group_set_default(ARMCI_Group* group);
void ARMCI_Group_get_default(ARMCI_Group* group_out);
void ARMCI_Group_get_world(ARMCI_Group* group_out);
/* The absolute (world) rank of group_rank in group. */
int ARMCI_Absolute_id(ARMCI_Group* group, int group_rank);
int ARMCI_Malloc_group(void** ptr_arr, armci_size_t bytes, ARMCI_Group* group);
int ARMCI_Free_group(void* ptr, ARMCI_Group* group);
/* ARMCI-MPI's memory-device forms: device (any string, not NULL) is not used; the memory is
 * that of ARMCI_Malloc / ARMCI_Malloc_group, freed by ARMCI_Free_memdev over the default group
 * (or ARMCI_Free / ARMCI_Free_group). */
int ARMCI_Malloc_memdev(void** ptr_arr, armci_size_t bytes, const char* device);
int ARMCI_Malloc_group_memdev(void** ptr_arr, armci_size_t bytes, ARMCI_Group* group,
                              const char* device);
int ARMCI_Free_memdev(void* ptr);

#ifdef __cplusplus
}
#endif

/* The message-passing calls (armci_msg_*). */
#include <message.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Topology: ARMCI_DOMAIN_SMP is a node (the ranks that share memory). */
enum armci_domain_e { ARMCI_DOMAIN_SMP };

typedef int armci_domain_t;

int armci_domain_nprocs(armci_domain_t domain, int id);
int armci_domain_id(armci_domain_t domain, int glob_proc_id);
int armci_domain_glob_proc_id(armci_domain_t domain, int id, int loc_proc_id);
int armci_domain_my_id(armci_domain_t domain);
int armci_domain_count(armci_domain_t domain);
int armci_domain_same_id(armci_domain_t domain, int proc);

int ARMCI_Same_node(int proc);

/* 1: ranks on one node reach each other's ARMCI memory through shared memory. */
int ARMCI_Uses_shm(void);
/* Accepted; Remora sizes its shared memory itself. */
void ARMCI_Set_shm_limit(unsigned long shmemlimit);
/* 1 (as ARMCI_Uses_shm) for any group of this rank. */
int ARMCI_Uses_shm_grp(ARMCI_Group* group);

#ifdef __cplusplus
}
#endif

/* The profiling interface: every ARMCI_ call above is defined as PARMCI_ with the same
 * arguments, and the ARMCI_ name is a weak alias of it, so a tool may define ARMCI_Put (in the
 * program or in a library searched before libremora_armci, e.g. LD_PRELOAD) and call
 * PARMCI_Put from it. parmci_msg_barrier / parmci_msg_group_barrier: message.h. */
#ifdef __cplusplus
extern "C" {
#endif

int PARMCI_Init(void);
int PARMCI_Init_args(int* argc, char*** argv);
int PARMCI_Init_thread(int armci_requested);
int PARMCI_Init_thread_comm(int armci_requested, MPI_Comm comm);
int PARMCI_Initialized(void);
int PARMCI_Finalize(void);
void PARMCI_Cleanup(void);
void PARMCI_Error(const char* msg, int code);
int PARMCI_Malloc(void** base_ptrs, armci_size_t size);
int PARMCI_Free(void* ptr);
void* PARMCI_Malloc_local(armci_size_t size);
int PARMCI_Free_local(void* ptr);
void PARMCI_Barrier(void);
void PARMCI_Fence(int proc);
void PARMCI_AllFence(void);
void PARMCI_Access_begin(void* ptr);
void PARMCI_Access_end(void* ptr);
void PARMCI_Copy(void* src, void* dst, int size);
int PARMCI_Get(void* src, void* dst, int size, int target);
int PARMCI_Put(void* src, void* dst, int size, int target);
int PARMCI_Acc(int datatype, void* scale, void* src, void* dst, int bytes, int proc);
int PARMCI_PutS(void* src_ptr, int src_stride_ar[/*stride_levels*/], void* dst_ptr,
                int dst_stride_ar[/*stride_levels*/], int count[/*stride_levels+1*/],
                int stride_levels, int proc);
int PARMCI_GetS(void* src_ptr, int src_stride_ar[/*stride_levels*/], void* dst_ptr,
                int dst_stride_ar[/*stride_levels*/], int count[/*stride_levels+1*/],
                int stride_levels, int proc);
int PARMCI_AccS(int datatype, void* scale, void* src_ptr, int src_stride_ar[/*stride_levels*/],
                void* dst_ptr, int dst_stride_ar[/*stride_levels*/], int count[/*stride_levels+1*/],
                int stride_levels, int proc);
int PARMCI_Put_flag(void* src, void* dst, int size, int* flag, int value, int proc);
int PARMCI_PutS_flag(void* src_ptr, int src_stride_ar[/*stride_levels*/], void* dst_ptr,
                     int dst_stride_ar[/*stride_levels*/], int count[/*stride_levels+1*/],
                     int stride_levels, int* flag, int value, int proc);
void PARMCI_INIT_HANDLE(armci_hdl_t* hdl);
void PARMCI_SET_AGGREGATE_HANDLE(armci_hdl_t* handle);
void PARMCI_UNSET_AGGREGATE_HANDLE(armci_hdl_t* handle);
int PARMCI_NbPut(void* src, void* dst, int bytes, int proc, armci_hdl_t* hdl);
int PARMCI_NbGet(void* src, void* dst, int bytes, int proc, armci_hdl_t* hdl);
int PARMCI_NbAcc(int datatype, void* scale, void* src, void* dst, int bytes, int proc,
                 armci_hdl_t* hdl);
int PARMCI_Wait(armci_hdl_t* hdl);
int PARMCI_Test(armci_hdl_t* hdl);
int PARMCI_WaitProc(int proc);
int PARMCI_WaitAll(void);
int PARMCI_NbPutS(void* src_ptr, int src_stride_ar[/*stride_levels*/], void* dst_ptr,
                  int dst_stride_ar[/*stride_levels*/], int count[/*stride_levels+1*/],
                  int stride_levels, int proc, armci_hdl_t* hdl);
int PARMCI_NbGetS(void* src_ptr, int src_stride_ar[/*stride_levels*/], void* dst_ptr,
                  int dst_stride_ar[/*stride_levels*/], int count[/*stride_levels+1*/],
                  int stride_levels, int proc, armci_hdl_t* hdl);
int PARMCI_NbAccS(int datatype, void* scale, void* src_ptr, int src_stride_ar[/*stride_levels*/],
                  void* dst_ptr, int dst_stride_ar[/*stride_levels*/],
                  int count[/*stride_levels+1*/], int stride_levels, int proc, armci_hdl_t* hdl);
int PARMCI_PutV(armci_giov_t* iov, int iov_len, int proc);
int PARMCI_GetV(armci_giov_t* iov, int iov_len, int proc);
int PARMCI_AccV(int datatype, void* scale, armci_giov_t* iov, int iov_len, int proc);
int PARMCI_NbPutV(armci_giov_t* iov, int iov_len, int proc, armci_hdl_t* handle);
int PARMCI_NbGetV(armci_giov_t* iov, int iov_len, int proc, armci_hdl_t* handle);
int PARMCI_NbAccV(int datatype, void* scale, armci_giov_t* iov, int iov_len, int proc,
                  armci_hdl_t* handle);
int PARMCI_PutValueInt(int src, void* dst, int proc);
int PARMCI_PutValueLong(long src, void* dst, int proc);
int PARMCI_PutValueFloat(float src, void* dst, int proc);
int PARMCI_PutValueDouble(double src, void* dst, int proc);
int PARMCI_NbPutValueInt(int src, void* dst, int proc, armci_hdl_t* hdl);
int PARMCI_NbPutValueLong(long src, void* dst, int proc, armci_hdl_t* hdl);
int PARMCI_NbPutValueFloat(float src, void* dst, int proc, armci_hdl_t* hdl);
int PARMCI_NbPutValueDouble(double src, void* dst, int proc, armci_hdl_t* hdl);
int PARMCI_GetValueInt(void* src, int proc);
long PARMCI_GetValueLong(void* src, int proc);
float PARMCI_GetValueFloat(void* src, int proc);
double PARMCI_GetValueDouble(void* src, int proc);
int PARMCI_Create_mutexes(int count);
int PARMCI_Destroy_mutexes(void);
void PARMCI_Lock(int mutex, int proc);
void PARMCI_Unlock(int mutex, int proc);
int PARMCI_Rmw(int op, void* ploc, void* prem, int value, int proc);
void PARMCI_Group_create(int grp_size, int* pid_list, ARMCI_Group* group_out);
void PARMCI_Group_create_child(int grp_size, int* pid_list, ARMCI_Group* group_out,
                               ARMCI_Group* group_parent);
void PARMCI_Group_free(ARMCI_Group* group);
int PARMCI_Group_rank(ARMCI_Group* group, int* rank);
void PARMCI_Group_size(ARMCI_Group* group, int* size);
void PARMCI_Group_set_default(ARMCI_Group* group);
void PARMCI_Group_get_default(ARMCI_Group* group_out);
void PARMCI_Group_get_world(ARMCI_Group* group_out);
int PARMCI_Absolute_id(ARMCI_Group* group, int group_rank);
int PARMCI_Malloc_group(void** ptr_arr, armci_size_t bytes, ARMCI_Group* group);
int PARMCI_Free_group(void* ptr, ARMCI_Group* group);
int PARMCI_Malloc_memdev(void** ptr_arr, armci_size_t bytes, const char* device);
int PARMCI_Malloc_group_memdev(void** ptr_arr, armci_size_t bytes, ARMCI_Group* group,
                               const char* device);
int PARMCI_Free_memdev(void* ptr);
int PARMCI_Same_node(int proc);
int PARMCI_Uses_shm(void);
void PARMCI_Set_shm_limit(unsigned long shmemlimit);
int PARMCI_Uses_shm_grp(ARMCI_Group* group);

#ifdef __cplusplus
}
#endif

#endif /* _ARMCI_H_ */
