/* Windows: memory that every rank exposes for one-sided access (put, get, accumulates) inside
 * synchronisation epochs, as in MPI-3 RMA.
 *
 * A window is allocated collectively; each rank contributes its own number of bytes and its own
 * displacement unit. An operation addresses rank `target`'s memory at byte offset
 * disp * disp_unit(target). Operations are only allowed inside an access epoch to the target:
 *   active target:  remora_win_fence ... remora_win_fence, or
 *                   remora_win_start(group) ... remora_win_complete (targets in group)
 *   passive target: remora_win_lock(target) ... remora_win_unlock(target), or
 *                   remora_win_lock_all ... remora_win_unlock_all
 *
 * Accumulates (accumulate, get_accumulate, fetch_and_op, compare_and_swap) are atomic per
 * element: concurrent accumulates with the same element type on the same locations never lose
 * an update, whichever ranks issue them. Accumulates from one origin to one target are applied
 * in the order they were issued. See docs/rma.md.
 *
 * Results (get, get_accumulate, fetch_and_op, compare_and_swap) are valid when the call
 * returns. Puts and accumulates are complete at the target after remora_win_flush, the end of
 * the epoch, or (for a fence epoch) the closing fence. */
#ifndef REMORA_WIN_H
#define REMORA_WIN_H

#include <stddef.h>

#include "remora/coll.h"
#include "remora/export.h"
#include "remora/layout.h"
#include "remora/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct remora_win_s* remora_win_t;

/* Lock types of remora_win_lock. */
#define REMORA_LOCK_EXCLUSIVE 1
#define REMORA_LOCK_SHARED 2

/* Assertions (bit flags) of remora_win_fence, remora_win_lock, remora_win_lock_all,
 * remora_win_post and remora_win_start. */
#define REMORA_MODE_NOCHECK 1    /* lock: no conflicting lock; start: the posts already happened */
#define REMORA_MODE_NOSTORE 2    /* fence: no local stores to the window since the last sync */
#define REMORA_MODE_NOPUT 4      /* fence: no puts/accumulates to this rank until the next sync */
#define REMORA_MODE_NOPRECEDE 8  /* fence: no operations to complete (same on every rank) */
#define REMORA_MODE_NOSUCCEED 16 /* fence: no operations follow (same on every rank) */

/* Accumulate strategies (info key acc_strategy, environment REMORA_ACC_STRATEGY). */
typedef enum remora_acc_strategy {
  REMORA_ACC_AUTO = 0,   /* caller on the node (in place), owner across nodes */
  REMORA_ACC_NATIVE = 1, /* CPU atomics per element; 16-byte elements use the lock table */
  REMORA_ACC_CALLER = 2, /* the origin locks the target range, reads, computes, writes back */
  REMORA_ACC_OWNER = 3,  /* the target's progress engine applies the update (active message) */
  /* Makes every int a valid value of the type, so a bad value from a caller is reported as
   * an error instead of being undefined behaviour in C++. Not an accumulate strategy. */
  REMORA_ACC_STRATEGY_ENUM_RANGE_ = 0x7fffffff
} remora_acc_strategy_t;

/* Implementations of fence and lock/unlock (paper 001; info keys fence and lock, environment
 * REMORA_RMA_FENCE and REMORA_RMA_LOCK). */
typedef enum remora_sync_impl {
  REMORA_SYNC_IMMEDIATE = 0, /* synchronise at once, operations complete as issued */
  REMORA_SYNC_DEFERRED = 1,  /* queue operations; all the work happens at the closing call */
  /* Makes every int a valid value of the type (see above). Not an implementation. */
  REMORA_SYNC_IMPL_ENUM_RANGE_ = 0x7fffffff
} remora_sync_impl_t;

/* Collective. Allocates bytes (may differ per rank, may be 0) of window memory on every rank,
 * addressed in units of disp_unit bytes (>= 1, may differ per rank). info is NULL or a list of
 * comma-separated key=value pairs that override the REMORA_* defaults and must be the same on
 * every rank:
 *   acc_strategy=auto|native|caller|owner      (REMORA_ACC_STRATEGY)
 *   acc_lock_stripes=<count>                    (REMORA_ACC_LOCK_STRIPES; 1 = whole window)
 *   acc_lock_granularity=<bytes>                (REMORA_ACC_LOCK_GRANULARITY)
 *   fence=immediate|deferred                    (REMORA_RMA_FENCE)
 *   lock=immediate|deferred                     (REMORA_RMA_LOCK)
 *   pscw=immediate|deferred                     (REMORA_RMA_PSCW; may differ per rank)
 *   strict=0|1                                  (1: an unknown key is an error)
 * Spaces around keys and values are ignored. MPI's window keys are accepted with MPI's values
 * and need nothing from Remora: no_locks, same_size, same_disp_unit, alloc_shared_noncontig
 * (true|false), accumulate_ordering (none, or a list of rar, raw, war, waw; Remora keeps MPI's
 * default ordering), accumulate_ops (same_op|same_op_no_op). Other keys are ignored, as MPI
 * ignores them, with one warning per key (REMORA_LOG=warn), unless strict=1.
 * *base (if base is not NULL) receives this rank's window memory, zero-initialised. */
REMORA_API int remora_win_allocate(size_t bytes, size_t disp_unit, const char* info, void** base,
                                   remora_win_t* win);
/* As remora_win_allocate, collective over comm only: the window's ranks are comm's ranks. Every
 * rank argument of the window calls (target, rank of the queries) is a rank of comm; PSCW groups
 * must hold members of comm. The window keeps its own duplicate of comm, so comm may be freed
 * while the window lives. acc_strategy=owner on a proper sub-communicator is not served by
 * ghost progress (REMORA_ERR_UNSUPPORTED); under ghost progress such a window spanning nodes
 * has no agent there, so its locks and accumulates across nodes wait for the target's next
 * Remora call (use thread progress). remora_win_allocate is this call with the world
 * communicator. */
REMORA_API int remora_win_allocate_comm(remora_comm_t comm, size_t bytes, size_t disp_unit,
                                        const char* info, void** base, remora_win_t* win);
/* The number of ranks of the window's communicator and this rank's rank in it. */
REMORA_API int remora_win_comm_size(remora_win_t win, int* size);
REMORA_API int remora_win_comm_rank(remora_win_t win, int* rank);
/* Collective. A window over the caller's own memory: bytes (may differ per rank, may be 0 with
 * base NULL) at base, which must stay valid until remora_win_free. Other ranks reach it with a
 * single kernel copy (process_vm_readv/writev) where the operating system allows it, otherwise
 * through this rank's progress agent (active messages: the owner must make progress, as for
 * owner-computes accumulates; the ghost process cannot serve it). Accumulates never use CPU
 * atomics on such memory: they take the lock table, applied by the origin (single copy) or the
 * owner's agent. info as for remora_win_allocate, plus
 *   user_memory=auto|single_copy|agent          (REMORA_RMA_USER_MEMORY; may differ per rank)
 * Fails on every rank if some rank's base is NULL with bytes > 0 or not its memory
 * (REMORA_ERR_ARG), or if single_copy is asked for and forbidden (REMORA_ERR_UNSUPPORTED). */
REMORA_API int remora_win_create(void* base, size_t bytes, size_t disp_unit, const char* info,
                                 remora_win_t* win);

/* How this rank's operations reach target's memory (remora_win_path). */
typedef enum remora_win_path {
  REMORA_WIN_PATH_SHARED = 0,      /* load/store through a shared mapping */
  REMORA_WIN_PATH_TRANSPORT = 1,   /* the transport's RDMA (another node) */
  REMORA_WIN_PATH_LOCAL = 2,       /* this rank's own user memory */
  REMORA_WIN_PATH_SINGLE_COPY = 3, /* user memory, copied by the kernel */
  REMORA_WIN_PATH_AGENT = 4,       /* user memory, copied by the target's progress agent */
  REMORA_WIN_PATH_ENUM_RANGE_ = 0x7fffffff
} remora_win_path_t;
REMORA_API int remora_win_path(remora_win_t win, int target, remora_win_path_t* path);

/* Collective. Fails (without freeing) while this rank holds a lock or has operations in an
 * unfinished fence epoch. Sets *win to NULL. The window's ranks agree first: a bad handle or
 * such an epoch on some ranks fails the call on every rank (the others with REMORA_ERR_ARG
 * naming the first bad rank) and frees nothing. A bad handle on a rank that has a window on a
 * sub-communicator fails there at once (docs/rma.md). */
REMORA_API int remora_win_free(remora_win_t* win);

/* Queries: this rank's memory, any rank's size and displacement unit, the strategy in use. */
REMORA_API int remora_win_base(remora_win_t win, void** base);
REMORA_API int remora_win_size(remora_win_t win, int rank, size_t* bytes);
REMORA_API int remora_win_disp_unit(remora_win_t win, int rank, size_t* disp_unit);
/* As MPI_Win_shared_query: rank's window size, displacement unit and memory as a pointer this
 * process can load from and store to, for a rank on this node of a window that
 * remora_win_allocate(_comm) made (loads and stores on it follow the rules of a shared-memory
 * window: order them with the window's synchronisation). REMORA_ERR_UNSUPPORTED for a rank
 * on another node, and for other ranks of a remora_win_create window. */
REMORA_API int remora_win_shared_query(remora_win_t win, int rank, size_t* bytes, size_t* disp_unit,
                                       void** base);
REMORA_API int remora_win_acc_strategy(remora_win_t win, remora_acc_strategy_t* strategy);
/* The fence and lock implementations of the window (either pointer may be NULL). */
REMORA_API int remora_win_sync_impl(remora_win_t win, remora_sync_impl_t* fence,
                                    remora_sync_impl_t* lock);

/* Contiguous transfers of count elements of type to/from target's memory at disp. */
REMORA_API int remora_win_put(remora_win_t win, int target, size_t disp, const void* origin,
                              size_t count, remora_datatype_t type);
REMORA_API int remora_win_get(remora_win_t win, int target, size_t disp, void* result, size_t count,
                              remora_datatype_t type);

/* target[i] = target[i] op origin[i], atomically per element. alpha points to one element of
 * type for REMORA_OP_SCALED_SUM and must be NULL for every other op. */
REMORA_API int remora_win_accumulate(remora_win_t win, int target, size_t disp, const void* origin,
                                     size_t count, remora_datatype_t type, remora_op_t op,
                                     const void* alpha);
/* As accumulate, and result[i] receives target[i] before the update (REMORA_OP_NO_OP: an
 * atomic read; origin may then be NULL). */
REMORA_API int remora_win_get_accumulate(remora_win_t win, int target, size_t disp,
                                         const void* origin, void* result, size_t count,
                                         remora_datatype_t type, remora_op_t op, const void* alpha);
/* get_accumulate of one element (not REMORA_OP_SCALED_SUM). */
REMORA_API int remora_win_fetch_and_op(remora_win_t win, int target, size_t disp,
                                       const void* origin, void* result, remora_datatype_t type,
                                       remora_op_t op);
/* One element of an integer type: stores *origin if the target equals *compare; *result
 * receives the previous value either way. */
REMORA_API int remora_win_compare_and_swap(remora_win_t win, int target, size_t disp,
                                           const void* origin, const void* compare, void* result,
                                           remora_datatype_t type);

/* Non-contiguous transfers (remora/layout.h): origin_layout picks the elements of origin (and of
 * result, which has the same layout), target_layout those of target's window from disp; the
 * i-th element of one goes with the i-th of the other. Both layouts must touch the same number
 * of elements (else REMORA_ERR_ARG); target_layout's extent must lie inside the window (else
 * REMORA_ERR_RANGE). Each piece that is contiguous on both sides is one contiguous operation,
 * so accumulates stay atomic per element and ordered as usual. */
REMORA_API int remora_win_put_layout(remora_win_t win, int target, size_t disp, const void* origin,
                                     remora_layout_t origin_layout, remora_layout_t target_layout,
                                     remora_datatype_t type);
REMORA_API int remora_win_get_layout(remora_win_t win, int target, size_t disp, void* result,
                                     remora_layout_t result_layout, remora_layout_t target_layout,
                                     remora_datatype_t type);
REMORA_API int remora_win_accumulate_layout(remora_win_t win, int target, size_t disp,
                                            const void* origin, remora_layout_t origin_layout,
                                            remora_layout_t target_layout, remora_datatype_t type,
                                            remora_op_t op, const void* alpha);
REMORA_API int remora_win_get_accumulate_layout(remora_win_t win, int target, size_t disp,
                                                const void* origin, void* result,
                                                remora_layout_t origin_layout,
                                                remora_layout_t target_layout,
                                                remora_datatype_t type, remora_op_t op,
                                                const void* alpha);

/* Request-based operations: as put, get, accumulate and get_accumulate, and *request receives a
 * request for remora_request_test / wait / waitall / waitany / testall (remora/coll.h). Only
 * inside a passive-target epoch to target (lock or lock_all), else REMORA_ERR_STATE. The request
 * completes at local completion (rput, raccumulate: origin may be reused) or when result holds
 * the data (rget, rget_accumulate); remote completion needs flush or unlock as usual. On shared
 * memory every operation reaches that point before it returns, so the request is already
 * complete. An rget to a rank of another node (over MPI, on a remora_win_allocate window, in an
 * immediate epoch) is left in flight: result holds the data once the request tests or waits
 * complete, or after flush, flush_local, flush_all, flush_local_all, unlock or unlock_all
 * reaching its target (docs/rma.md). A request stays valid (and reports success) after flush,
 * unlock or unlock_all until it is waited for or tested. On failure *request is
 * REMORA_REQUEST_NULL. */
REMORA_API int remora_win_rput(remora_win_t win, int target, size_t disp, const void* origin,
                               size_t count, remora_datatype_t type, remora_request_t* request);
REMORA_API int remora_win_rget(remora_win_t win, int target, size_t disp, void* result,
                               size_t count, remora_datatype_t type, remora_request_t* request);
REMORA_API int remora_win_raccumulate(remora_win_t win, int target, size_t disp, const void* origin,
                                      size_t count, remora_datatype_t type, remora_op_t op,
                                      const void* alpha, remora_request_t* request);
REMORA_API int remora_win_rget_accumulate(remora_win_t win, int target, size_t disp,
                                          const void* origin, void* result, size_t count,
                                          remora_datatype_t type, remora_op_t op, const void* alpha,
                                          remora_request_t* request);
/* Request forms of the layout operations, with the same rules as the request-based operations
 * above (a passive-target epoch to target; complete as rput / rget / raccumulate /
 * rget_accumulate are). */
REMORA_API int remora_win_rput_layout(remora_win_t win, int target, size_t disp, const void* origin,
                                      remora_layout_t origin_layout, remora_layout_t target_layout,
                                      remora_datatype_t type, remora_request_t* request);
REMORA_API int remora_win_rget_layout(remora_win_t win, int target, size_t disp, void* result,
                                      remora_layout_t result_layout, remora_layout_t target_layout,
                                      remora_datatype_t type, remora_request_t* request);
REMORA_API int remora_win_raccumulate_layout(remora_win_t win, int target, size_t disp,
                                             const void* origin, remora_layout_t origin_layout,
                                             remora_layout_t target_layout, remora_datatype_t type,
                                             remora_op_t op, const void* alpha,
                                             remora_request_t* request);
REMORA_API int remora_win_rget_accumulate_layout(remora_win_t win, int target, size_t disp,
                                                 const void* origin, void* result,
                                                 remora_layout_t origin_layout,
                                                 remora_layout_t target_layout,
                                                 remora_datatype_t type, remora_op_t op,
                                                 const void* alpha, remora_request_t* request);

/* Active target. Collective. Completes this rank's operations and those targeting it, and
 * opens the next epoch unless REMORA_MODE_NOSUCCEED is given. */
REMORA_API int remora_win_fence(remora_win_t win, int assert_flags);

/* Generalised active target (post-start-complete-wait). Groups hold processes of the window (a
 * group's members must be members of the window's communicator, else REMORA_ERR_ARG); they are
 * read during the call and may be freed afterwards. Empty groups are allowed.
 *   post(group):   opens an exposure epoch to the origins in group (assert_flags: 0 or
 *                  NOCHECK | NOSTORE | NOPUT, which need no work on shared memory).
 *   start(group):  opens an access epoch to the targets in group; operations may address only
 *                  them. start may be called before the matching post. With info pscw=immediate
 *                  (REMORA_RMA_PSCW) it waits until every target has posted; with pscw=deferred
 *                  it returns at once and operations are queued (origin buffers copied; get and
 *                  get_accumulate results are valid only after complete) until complete.
 *                  NOCHECK: the matching posts have already happened (nothing waits or queues).
 *   complete:      ends the access epoch: operations are complete at their targets, which are
 *                  told so.
 *   wait:          ends the exposure epoch once every origin of the post group has completed.
 *   test:          as wait without blocking: *flag = 1 (epoch ended) or 0 (still open).
 * Mixing with fence or lock epochs is an error (REMORA_ERR_STATE). */
REMORA_API int remora_win_post(remora_group_t group, int assert_flags, remora_win_t win);
REMORA_API int remora_win_start(remora_group_t group, int assert_flags, remora_win_t win);
REMORA_API int remora_win_complete(remora_win_t win);
REMORA_API int remora_win_wait(remora_win_t win);
REMORA_API int remora_win_test(remora_win_t win, int* flag);

/* Passive target. lock_type is REMORA_LOCK_EXCLUSIVE or REMORA_LOCK_SHARED; assert_flags is 0
 * or REMORA_MODE_NOCHECK. unlock completes every operation to target. As in MPI, the origin
 * buffer of a put or accumulate must not be modified until unlock, flush or flush_local: with
 * info lock=deferred (REMORA_RMA_LOCK) the operations wait in a queue that refers to it. */
REMORA_API int remora_win_lock(remora_win_t win, int lock_type, int target, int assert_flags);
REMORA_API int remora_win_unlock(remora_win_t win, int target);
REMORA_API int remora_win_lock_all(remora_win_t win, int assert_flags);
REMORA_API int remora_win_unlock_all(remora_win_t win);

/* Inside a passive-target epoch: remote completion (flush) or local completion (flush_local:
 * the origin buffers may be reused) of the operations issued so far. */
REMORA_API int remora_win_flush(remora_win_t win, int target);
REMORA_API int remora_win_flush_all(remora_win_t win);
REMORA_API int remora_win_flush_local(remora_win_t win, int target);
REMORA_API int remora_win_flush_local_all(remora_win_t win);

/* Synchronises this rank's view of its own window memory (loads/stores) with remote accesses. */
REMORA_API int remora_win_sync(remora_win_t win);

#ifdef __cplusplus
}
#endif

#endif /* REMORA_WIN_H */
