#include "coll/group.hpp"

#include <utility>

namespace remora::coll {

Group::Group(std::vector<int> world_ranks, int world_size)
    : world_ranks_(std::move(world_ranks)),
      group_rank_(static_cast<std::size_t>(world_size), kUndefined),
      world_size_(world_size) {
  for (std::size_t i = 0; i < world_ranks_.size(); ++i)
    group_rank_[static_cast<std::size_t>(world_ranks_[i])] = static_cast<int>(i);
}

int Group::rank_of(int world) const {
  if (world < 0 || world >= world_size_) return kUndefined;
  return group_rank_[static_cast<std::size_t>(world)];
}

Group Group::incl(const std::vector<int>& ranks) const {
  std::vector<int> members;
  members.reserve(ranks.size());
  for (int rank : ranks) members.push_back(world_rank(rank));
  return Group(std::move(members), world_size_);
}

Group Group::excl(const std::vector<int>& ranks) const {
  std::vector<bool> excluded(world_ranks_.size(), false);
  for (int rank : ranks) excluded[static_cast<std::size_t>(rank)] = true;
  std::vector<int> members;
  for (std::size_t i = 0; i < world_ranks_.size(); ++i)
    if (!excluded[i]) members.push_back(world_ranks_[i]);
  return Group(std::move(members), world_size_);
}

Group Group::unite(const Group& other) const {
  std::vector<int> members = world_ranks_;
  for (int world : other.world_ranks_)
    if (rank_of(world) == kUndefined) members.push_back(world);
  return Group(std::move(members), world_size_);
}

int Group::translate(int rank, const Group& other) const {
  return other.rank_of(world_rank(rank));
}

}  // namespace remora::coll
