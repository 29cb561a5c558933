// A window on a sub-communicator: its members and the collectives over them, built from a
// communicator by coll::window_group (the collectives sit above this layer). Inside the window
// every rank is a world rank, as for a world window: the API translates the caller's ranks of the
// communicator once per call (Window::world_rank), and non-members have empty parts.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "transport/transport.hpp"

namespace remora::rma {

struct WindowGroup {
  std::vector<int> world_ranks;  // world_ranks[r]: the world rank of the communicator's rank r
  std::function<int()> barrier;
  // Sums counts[w] (indexed by world rank; only members' entries are read) over the members
  // into *mine for w = this rank.
  std::function<int(const uint64_t* counts, uint64_t* mine)> reduce_scatter;
  transport::Transport::GroupAllgather allgather;  // all[r]: the communicator's rank r's value
};

}  // namespace remora::rma
