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
  coll::CollectiveArgs args;
  args.send = counts;
  args.recv = mine;
  args.type = REMORA_UINT64;
  args.extent = sizeof(uint64_t);
  args.op = REMORA_OP_SUM;
  args.count = 1;
  args.recv_counts.assign(static_cast<size_t>(comm->size()), 1);
  // The algorithm auto would take for a blocking call (the shared-memory one on a node), so
  // that a deferred fence costs what a reduce_scatter_block costs.
  const coll::Operation operation = coll::Operation::ReduceScatter;
  const coll::Algorithm algorithm = collectives.choose(
      operation, coll::Algorithm::Auto, args.recv_counts.size() * args.extent, comm, false);
  auto schedule = collectives.new_schedule(comm, operation, algorithm, &args);
  if (algorithm == coll::Algorithm::Shm)
    collectives.build_shm(*schedule, operation, args);
  else
    coll::build_reduce_scatter(*schedule, args);
  schedule->start();
  return collectives.wait(*schedule);
}

}  // namespace remora::api
