#include "coll/algorithms/common.hpp"
#include "coll/tree.hpp"

namespace remora::coll {

// A tree towards the root, binomial unless shape says otherwise. Integer results do not depend
// on the order of folding, so each child's data is folded in the moment it arrives;
// floating-point data is folded in a fixed order (smallest subtree first, the last child of a
// flat tree first) so that results are reproducible.
void build_reduce(Schedule& schedule, const CollectiveArgs& args, TreeShape shape) {
  const int size = schedule.size();
  const int me = relative_rank(schedule.rank(), args.root, size);
  const size_t bytes = args.count * args.extent;
  uint8_t* acc = me == 0 ? static_cast<uint8_t*>(args.recv) : schedule.scratch(bytes);
  const Schedule::StepId init = args.in_place ? -1 : schedule.copy(acc, input_of(args), bytes);
  const bool ordered = is_floating(args.type);
  const TreeNode node = tree_node(shape, me, size);
  Schedule::Deps folded{init};
  // Children come largest subtree first; fold the smallest first.
  for (auto child = node.children.rbegin(); child != node.children.rend(); ++child) {
    uint8_t* tmp = schedule.scratch(bytes);
    const auto received = schedule.recv(absolute_rank(*child, args.root, size), 0, tmp, bytes);
    const auto fold = schedule.reduce(args.op, args.type, acc, tmp, args.count,
                                      {received, ordered ? folded.back() : init});
    folded.push_back(fold);
  }
  if (node.parent >= 0)
    schedule.send(absolute_rank(node.parent, args.root, size), 0, acc, bytes, folded);
}

}  // namespace remora::coll
