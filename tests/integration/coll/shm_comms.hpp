// Overlapping communicators of the shm collective tests: the world's ranks from `first` on, less
// the last one with drop_last, with every member's world rank.
#pragma once

#include <vector>

#include "multirank.hpp"
#include "sub_comm.hpp"

namespace remora_test {

struct RangeComm {
  remora_comm_t handle = REMORA_COMM_NULL;  // REMORA_COMM_NULL on ranks outside it
  int rank = -1, size = 0;
  std::vector<int> world;  // world rank of each rank
};

// Collective over the world (split orders by world rank); a single rank is in every range.
inline RangeComm split_range(int first, bool drop_last) {
  const int me = remora_rank(), size = remora_size();
  const bool member = size == 1 || (me >= first && !(drop_last && me == size - 1));
  const SubComm sub = split_world(member ? 0 : REMORA_UNDEFINED);
  RangeComm c;
  c.handle = sub.comm;
  c.rank = sub.rank;
  c.size = sub.size;
  for (int r = 0; r < sub.size; ++r) c.world.push_back(size == 1 ? 0 : first + r);
  return c;
}

}  // namespace remora_test
