// An ordered set of world ranks: the members of a communicator, or an argument of group
// operations (PSCW, collectives on subsets). Groups are local objects: creating one never
// communicates.
#pragma once

#include <cstddef>
#include <vector>

namespace remora::coll {

class Group {
 public:
  // Not a member of the group (REMORA_UNDEFINED in the C API).
  static constexpr int kUndefined = -32766;

  Group() = default;
  // world_ranks must be distinct and lie in [0, world_size).
  Group(std::vector<int> world_ranks, int world_size);

  int size() const { return static_cast<int>(world_ranks_.size()); }
  int world_rank(int rank) const { return world_ranks_[static_cast<std::size_t>(rank)]; }
  // The rank of world rank `world` in this group, or kUndefined.
  int rank_of(int world) const;
  const std::vector<int>& world_ranks() const { return world_ranks_; }
  int world_size() const { return world_size_; }

  // The callers validate `ranks` (distinct, in range) first.
  Group incl(const std::vector<int>& ranks) const;
  Group excl(const std::vector<int>& ranks) const;
  // The members of this group in order, then those of other not already in it.
  Group unite(const Group& other) const;
  // rank in this group -> rank in other (kUndefined when not a member of other).
  int translate(int rank, const Group& other) const;

 private:
  std::vector<int> world_ranks_;
  std::vector<int> group_rank_;  // by world rank: rank in this group, or kUndefined
  int world_size_ = 0;
};

}  // namespace remora::coll
