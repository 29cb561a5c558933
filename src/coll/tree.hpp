// Tree shapes for rooted collectives, over relative ranks (the root is 0; relative rank v is
// communicator rank (v + root) mod size).
#pragma once

#include <vector>

namespace remora::coll {

enum class TreeShape { Binomial, Binary, Flat };

struct TreeNode {
  int parent = -1;            // -1 at the root
  std::vector<int> children;  // largest subtree first
};

TreeNode tree_node(TreeShape shape, int relative, int size);
// The relative ranks of relative's subtree, relative itself included.
std::vector<int> subtree(TreeShape shape, int relative, int size);

// The lowest set bit of v (v > 0); the binomial tree and the dissemination rounds use it.
inline int lowest_bit(int v) {
  return v & -v;
}

}  // namespace remora::coll
