// Identity and node-local queries agree across ranks; the timer is monotonic.
#include <cstdlib>
#include <vector>

#include "multirank.hpp"

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  REQUIRE(rank >= 0 && rank < size, "rank=%d size=%d", rank, size);
  // The node queries agree with each other: my node's ranks are exactly the ranks whose node
  // is mine, ascending, and my local rank is my index among them.
  const int node = remora_node();
  std::vector<int> expected;
  for (int r = 0; r < size; ++r)
    if (remora_rank_node(r) == node) expected.push_back(r);
  REQUIRE(remora_local_size() == static_cast<int>(expected.size()));
  std::vector<int> ranks(static_cast<size_t>(size), -1);
  REQUIRE(remora_local_ranks(ranks.data(), size) == static_cast<int>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    REQUIRE(ranks[i] == expected[i], "local rank %zu is %d, expected %d", i, ranks[i], expected[i]);
    if (expected[i] == rank) REQUIRE(remora_local_rank() == static_cast<int>(i));
  }
  // Under remorarun every rank is on node 0; REMORA_NODE_SIZE=1 (MPI) gives each its own node.
  const char* launcher_fd = std::getenv("REMORA_CONTROL_FD");
  const char* node_size = std::getenv("REMORA_NODE_SIZE");
  if (launcher_fd != nullptr) REQUIRE(node == 0 && remora_local_size() == size);
  if (launcher_fd == nullptr && node_size != nullptr && std::atoi(node_size) == 1)
    REQUIRE(node == rank && remora_local_size() == 1, "node %d, local size %d", node,
            remora_local_size());

  // Each rank writes its rank into slot [rank] of every rank's segment; all must agree.
  remora_segment_t segment;
  REQUIRE_OK(remora_segment_allocate(sizeof(int64_t) * static_cast<size_t>(size), &segment));
  const int64_t me = 1000 + rank;
  for (int target = 0; target < size; ++target)
    REQUIRE_OK(remora_put(segment, target, sizeof(int64_t) * static_cast<size_t>(rank), &me, 8));
  REQUIRE_OK(remora_flush_all(segment));
  REQUIRE_OK(remora_barrier());
  int64_t* mine = nullptr;
  REQUIRE_OK(remora_segment_pointer(segment, rank, reinterpret_cast<void**>(&mine)));
  for (int r = 0; r < size; ++r)
    REQUIRE(mine[r] == 1000 + r, "slot %d holds %lld", r, (long long)mine[r]);

  const double t0 = remora_wtime();
  REQUIRE_OK(remora_barrier());
  REQUIRE(remora_wtime() >= t0);
  REQUIRE_OK(remora_segment_free(&segment));
  REQUIRE_OK(remora_finalize());
  return 0;
}
