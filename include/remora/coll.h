/* Communicators, groups, requests and collective operations.
 *
 * A communicator is a group of ranks with its own message context: collectives on different
 * communicators never interfere. The world communicator (remora_comm_world) holds every
 * rank; remora_comm_dup, remora_comm_split and remora_comm_create make new ones (collective
 * over the parent communicator) and remora_comm_free releases them.
 *
 * Every collective exists in a nonblocking form (remora_i*, which returns a request) and a
 * blocking one, which is the nonblocking form followed by remora_request_wait. Every member of a
 * communicator must start its collectives in the same order. A started collective completes
 * in the background with REMORA_PROGRESS=thread; with manual progress, remora_request_test/_wait
 * (and any Remora call that waits) drive it.
 *
 * Counts and displacements are in elements of the remora_datatype_t given. algorithm picks the
 * algorithm per call (REMORA_COLL_AUTO: the REMORA_<OPERATION> variable, else a default by
 * message size); each operation accepts the algorithms listed at its declaration. */
#ifndef REMORA_COLL_H
#define REMORA_COLL_H

#include <stddef.h>

#include "remora/export.h"
#include "remora/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct remora_comm_s* remora_comm_t;
typedef struct remora_group_s* remora_group_t;
typedef struct remora_request_s* remora_request_t;

#define REMORA_COMM_NULL ((remora_comm_t)0)
#define REMORA_GROUP_NULL ((remora_group_t)0)
#define REMORA_REQUEST_NULL ((remora_request_t)0)
/* A colour that joins no communicator in remora_comm_split; a rank that is not a member. */
#define REMORA_UNDEFINED (-32766)
/* As a send buffer: the input is taken from the receive buffer, which receives the result. */
#define REMORA_IN_PLACE ((void*)1)

typedef enum remora_coll_algorithm {
  REMORA_COLL_AUTO = 0,
  REMORA_COLL_DISSEMINATION,
  REMORA_COLL_BINOMIAL,
  REMORA_COLL_BINARY,
  REMORA_COLL_FLAT,
  REMORA_COLL_SEQUENTIAL,
  REMORA_COLL_SCATTER_ALLGATHER,
  REMORA_COLL_RECURSIVE_DOUBLING,
  REMORA_COLL_RING,
  REMORA_COLL_RABENSEIFNER,
  REMORA_COLL_BRUCK,
  REMORA_COLL_PAIRWISE,
  REMORA_COLL_APPLICATION_BYPASS,
  REMORA_COLL_SHM,
  REMORA_COLL_HIERARCHICAL,
  /* Makes every int a valid value of the type, so a bad value from a caller is reported as
   * an error instead of being undefined behaviour in C++. Not an algorithm. */
  REMORA_COLL_ALGORITHM_ENUM_RANGE_ = 0x7fffffff
} remora_coll_algorithm_t;

/* The algorithms of the collective operation named operation ("barrier", "bcast", "reduce",
 * "allreduce", "reduce_scatter", "gather", "scatter", "allgather", "alltoall" or "scan"; the
 * v-, _block and exscan forms take those of their operation), REMORA_COLL_AUTO not included,
 * in the library's order: their number in *count, the first min(*count, capacity) of them in
 * algorithms[] and, when names is not NULL, their names ("binomial", static strings) in
 * names[]. Local, and callable before remora_init (for tools and benchmarks). */
REMORA_API int remora_coll_algorithms(const char* operation, int capacity,
                                      remora_coll_algorithm_t* algorithms, const char** names,
                                      int* count);

/* ---- Communicators ---- */
REMORA_API int remora_comm_world(remora_comm_t* comm);
REMORA_API int remora_comm_rank(remora_comm_t comm, int* rank);
REMORA_API int remora_comm_size(remora_comm_t comm, int* size);
/* Collective over comm. */
REMORA_API int remora_comm_dup(remora_comm_t comm, remora_comm_t* newcomm);
/* Collective over comm: ranks of one colour form a communicator, ordered by key then by rank
 * in comm. Colour REMORA_UNDEFINED (or any negative colour is invalid) gives REMORA_COMM_NULL. */
REMORA_API int remora_comm_split(remora_comm_t comm, int color, int key, remora_comm_t* newcomm);
/* Collective over comm; every rank passes the same group (a subset of comm's). Members get a
 * communicator of the group's ranks in the group's order, the others REMORA_COMM_NULL. */
REMORA_API int remora_comm_create(remora_comm_t comm, remora_group_t group, remora_comm_t* newcomm);
/* Local; collectives still running on the communicator complete. Sets *comm to NULL. */
REMORA_API int remora_comm_free(remora_comm_t* comm);

/* Virtual-rank orders for remora_comm_set_order (paper 004 orders ranks along a Hamiltonian
 * path of the network). */
typedef enum remora_rank_order {
  REMORA_ORDER_IDENTITY = 0, /* rank order */
  REMORA_ORDER_NODE_AWARE,   /* ranks of a node contiguous, the node's lowest rank first */
  REMORA_ORDER_REVERSE,      /* size-1, ..., 0 (mainly for testing) */
  REMORA_ORDER_CUSTOM,       /* the permutation given in ranks */
  REMORA_ORDER_ENUM_RANGE_ = 0x7fffffff /* not an order: makes every int a valid value */
} remora_rank_order_t;
/* The order in which comm's tree and ring algorithms place its ranks: every algorithm except
 * scan/exscan (whose result depends on rank order) and the application-bypass reduce runs over
 * positions in this order; results are the same as in rank order (floating-point reductions
 * may round differently). ranks: for REMORA_ORDER_CUSTOM, comm's size entries, ranks[p] = the
 * rank at position p (a permutation); else NULL. Local, but every member must set the same
 * order between the same two collectives of comm. New communicators start with the order of
 * REMORA_COLL_ORDER (default identity). */
REMORA_API int remora_comm_set_order(remora_comm_t comm, remora_rank_order_t order,
                                     const int* ranks);

/* ---- Groups (local objects; ranks are ranks within the group) ---- */
REMORA_API int remora_comm_group(remora_comm_t comm, remora_group_t* group);
REMORA_API int remora_group_size(remora_group_t group, int* size);
/* REMORA_UNDEFINED when the calling rank is not a member. */
REMORA_API int remora_group_rank(remora_group_t group, int* rank);
REMORA_API int remora_group_incl(remora_group_t group, int n, const int* ranks,
                                 remora_group_t* newgroup);
REMORA_API int remora_group_excl(remora_group_t group, int n, const int* ranks,
                                 remora_group_t* newgroup);
/* The members of first, then those of second that are not in first. */
REMORA_API int remora_group_union(remora_group_t first, remora_group_t second,
                                  remora_group_t* newgroup);
/* ranks2[i] = the rank in group2 of rank ranks1[i] of group1, or REMORA_UNDEFINED. */
REMORA_API int remora_group_translate_ranks(remora_group_t group1, int n, const int* ranks1,
                                            remora_group_t group2, int* ranks2);
REMORA_API int remora_group_free(remora_group_t* group);

/* ---- Requests: a completed request is freed and set to REMORA_REQUEST_NULL; NULL entries
 * are ignored. The status is that of the collective (or the first failed one). ---- */
REMORA_API int remora_request_test(remora_request_t* request, int* flag);
REMORA_API int remora_request_wait(remora_request_t* request);
REMORA_API int remora_request_waitall(int count, remora_request_t* requests);
/* *index = the request that completed, or REMORA_UNDEFINED when all are NULL. */
REMORA_API int remora_request_waitany(int count, remora_request_t* requests, int* index);
/* *flag = 1 (and all are freed) only when every request is complete. */
REMORA_API int remora_request_testall(int count, remora_request_t* requests, int* flag);

/* ---- Collectives ---- */
/* hierarchical (barrier, bcast, reduce, allreduce): on a communicator whose ranks span several
 * nodes with two or more on some node, a phase among the ranks of each node (through a shared
 * area of the node where it can be made), then one among the nodes' lowest ranks, then again
 * within each node (else the operation's default runs). The communicator gets its node and
 * leaders' communicators at its first hierarchical call (collective over it, blocking even in
 * the nonblocking forms). REMORA_COLL_AUTO picks it there for blocking barriers and allreduces
 * of up to 64 KiB. A nonblocking
 * call with it advances only inside Remora calls on this rank, as with shm. */
/* shm (barrier, bcast, reduce, allreduce, reduce_scatter(_block), allgather(v)): the ranks
 * exchange flags and data through a shared-memory area that the communicator gets when it is
 * created, if every rank of the job shares one node (else the operation's message-based
 * default runs). REMORA_COLL_AUTO picks it there for the blocking forms. A nonblocking call
 * with shm advances only inside Remora calls on this rank (remora_request_test/wait and later
 * collectives on the communicator), not on the progress thread. */
/* algorithms: dissemination, shm, hierarchical */
REMORA_API int remora_comm_barrier(remora_comm_t comm, remora_coll_algorithm_t algorithm);
REMORA_API int remora_ibarrier(remora_comm_t comm, remora_coll_algorithm_t algorithm,
                               remora_request_t* request);

/* algorithms: binomial, scatter_allgather, shm, hierarchical */
REMORA_API int remora_bcast(void* buffer, size_t count, remora_datatype_t type, int root,
                            remora_comm_t comm, remora_coll_algorithm_t algorithm);
REMORA_API int remora_ibcast(void* buffer, size_t count, remora_datatype_t type, int root,
                             remora_comm_t comm, remora_coll_algorithm_t algorithm,
                             remora_request_t* request);

/* algorithms: binomial, application_bypass, shm, hierarchical. sendbuf may be REMORA_IN_PLACE at
 * the root; recvbuf matters only there. Ops: SUM, PROD, MIN, MAX, BAND, BOR, BXOR, LAND, LOR, LXOR.
 * application_bypass (up to REMORA_BYPASS_EAGER_BYTES; binomial above): a non-root rank
 * returns without waiting for late children (sendbuf is copied, so it may be reused at once)
 * and the reduction completes later through progress: on the progress thread with
 * REMORA_PROGRESS=thread, else inside this rank's later Remora calls (the next collective,
 * remora_barrier, remora_progress, remora_finalize). With manual progress a rank that never
 * calls Remora again stalls its parent. The root's remora_reduce waits for the result. */
REMORA_API int remora_reduce(const void* sendbuf, void* recvbuf, size_t count,
                             remora_datatype_t type, remora_op_t op, int root, remora_comm_t comm,
                             remora_coll_algorithm_t algorithm);
REMORA_API int remora_ireduce(const void* sendbuf, void* recvbuf, size_t count,
                              remora_datatype_t type, remora_op_t op, int root, remora_comm_t comm,
                              remora_coll_algorithm_t algorithm, remora_request_t* request);

/* algorithms: recursive_doubling, ring, rabenseifner, shm, hierarchical. remora_iallreduce, as
 * every nonblocking collective, advances in the background only with REMORA_PROGRESS=thread; with
 * manual progress only inside Remora calls: call remora_request_test now and then while computing
 * (examples/iallreduce_overlap.c). */
REMORA_API int remora_allreduce(const void* sendbuf, void* recvbuf, size_t count,
                                remora_datatype_t type, remora_op_t op, remora_comm_t comm,
                                remora_coll_algorithm_t algorithm);
REMORA_API int remora_iallreduce(const void* sendbuf, void* recvbuf, size_t count,
                                 remora_datatype_t type, remora_op_t op, remora_comm_t comm,
                                 remora_coll_algorithm_t algorithm, remora_request_t* request);

/* algorithms: ring, shm. Block i (recvcounts[i] elements; recvcount each for _block) of the
 * reduction goes to rank i. In place: the input is in recvbuf. */
REMORA_API int remora_reduce_scatter(const void* sendbuf, void* recvbuf, const size_t* recvcounts,
                                     remora_datatype_t type, remora_op_t op, remora_comm_t comm,
                                     remora_coll_algorithm_t algorithm);
REMORA_API int remora_ireduce_scatter(const void* sendbuf, void* recvbuf, const size_t* recvcounts,
                                      remora_datatype_t type, remora_op_t op, remora_comm_t comm,
                                      remora_coll_algorithm_t algorithm, remora_request_t* request);
REMORA_API int remora_reduce_scatter_block(const void* sendbuf, void* recvbuf, size_t recvcount,
                                           remora_datatype_t type, remora_op_t op,
                                           remora_comm_t comm, remora_coll_algorithm_t algorithm);
REMORA_API int remora_ireduce_scatter_block(const void* sendbuf, void* recvbuf, size_t recvcount,
                                            remora_datatype_t type, remora_op_t op,
                                            remora_comm_t comm, remora_coll_algorithm_t algorithm,
                                            remora_request_t* request);

/* algorithms: binomial, binary, flat, sequential. Rank i's count elements land at
 * recvbuf + i * count (gather) or recvbuf + displs[i] (gatherv, recvcounts[i] elements);
 * the receive arguments matter only at the root, where sendbuf may be REMORA_IN_PLACE. */
REMORA_API int remora_gather(const void* sendbuf, void* recvbuf, size_t count,
                             remora_datatype_t type, int root, remora_comm_t comm,
                             remora_coll_algorithm_t algorithm);
REMORA_API int remora_igather(const void* sendbuf, void* recvbuf, size_t count,
                              remora_datatype_t type, int root, remora_comm_t comm,
                              remora_coll_algorithm_t algorithm, remora_request_t* request);
REMORA_API int remora_gatherv(const void* sendbuf, size_t sendcount, void* recvbuf,
                              const size_t* recvcounts, const size_t* displs,
                              remora_datatype_t type, int root, remora_comm_t comm,
                              remora_coll_algorithm_t algorithm);
REMORA_API int remora_igatherv(const void* sendbuf, size_t sendcount, void* recvbuf,
                               const size_t* recvcounts, const size_t* displs,
                               remora_datatype_t type, int root, remora_comm_t comm,
                               remora_coll_algorithm_t algorithm, remora_request_t* request);

/* algorithms: binomial, binary, flat. The send arguments matter only at the root, where
 * recvbuf may be REMORA_IN_PLACE. */
REMORA_API int remora_scatter(const void* sendbuf, void* recvbuf, size_t count,
                              remora_datatype_t type, int root, remora_comm_t comm,
                              remora_coll_algorithm_t algorithm);
REMORA_API int remora_iscatter(const void* sendbuf, void* recvbuf, size_t count,
                               remora_datatype_t type, int root, remora_comm_t comm,
                               remora_coll_algorithm_t algorithm, remora_request_t* request);
REMORA_API int remora_scatterv(const void* sendbuf, const size_t* sendcounts, const size_t* displs,
                               void* recvbuf, size_t recvcount, remora_datatype_t type, int root,
                               remora_comm_t comm, remora_coll_algorithm_t algorithm);
REMORA_API int remora_iscatterv(const void* sendbuf, const size_t* sendcounts, const size_t* displs,
                                void* recvbuf, size_t recvcount, remora_datatype_t type, int root,
                                remora_comm_t comm, remora_coll_algorithm_t algorithm,
                                remora_request_t* request);

/* algorithms: ring, shm. In place: rank i's block is already at its place in recvbuf. */
REMORA_API int remora_allgather(const void* sendbuf, void* recvbuf, size_t count,
                                remora_datatype_t type, remora_comm_t comm,
                                remora_coll_algorithm_t algorithm);
REMORA_API int remora_iallgather(const void* sendbuf, void* recvbuf, size_t count,
                                 remora_datatype_t type, remora_comm_t comm,
                                 remora_coll_algorithm_t algorithm, remora_request_t* request);
REMORA_API int remora_allgatherv(const void* sendbuf, size_t sendcount, void* recvbuf,
                                 const size_t* recvcounts, const size_t* displs,
                                 remora_datatype_t type, remora_comm_t comm,
                                 remora_coll_algorithm_t algorithm);
REMORA_API int remora_iallgatherv(const void* sendbuf, size_t sendcount, void* recvbuf,
                                  const size_t* recvcounts, const size_t* displs,
                                  remora_datatype_t type, remora_comm_t comm,
                                  remora_coll_algorithm_t algorithm, remora_request_t* request);

/* algorithms: bruck, pairwise, ring, flat. In place: the input is in recvbuf, laid out like
 * the output. */
REMORA_API int remora_alltoall(const void* sendbuf, void* recvbuf, size_t count,
                               remora_datatype_t type, remora_comm_t comm,
                               remora_coll_algorithm_t algorithm);
REMORA_API int remora_ialltoall(const void* sendbuf, void* recvbuf, size_t count,
                                remora_datatype_t type, remora_comm_t comm,
                                remora_coll_algorithm_t algorithm, remora_request_t* request);
REMORA_API int remora_alltoallv(const void* sendbuf, const size_t* sendcounts,
                                const size_t* sdispls, void* recvbuf, const size_t* recvcounts,
                                const size_t* rdispls, remora_datatype_t type, remora_comm_t comm,
                                remora_coll_algorithm_t algorithm);
REMORA_API int remora_ialltoallv(const void* sendbuf, const size_t* sendcounts,
                                 const size_t* sdispls, void* recvbuf, const size_t* recvcounts,
                                 const size_t* rdispls, remora_datatype_t type, remora_comm_t comm,
                                 remora_coll_algorithm_t algorithm, remora_request_t* request);

/* algorithms: recursive_doubling. scan: ranks 0..r reduced; exscan: ranks 0..r-1 (rank 0's
 * recvbuf is left unchanged). */
REMORA_API int remora_scan(const void* sendbuf, void* recvbuf, size_t count, remora_datatype_t type,
                           remora_op_t op, remora_comm_t comm, remora_coll_algorithm_t algorithm);
REMORA_API int remora_iscan(const void* sendbuf, void* recvbuf, size_t count,
                            remora_datatype_t type, remora_op_t op, remora_comm_t comm,
                            remora_coll_algorithm_t algorithm, remora_request_t* request);
REMORA_API int remora_exscan(const void* sendbuf, void* recvbuf, size_t count,
                             remora_datatype_t type, remora_op_t op, remora_comm_t comm,
                             remora_coll_algorithm_t algorithm);
REMORA_API int remora_iexscan(const void* sendbuf, void* recvbuf, size_t count,
                              remora_datatype_t type, remora_op_t op, remora_comm_t comm,
                              remora_coll_algorithm_t algorithm, remora_request_t* request);

#ifdef __cplusplus
}
#endif

#endif /* REMORA_COLL_H */
