#include <cstring>
#include <memory>

#include "coll/algorithms/common.hpp"
#include "coll/records.hpp"
#include "coll/tree.hpp"
#include "core/error.hpp"

namespace remora::coll {
namespace {

constexpr uint32_t kDataTag = 0;
constexpr uint32_t kGoTag = 1;

TreeShape shape_of(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::Binary:
      return TreeShape::Binary;
    case Algorithm::Flat:
    case Algorithm::Sequential:
      return TreeShape::Flat;
    default:
      return TreeShape::Binomial;
  }
}

// At the root: places each record (one rank's block) of a subtree at its displacement.
int place_records(const std::vector<uint8_t>& records, const CollectiveArgs& args, int size) {
  int status = REMORA_SUCCESS;
  const bool well_formed =
      for_each_record(records, [&](size_t rank, const uint8_t* data, size_t bytes) {
        if (status != REMORA_SUCCESS) return;
        if (rank >= static_cast<size_t>(size) || bytes != args.recv_counts[rank] * args.extent) {
          status =
              fail(REMORA_ERR_ARG,
                   "mismatched counts: the root expected %zu elements from rank %zu, which sent "
                   "%zu",
                   rank < static_cast<size_t>(size) ? args.recv_counts[rank] : 0, rank,
                   bytes / args.extent);
          return;
        }
        if (bytes > 0)
          std::memcpy(bytes_at(args.recv, args.recv_displs[rank] * args.extent), data, bytes);
      });
  if (!well_formed && status == REMORA_SUCCESS)
    status = fail(REMORA_ERR_INTERNAL, "gather: a malformed message reached the root");
  return status;
}

}  // namespace

// Trees (binomial, binary, flat): every rank sends its parent one message with its subtree's
// blocks as records; the root places each child's records as soon as they arrive. Sequential
// is the flat tree with the root asking one rank at a time ("go") after the previous one's
// data arrived, so that senders do not contend.
void build_gather(Schedule& schedule, const CollectiveArgs& args, Algorithm algorithm) {
  const int size = schedule.size();
  const int me = relative_rank(schedule.rank(), args.root, size);
  const TreeNode node = tree_node(shape_of(algorithm), me, size);
  const bool sequential = algorithm == Algorithm::Sequential;
  const size_t bytes = args.count * args.extent;
  if (me == 0) {
    const auto root = static_cast<size_t>(args.root);
    if (!args.in_place)
      schedule.copy(bytes_at(args.recv, args.recv_displs[root] * args.extent), args.send, bytes);
    const auto kept = std::make_shared<const CollectiveArgs>(args);  // outlives this call
    Schedule::StepId previous = -1;
    for (int child : node.children) {
      const int peer = absolute_rank(child, args.root, size);
      if (sequential) schedule.send(peer, kGoTag, nullptr, 0, {previous});
      std::vector<uint8_t>* records = schedule.scratch_vector();
      const auto received = schedule.recv_vector(peer, kDataTag, records);
      previous = received;
      schedule.call([records, kept, size] { return place_records(*records, *kept, size); },
                    {received});
    }
    return;
  }
  Schedule::Deps arrived;
  if (sequential) arrived.push_back(schedule.recv(args.root, kGoTag, nullptr, 0));
  std::vector<std::vector<uint8_t>*> from_children;
  for (int child : node.children) {
    from_children.push_back(schedule.scratch_vector());
    arrived.push_back(schedule.recv_vector(absolute_rank(child, args.root, size), kDataTag,
                                           from_children.back()));
  }
  std::vector<uint8_t>* records = schedule.scratch_vector();
  const void* send = args.send;
  const size_t rank = static_cast<size_t>(schedule.rank());
  const auto packed = schedule.call(
      [records, from_children, send, bytes, rank]() -> int {
        append_record(records, rank, send, bytes);
        for (const auto* child : from_children)
          records->insert(records->end(), child->begin(), child->end());
        return REMORA_SUCCESS;
      },
      arrived);
  schedule.send_vector(absolute_rank(node.parent, args.root, size), kDataTag, records, {packed});
}

namespace {
void build_sequential(Schedule& schedule, Operation, const CollectiveArgs& args, const BuildEnv&) {
  build_gather(schedule, args, Algorithm::Sequential);
}
}  // namespace

const AlgorithmDescriptor kSequentialAlgorithm{Algorithm::Sequential, "sequential",
                                               operations_of({Operation::Gather}), kNoConstraint,
                                               build_sequential};

}  // namespace remora::coll
