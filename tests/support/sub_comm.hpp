// Sub-communicators for multi-rank tests of windows and arrays on communicators.
#pragma once

#include "multirank.hpp"

namespace remora_test {

struct SubComm {
  remora_comm_t comm = REMORA_COMM_NULL;  // REMORA_COMM_NULL on ranks outside it
  int rank = 0, size = 0;
};

// remora_comm_split of the world by color (REMORA_UNDEFINED: none), ordered by world rank.
inline SubComm split_world(int color) {
  remora_comm_t world = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  SubComm c;
  REQUIRE_OK(remora_comm_split(world, color, remora_rank(), &c.comm));
  if (c.comm != REMORA_COMM_NULL) {
    REQUIRE_OK(remora_comm_rank(c.comm, &c.rank));
    REQUIRE_OK(remora_comm_size(c.comm, &c.size));
  }
  return c;
}

}  // namespace remora_test
