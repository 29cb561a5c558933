#include "coll/rank_order.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include "coll/algorithms/algorithms.hpp"

namespace remora::coll {
namespace {

// v[p] = old[rank_at[p]] for a rank-indexed array (left empty when empty).
void permute(const RankOrder& order, std::vector<size_t>* values) {
  if (values->empty()) return;
  std::vector<size_t> by_position(values->size());
  for (size_t position = 0; position < by_position.size(); ++position)
    by_position[position] = (*values)[static_cast<size_t>(order.rank_at[position])];
  *values = std::move(by_position);
}

}  // namespace

RankOrder::RankOrder(std::vector<int> ranks_by_position)
    : rank_at(std::move(ranks_by_position)), position_of(rank_at.size()) {
  for (size_t position = 0; position < rank_at.size(); ++position)
    position_of[static_cast<size_t>(rank_at[position])] = static_cast<int>(position);
}

bool RankOrder::identity() const {
  for (size_t position = 0; position < rank_at.size(); ++position)
    if (rank_at[position] != static_cast<int>(position)) return false;
  return true;
}

std::vector<int> node_aware_order(const std::vector<int>& node_of) {
  // Nodes keyed by their lowest rank, which is the first rank met for each node.
  std::map<int, int> first_rank_of_node;
  for (size_t rank = 0; rank < node_of.size(); ++rank)
    first_rank_of_node.emplace(node_of[rank], static_cast<int>(rank));
  std::vector<int> order(node_of.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return first_rank_of_node[node_of[static_cast<size_t>(a)]] <
           first_rank_of_node[node_of[static_cast<size_t>(b)]];
  });
  return order;
}

std::vector<int> reverse_order(int size) {
  std::vector<int> order(static_cast<size_t>(size));
  for (int position = 0; position < size; ++position)
    order[static_cast<size_t>(position)] = size - 1 - position;
  return order;
}

bool is_permutation(const int* ranks, int size) {
  std::vector<bool> seen(static_cast<size_t>(size), false);
  for (int i = 0; i < size; ++i) {
    const int rank = ranks[i];
    if (rank < 0 || rank >= size || seen[static_cast<size_t>(rank)]) return false;
    seen[static_cast<size_t>(rank)] = true;
  }
  return true;
}

bool follows_order(Operation operation, Algorithm algorithm) {
  return operation != Operation::Scan && !has_constraint(algorithm, kIgnoresRankOrder);
}

void to_positions(Operation operation, const RankOrder& order, CollectiveArgs* args) {
  if (operation == Operation::ReduceScatter && args->recv_displs.empty()) {
    size_t at = 0;
    for (size_t count : args->recv_counts) {
      args->recv_displs.push_back(at);
      at += count;
    }
  }
  permute(order, &args->send_counts);
  permute(order, &args->send_displs);
  permute(order, &args->recv_counts);
  permute(order, &args->recv_displs);
  args->root = order.position_of[static_cast<size_t>(args->root)];
}

}  // namespace remora::coll
