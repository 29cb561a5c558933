#include "api/world_reduce_scatter.hpp"

#include "coll/algorithms/algorithms.hpp"
#include "remora/coll.h"

namespace remora::api {

int world_reduce_scatter_sum(coll::Collectives& collectives, const uint64_t* counts,
                             uint64_t* mine) {
  return reduce_scatter_sum(collectives, collectives.world(), counts, mine);
}

int reduce_scatter_sum(coll::Collectives& collectives,
                       const std::shared_ptr<coll::Communicator>& comm, const uint64_t* counts,
                       uint64_t* mine) {
  auto schedule = collectives.new_schedule(comm);
  coll::CollectiveArgs args;
  args.send = counts;
  args.recv = mine;
  args.type = REMORA_UINT64;
  args.extent = sizeof(uint64_t);
  args.op = REMORA_OP_SUM;
  args.count = 1;
  args.recv_counts.assign(static_cast<size_t>(comm->size()), 1);
  coll::build_reduce_scatter(*schedule, args);
  schedule->start();
  return collectives.wait(*schedule);
}

}  // namespace remora::api
