/* Layouts: which elements of a buffer an operation touches, for origin and target buffers of the
 * layout-taking window operations (remora_win_put_layout ...). Counts, block lengths, strides and
 * positions are in elements of the operation's type. Layouts are local objects: they may be
 * created before remora_init and are independent of any window. */
#ifndef REMORA_LAYOUT_H
#define REMORA_LAYOUT_H

#include <stddef.h>

#include "remora/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct remora_layout_s* remora_layout_t;

/* Orders of remora_layout_subarray. */
#define REMORA_ORDER_C 0       /* row-major: the last index varies fastest */
#define REMORA_ORDER_FORTRAN 1 /* column-major: the first index varies fastest */

/* count consecutive elements. */
REMORA_API int remora_layout_contiguous(size_t count, remora_layout_t* layout);
/* count blocks of blocklen elements; block i starts at element i * stride (stride >= blocklen
 * when count > 1: blocks may not overlap). */
REMORA_API int remora_layout_vector(size_t count, size_t blocklen, size_t stride,
                                    remora_layout_t* layout);
/* The box of subsizes[d] elements from starts[d] in each dimension d of an ndims-dimensional
 * array of sizes[d] elements (1 <= ndims <= 32, sizes[d] >= 1, starts[d] + subsizes[d] <=
 * sizes[d]), stored in the given order. Element 0 is the array's first element. */
REMORA_API int remora_layout_subarray(int ndims, const size_t* sizes, const size_t* subsizes,
                                      const size_t* starts, int order, remora_layout_t* layout);
/* The number of elements touched, and the extent: elements from element 0 to one past the last
 * element touched (what the buffer must hold). */
REMORA_API int remora_layout_elements(remora_layout_t layout, size_t* count);
REMORA_API int remora_layout_extent(remora_layout_t layout, size_t* extent);
/* Sets *layout to NULL. Operations in progress keep no reference: free at any time. */
REMORA_API int remora_layout_free(remora_layout_t* layout);

#ifdef __cplusplus
}
#endif

#endif /* REMORA_LAYOUT_H */
