// GA_Initialize_ltd's per-process memory limit: what this rank's parts of live arrays use
// (GA_Inquire_memory), and beside them GA_Getmem's allocations, which count against the limit
// too but, as in GA, are not memory of arrays.
#pragma once

#include <mpi.h>

#include <cstddef>

namespace remora::ga {

void memory_set_limit(size_t limit);  // 0: unlimited
bool memory_limited();
size_t memory_in_use();
// Bytes left under the limit (SIZE_MAX when unlimited).
size_t memory_available();
// Collective: whether every rank can take `bytes` more (each passes its own share).
bool memory_admits_everywhere(size_t bytes, MPI_Comm comm);
void memory_add(size_t bytes);
void memory_remove(size_t bytes);
void pool_add(size_t bytes);
void pool_remove(size_t bytes);
// Collective (GA_Terminate): frees the GA_Getmem allocations the program did not free.
void free_pool_memory();

}  // namespace remora::ga
