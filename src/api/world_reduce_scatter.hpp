// A collective the API layer runs for the layers below coll (the rma layer's deferred fence):
// a reduce-scatter of one uint64 per rank, summed, over the world communicator.
#pragma once

#include <cstdint>
#include <memory>

#include "coll/collectives.hpp"

namespace remora::api {

// *mine = the sum over all ranks of their counts[this rank]. counts has one entry per rank.
int world_reduce_scatter_sum(coll::Collectives& collectives, const uint64_t* counts,
                             uint64_t* mine);
// The same over comm's ranks (counts: one entry per rank of comm).
int reduce_scatter_sum(coll::Collectives& collectives,
                       const std::shared_ptr<coll::Communicator>& comm, const uint64_t* counts,
                       uint64_t* mine);

}  // namespace remora::api
