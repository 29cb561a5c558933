#include "coll/algorithms/common.hpp"

namespace remora::coll {

// Ring: each rank forwards to its right neighbour the block it received in the previous step.
void build_allgather(Schedule& schedule, const CollectiveArgs& args) {
  const int size = schedule.size(), rank = schedule.rank();
  const Blocks blocks = blocks_of(args.recv_counts, args.recv_displs, args.extent);
  auto* buf = static_cast<uint8_t*>(args.recv);
  const auto mine = static_cast<size_t>(rank);
  const Schedule::StepId own =
      args.in_place ? -1 : schedule.copy(buf + blocks.offset[mine], args.send, blocks.bytes[mine]);
  ring_allgather(schedule, buf, blocks, rank, modulo(rank - 1, size), modulo(rank + 1, size), 0,
                 {own});
}

}  // namespace remora::coll
