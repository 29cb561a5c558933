// Blocking collectives for the library's own use: windows on a communicator and distributed
// arrays call these instead of the public C API, whose argument checks and handle tables are
// for applications. Each runs the algorithm `auto` takes for a blocking call; the caller's
// arguments are trusted. A failure's message is prefixed with `function`, the entry point the
// application called.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "coll/collectives.hpp"
#include "rma/window_group.hpp"

namespace remora::coll {

using CommPtr = std::shared_ptr<Communicator>;

int run_barrier(const char* function, Collectives& collectives, const CommPtr& comm);
// In place: count values of type at values become their reduction by op over comm's ranks.
int run_allreduce(const char* function, Collectives& collectives, const CommPtr& comm, void* values,
                  size_t count, int type, int op);
// all[r] = rank r's mine, for every rank r of comm.
int run_allgather(const char* function, Collectives& collectives, const CommPtr& comm,
                  uint64_t mine, uint64_t* all);
// *mine = the sum over comm's ranks of their counts[r] for r = this rank (counts by comm rank).
int run_reduce_scatter_sum(const char* function, Collectives& collectives, const CommPtr& comm,
                           const uint64_t* counts, uint64_t* mine);

// The group of a window on parent (its members and the collectives the window runs), over a
// private duplicate of parent, so the window's collectives never interleave with the
// application's on parent and it keeps working after parent is freed. Collective over parent;
// *group is nullptr for the world communicator itself (a world window).
int window_group(const char* function, Collectives& collectives, const CommPtr& parent,
                 std::shared_ptr<const rma::WindowGroup>* group);

}  // namespace remora::coll
