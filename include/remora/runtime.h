/* Remora runtime: start-up, identity, timing, progress and termination. */
#ifndef REMORA_RUNTIME_H
#define REMORA_RUNTIME_H

#include "remora/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Starts Remora. Collective over all ranks of the job. argc/argv may be NULL; when given they
 * must both be given. Reads the REMORA_* environment (see docs/configuration.md). */
REMORA_API int remora_init(int* argc, char*** argv);

/* Thread levels, as MPI's: SINGLE (one thread), FUNNELED (only the thread that called
 * remora_init calls Remora), SERIALIZED (any thread, never two at once) and MULTIPLE (any
 * thread at any time). Remora needs nothing for the first three; under MULTIPLE every call
 * holds a per-process library lock, which a call that waits (a lock, a flush, a collective, a
 * remote rank) lets go while it waits. Under MULTIPLE, threads of a rank may call concurrently:
 * window operations, flushes, syncs and lock/unlock (of different targets, or shared locks and
 * lock_all), collectives on distinct communicators, array operations on existing arrays and
 * the array counter (read_inc). Single-threaded at every level (no other thread of the rank
 * inside Remora): remora_init*, remora_finalize and the creation and freeing of segments,
 * windows, communicators, groups-to-communicators and arrays; these fail with
 * REMORA_ERR_STATE when another thread is inside a Remora call. See docs/threads.md. */
#define REMORA_THREAD_SINGLE 0
#define REMORA_THREAD_FUNNELED 1
#define REMORA_THREAD_SERIALIZED 2
#define REMORA_THREAD_MULTIPLE 3

/* As remora_init, asking for thread level `required` (REMORA_THREAD_*). Every level is
 * supported: *provided receives the level in force, `required` or the higher
 * REMORA_THREAD_LEVEL from the environment. */
REMORA_API int remora_init_thread(int* argc, char*** argv, int required, int* provided);

/* *provided = the thread level in force (REMORA_THREAD_*). Callable only between init and
 * finalize. */
REMORA_API int remora_query_thread(int* provided);

/* As remora_init inside an MPI program, on a communicator other than MPI_COMM_WORLD:
 * mpi_comm points to an MPI_Comm (void* keeps mpi.h out of this header). Collective over that
 * communicator only; its ranks become Remora's ranks 0..n-1 in its order, and other processes
 * of MPI_COMM_WORLD keep using MPI alone. MPI must be initialised by the caller. For libraries
 * on MPI (the Global-Arrays layer's GA_Initialize_comm); see docs/running-on-clusters.md.
 * REMORA_ERR_UNSUPPORTED when Remora was built without MPI. */
REMORA_API int remora_init_mpi_comm(int* argc, char*** argv, const void* mpi_comm);

/* remora_init_mpi_comm asking for thread level `required`, as remora_init_thread. */
REMORA_API int remora_init_mpi_comm_thread(int* argc, char*** argv, const void* mpi_comm,
                                           int required, int* provided);

/* Ends Remora. Collective: returns once every rank has called it. */
REMORA_API int remora_finalize(void);

/* *flag = 1 between remora_init and remora_finalize, else 0. Callable at any time. */
REMORA_API int remora_initialized(int* flag);

/* This process's rank in [0, size), or a negative status. */
REMORA_API int remora_rank(void);
/* The number of ranks in the job, or a negative status. */
REMORA_API int remora_size(void);

/* Node-local identity: index among the ranks of this node, their number, this node's index,
 * and the node index of any rank. */
REMORA_API int remora_local_rank(void);
REMORA_API int remora_local_size(void);
REMORA_API int remora_node(void);
REMORA_API int remora_rank_node(int rank);
/* Writes the ranks of this node, in increasing order, to ranks[0..capacity); returns how many
 * there are (which may exceed capacity: call with capacity 0 to ask). */
REMORA_API int remora_local_ranks(int* ranks, int capacity);

/* Seconds on a monotonic clock since an arbitrary origin; never fails. */
REMORA_API double remora_wtime(void);

/* Runs the progress engine once: delivers arrived active messages. */
REMORA_API int remora_progress(void);

/* Blocks until every rank has entered the barrier; progresses while it waits. */
REMORA_API int remora_barrier(void);

/* Ends the whole job: prints message (may be NULL) with this rank, and exits with code
 * (1..255; other values exit with 1). The launcher then stops every other rank. Works before
 * remora_init too. Does not return. */
REMORA_API int remora_abort(int code, const char* message);

#ifdef __cplusplus
}
#endif

#endif /* REMORA_RUNTIME_H */
