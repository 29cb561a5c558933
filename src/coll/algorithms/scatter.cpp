#include <cstring>
#include <memory>

#include "coll/algorithms/common.hpp"
#include "coll/records.hpp"
#include "coll/tree.hpp"
#include "core/error.hpp"

namespace remora::coll {
namespace {

TreeShape shape_of(Algorithm algorithm) {
  if (algorithm == Algorithm::Binary) return TreeShape::Binary;
  if (algorithm == Algorithm::Flat) return TreeShape::Flat;
  return TreeShape::Binomial;
}

// For a relative rank, which of my children's subtrees holds it (index into children), or -1.
std::vector<int> route_of(TreeShape shape, const TreeNode& node, int size) {
  std::vector<int> route(static_cast<size_t>(size), -1);
  for (size_t index = 0; index < node.children.size(); ++index)
    for (int member : subtree(shape, node.children[index], size))
      route[static_cast<size_t>(member)] = static_cast<int>(index);
  return route;
}

}  // namespace

// Trees (binomial, binary, flat): the root sends each child one message holding its subtree's
// blocks as records; every rank keeps its own record and forwards the rest down.
void build_scatter(Schedule& schedule, const CollectiveArgs& args, Algorithm algorithm) {
  const int size = schedule.size(), rank = schedule.rank();
  const int me = relative_rank(rank, args.root, size);
  const TreeShape shape = shape_of(algorithm);
  const TreeNode node = tree_node(shape, me, size);
  const auto kept = std::make_shared<const CollectiveArgs>(args);  // outlives this call
  std::vector<std::vector<uint8_t>*> to_children;
  for (size_t child = 0; child < node.children.size(); ++child)
    to_children.push_back(schedule.scratch_vector());
  const auto route = std::make_shared<const std::vector<int>>(route_of(shape, node, size));
  Schedule::StepId split = -1;
  if (me == 0) {
    if (!args.in_place) {
      const auto root = static_cast<size_t>(rank);
      schedule.copy(args.recv, bytes_at(args.send, args.send_displs[root] * args.extent),
                    args.count * args.extent);
    }
    split = schedule.call([kept, route, to_children, size]() -> int {
      for (int member = 1; member < size; ++member) {
        const auto peer = static_cast<size_t>(absolute_rank(member, kept->root, size));
        append_record(to_children[static_cast<size_t>((*route)[static_cast<size_t>(member)])], peer,
                      bytes_at(kept->send, kept->send_displs[peer] * kept->extent),
                      kept->send_counts[peer] * kept->extent);
      }
      return REMORA_SUCCESS;
    });
  } else {
    std::vector<uint8_t>* records = schedule.scratch_vector();
    const auto received =
        schedule.recv_vector(absolute_rank(node.parent, args.root, size), 0, records);
    split = schedule.call(
        [kept, route, to_children, records, rank, size]() -> int {
          int status = REMORA_SUCCESS;
          const bool well_formed =
              for_each_record(*records, [&](size_t peer, const uint8_t* data, size_t bytes) {
                if (status != REMORA_SUCCESS || peer >= static_cast<size_t>(size)) {
                  if (status == REMORA_SUCCESS)
                    status = fail(REMORA_ERR_INTERNAL, "scatter: a record for rank %zu", peer);
                  return;
                }
                if (peer == static_cast<size_t>(rank)) {
                  if (bytes != kept->count * kept->extent) {
                    status = fail(REMORA_ERR_ARG,
                                  "mismatched counts: rank %d expected %zu elements from the root, "
                                  "which sent %zu",
                                  rank, kept->count, bytes / kept->extent);
                  } else if (bytes > 0) {
                    std::memcpy(kept->recv, data, bytes);
                  }
                  return;
                }
                const int child = (*route)[static_cast<size_t>(
                    relative_rank(static_cast<int>(peer), kept->root, size))];
                if (child >= 0)
                  append_record(to_children[static_cast<size_t>(child)], peer, data, bytes);
              });
          if (!well_formed && status == REMORA_SUCCESS)
            status =
                fail(REMORA_ERR_INTERNAL, "scatter: rank %d received a malformed message", rank);
          return status;
        },
        {received});
  }
  for (size_t child = 0; child < node.children.size(); ++child)
    schedule.send_vector(absolute_rank(node.children[child], args.root, size), 0,
                         to_children[child], {split});
}

}  // namespace remora::coll
