/* Remotely accessible memory segments and the transport's one-sided operations on them.
 *
 * A segment is allocated collectively; each rank contributes its own number of bytes and any
 * rank can then put, get and atomically update any rank's part, addressed by (rank, offset).
 * put/get return when the local buffer may be reused (local completion); the data is
 * visible at the target after remora_flush/remora_flush_all (remote completion). Atomics
 * complete before they return. Windows with epochs are built on top of this (remora/win.h). */
#ifndef REMORA_SEGMENT_H
#define REMORA_SEGMENT_H

#include <stddef.h>
#include <stdint.h>

#include "remora/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct remora_segment_s* remora_segment_t;

/* Most levels a strided transfer may have (ARMCI convention, below). */
#define REMORA_MAX_STRIDE_LEVELS 8

/* Collective. Allocates bytes (may differ per rank, may be 0) on every rank. */
REMORA_API int remora_segment_allocate(size_t bytes, remora_segment_t* segment);
/* Collective. Frees the segment and sets *segment to NULL. */
REMORA_API int remora_segment_free(remora_segment_t* segment);
/* The number of bytes rank contributed. */
REMORA_API int remora_segment_size(remora_segment_t segment, int rank, size_t* bytes);
/* A direct load/store pointer to rank's part when rank shares this node's memory. */
REMORA_API int remora_segment_pointer(remora_segment_t segment, int rank, void** pointer);

REMORA_API int remora_put(remora_segment_t segment, int target, size_t offset, const void* source,
                          size_t bytes);
REMORA_API int remora_get(remora_segment_t segment, int target, size_t offset, void* destination,
                          size_t bytes);

/* Strided transfers in the ARMCI convention: count[0] contiguous bytes, repeated count[1] times
 * at strides local_stride[0] / target_stride[0] bytes, that whole repeated count[2] times at
 * strides [1], ... for stride_levels levels (0 = contiguous). */
REMORA_API int remora_put_strided(remora_segment_t segment, int target, size_t offset,
                                  const size_t* target_stride, const void* source,
                                  const size_t* local_stride, const size_t* count,
                                  int stride_levels);
REMORA_API int remora_get_strided(remora_segment_t segment, int target, size_t offset,
                                  const size_t* target_stride, void* destination,
                                  const size_t* local_stride, const size_t* count,
                                  int stride_levels);

/* Remote completion of every put issued to target (or to all targets). */
REMORA_API int remora_flush(remora_segment_t segment, int target);
REMORA_API int remora_flush_all(remora_segment_t segment);

/* 64-bit atomics on an 8-byte aligned offset. old may be NULL. */
REMORA_API int remora_fetch_add(remora_segment_t segment, int target, size_t offset, int64_t value,
                                int64_t* old);
REMORA_API int remora_swap(remora_segment_t segment, int target, size_t offset, int64_t value,
                           int64_t* old);
/* Stores desired if the word equals expected; *old receives the previous value either way. */
REMORA_API int remora_compare_swap(remora_segment_t segment, int target, size_t offset,
                                   int64_t expected, int64_t desired, int64_t* old);

#ifdef __cplusplus
}
#endif

#endif /* REMORA_SEGMENT_H */
