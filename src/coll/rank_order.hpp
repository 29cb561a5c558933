// Virtual-rank orders (paper 004 orders ranks along a Hamiltonian path of the machine's torus,
// so that neighbours in a ring or tree are neighbours in the network). A communicator may carry
// a permutation of its ranks; the tree and ring algorithms then run over positions in that
// order instead of over ranks: position p is played by rank rank_at[p].
//
// The algorithms need no change for this. The schedule reports the position as its rank and
// translates the peers of its messages (Schedule::use_order), and the rank-indexed arguments
// (counts, displacements, root) are permuted into position order (to_positions), so that data
// still lands where rank order says. Scan and exscan keep rank order (their result depends on
// it), and so does the application-bypass reduce (its own tree over ranks).
#pragma once

#include <vector>

#include "coll/algorithm.hpp"

namespace remora::coll {

struct CollectiveArgs;

// Values equal those of remora_rank_order_t.
enum class OrderKind { Identity = 0, NodeAware, Reverse, Custom };

// A permutation of a communicator's ranks.
struct RankOrder {
  std::vector<int> rank_at;      // position -> rank
  std::vector<int> position_of;  // rank -> position

  // rank_at must be a permutation of 0..size-1.
  explicit RankOrder(std::vector<int> ranks_by_position);
  bool identity() const;
};

// Ranks of one node contiguous; nodes in the order of their lowest rank, ranks of a node in
// rank order, so that each node's lowest rank (its leader) comes first in its block. In a
// binomial tree over positions a block of 2^k ranks aligned to 2^k is one subtree, entered only
// through its leader. node_of[r]: the node of rank r.
std::vector<int> node_aware_order(const std::vector<int>& node_of);
// size-1, ..., 1, 0.
std::vector<int> reverse_order(int size);
// Whether ranks (size entries) is a permutation of 0..size-1.
bool is_permutation(const int* ranks, int size);

// Whether an (operation, algorithm) runs over positions when its communicator has an order.
bool follows_order(Operation operation, Algorithm algorithm);
// The rank-indexed parts of args (counts, displacements, root) in position order.
// reduce_scatter's input blocks lie back to back in rank order: their displacements are made
// explicit (recv_displs) before the permutation.
void to_positions(Operation operation, const RankOrder& order, CollectiveArgs* args);

}  // namespace remora::coll
