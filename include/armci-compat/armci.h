/* ARMCI-compatible C API on Remora (libremora_armci). The declarations match ARMCI-MPI's armci.h
 * (the ARMCI that GA 5.x and NWChem build on) for every call provided here; the calls ARMCI has
 * and this header lacks are listed in docs/global-arrays.md ("ARMCI").
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

#ifdef __cplusplus
}
#endif

#endif /* _ARMCI_H_ */
