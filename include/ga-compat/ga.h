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
/* Memory from GA's pool (collective over group grp_id; ids <= 0: the world group): this
 * rank's nelem elements of type; GA_Freemem (collective) returns it. */
void* GA_Getmem(int type, int nelem, int grp_id);
void GA_Freemem(void* ptr);
/* A new array with g_a's shape and distribution and GA_Getmem's type, on the memory ptr
 * (GA_Getmem's, on g_a's group) instead of its own: its handle. Each rank's block must fit in
 * its part of that memory. The memory stays until both GA_Freemem and GA_Destroy ran. */
int GA_Assemble_duplicate(int g_a, char* array_name, void* ptr);
size_t GA_Memory_avail(void);
int GA_Memory_limited(void);
size_t GA_Inquire_memory(void);
double GA_Wtime(void);
void GA_Error(char* message, int code);
void GA_Print_stats(void);
/* GA_Set_memory_limit: GA_Initialize_ltd's per-process limit, set or changed later (0, or a
 * value GA would read as negative: no limit). The debug flag: stored and returned. GA_Summarize:
 * every process prints its table of allocated arrays (verbose != 0: and who owns which patch),
 * in GA's format (Fortran order, 1-based). */
void GA_Set_memory_limit(size_t limit);
void GA_Set_debug(int flag);
int GA_Get_debug(void);
void GA_Summarize(int verbose);
/* GA's preallocated gather/scatter buffers: Remora needs none, so only GA's bookkeeping and
 * errors remain (allocating twice, or freeing what is not allocated, ends the job). */
void NGA_Alloc_gatscat_buf(int nelems);
void NGA_Free_gatscat_buf(void);

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
void GA_Set_block_cyclic64(int g_a, int64_t dims[]);
void GA_Set_block_cyclic_proc_grid64(int g_a, int64_t dims[], int64_t proc_grid[]);
void GA_Set_tiled_proc_grid64(int g_a, int64_t dims[], int64_t proc_grid[]);
/* Tiles cut at mapc (nblocks[d] starts per dimension, as GA_Set_irreg_distr's map), tile (i, j)
 * on process grid position (i mod proc_grid[0], j mod proc_grid[1]); 2-d arrays. */
void GA_Set_tiled_irreg_proc_grid(int g_a, int mapc[], int nblocks[], int proc_grid[]);
void GA_Set_tiled_irreg_proc_grid64(int g_a, int64_t mapc[], int64_t nblocks[],
                                    int64_t proc_grid[]);
/* Only the ranks of list (of the array's group) hold data: list[i] holds block i of the block
 * or irregular distribution, which is computed over size ranks. Block-cyclic arrays ignore it. */
void GA_Set_restricted(int g_a, int list[], int size);
void GA_Set_restricted_range(int g_a, int lo_proc, int hi_proc);
int GA_Allocate(int g_a);
/* Allocates g_a (GA_Create_handle, GA_Set_data, ...; on g_p's group) on the memory of the
 * allocated array g_p: each rank's block starts where its block of g_p does (collective).
 * 1; 0 when g_a's block is larger than g_p's on some rank, and then g_a is destroyed, as in
 * GA. Destroying either leaves the other usable. */
int GA_Overlay(int g_a, int g_p);
int GA_Duplicate(int g_a, char* array_name);
void GA_Destroy(int g_a);
/* GA 5.8: frees the array's memory (collective) and keeps the handle with its settings, so
 * GA_Allocate can allocate it again; 1, or 0 when the handle has no memory. */
int GA_Deallocate(int g_a);
/* Recorded as GA records them, with no effect on Remora's arrays (host memory, Remora's own
 * temporaries and distributions): the irregular-distribution flag, the memory device (before
 * GA_Allocate) and the stack-memory allocator (both functions required). */
void GA_Set_irreg_flag(int g_a, int flag);
void GA_Set_memory_dev(int g_a, char* device);
void GA_Register_stack_memory(void* (*ext_alloc)(size_t, int, char*), void (*ext_free)(void*));
/* Properties (collective over the array's group). "read_only": each rank copies the whole
 * array now; gets read the copy and writes fail until unset. "read_cache": accepted, gets stay
 * reads of the owners. */
void NGA_Set_property(int g_a, char* property);
void GA_Set_property(int g_a, char* property);
void NGA_Unset_property(int g_a);
void GA_Unset_property(int g_a);

/* Queries (local). */
void NGA_Inquire(int g_a, int* type, int* ndim, int dims[]);
void NGA_Inquire64(int g_a, int* type, int* ndim, int64_t dims[]);
int GA_Ndim(int g_a);
/* The array's name (owned by the array), as GA's C binding returns it. */
char* GA_Inquire_name(int g_a);
void NGA_Distribution(int g_a, int iproc, int lo[], int hi[]);
void NGA_Distribution64(int g_a, int iproc, int64_t lo[], int64_t hi[]);
int NGA_Locate(int g_a, int subscript[]);
int NGA_Locate64(int g_a, int64_t subscript[]);
int NGA_Locate_region(int g_a, int lo[], int hi[], int map[], int procs[]);
int NGA_Locate_region64(int g_a, int64_t lo[], int64_t hi[], int64_t map[], int procs[]);
/* NGA_Locate_num_blocks: block-cyclic arrays: the number of blocks lo..hi meets (-1 for other
 * distributions, as GA). */
int NGA_Locate_num_blocks(int g_a, int lo[], int hi[]);
int NGA_Locate_nnodes(int g_a, int lo[], int hi[]);
int NGA_Locate_nnodes64(int g_a, int64_t lo[], int64_t hi[]);
int GA_Compare_distr(int g_a, int g_b);
void GA_Print_distribution(int g_a);
void NGA_Proc_topology(int g_a, int proc, int coordinates[]);
void GA_Get_proc_grid(int g_a, int dims[]);
void GA_Get_block_info(int g_a, int num_blocks[], int block_dims[]);
int GA_Total_blocks(int g_a);
/* The process grid coordinates (C order) of rank iproc of an array on a ScaLAPACK-style grid
 * (GA_Set_block_cyclic_proc_grid, GA_Set_tiled_proc_grid, GA_Set_tiled_irreg_proc_grid); other
 * arrays fail, as in GA. */
void GA_Get_proc_index(int g_a, int iproc, int subscript[]);
/* list[i] = i for i < nprocs (nprocs at most the number of processes): GA's process ids. */
void GA_List_nodeid(int* list, int nprocs);
/* Handles: 1 if g_a names a created array (GA_Create_handle or a creation), else 0;
 * GA_Check_handle ends the job with string in the message if it does not. */
int GA_Valid_handle(int g_a);
int GA_Verify_handle(int g_a);
void GA_Check_handle(int g_a, char* string);
/* The number of dimensions (as GA_Ndim); whether the array uses a ScaLAPACK-style process grid
 * (GA_Set_block_cyclic_proc_grid, GA_Set_tiled_proc_grid); the number of partitions of each
 * dimension (C order: the process grid, or the block counts of a block-cyclic array). */
int GA_Get_dimension(int g_a);
int GA_Uses_proc_grid(int g_a);
void GA_Nblock(int g_a, int nblock[]);

/* User-defined types: NGA_Register_type(bytes) returns a type code (1017, 1018, ...: local,
 * every process registers the same types in the same order) for NGA_Create* / GA_Set_data;
 * arrays of it support put, get (blocking and nonblocking), the field calls, the queries,
 * GA_Duplicate and GA_Destroy. NGA_Deregister_type: 0, -1 for a built-in code, -2 for one not
 * registered. A field is bytes foff .. foff+fsize-1 of each element of lo..hi; buf holds fsize
 * bytes per element, ld counting elements. Arrays of built-in types take whole-element fields
 * only (foff 0, fsize the element size). */
int NGA_Register_type(size_t bytes);
int NGA_Deregister_type(int type);
void NGA_Get_field(int g_a, int* lo, int* hi, int foff, int fsize, void* buf, int* ld);
void NGA_Put_field(int g_a, int* lo, int* hi, int foff, int fsize, void* buf, int* ld);
void NGA_Nbget_field(int g_a, int* lo, int* hi, int foff, int fsize, void* buf, int* ld,
                     ga_nbhdl_t* nbhandle);
void NGA_Nbput_field(int g_a, int* lo, int* hi, int foff, int fsize, void* buf, int* ld,
                     ga_nbhdl_t* nbhandle);

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
/* 1 once every operation on the handle has completed, 0 while some are pending (as GA 5.9). */
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
/* Block grid (GA_Set_block_cyclic_proc_grid and tiled arrays): index[] is the block's
 * coordinates over the block grid, in C order. */
void NGA_Access_block_grid(int g_a, int index[], void* ptr, int ld[]);
void NGA_Access_block_grid64(int g_a, int64_t index[], void* ptr, int64_t ld[]);
void NGA_Release_block_grid(int g_a, int index[]);
void NGA_Release_update_block_grid(int g_a, int index[]);
/* All of process proc's memory of the array (*len elements), when this process maps it. */
void NGA_Access_block_segment(int g_a, int proc, void* ptr, int* len);
void NGA_Access_block_segment64(int g_a, int proc, void* ptr, int64_t* len);
void NGA_Release_block_segment(int g_a, int idx);
void NGA_Release_update_block_segment(int g_a, int idx);

/* Synchronisation. */
void GA_Sync(void);
void GA_Init_fence(void);
void GA_Fence(void);
int GA_Create_mutexes(int number);
void GA_Lock(int mutex);
void GA_Unlock(int mutex);
int GA_Destroy_mutexes(void);
void GA_Mask_sync(int first, int last);

/* Ghost cells (docs/global-arrays.md, "Ghost cells"): each rank's block inside a padded block
 * of width[d] extra elements on each side of dimension d. NGA_Access of a patch of this rank's
 * block gives a pointer into the padded block with ld counting the ghosts; NGA_Access_ghosts
 * gives its start and extents; puts, gets and accumulates address the interior only.
 * GA_Update_ghosts (collective) fills the ghosts with the neighbours' values, wrapping around
 * the array's ends, corners included unless GA_Set_ghost_corner_flag(g_a, 0). */
int NGA_Create_ghosts(int type, int ndim, int dims[], int width[], char* array_name, int chunk[]);
int NGA_Create_ghosts64(int type, int ndim, int64_t dims[], int64_t width[], char* array_name,
                        int64_t chunk[]);
int NGA_Create_ghosts_config(int type, int ndim, int dims[], int width[], char* array_name,
                             int chunk[], int p_handle);
int NGA_Create_ghosts_config64(int type, int ndim, int64_t dims[], int64_t width[],
                               char* array_name, int64_t chunk[], int p_handle);
int NGA_Create_ghosts_irreg(int type, int ndim, int dims[], int width[], char* array_name,
                            int nblock[], int map[]);
int NGA_Create_ghosts_irreg64(int type, int ndim, int64_t dims[], int64_t width[], char* array_name,
                              int64_t nblock[], int64_t map[]);
int NGA_Create_ghosts_irreg_config(int type, int ndim, int dims[], int width[], char* array_name,
                                   int nblock[], int map[], int p_handle);
int NGA_Create_ghosts_irreg_config64(int type, int ndim, int64_t dims[], int64_t width[],
                                     char* array_name, int64_t nblock[], int64_t map[],
                                     int p_handle);
/* Handle API: before GA_Allocate. */
void GA_Set_ghosts(int g_a, int width[]);
void GA_Set_ghosts64(int g_a, int64_t width[]);
void NGA_Set_ghosts(int g_a, int width[]);
void NGA_Set_ghosts64(int g_a, int64_t width[]);
/* 1 when some width is positive. */
int GA_Has_ghosts(int g_a);
int NGA_Has_ghosts(int g_a);
void GA_Set_ghost_corner_flag(int g_a, int flag);
/* Collective over the array's group. */
void GA_Update_ghosts(int g_a);
void NGA_Update_ghosts(int g_a);
/* Collective; complete when it returns (the handle is then complete too). */
void NGA_Update_ghosts_nb(int g_a, ga_nbhdl_t* nbhandle);
/* Collective: the ghosts on side idir (-1 or 1) of dimension; flag != 0: with the corners
 * (the ghosts of the other dimensions on that side). As in GA's C binding, dimension counts
 * from the last C dimension (0: the last). Returns 1. */
int NGA_Update_ghost_dir(int g_a, int dimension, int idir, int flag);
/* Local: the ghost region in direction mask (mask[d] in -1, 0, 1) from the neighbours.
 * Complete when it returns. */
void NGA_NbGet_ghost_dir(int g_a, int mask[], ga_nbhdl_t* handle);
void NGA_NbGet_ghost_dir64(int g_a, int64_t mask[], ga_nbhdl_t* handle);
/* dims: the padded block's extents; ptr: its start; ld: ndim-1 padded extents. */
void NGA_Access_ghosts(int g_a, int dims[], void* ptr, int ld[]);
void NGA_Access_ghosts64(int g_a, int64_t dims[], void* ptr, int64_t ld[]);
/* subscript: 0-based within the padded block. */
void NGA_Access_ghost_element(int g_a, void* ptr, int subscript[], int ld[]);
void NGA_Access_ghost_element64(int g_a, void* ptr, int64_t subscript[], int64_t ld[]);
void NGA_Release_ghosts(int g_a);
void NGA_Release_update_ghosts(int g_a);
void NGA_Release_ghost_element(int g_a, int index[]);
void NGA_Release_ghost_element64(int g_a, int64_t index[]);
void NGA_Release_update_ghost_element(int g_a, int index[]);
void NGA_Release_update_ghost_element64(int g_a, int64_t index[]);
/* lo..hi (global indices) inside this rank's padded block: copied from it; otherwise a
 * periodic get. */
void NGA_Get_ghost_block(int g_a, int lo[], int hi[], void* buf, int ld[]);
void NGA_Get_ghost_block64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]);

/* ---- ga-coll: collective array operations ---- */
/* Collective over the array's ranks, each beginning and ending with a sync. value, alpha,
 * beta, start and inc point to one element of the array's type. Patches of two or three
 * arrays must hold the same number of elements and are matched in row-major order (GA's
 * reshaping); a 'T' patch is taken with its axes reversed (for 2-D, transposed). */
void GA_Zero(int g_a);
void GA_Fill(int g_a, void* value);
/* Collective: every element becomes value * rand() / RAND_MAX (rand() of the owning rank), as
 * GA does; integer and real types. */
void GA_Randomize(int g_a, void* value);
void GA_Scale(int g_a, void* value);
void GA_Add_constant(int g_a, void* alpha);
void GA_Add_constant_patch(int g_a, int* lo, int* hi, void* alpha);
void GA_Add_constant_patch64(int g_a, int64_t* lo, int64_t* hi, void* alpha);
void GA_Copy(int g_a, int g_b);
void NGA_Copy_patch(char trans, int g_a, int alo[], int ahi[], int g_b, int blo[], int bhi[]);
void NGA_Copy_patch64(char trans, int g_a, int64_t alo[], int64_t ahi[], int g_b, int64_t blo[],
                      int64_t bhi[]);
void GA_Add(void* alpha, int g_a, void* beta, int g_b, int g_c);
void NGA_Add_patch(void* alpha, int g_a, int alo[], int ahi[], void* beta, int g_b, int blo[],
                   int bhi[], int g_c, int clo[], int chi[]);
void NGA_Add_patch64(void* alpha, int g_a, int64_t alo[], int64_t ahi[], void* beta, int g_b,
                     int64_t blo[], int64_t bhi[], int g_c, int64_t clo[], int64_t chi[]);
void NGA_Zero_patch(int g_a, int lo[], int hi[]);
void NGA_Zero_patch64(int g_a, int64_t lo[], int64_t hi[]);
void NGA_Fill_patch(int g_a, int lo[], int hi[], void* val);
void NGA_Fill_patch64(int g_a, int64_t lo[], int64_t hi[], void* val);
void NGA_Scale_patch(int g_a, int lo[], int hi[], void* alpha);
void NGA_Scale_patch64(int g_a, int64_t lo[], int64_t hi[], void* alpha);
/* 1-D: element lo + i = start + i * inc. */
void GA_Patch_enum(int g_a, int lo, int hi, void* start, void* inc);
void GA_Patch_enum64(int g_a, int64_t lo, int64_t hi, void* start, void* inc);
/* Sparse data management on 1-D arrays (collective). Pack: the elements of g_src in lo..hi
 * whose g_mask element is non-zero, in order, to g_dest from index 0; *icount = how many.
 * Unpack: the reverse, g_src's first elements to the masked places of g_dest in lo..hi.
 * Scan_copy: from each non-zero g_sbit element on, g_b repeats g_a's value there. Scan_add:
 * g_b is the running sum of g_a restarting at each non-zero g_sbit element (excl 1: the sum
 * of the elements before, 0 at a segment start). Segments start only inside lo..hi; before
 * the first start, Scan_add leaves g_b unchanged and Scan_copy sets it to zero (as GA). */
void GA_Pack(int g_src, int g_dest, int g_mask, int lo, int hi, int* icount);
void GA_Pack64(int g_src, int g_dest, int g_mask, int64_t lo, int64_t hi, int64_t* icount);
void GA_Unpack(int g_src, int g_dest, int g_mask, int lo, int hi, int* icount);
void GA_Unpack64(int g_src, int g_dest, int g_mask, int64_t lo, int64_t hi, int64_t* icount);
void GA_Scan_add(int g_a, int g_b, int g_sbit, int lo, int hi, int excl);
void GA_Scan_add64(int g_a, int g_b, int g_sbit, int64_t lo, int64_t hi, int excl);
void GA_Scan_copy(int g_a, int g_b, int g_sbit, int lo, int hi);
void GA_Scan_copy64(int g_a, int g_b, int g_sbit, int64_t lo, int64_t hi);

/* Element-wise: |a| (complex: the magnitude), 1/a (a zero element ends the job), and
 * c = a op b (a zero divisor ends the job; maximum/minimum not for complex types). */
void GA_Abs_value(int g_a);
void GA_Abs_value_patch(int g_a, int* lo, int* hi);
void GA_Abs_value_patch64(int g_a, int64_t* lo, int64_t* hi);
void GA_Recip(int g_a);
void GA_Recip_patch(int g_a, int* lo, int* hi);
void GA_Recip_patch64(int g_a, int64_t* lo, int64_t* hi);
void GA_Elem_multiply(int g_a, int g_b, int g_c);
void GA_Elem_divide(int g_a, int g_b, int g_c);
void GA_Elem_maximum(int g_a, int g_b, int g_c);
void GA_Elem_minimum(int g_a, int g_b, int g_c);
void GA_Elem_multiply_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c,
                            int* clo, int* chi);
void GA_Elem_divide_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c,
                          int* clo, int* chi);
void GA_Elem_maximum_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c,
                           int* clo, int* chi);
void GA_Elem_minimum_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c,
                           int* clo, int* chi);
void GA_Elem_multiply_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo,
                              int64_t* bhi, int g_c, int64_t* clo, int64_t* chi);
void GA_Elem_divide_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo,
                            int64_t* bhi, int g_c, int64_t* clo, int64_t* chi);
void GA_Elem_maximum_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo,
                             int64_t* bhi, int g_c, int64_t* clo, int64_t* chi);
void GA_Elem_minimum_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo,
                             int64_t* bhi, int g_c, int64_t* clo, int64_t* chi);

/* Dot products (no conjugation, as GA); the array type must match the function's. */
int GA_Idot(int g_a, int g_b);
long GA_Ldot(int g_a, int g_b);
long long GA_Lldot(int g_a, int g_b);
float GA_Fdot(int g_a, int g_b);
double GA_Ddot(int g_a, int g_b);
SingleComplex GA_Cdot(int g_a, int g_b);
DoubleComplex GA_Zdot(int g_a, int g_b);
/* As GA: b's patch is transposed when exactly one of t_a, t_b is 'T'. */
int NGA_Idot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                   int bhi[]);
long NGA_Ldot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                    int bhi[]);
double NGA_Ddot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                      int bhi[]);
DoubleComplex NGA_Zdot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                             int bhi[]);
int NGA_Idot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                     int64_t blo[], int64_t bhi[]);
long NGA_Ldot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                      int64_t blo[], int64_t bhi[]);
double NGA_Ddot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                        int64_t blo[], int64_t bhi[]);
DoubleComplex NGA_Zdot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                               int64_t blo[], int64_t bhi[]);
long long NGA_Lldot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                          int bhi[]);
float NGA_Fdot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                     int bhi[]);
SingleComplex NGA_Cdot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                             int bhi[]);
long long NGA_Lldot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                            int64_t blo[], int64_t bhi[]);
float NGA_Fdot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                       int64_t blo[], int64_t bhi[]);
SingleComplex NGA_Cdot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                               int64_t blo[], int64_t bhi[]);

/* Searches and selections (collective over the array's group). NGA_Select_elem: op "min" or
 * "max" (GA reads the first three characters): the smallest or largest element in *val and
 * its subscript in index (C order); complex elements compare by magnitude; among equal values
 * the first in C order. GA_Median(_patch): m = the median of a, b and c element by element
 * (complex: by magnitude), patches of one type and element count matched in row-major order. */
void NGA_Select_elem(int g_a, char* op, void* val, int* index);
void NGA_Select_elem64(int g_a, char* op, void* val, int64_t* index);
/* GA_Step_max(_patch): in *step (a's type; real types), the largest s with a + s b >= 0
 * element-wise, as GA computes it (a >= 0 required; GA's "infinity" 2^31-1, 2^63-1, 1e37 or
 * 1e307 when no element limits it, or when g_a is g_b). */
void GA_Step_max(int g_a, int g_b, void* step);
void GA_Step_max_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, void* step);
void GA_Step_max_patch64(int g_a, int64_t alo[], int64_t ahi[], int g_b, int64_t blo[],
                         int64_t bhi[], void* step);
/* GA_Step_bound_info(_patch): for x + s v inside the bounds [l, u] (element-wise, l <= x <= u
 * required; real types), as GA computes them: *wolfemin the smallest step at which some element
 * meets a bound, *boundmin and *boundmax the smallest and largest of each element's step to its
 * bound (0 for an element with v = 0 on a bound; GA's "infinity" where v = 0 otherwise). Results
 * in the arrays' type. The patch64 form declares g_xxuu int64_t, as GA's ga.h does. */
void GA_Step_bound_info(int g_xx, int g_vv, int g_xxll, int g_xxuu, void* boundmin, void* wolfemin,
                        void* boundmax);
void GA_Step_bound_info_patch(int g_xx, int* xxlo, int* xxhi, int g_vv, int* vvlo, int* vvhi,
                              int g_xxll, int* xxlllo, int* xxllhi, int g_xxuu, int* xxuulo,
                              int* xxuuhi, void* boundmin, void* wolfemin, void* boundmax);
void GA_Step_bound_info_patch64(int g_xx, int64_t xxlo[], int64_t xxhi[], int g_vv, int64_t vvlo[],
                                int64_t vvhi[], int g_xxll, int64_t xxlllo[], int64_t xxllhi[],
                                int64_t g_xxuu, int64_t xxuulo[], int64_t xxuuhi[], void* boundmin,
                                void* wolfemin, void* boundmax);
void GA_Median(int g_a, int g_b, int g_c, int g_m);
void GA_Median_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c, int* clo,
                     int* chi, int g_m, int* mlo, int* mhi);
void GA_Median_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo, int64_t* bhi,
                       int g_c, int64_t* clo, int64_t* chi, int g_m, int64_t* mlo, int64_t* mhi);

/* Dense linear algebra on 2-D double arrays, collective, in GA's column-major view (the C
 * view's transpose; docs/global-arrays.md): GA_Lu_solve solves A X = B ('t': A^T X = B) with
 * one right-hand side per C row of B; GA_Llt_solve returns 0 or the order of the leading minor
 * that is not positive definite (B unchanged); GA_Solve the same, solving by LU then;
 * GA_Spd_invert A = A^-1 (0, > 0 as above, or -i for a zero (i,i) of the factor). GA_Diag*:
 * eigenvalues ascending into eval (n doubles), eigenvectors into the C rows of g_v; with g_s
 * the generalized problem A v = lambda S v. Need LAPACK at build time; else they end the job. */
void GA_Lu_solve(char tran, int g_a, int g_b);
int GA_Llt_solve(int g_a, int g_b);
int GA_Solve(int g_a, int g_b);
int GA_Spd_invert(int g_a);
void GA_Diag(int g_a, int g_s, int g_v, void* eval);
void GA_Diag_reuse(int reuse, int g_a, int g_s, int g_v, void* eval);
void GA_Diag_seq(int g_a, int g_s, int g_v, void* eval);
void GA_Diag_std(int g_a, int g_v, void* eval);
void GA_Diag_std_seq(int g_a, int g_v, void* eval);
/* b = a^T (2-D); a = (a + a^T) / 2 (square 2-D). */
void GA_Transpose(int g_a, int g_b);
void GA_Symmetrize(int g_a);
/* As GA computes them in its column-major view: for a 2-D C array, GA_Norm1 is the largest
 * row sum of |a[i][j]| and GA_Norm_infinity the largest column sum; for a 1-D array the sum
 * and the largest magnitude. */
void GA_Norm1(int g_a, double* nm);
void GA_Norm_infinity(int g_a, double* nm);

/* C(m x n) = alpha op(A)(m x k) op(B)(k x n) + beta C on the leading patches of 2-D arrays, op
 * 'N' or 'T' (row-major C view, as GA's C API). */
void GA_Dgemm(char ta, char tb, int m, int n, int k, double alpha, int g_a, int g_b, double beta,
              int g_c);
void GA_Sgemm(char ta, char tb, int m, int n, int k, float alpha, int g_a, int g_b, float beta,
              int g_c);
void GA_Zgemm(char ta, char tb, int m, int n, int k, DoubleComplex alpha, int g_a, int g_b,
              DoubleComplex beta, int g_c);
void GA_Cgemm(char ta, char tb, int m, int n, int k, SingleComplex alpha, int g_a, int g_b,
              SingleComplex beta, int g_c);
void GA_Dgemm64(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha, int g_a, int g_b,
                double beta, int g_c);
void GA_Sgemm64(char ta, char tb, int64_t m, int64_t n, int64_t k, float alpha, int g_a, int g_b,
                float beta, int g_c);
void GA_Zgemm64(char ta, char tb, int64_t m, int64_t n, int64_t k, DoubleComplex alpha, int g_a,
                int g_b, DoubleComplex beta, int g_c);
void GA_Cgemm64(char ta, char tb, int64_t m, int64_t n, int64_t k, SingleComplex alpha, int g_a,
                int g_b, SingleComplex beta, int g_c);
/* C[cilo:cihi, cjlo:cjhi] = alpha AA[ailo:aihi, ajlo:ajhi] BB[bilo:bihi, bjlo:bjhi] + beta C[...]
 * where AA = op(A), BB = op(B): the A and B ranges index op(A) and op(B). */
void GA_Matmul_patch(char transa, char transb, void* alpha, void* beta, int g_a, int ailo, int aihi,
                     int ajlo, int ajhi, int g_b, int bilo, int bihi, int bjlo, int bjhi, int g_c,
                     int cilo, int cihi, int cjlo, int cjhi);
void GA_Matmul_patch64(char transa, char transb, void* alpha, void* beta, int g_a, int64_t ailo,
                       int64_t aihi, int64_t ajlo, int64_t ajhi, int g_b, int64_t bilo,
                       int64_t bihi, int64_t bjlo, int64_t bjhi, int g_c, int64_t cilo,
                       int64_t cihi, int64_t cjlo, int64_t cjhi);

/* Matrix utilities on 2-D arrays (collective): the diagonal (min(dims) elements; g_v a 1-D
 * array of a's type and that length) and scaling by a vector, as GA's C binding does:
 * GA_Scale_rows multiplies element [i][j] by v[i] (v of dims[0] elements), GA_Scale_cols by
 * v[j] (dims[1] elements). */
void GA_Zero_diagonal(int g_a);
void GA_Shift_diagonal(int g_a, void* c);
void GA_Set_diagonal(int g_a, int g_v);
void GA_Add_diagonal(int g_a, int g_v);
void GA_Get_diag(int g_a, int g_v);
void GA_Scale_rows(int g_a, int g_v);
void GA_Scale_cols(int g_a, int g_v);

/* Printing (collective; rank 0 writes to stdout). pretty = 0: one line per row. */
void GA_Print(int g_a);
void GA_Print_file(FILE* file, int g_a);
void NGA_Print_patch(int g_a, int lo[], int hi[], int pretty);
void NGA_Print_patch64(int g_a, int64_t lo[], int64_t hi[], int pretty);
void GA_Print_patch(int g_a, int ilo, int ihi, int jlo, int jhi, int pretty);

/* Global operations over every rank (GA's world group): x[0..n-1] combined element-wise with
 * op "+", "*", "max", "min", "absmax" or "absmin" (complex: "+" and "*"); every rank gets
 * the result. GA_Brdcst: lenbuf bytes from root to every rank. */
void GA_Brdcst(void* buf, int lenbuf, int root);
void GA_Igop(int x[], int n, char* op);
void GA_Lgop(long x[], int n, char* op);
void GA_Llgop(long long x[], int n, char* op);
void GA_Fgop(float x[], int n, char* op);
void GA_Dgop(double x[], int n, char* op);
void GA_Cgop(SingleComplex x[], int n, char* op);
void GA_Zgop(DoubleComplex x[], int n, char* op);
/* type: a C type code (C_INT, C_LONG, C_LONGLONG, C_FLOAT, C_DBL, C_SCPL, C_DCPL). */
void GA_Gop(int type, void* x, int n, char* op);

/* ---- pgroups ---- */
/* Process groups. A group handle is a small positive integer; GA_Pgroup_get_world() (-1) is
 * every process. GA_Pgroup_create is collective over the default group and list holds ranks
 * of the default group; a process outside the new group gets the handle too (nodeid -1).
 * Arrays are created on the default group (NGA_Create, GA_Create_handle) or on p_handle
 * (NGA_Create_config, NGA_Create_irreg_config, GA_Set_pgroup); GA_Nodeid, GA_Nnodes and GA_Sync
 * answer for the default group. */
/* Returns 1 once GA runs on comm (as GA: programs test it). */
int GA_Initialize_comm(MPI_Comm comm);
int NGA_Initialize_comm(MPI_Comm comm);
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
void GA_Pgroup_llgop(int grp, long long x[], int n, char* op);
void GA_Pgroup_fgop(int grp, float x[], int n, char* op);
void GA_Pgroup_cgop(int grp, SingleComplex x[], int n, char* op);
void GA_Pgroup_zgop(int grp, DoubleComplex x[], int n, char* op);
/* New groups, collective over grp_id and in its rank order (as MPI_Comm_split): _split cuts it
 * into groups of ceil(size / num_group) consecutive ranks (num_group = 0 returns grp_id), and
 * _split_irreg groups the ranks passing the same color (>= 0); each process gets the handle of
 * its own group. GA_Pgroup_self (collective over the default group) gives each process a group
 * of itself alone; GA_Pgroup_duplicate (collective over grp, the world included) a group of the
 * same ranks. GA_Pgroup_absolute_id: the world rank of rank pid of pgroup. */
int GA_Pgroup_split(int grp_id, int num_group);
int GA_Pgroup_split_irreg(int grp_id, int color);
int GA_Pgroup_self(void);
int GA_Pgroup_duplicate(int grp);
int GA_Pgroup_absolute_id(int pgroup, int pid);
/* GA's mirror group handle (0), as GA returns it; Remora has no mirrored arrays, so calls that
 * take a group fail on it. */
int GA_Pgroup_get_mirror(void);
/* Mirrored arrays: Remora has none, so these do what GA does for a distributed array:
 * GA_Is_mirrored is 0; GA_Merge_mirrored is a GA_Sync (collective); NGA_Merge_distr_patch
 * copies g_a's patch into g_b's (NGA_Copy_patch) on one node and ends the job across nodes. */
int GA_Is_mirrored(int g_a);
int NGA_Is_mirrored(int g_a);
void GA_Merge_mirrored(int g_a);
void NGA_Merge_mirrored(int g_a);
void NGA_Merge_distr_patch(int g_a, int alo[], int ahi[], int g_b, int blo[], int bhi[]);
void NGA_Merge_distr_patch64(int g_a, int64_t alo[], int64_t ahi[], int g_b, int64_t blo[],
                             int64_t bhi[]);
void GA_Set_pgroup(int g_a, int p_handle);
int GA_Get_pgroup(int g_a);
int GA_Get_pgroup_size(int grp_id);

/* The NGA_ spellings that GA also provides for these GA_ calls: the same arguments and
 * meaning. */
int NGA_Allocate(int g_a);
int NGA_Overlay(int g_a, int g_p);
int NGA_Compare_distr(int g_a, int g_b);
int NGA_Create_handle(void);
void NGA_Destroy(int g_a);
int NGA_Destroy_mutexes(void);
void NGA_Dgop(double x[], int n, char* op);
int NGA_Duplicate(int g_a, char* array_name);
void NGA_Error(char* message, int code);
void NGA_Fence(void);
void NGA_Fill(int g_a, void* value);
void NGA_Randomize(int g_a, void* value);
/* A random number in [0, 1) from this process's generator, seeded first when seed != 0. */
double NGA_Rand(int seed);
void NGA_Get_block_info(int g_a, int num_blocks[], int block_dims[]);
int NGA_Get_pgroup(int g_a);
int NGA_Get_pgroup_size(int grp_id);
void NGA_Get_proc_grid(int g_a, int dims[]);
void NGA_Igop(int x[], int n, char* op);
void NGA_Init_fence(void);
void NGA_Initialize(void);
void NGA_Initialize_ltd(size_t limit);
int NGA_Initialized(void);
size_t NGA_Inquire_memory(void);
char* NGA_Inquire_name(int g_a);
void NGA_Lock(int mutex);
void NGA_Mask_sync(int first, int last);
size_t NGA_Memory_avail(void);
int NGA_Memory_limited(void);
int NGA_Ndim(int g_a);
int NGA_Nnodes(void);
int NGA_Nodeid(void);
int NGA_Pgroup_create(int* list, int count);
int NGA_Pgroup_destroy(int grp);
void NGA_Pgroup_dgop(int grp_id, double* x, int n, char* op);
int NGA_Pgroup_get_default(void);
int NGA_Pgroup_get_world(void);
void NGA_Pgroup_igop(int grp_id, int* x, int n, char* op);
void NGA_Pgroup_lgop(int grp_id, long* x, int n, char* op);
int NGA_Pgroup_nnodes(int grp);
int NGA_Pgroup_nodeid(int grp);
void NGA_Pgroup_set_default(int grp);
void NGA_Pgroup_sync(int grp_id);
void NGA_Pgroup_llgop(int grp, long long x[], int n, char* op);
void NGA_Pgroup_fgop(int grp, float x[], int n, char* op);
void NGA_Pgroup_zgop(int grp, DoubleComplex x[], int n, char* op);
int NGA_Pgroup_split(int grp_id, int num_group);
int NGA_Pgroup_split_irreg(int grp_id, int color);
int NGA_Pgroup_self(void);
int NGA_Pgroup_duplicate(int grp);
int NGA_Pgroup_absolute_id(int pgroup, int pid);
int NGA_Pgroup_get_mirror(void);
void NGA_Get_proc_index(int g_a, int iproc, int subscript[]);
void NGA_List_nodeid(int* list, int nprocs);
int NGA_Deallocate(int g_a);
void NGA_Set_memory_limit(size_t limit);
void NGA_Set_debug(int flag);
int NGA_Get_debug(void);
void NGA_Set_irreg_flag(int g_a, int flag);
void NGA_Set_memory_dev(int g_a, char* device);
void NGA_Set_array_name(int g_a, char* name);
void NGA_Set_block_cyclic(int g_a, int dims[]);
void NGA_Set_block_cyclic_proc_grid(int g_a, int dims[], int proc_grid[]);
void NGA_Set_block_cyclic64(int g_a, int64_t dims[]);
void NGA_Set_block_cyclic_proc_grid64(int g_a, int64_t dims[], int64_t proc_grid[]);
void NGA_Set_chunk(int g_a, int chunk[]);
void NGA_Set_data(int g_a, int ndim, int dims[], int type);
void NGA_Set_data64(int g_a, int ndim, int64_t dims[], int type);
void NGA_Set_irreg_distr(int g_a, int map[], int nblock[]);
void NGA_Set_irreg_distr64(int g_a, int64_t map[], int64_t nblock[]);
void NGA_Set_pgroup(int g_a, int p_handle);
void NGA_Set_restricted(int g_a, int list[], int size);
void NGA_Set_restricted_range(int g_a, int lo_proc, int hi_proc);
void NGA_Set_tiled_proc_grid(int g_a, int dims[], int proc_grid[]);
void NGA_Set_tiled_proc_grid64(int g_a, int64_t dims[], int64_t proc_grid[]);
void NGA_Set_tiled_irreg_proc_grid(int g_a, int mapc[], int nblocks[], int proc_grid[]);
void NGA_Set_tiled_irreg_proc_grid64(int g_a, int64_t mapc[], int64_t nblocks[],
                                     int64_t proc_grid[]);
void NGA_Sync(void);
void NGA_Terminate(void);
int NGA_Total_blocks(int g_a);
int NGA_Valid_handle(int g_a);
int NGA_Verify_handle(int g_a);
int NGA_Get_dimension(int g_a);
int NGA_Uses_proc_grid(int g_a);
void NGA_Nblock(int g_a, int nblock[]);
void NGA_Unlock(int mutex);
int NGA_Uses_ma(void);
double NGA_Wtime(void);
void NGA_Zero(int g_a);
/* NGA_Matmul_patch: GA_Matmul_patch with the patches as lo/hi arrays (row, column) of 2-D
 * arrays; the A and B ranges index op(A) and op(B). */
void NGA_Matmul_patch(char transa, char transb, void* alpha, void* beta, int g_a, int alo[],
                      int ahi[], int g_b, int blo[], int bhi[], int g_c, int clo[], int chi[]);
void NGA_Matmul_patch64(char transa, char transb, void* alpha, void* beta, int g_a, int64_t alo[],
                        int64_t ahi[], int g_b, int64_t blo[], int64_t bhi[], int g_c,
                        int64_t clo[], int64_t chi[]);

/* Sparse arrays (GA 5.9): a 2-D sparse matrix built with add_element on any process and made
 * usable by the collective assemble. Rows and columns are split into one block per process of
 * the group the array was created on; each process holds its rows as CSR blocks, one per column
 * block with entries. Handles from NGA_Sprs_array_create use int indices, those from
 * NGA_Sprs_array_create64 int64_t indices (use the matching ...64 calls on them). */
int NGA_Sprs_array_create(int idim, int jdim, int type);
int NGA_Sprs_array_create64(int64_t idim, int64_t jdim, int type);
void NGA_Sprs_array_add_element(int s_a, int idx, int jdx, void* val);
void NGA_Sprs_array_add_element64(int s_a, int64_t idx, int64_t jdx, void* val);
int NGA_Sprs_array_assemble(int s_a);
void NGA_Sprs_array_row_distribution(int s_a, int iproc, int* lo, int* hi);
void NGA_Sprs_array_row_distribution64(int s_a, int iproc, int64_t* lo, int64_t* hi);
void NGA_Sprs_array_column_distribution(int s_a, int iproc, int* lo, int* hi);
void NGA_Sprs_array_column_distribution64(int s_a, int iproc, int64_t* lo, int64_t* hi);
void NGA_Sprs_array_col_block_list(int s_a, int** idx, int* n);
/* idx, jdx and val are the addresses of the caller's pointers (int* or int64_t*, and the element
 * type's), taken as void* as in GA's ga.h, so that any element pointer's address converts. */
void NGA_Sprs_array_access_col_block(int s_a, int icol, void* idx, void* jdx, void* val);
void NGA_Sprs_array_access_col_block64(int s_a, int icol, void* idx, void* jdx, void* val);
/* NGA_Sprs_array_get_block: a copy of block (irow, icol) from whichever process holds it, in
 * arrays the caller frees; returns 0 (and NULL arrays) for a block without entries. */
int NGA_Sprs_array_get_block(int s_a, int irow, int icol, int** idx, int** jdx, void** data,
                             int* ilo, int* ihi, int* jlo, int* jhi);
int NGA_Sprs_array_get_block64(int s_a, int64_t irow, int64_t icol, int64_t** idx, int64_t** jdx,
                               void** data, int64_t* ilo, int64_t* ihi, int64_t* jlo, int64_t* jhi);
void NGA_Sprs_array_matvec_multiply(int s_a, int g_a, int g_v);
int NGA_Sprs_array_destroy(int s_a);
/* NGA_Sprs_array_export: process 0 writes the matrix to file in Matrix Market coordinate
 * format (1-based indices). Collective. */
void NGA_Sprs_array_export(int s_a, const char* file);
void NGA_Sprs_array_get_diag(int s_a, int* g_d);
void NGA_Sprs_array_diag_right_multiply(int s_a, int g_d);
void NGA_Sprs_array_diag_left_multiply(int s_a, int g_d);
void NGA_Sprs_array_shift_diag(int s_a, void* shift);
int NGA_Sprs_array_duplicate(int s_a);
/* NGA_Sprs_array_create_from_dense(64): an assembled sparse array of a 2-D array's non-zero
 * elements and its whole diagonal (zeros included, as GA), on its group (int / int64_t
 * indices). Collective. */
int NGA_Sprs_array_create_from_dense(int g_a);
int NGA_Sprs_array_create_from_dense64(int g_a);
/* NGA_Sprs_array_elementwise_multiply: a new sparse array, C[i][j] = A[i][j] * B[i][j] where
 * both hold an element. Collective. */
int NGA_Sprs_array_elementwise_multiply(int s_a, int s_b);
int NGA_Sprs_array_matmat_multiply(int s_a, int s_b);
/* NGA_Sprs_array_create_from_sparse: a new dense idim x jdim array holding s_a (zeros elsewhere),
 * its rows split as s_a's are. Collective. */
int NGA_Sprs_array_create_from_sparse(int s_a);
/* NGA_Sprs_array_sprsdns_multiply: a new dense array C = A B (A sparse, B a dense 2-D array
 * with as many rows as A has columns), C's rows split as A's are. Collective. */
int NGA_Sprs_array_sprsdns_multiply(int s_a, int g_b);
/* NGA_Sprs_array_dnssprs_multiply: a new dense array C = A B (A a dense 2-D array with as many
 * columns as the sparse B has rows), C's rows split by the sparse arrays' rule. Collective. */
int NGA_Sprs_array_dnssprs_multiply(int g_a, int s_b);
/* NGA_Sprs_array_sampled_multiply: overwrites every element s_c holds with that element of
 * A B (transB != 0: A B^T), A and B dense 2-D arrays. Collective. */
void NGA_Sprs_array_sampled_multiply(int g_a, int g_b, int s_c, int transB);
/* NGA_Sprs_array_quantize256: a new sparse array of s_a's real values mapped to integers in
 * [0, 255]: v >= *max gives 255, 0 < v < *max gives (int)(v / *max * 255) (dropped when 0, off
 * the diagonal), v <= 0 is dropped off the diagonal and 0 on it. Collective. */
int NGA_Sprs_array_quantize256(int s_a, void* max);
/* NGA_Sprs_array_activate_ReLU(64): in place, every element v of a real sparse array becomes
 * min(max(v + *bias, 0), 32); categories and features are not read or written. Returns 1.
 * Collective. */
int NGA_Sprs_array_activate_ReLU(int s_a, void* bias, int** categories, int* features);
int NGA_Sprs_array_activate_ReLU64(int s_a, void* bias, int64_t** categories, int64_t* features);

#ifdef __cplusplus
}
#endif

#endif /* REMORA_GA_H */
