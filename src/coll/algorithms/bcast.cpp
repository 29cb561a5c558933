#include <algorithm>
#include <utility>

#include "coll/algorithms/common.hpp"
#include "coll/tree.hpp"

namespace remora::coll {
namespace {

void binomial_bcast(Schedule& schedule, const CollectiveArgs& args) {
  const int size = schedule.size();
  const int me = relative_rank(schedule.rank(), args.root, size);
  const size_t bytes = args.count * args.extent;
  const TreeNode node = tree_node(TreeShape::Binomial, me, size);
  Schedule::StepId arrived = -1;
  if (node.parent >= 0)
    arrived = schedule.recv(absolute_rank(node.parent, args.root, size), 0, args.recv, bytes);
  for (int child : node.children)
    schedule.send(absolute_rank(child, args.root, size), 0, args.recv, bytes, {arrived});
}

// Van de Geijn: a binomial scatter gives relative rank v block v, then a ring allgather over
// relative ranks completes every block everywhere. Each rank sends about 2 * bytes instead of
// log2(size) * bytes.
void scatter_allgather_bcast(Schedule& schedule, const CollectiveArgs& args) {
  const int size = schedule.size();
  const int me = relative_rank(schedule.rank(), args.root, size);
  const Blocks blocks = even_blocks(args.count * args.extent, 1, static_cast<size_t>(size));
  auto* buf = static_cast<uint8_t*>(args.recv);
  // The binomial subtree of v holds relative ranks [v, v + lowest_bit(v)), so the blocks a
  // subtree needs are contiguous.
  auto span = [&](int first, int last) {  // blocks [first, last) as (offset, bytes)
    const auto end = static_cast<size_t>(std::min(last, size)) - 1;
    return std::pair{blocks.offset[static_cast<size_t>(first)],
                     blocks.end(end) - blocks.offset[static_cast<size_t>(first)]};
  };
  const TreeNode node = tree_node(TreeShape::Binomial, me, size);
  Schedule::Deps scattered;
  Schedule::StepId arrived = -1;
  if (node.parent >= 0) {
    const auto [offset, bytes] = span(me, me + lowest_bit(me));
    arrived = schedule.recv(absolute_rank(node.parent, args.root, size), 0, buf + offset, bytes);
    scattered.push_back(arrived);
  }
  for (int child : node.children) {
    const auto [offset, bytes] = span(child, child + lowest_bit(child));
    scattered.push_back(
        schedule.send(absolute_rank(child, args.root, size), 0, buf + offset, bytes, {arrived}));
  }
  // Ring blocks land only after the scatter has read and written its part of the buffer.
  const std::vector<Schedule::Deps> after_scatter(static_cast<size_t>(size), scattered);
  ring_allgather(schedule, buf, blocks, me, absolute_rank(modulo(me - 1, size), args.root, size),
                 absolute_rank(modulo(me + 1, size), args.root, size), 1, {arrived}, after_scatter);
}

}  // namespace

void build_bcast(Schedule& schedule, const CollectiveArgs& args, Algorithm algorithm) {
  if (algorithm == Algorithm::ScatterAllgather && schedule.size() > 1)
    return scatter_allgather_bcast(schedule, args);
  binomial_bcast(schedule, args);
}

namespace {
void build_scatter_allgather(Schedule& schedule, Operation, const CollectiveArgs& args,
                             const BuildEnv&) {
  build_bcast(schedule, args, Algorithm::ScatterAllgather);
}
}  // namespace

const AlgorithmDescriptor kScatterAllgatherAlgorithm{
    Algorithm::ScatterAllgather, "scatter_allgather", operations_of({Operation::Bcast}),
    kNoConstraint, build_scatter_allgather};

}  // namespace remora::coll
