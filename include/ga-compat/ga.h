/* Global-Arrays-compatible C API on Remora's distributed arrays (GA 5.8 C API conventions):
 * 0-based indices, inclusive lo/hi, row-major (C) order, ld with ndim-1 entries; every
 * index-taking function has a *64 twin with int64_t indices. Build a GA program against this
 * directory (-I.../include/ga-compat) and link -lremora_ga -lremora plus MPI; see
 * docs/global-arrays.md for what is supported and how it differs from GA. */
#ifndef REMORA_GA_H
#define REMORA_GA_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "macdecls.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GA_MAX_DIM 7

typedef struct {
  float real;
  float imag;
} SingleComplex;
typedef struct {
  double real;
  double imag;
} DoubleComplex;

/* A nonblocking-operation handle: GA_Nb* calls fill it in; one handle may be passed to many
 * calls and waited once. */
typedef Integer ga_nbhdl_t;

/* Type codes (GA's values, the same as the MT_* codes of macdecls.h). */
#define C_CHAR MT_C_CHAR
#define C_INT MT_C_INT
#define C_LONG MT_C_LONGINT
#define C_FLOAT MT_C_FLOAT
#define C_DBL MT_C_DBL
#define C_LDBL MT_C_LDBL
#define C_SCPL MT_C_SCPL
#define C_DCPL MT_C_DCPL
#define C_LDCPL MT_C_LDCPL
#define F_BYTE MT_F_BYTE
#define F_INT MT_F_INT
#define F_LOG MT_F_LOG
#define F_REAL MT_F_REAL
#define F_DBL MT_F_DBL
#define F_SCPL MT_F_SCPL
#define F_DCPL MT_F_DCPL
#define C_LONGLONG MT_C_LONGLONG

/* ---- ga-core ---- */

/* Initialisation, termination and process information. */
void GA_Initialize(void);
void GA_Initialize_args(int* argc, char*** argv);
void GA_Initialize_ltd(size_t limit);
int GA_Initialized(void);
void GA_Terminate(void);
int GA_Nodeid(void);
int GA_Nnodes(void);
int GA_Cluster_nnodes(void);
int GA_Cluster_nodeid(void);
int GA_Cluster_nprocs(int node);
int GA_Cluster_procid(int node, int loc_proc);
int GA_Cluster_proc_nodeid(int proc);
int GA_Uses_fapi(void);
int GA_Uses_ma(void);
size_t GA_Memory_avail(void);
int GA_Memory_limited(void);
size_t GA_Inquire_memory(void);
double GA_Wtime(void);
void GA_Error(char* message, int code);
void GA_Print_stats(void);

/* Creation and destruction (collective). */
int NGA_Create(int type, int ndim, int dims[], char* array_name, int chunk[]);
int NGA_Create64(int type, int ndim, int64_t dims[], char* array_name, int64_t chunk[]);
int NGA_Create_irreg(int type, int ndim, int dims[], char* array_name, int block[], int map[]);
int NGA_Create_irreg64(int type, int ndim, int64_t dims[], char* array_name, int64_t block[],
                       int64_t map[]);
int NGA_Create_config(int type, int ndim, int dims[], char* array_name, int chunk[], int p_handle);
int NGA_Create_config64(int type, int ndim, int64_t dims[], char* array_name, int64_t chunk[],
                        int p_handle);
int NGA_Create_irreg_config(int type, int ndim, int dims[], char* array_name, int block[],
                            int map[], int p_handle);
int NGA_Create_irreg_config64(int type, int ndim, int64_t dims[], char* array_name, int64_t block[],
                              int64_t map[], int p_handle);
int GA_Create_handle(void);
void GA_Set_data(int g_a, int ndim, int dims[], int type);
void GA_Set_data64(int g_a, int ndim, int64_t dims[], int type);
void GA_Set_array_name(int g_a, char* name);
void GA_Set_chunk(int g_a, int chunk[]);
void GA_Set_chunk64(int g_a, int64_t chunk[]);
void GA_Set_irreg_distr(int g_a, int map[], int nblock[]);
void GA_Set_irreg_distr64(int g_a, int64_t map[], int64_t nblock[]);
void GA_Set_block_cyclic(int g_a, int dims[]);
void GA_Set_block_cyclic_proc_grid(int g_a, int dims[], int proc_grid[]);
void GA_Set_tiled_proc_grid(int g_a, int dims[], int proc_grid[]);
int GA_Allocate(int g_a);
int GA_Duplicate(int g_a, char* array_name);
void GA_Destroy(int g_a);

/* Queries (local). */
void NGA_Inquire(int g_a, int* type, int* ndim, int dims[]);
void NGA_Inquire64(int g_a, int* type, int* ndim, int64_t dims[]);
int GA_Ndim(int g_a);
void GA_Inquire_name(int g_a, char** array_name);
void NGA_Distribution(int g_a, int iproc, int lo[], int hi[]);
void NGA_Distribution64(int g_a, int iproc, int64_t lo[], int64_t hi[]);
int NGA_Locate(int g_a, int subscript[]);
int NGA_Locate64(int g_a, int64_t subscript[]);
int NGA_Locate_region(int g_a, int lo[], int hi[], int map[], int procs[]);
int NGA_Locate_region64(int g_a, int64_t lo[], int64_t hi[], int64_t map[], int procs[]);
int NGA_Locate_nnodes(int g_a, int lo[], int hi[]);
int NGA_Locate_nnodes64(int g_a, int64_t lo[], int64_t hi[]);
int GA_Compare_distr(int g_a, int g_b);
void GA_Print_distribution(int g_a);
void NGA_Proc_topology(int g_a, int proc, int coordinates[]);
void GA_Get_proc_grid(int g_a, int dims[]);
void GA_Get_block_info(int g_a, int num_blocks[], int block_dims[]);
int GA_Total_blocks(int g_a);

/* One-sided data movement. */
void NGA_Put(int g_a, int lo[], int hi[], void* buf, int ld[]);
void NGA_Put64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]);
void NGA_Get(int g_a, int lo[], int hi[], void* buf, int ld[]);
void NGA_Get64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]);
void NGA_Acc(int g_a, int lo[], int hi[], void* buf, int ld[], void* alpha);
void NGA_Acc64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[], void* alpha);
void NGA_NbPut(int g_a, int lo[], int hi[], void* buf, int ld[], ga_nbhdl_t* nbhandle);
void NGA_NbPut64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[],
                 ga_nbhdl_t* nbhandle);
void NGA_NbGet(int g_a, int lo[], int hi[], void* buf, int ld[], ga_nbhdl_t* nbhandle);
void NGA_NbGet64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[],
                 ga_nbhdl_t* nbhandle);
void NGA_NbAcc(int g_a, int lo[], int hi[], void* buf, int ld[], void* alpha, ga_nbhdl_t* nbhandle);
void NGA_NbAcc64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[], void* alpha,
                 ga_nbhdl_t* nbhandle);
void NGA_NbWait(ga_nbhdl_t* nbhandle);
/* 0 once every operation on the handle has completed, 1 while some are pending. */
int NGA_NbTest(ga_nbhdl_t* nbhandle);
void NGA_Strided_put(int g_a, int lo[], int hi[], int skip[], void* buf, int ld[]);
void NGA_Strided_put64(int g_a, int64_t lo[], int64_t hi[], int64_t skip[], void* buf,
                       int64_t ld[]);
void NGA_Strided_get(int g_a, int lo[], int hi[], int skip[], void* buf, int ld[]);
void NGA_Strided_get64(int g_a, int64_t lo[], int64_t hi[], int64_t skip[], void* buf,
                       int64_t ld[]);
void NGA_Strided_acc(int g_a, int lo[], int hi[], int skip[], void* buf, int ld[], void* alpha);
void NGA_Strided_acc64(int g_a, int64_t lo[], int64_t hi[], int64_t skip[], void* buf, int64_t ld[],
                       void* alpha);
void NGA_Periodic_put(int g_a, int lo[], int hi[], void* buf, int ld[]);
void NGA_Periodic_put64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]);
void NGA_Periodic_get(int g_a, int lo[], int hi[], void* buf, int ld[]);
void NGA_Periodic_get64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]);
void NGA_Periodic_acc(int g_a, int lo[], int hi[], void* buf, int ld[], void* alpha);
void NGA_Periodic_acc64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[], void* alpha);
/* subsArray[k] points to the ndim subscripts of element k. */
void NGA_Scatter(int g_a, void* v, int* subsArray[], int n);
void NGA_Scatter64(int g_a, void* v, int64_t* subsArray[], int64_t n);
void NGA_Gather(int g_a, void* v, int* subsArray[], int n);
void NGA_Gather64(int g_a, void* v, int64_t* subsArray[], int64_t n);
void NGA_Scatter_acc(int g_a, void* v, int* subsArray[], int n, void* alpha);
void NGA_Scatter_acc64(int g_a, void* v, int64_t* subsArray[], int64_t n, void* alpha);
/* subsArray holds n * ndim subscripts, element k's at subsArray[k * ndim]. */
void NGA_Scatter_flat(int g_a, void* v, int subsArray[], int n);
void NGA_Scatter_flat64(int g_a, void* v, int64_t subsArray[], int64_t n);
void NGA_Gather_flat(int g_a, void* v, int subsArray[], int n);
void NGA_Gather_flat64(int g_a, void* v, int64_t subsArray[], int64_t n);
void NGA_Scatter_acc_flat(int g_a, void* v, int subsArray[], int n, void* alpha);
void NGA_Scatter_acc_flat64(int g_a, void* v, int64_t subsArray[], int64_t n, void* alpha);
long NGA_Read_inc(int g_a, int subscript[], long inc);
long NGA_Read_inc64(int g_a, int64_t subscript[], long inc);

/* Direct access: ptr is the address of a pointer variable. */
void NGA_Access(int g_a, int lo[], int hi[], void* ptr, int ld[]);
void NGA_Access64(int g_a, int64_t lo[], int64_t hi[], void* ptr, int64_t ld[]);
void NGA_Access_block(int g_a, int idx, void* ptr, int ld[]);
void NGA_Access_block64(int g_a, int64_t idx, void* ptr, int64_t ld[]);
void NGA_Release(int g_a, int lo[], int hi[]);
void NGA_Release64(int g_a, int64_t lo[], int64_t hi[]);
void NGA_Release_update(int g_a, int lo[], int hi[]);
void NGA_Release_update64(int g_a, int64_t lo[], int64_t hi[]);
void NGA_Release_block(int g_a, int idx);
void NGA_Release_update_block(int g_a, int idx);

/* Synchronisation. */
void GA_Sync(void);
void GA_Init_fence(void);
void GA_Fence(void);
int GA_Create_mutexes(int number);
void GA_Lock(int mutex);
void GA_Unlock(int mutex);
int GA_Destroy_mutexes(void);
void GA_Mask_sync(int first, int last);

/* ---- ga-coll: collective array operations ---- */

/* ---- pgroups ---- */
/* Process groups. A group handle is a small positive integer; GA_Pgroup_get_world() (-1) is
 * every process. GA_Pgroup_create is collective over the default group and list holds ranks
 * of the default group; a process outside the new group gets the handle too (nodeid -1).
 * Arrays are created on the default group (NGA_Create, GA_Create_handle) or on p_handle
 * (NGA_Create_config, NGA_Create_irreg_config, GA_Set_pgroup); GA_Nodeid, GA_Nnodes and GA_Sync
 * answer for the default group. */
void GA_Initialize_comm(MPI_Comm comm);
int GA_Pgroup_create(int* list, int count);
int GA_Pgroup_destroy(int grp);
void GA_Pgroup_set_default(int grp);
int GA_Pgroup_get_default(void);
int GA_Pgroup_get_world(void);
int GA_Pgroup_nodeid(int grp);
int GA_Pgroup_nnodes(int grp);
void GA_Pgroup_sync(int grp_id);
void GA_Pgroup_brdcst(int grp_id, void* buf, int lenbuf, int root);
void GA_Pgroup_igop(int grp_id, int* x, int n, char* op);
void GA_Pgroup_lgop(int grp_id, long* x, int n, char* op);
void GA_Pgroup_dgop(int grp_id, double* x, int n, char* op);
void GA_Set_pgroup(int g_a, int p_handle);
int GA_Get_pgroup(int g_a);
int GA_Get_pgroup_size(int grp_id);

#ifdef __cplusplus
}
#endif

#endif /* REMORA_GA_H */
