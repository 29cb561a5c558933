#include "rma/locks/lock_granularity.hpp"

#include <algorithm>

namespace remora::rma {

bool lock_table_through_network(const transport::Transport& transport, bool node_local_locks) {
  if (node_local_locks) return false;
  for (int rank = 1; rank < transport.size(); ++rank)
    if (transport.node_of(rank) != transport.node_of(0)) return true;
  return false;
}

uint64_t lock_table_granularity(const WindowOptions& options, bool through_network) {
  if (!through_network) return options.lock_granularity;
  return std::max(options.lock_granularity, options.lock_granularity_remote);
}

}  // namespace remora::rma
