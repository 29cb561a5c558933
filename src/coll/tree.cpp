#include "coll/tree.hpp"

#include <cstddef>

namespace remora::coll {

TreeNode tree_node(TreeShape shape, int relative, int size) {
  TreeNode node;
  switch (shape) {
    case TreeShape::Binomial: {
      // A node's subtree spans [v, v + lowest_bit(v)); the root's spans everything.
      int span = 1;
      while (span < size) span <<= 1;
      if (relative != 0) {
        span = lowest_bit(relative);
        node.parent = relative - span;
      }
      for (int mask = span >> 1; mask >= 1; mask >>= 1)
        if (relative + mask < size) node.children.push_back(relative + mask);
      break;
    }
    case TreeShape::Binary:
      if (relative != 0) node.parent = (relative - 1) / 2;
      for (int child = 2 * relative + 1; child <= 2 * relative + 2 && child < size; ++child)
        node.children.push_back(child);
      break;
    case TreeShape::Flat:
      if (relative != 0) {
        node.parent = 0;
      } else {
        for (int child = 1; child < size; ++child) node.children.push_back(child);
      }
      break;
  }
  return node;
}

std::vector<int> subtree(TreeShape shape, int relative, int size) {
  std::vector<int> members{relative};
  for (std::size_t next = 0; next < members.size(); ++next)
    for (int child : tree_node(shape, members[next], size).children) members.push_back(child);
  return members;
}

}  // namespace remora::coll
