#include "coll/algorithms/common.hpp"

namespace remora::coll {

// Ring reduce-scatter on a copy of the input (blocks of recv_counts, laid out back to back),
// shifted so that rank r ends with block r, which it copies out.
void build_reduce_scatter(Schedule& schedule, const CollectiveArgs& args) {
  const int size = schedule.size(), rank = schedule.rank();
  // Back to back in block order, unless given (a rank order permutes the blocks, not the input).
  std::vector<size_t> displs = args.recv_displs;
  size_t total = 0;
  for (size_t block = 0; block < args.recv_counts.size(); ++block) {
    if (args.recv_displs.empty()) displs.push_back(total);
    total += args.recv_counts[block];
  }
  const Blocks blocks = blocks_of(args.recv_counts, displs, args.extent);
  uint8_t* acc = schedule.scratch(total * args.extent);
  const auto init = schedule.copy(acc, input_of(args), total * args.extent);
  Schedule::StepId last = init;
  if (size > 1) {
    uint8_t* tmp = schedule.scratch(total * args.extent);
    last = ring_reduce_scatter(schedule, acc, tmp, blocks, -1, args, init).reduces.back();
  }
  const auto mine = static_cast<size_t>(rank);
  schedule.copy(args.recv, acc + blocks.offset[mine], blocks.bytes[mine], {last});
}

}  // namespace remora::coll
