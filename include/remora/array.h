/* Distributed arrays: N-dimensional arrays whose elements are spread over all ranks, accessed
 * one-sidedly by patches (Global Arrays' model; paper 003's RMAInterface and EL::DA).
 *
 * Conventions (Global Arrays' C API): row-major (C) indexing, indices from 0; a patch is the
 * box lo[d]..hi[d] (inclusive) for each dimension d; a local buffer holding a patch is
 * row-major with leading dimensions ld[0..ndim-2]: ld[d] is the buffer's extent in dimension
 * d+1 (>= hi[d+1]-lo[d+1]+1), so element (i0, ..., in-1) of the patch lies at offset
 * sum_d (i_d - lo_d) * prod_{e>=d} ld[e] elements.
 *
 * Element types: REMORA_INT32 (int), REMORA_INT64 (long), REMORA_FLOAT, REMORA_DOUBLE,
 * REMORA_FLOAT_COMPLEX, REMORA_DOUBLE_COMPLEX; and REMORA_UINT8 for byte arrays, which are
 * moved (put, get, scatter, gather, access, queries, duplicate, destroy) but never computed
 * on (the other calls return REMORA_ERR_ARG).
 *
 * Distributions (process grid: see remora_array_proc_grid):
 *   block           each dimension cut into near-equal blocks over a grid chosen from the
 *                   array's shape (Global Arrays' default), any ndim up to REMORA_ARRAY_MAX_DIM
 *   irregular       user-given block starts per dimension (GA's map/nblock)
 *   block-cyclic    ScaLAPACK-style blocks dealt round-robin over a process grid (2-D, or any
 *                   ndim with remora_array_create_block_cyclic_nd); N-d tiles on a grid, each
 *                   stored contiguously (remora_array_create_tiled, GA's tiled layouts); or
 *                   N-d blocks dealt round-robin over the ranks in block-number order
 *                   (remora_array_create_block_dealt, GA_Set_block_cyclic's layout)
 *   element-cyclic  2-D, Elemental's [MC,MR]: element (i,j) lives on grid position
 *                   (i mod Pr, j mod Pc); the grid is near-square as Elemental builds it.
 *
 * Completion (paper 003, Fig. 3): put/acc return when the local buffer may be reused (local
 * completion); remora_array_flush(a) completes this rank's puts/accs to a at their targets;
 * remora_array_sync completes every rank's operations on every array and synchronises.
 * get returns with the data. Concurrent accs to the same elements are atomic per element.
 * See docs/arrays.md. */
#ifndef REMORA_ARRAY_H
#define REMORA_ARRAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "remora/coll.h"
#include "remora/export.h"
#include "remora/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct remora_array_s* remora_array_t;
typedef struct remora_array_request_s* remora_array_request_t;
typedef struct remora_mutexes_s* remora_mutexes_t;

#define REMORA_ARRAY_MAX_DIM 7
#define REMORA_ARRAY_REQUEST_NULL ((remora_array_request_t)0)

typedef enum remora_distribution_kind {
  REMORA_DIST_BLOCK = 1,
  REMORA_DIST_IRREGULAR,
  REMORA_DIST_BLOCK_CYCLIC,
  REMORA_DIST_ELEMENT_CYCLIC,
  /* Makes every int a valid value of the type. Not a distribution. */
  REMORA_DIST_ENUM_RANGE_ = 0x7fffffff
} remora_distribution_kind_t;

/* ---- Creation (collective: every rank passes the same arguments) ---- */
/* Block distribution. name may be NULL. Elements are zero-initialised. */
REMORA_API int remora_array_create(remora_datatype_t type, int ndim, const int64_t* dims,
                                   const char* name, remora_array_t* array);
/* Irregular: nblock[d] blocks in dimension d starting at map[offset_d + k] (offset_d = the sum
 * of nblock[0..d-1]); map[offset_d] must be 0 and the starts strictly increasing and < dims[d].
 * The blocks form a grid of nblock[0] x ... ranks (row-major); its size must not exceed the
 * number of ranks; ranks beyond it own nothing. */
REMORA_API int remora_array_create_irregular(remora_datatype_t type, int ndim, const int64_t* dims,
                                             const int* nblock, const int64_t* map,
                                             const char* name, remora_array_t* array);
/* Block-cyclic (2-D): blocks of block[0] x block[1]; grid NULL (near-square) or grid[0] x
 * grid[1] ranks (product <= number of ranks). */
REMORA_API int remora_array_create_block_cyclic(remora_datatype_t type, const int64_t* dims,
                                                const int64_t* block, const int* grid,
                                                const char* name, remora_array_t* array);
/* Blocks dealt round-robin (Global Arrays' GA_Set_block_cyclic), any ndim: blocks of
 * block[0] x ... (the last of a dimension shorter), numbered row-major over the block grid;
 * block k lives on rank k mod P. Each rank stores its blocks one after another in increasing
 * number, each row-major with its own extents. Kind REMORA_DIST_BLOCK_CYCLIC; the process grid
 * reads 1 x ... x P and the local shape 1 x ... x (the rank's element count). */
REMORA_API int remora_array_create_block_dealt(remora_datatype_t type, int ndim,
                                               const int64_t* dims, const int64_t* block,
                                               const char* name, remora_array_t* array);
/* Block-cyclic (2-D) with tiles of irregular extents: ntiles[d] tiles in dimension d starting
 * at starts[offset_d + k] (offset_d = the sum of ntiles[0..d-1]; 0 first, strictly increasing,
 * below dims[d]); tile (i, j) lives on grid position (i mod grid[0], j mod grid[1]), grid
 * required (product <= number of ranks). */
REMORA_API int remora_array_create_block_cyclic_tiles(remora_datatype_t type, const int64_t* dims,
                                                      const int* ntiles, const int64_t* starts,
                                                      const int* grid, const char* name,
                                                      remora_array_t* array);
/* Block-cyclic over a process grid, any ndim (ScaLAPACK's layout in N dimensions; Global
 * Arrays' GA_Set_block_cyclic_proc_grid): blocks of block[0] x ... x block[ndim-1]; block
 * (c_0, ..., c_ndim-1) lives on grid position (c_d mod grid[d]), ranks numbered row-major over
 * the grid (grid required, product <= number of ranks; ranks beyond it own nothing). Each rank
 * stores its ScaLAPACK local array row-major. For ndim 2 the same layout as
 * remora_array_create_block_cyclic with that grid. */
REMORA_API int remora_array_create_block_cyclic_nd(remora_datatype_t type, int ndim,
                                                   const int64_t* dims, const int64_t* block,
                                                   const int* grid, const char* name,
                                                   remora_array_t* array);
/* Tiles on a process grid, any ndim, stored as Global Arrays stores them (GA_Set_tiled_proc_grid,
 * GA_Set_tiled_irreg_proc_grid): ntiles[d] tiles in dimension d starting at starts[offset_d + k]
 * (as remora_array_create_block_cyclic_tiles); tile (c_0, ..., c_ndim-1) lives on grid position
 * (c_d mod grid[d]), ranks row-major over the grid (grid required, product <= number of ranks).
 * Each rank stores its tiles one after another in row-major tile order, each row-major with its
 * own extents (so direct access to a tile has the tile's extents as leading dimensions); the
 * local shape reads the rank's extent per dimension (the sum of its tiles'). Kind
 * REMORA_DIST_BLOCK_CYCLIC. */
REMORA_API int remora_array_create_tiled(remora_datatype_t type, int ndim, const int64_t* dims,
                                         const int* ntiles, const int64_t* starts, const int* grid,
                                         const char* name, remora_array_t* array);
/* Element-cyclic (2-D, Elemental's [MC,MR]); grid as for block-cyclic. */
REMORA_API int remora_array_create_element_cyclic(remora_datatype_t type, const int64_t* dims,
                                                  const int* grid, const char* name,
                                                  remora_array_t* array);
/* The communicator that this rank's following creations use (local; REMORA_COMM_NULL: the
 * world, the default). An array created on comm is collective over comm only, is distributed
 * over comm's ranks (grids, nblock and ranks of the queries count comm's ranks), and its
 * collective operations (zero ... gemm, print) run over comm; arrays of one operation must
 * live on the same ranks. remora_array_duplicate keeps the source's ranks. AXPY batches need
 * an array of every rank. See docs/arrays.md. */
REMORA_API int remora_array_set_create_comm(remora_comm_t comm);
REMORA_API int remora_array_get_create_comm(remora_comm_t* comm);
/* The array whose memory this rank's following creations (remora_array_create*, not
 * remora_array_duplicate) use (local; NULL, the default: memory of their own). Such an array
 * is not zero-filled: each rank's part starts at the start of that rank's part of a's memory
 * and shows its bytes, so that stores through either array are seen through the other (GA's
 * GA_Overlay). It must live on a's ranks in a's order (REMORA_ERR_ARG) and every rank's part
 * must fit in that rank's part of a's memory (REMORA_ERR_RANGE, returned on every rank; an array
 * created on a's memory counts the memory's full size, not its own). The memory stays until
 * every array on it is destroyed, in any order. See docs/arrays.md. */
REMORA_API int remora_array_set_create_memory(remora_array_t a);
REMORA_API int remora_array_get_create_memory(remora_array_t* a);
/* The number of ranks a lives on and this rank's rank among them (either may be NULL). */
REMORA_API int remora_array_ranks(remora_array_t a, int* size, int* rank);
/* A new array with a's type, shape and distribution (GA_Duplicate), zero-initialised. */
REMORA_API int remora_array_duplicate(remora_array_t a, const char* name, remora_array_t* array);
/* Collective. Completes outstanding operations, frees the memory, sets *array to NULL. */
REMORA_API int remora_array_destroy(remora_array_t* array);

/* ---- Queries (local) ---- */
/* type, ndim and dims (REMORA_ARRAY_MAX_DIM entries suffice); any output may be NULL. */
REMORA_API int remora_array_inquire(remora_array_t a, remora_datatype_t* type, int* ndim,
                                    int64_t* dims);
REMORA_API int remora_array_kind(remora_array_t a, remora_distribution_kind_t* kind);
/* The process grid: ndim entries (2 for the 2-D cyclic layouts). */
REMORA_API int remora_array_proc_grid(remora_array_t a, int* grid);
/* Block and irregular: the patch rank owns (lo > hi in some dimension when it owns nothing).
 * Cyclic layouts: REMORA_ERR_UNSUPPORTED (what a rank owns is not a patch). */
REMORA_API int remora_array_distribution(remora_array_t a, int rank, int64_t* lo, int64_t* hi);
/* The extents of rank's local storage (row-major; for cyclic layouts the local matrix). */
REMORA_API int remora_array_local_shape(remora_array_t a, int rank, int64_t* extents);
/* The ranks owning part of the patch lo..hi, in rank order: *count of them (at most max;
 * REMORA_ERR_RANGE if more). owner_lo/owner_hi (may be NULL; ndim entries per owner) receive
 * the intersection of the patch with each owner's block, or for cyclic layouts its bounding
 * box. */
REMORA_API int remora_array_locate_region(remora_array_t a, const int64_t* lo, const int64_t* hi,
                                          int max, int* owners, int64_t* owner_lo,
                                          int64_t* owner_hi, int* count);

/* ---- One-sided patch access (locally blocking) ---- */
REMORA_API int remora_array_put(remora_array_t a, const int64_t* lo, const int64_t* hi,
                                const void* buffer, const int64_t* ld);
REMORA_API int remora_array_get(remora_array_t a, const int64_t* lo, const int64_t* hi,
                                void* buffer, const int64_t* ld);
/* patch += alpha * buffer, atomically per element; alpha points to one element of a's type. */
REMORA_API int remora_array_acc(remora_array_t a, const int64_t* lo, const int64_t* hi,
                                const void* buffer, const int64_t* ld, const void* alpha);

/* Nonblocking forms: the call validates, queues the transfer and returns; the rank's progress
 * engine performs it (the progress thread with REMORA_PROGRESS=thread, else the next Remora
 * call that makes progress, such as test, wait, flush or sync). The buffer is read (put, acc)
 * or written (get) when the transfer is performed: it may be changed or freed (put, acc) or
 * read (get) only once the request completes (remora_array_wait, remora_array_test setting
 * *done, or remora_array_flush_local / flush / sync covering the array), as GA's NGA_NbPut.
 * Any number may be outstanding; they are performed in issue order. */
REMORA_API int remora_array_nbput(remora_array_t a, const int64_t* lo, const int64_t* hi,
                                  const void* buffer, const int64_t* ld,
                                  remora_array_request_t* request);
REMORA_API int remora_array_nbget(remora_array_t a, const int64_t* lo, const int64_t* hi,
                                  void* buffer, const int64_t* ld, remora_array_request_t* request);
REMORA_API int remora_array_nbacc(remora_array_t a, const int64_t* lo, const int64_t* hi,
                                  const void* buffer, const int64_t* ld, const void* alpha,
                                  remora_array_request_t* request);
/* Completes and frees the request, sets it to REMORA_ARRAY_REQUEST_NULL and returns the
 * transfer's status. A request completed by flush, sync or destroy stays valid until waited for
 * or tested (it is freed then). Waiting for REMORA_ARRAY_REQUEST_NULL (a request waited for
 * already through this variable) succeeds at once; a stale copy of a freed handle is
 * REMORA_ERR_ARG. */
REMORA_API int remora_array_wait(remora_array_request_t* request);
/* Makes one step of progress; *done = 1 (the request is freed, set to NULL, and its status
 * returned) once it is complete, else *done = 0. */
REMORA_API int remora_array_test(remora_array_request_t* request, int* done);
/* *count = this rank's nonblocking operations on a that are issued and not yet performed
 * (local, makes no progress). */
REMORA_API int remora_array_pending(remora_array_t a, int64_t* count);

/* Remote completion of this rank's puts and accs to a (paper 003 Flush), and local completion
 * of its nonblocking operations on a (LocalFlush: every buffer may be reused). Both perform
 * the queued nonblocking operations on a first. */
REMORA_API int remora_array_flush(remora_array_t a);
REMORA_API int remora_array_flush_local(remora_array_t a);

/* Collective over all ranks: completes every rank's operations on every array, then
 * synchronises (GA_Sync). */
REMORA_API int remora_array_sync(void);
/* Collective over comm: completes this rank's operations on every array, then a barrier over
 * comm, so every operation of comm's ranks is complete (GA_Pgroup_sync). */
REMORA_API int remora_array_sync_comm(remora_comm_t comm);

/* ---- Direct access ---- */
/* *pointer addresses element lo of the patch, with leading dimensions ld (ndim-1 entries).
 * When the patch lies inside one block (a rank's block, one block or tile of a block-cyclic
 * layout, one element of an element-cyclic one) whose memory this rank maps (its own, or a
 * rank's on the same node), the pointer is into that memory and stores go straight to the
 * array; otherwise it is a copy gathered with get. End with release (discard: the
 * array is unchanged for a copy) or release_update (a copy is put back; stores through a
 * direct pointer become visible to others at the next sync or flush). */
REMORA_API int remora_array_access(remora_array_t a, const int64_t* lo, const int64_t* hi,
                                   void** pointer, int64_t* ld);
REMORA_API int remora_array_release(remora_array_t a, void* pointer);
/* The whole local array of rank (a rank of a's ranks) when this rank maps it (its own, or a
 * rank's on the same node; else REMORA_ERR_UNSUPPORTED): *pointer to its first element, *count
 * elements, row-major over remora_array_local_shape's extents (for dealt blocks and tiled
 * arrays: the rank's blocks or tiles one after another, in row-major block order). Stores become
 * visible to others at the next sync or flush. Nothing to release (NGA_Access_block_segment). */
REMORA_API int remora_array_access_local(remora_array_t a, int rank, void** pointer,
                                         int64_t* count);
REMORA_API int remora_array_release_update(remora_array_t a, void* pointer);

/* ---- Element lists: subscripts holds n * ndim indices (element k: subscripts[k*ndim ..]) ---- */
REMORA_API int remora_array_scatter(remora_array_t a, const void* values, const int64_t* subscripts,
                                    size_t n);
REMORA_API int remora_array_gather(remora_array_t a, void* values, const int64_t* subscripts,
                                   size_t n);
/* element += alpha * value, atomically per element. */
REMORA_API int remora_array_scatter_acc(remora_array_t a, const void* values,
                                        const int64_t* subscripts, size_t n, const void* alpha);

/* Atomic fetch-and-add on one element of an REMORA_INT32 or REMORA_INT64 array:
 * *old (may be NULL) receives the value before adding inc. */
REMORA_API int remora_array_read_inc(remora_array_t a, const int64_t* subscript, int64_t inc,
                                     int64_t* old);

/* ---- Mutexes (collective create/destroy; lock/unlock are one-sided) ---- */
REMORA_API int remora_mutexes_create(int count, remora_mutexes_t* mutexes);
REMORA_API int remora_mutex_lock(remora_mutexes_t mutexes, int index);
REMORA_API int remora_mutex_unlock(remora_mutexes_t mutexes, int index);
REMORA_API int remora_mutexes_destroy(remora_mutexes_t* mutexes);

/* ---- Collective operations (every rank calls them; they begin and end with a sync) ---- */
REMORA_API int remora_array_zero(remora_array_t a);
/* Every element = *value (one element of a's type). */
REMORA_API int remora_array_fill(remora_array_t a, const void* value);
REMORA_API int remora_array_scale(remora_array_t a, const void* alpha);
/* b = a: same type and shape, any distributions. */
REMORA_API int remora_array_copy(remora_array_t a, remora_array_t b);
/* c = alpha a + beta b: same type and shape, any distributions (c may be a or b). */
REMORA_API int remora_array_add(const void* alpha, remora_array_t a, const void* beta,
                                remora_array_t b, remora_array_t c);
/* *result (one element of the type) = sum of a[i] * b[i] (no conjugation, as GA). */
REMORA_API int remora_array_dot(remora_array_t a, remora_array_t b, void* result);
/* *result = sqrt(sum |a[i]|^2) (Frobenius norm). */
REMORA_API int remora_array_norm(remora_array_t a, double* result);
/* b = a^T: 2-D, b's dims are a's reversed; a and b distinct. */
REMORA_API int remora_array_transpose(remora_array_t a, remora_array_t b);
/* a = (a + a^T) / 2: square 2-D, not an integer type. */
REMORA_API int remora_array_symmetrize(remora_array_t a);
/* Rank 0 writes the patch to stream (one line per row of the last dimension). */
REMORA_API int remora_array_print_patch(remora_array_t a, const int64_t* lo, const int64_t* hi,
                                        FILE* stream);
/* c = alpha op(a) op(b) + beta c, op 'N' (as is) or 'T' (transposed); 2-D arrays of one
 * floating or complex type; c distinct from a and b. Uses BLAS for local products when the
 * library was built with it (remora_array_gemm_uses_blas). */
REMORA_API int remora_array_gemm(char transa, char transb, const void* alpha, remora_array_t a,
                                 remora_array_t b, const void* beta, remora_array_t c);
/* 1 when gemm multiplies local blocks with BLAS, 0 when with the built-in loops. */
REMORA_API int remora_array_gemm_uses_blas(void);

/* ---- Patch forms of the collective operations (Global Arrays' NGA_*_patch) ----
 * Collective, each begins and ends with a sync. Patches are inclusive lo..hi boxes (ndim
 * entries each). Where two or three patches meet they may differ in shape and distribution but
 * must hold the same number of elements, matched in row-major order; a transposed ('T')
 * operand is its patch with the axes in reverse order (for 2-D, the transpose). */
REMORA_API int remora_array_zero_patch(remora_array_t a, const int64_t* lo, const int64_t* hi);
REMORA_API int remora_array_fill_patch(remora_array_t a, const int64_t* lo, const int64_t* hi,
                                       const void* value);
REMORA_API int remora_array_scale_patch(remora_array_t a, const int64_t* lo, const int64_t* hi,
                                        const void* alpha);
/* Every element += *value (whole array / patch). */
REMORA_API int remora_array_add_constant(remora_array_t a, const void* value);
REMORA_API int remora_array_add_constant_patch(remora_array_t a, const int64_t* lo,
                                               const int64_t* hi, const void* value);
/* 1-D: element lo + i = *start + i * *inc (GA_Patch_enum). */
REMORA_API int remora_array_patch_enum(remora_array_t a, int64_t lo, int64_t hi, const void* start,
                                       const void* inc);
/* b[blo..bhi] = op(a[alo..ahi]), trans 'N' or 'T' (NGA_Copy_patch); a and b of one type. When
 * a and b are the same array the patches must not overlap. */
REMORA_API int remora_array_copy_patch(char trans, remora_array_t a, const int64_t* alo,
                                       const int64_t* ahi, remora_array_t b, const int64_t* blo,
                                       const int64_t* bhi);
/* c[clo..chi] = alpha a[alo..ahi] + beta b[blo..bhi] (NGA_Add_patch); one type. */
REMORA_API int remora_array_add_patch(const void* alpha, remora_array_t a, const int64_t* alo,
                                      const int64_t* ahi, const void* beta, remora_array_t b,
                                      const int64_t* blo, const int64_t* bhi, remora_array_t c,
                                      const int64_t* clo, const int64_t* chi);
/* *result = sum of a[alo..ahi] * b[blo..bhi] element by element, no conjugation
 * (NGA_Ddot_patch). As GA: when trans_a and trans_b differ, b's patch is taken transposed; when
 * they agree no operand is transposed. */
REMORA_API int remora_array_dot_patch(remora_array_t a, char trans_a, const int64_t* alo,
                                      const int64_t* ahi, remora_array_t b, char trans_b,
                                      const int64_t* blo, const int64_t* bhi, void* result);
/* c[clo..chi] = alpha op(a[alo..ahi]) op(b[blo..bhi]) + beta c[clo..chi], the patches as
 * stored: 2-D arrays of one type, op(a) m x k, op(b) k x n, the c patch m x n; c distinct from a
 * and b (the GA layer's matrix products: NGA_Matmul_patch, GA_Matmul_patch, GA_?gemm). */
REMORA_API int remora_array_gemm_patch(char transa, char transb, const void* alpha,
                                       const void* beta, remora_array_t a, const int64_t* alo,
                                       const int64_t* ahi, remora_array_t b, const int64_t* blo,
                                       const int64_t* bhi, remora_array_t c, const int64_t* clo,
                                       const int64_t* chi);
/* Element-wise (GA_Abs_value_patch, GA_Recip_patch, GA_Elem_*_patch): a[patch] = |a[patch]|
 * (complex: the magnitude, imaginary part 0); a[patch] = 1 / a[patch] (integers: integer
 * division; a zero element fails on the rank that meets it); c[patch] = a[patch] op b[patch]
 * (patches matched as above; division by zero fails; complex maximum and minimum keep the
 * element of larger or smaller magnitude, b's on a tie, as GA does). */
typedef enum remora_elem_op {
  REMORA_ELEM_MULTIPLY = 1,
  REMORA_ELEM_DIVIDE,
  REMORA_ELEM_MAXIMUM,
  REMORA_ELEM_MINIMUM,
  /* Makes every int a valid value of the type. Not an operation. */
  REMORA_ELEM_OP_ENUM_RANGE_ = 0x7fffffff
} remora_elem_op_t;
REMORA_API int remora_array_abs_value_patch(remora_array_t a, const int64_t* lo, const int64_t* hi);
REMORA_API int remora_array_recip_patch(remora_array_t a, const int64_t* lo, const int64_t* hi);
REMORA_API int remora_array_elem_patch(remora_elem_op_t op, remora_array_t a, const int64_t* alo,
                                       const int64_t* ahi, remora_array_t b, const int64_t* blo,
                                       const int64_t* bhi, remora_array_t c, const int64_t* clo,
                                       const int64_t* chi);
/* 1-D or 2-D (a 1-D array is one column): the largest column sum of |a[i][j]| (norm1) and the
 * largest row sum (norm_infinity), as doubles. */
REMORA_API int remora_array_norm1(remora_array_t a, double* result);
REMORA_API int remora_array_norm_infinity(remora_array_t a, double* result);

/* ---- AXPY batch mode (Elemental's AxpyInterface, paper 003 sections II-B and III-A) ----
 * attach (collective) opens a batch on an array; axpy queues one transfer between a local
 * buffer and a patch, carried by active messages packed per owner:
 *   REMORA_AXPY_LOCAL_TO_GLOBAL  patch += alpha * buffer (the owner applies it)
 *   REMORA_AXPY_GLOBAL_TO_LOCAL  buffer += alpha * patch (the owner sends the data)
 * Nothing is guaranteed complete before detach (collective), which returns when every rank's
 * updates are applied and every GLOBAL_TO_LOCAL buffer is filled; until then the buffers must
 * stay valid and unchanged. How detach learns that no more messages will come:
 *   REMORA_AXPY_DETACH_EOM  every rank sends an end-of-message to every other rank
 *   REMORA_AXPY_DETACH_NBX  nonblocking consensus: once all of a rank's messages are
 *                           acknowledged it joins a nonblocking barrier, serving messages until
 *                           the barrier completes (paper 003, Algorithm 1).
 * Do not mix a batch with one-sided operations on the same elements before detach. */
typedef struct remora_axpy_s* remora_axpy_t;
typedef enum remora_axpy_detach {
  REMORA_AXPY_DETACH_EOM = 1,
  REMORA_AXPY_DETACH_NBX,
  REMORA_AXPY_DETACH_ENUM_RANGE_ = 0x7fffffff
} remora_axpy_detach_t;
typedef enum remora_axpy_direction {
  REMORA_AXPY_LOCAL_TO_GLOBAL = 1,
  REMORA_AXPY_GLOBAL_TO_LOCAL,
  REMORA_AXPY_DIRECTION_ENUM_RANGE_ = 0x7fffffff
} remora_axpy_direction_t;

REMORA_API int remora_axpy_attach(remora_array_t a, remora_axpy_detach_t detach,
                                  remora_axpy_t* batch);
REMORA_API int remora_axpy(remora_axpy_t batch, remora_axpy_direction_t direction,
                           const void* alpha, void* buffer, const int64_t* ld, const int64_t* lo,
                           const int64_t* hi);
REMORA_API int remora_axpy_detach(remora_axpy_t* batch);

#ifdef __cplusplus
}
#endif

#endif /* REMORA_ARRAY_H */
