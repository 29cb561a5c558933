// Identity and node-local queries agree across ranks; the timer is monotonic.
#include <vector>

#include "multirank.hpp"

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  REQUIRE(rank >= 0 && rank < size, "rank=%d size=%d", rank, size);
  // One node: every rank is local, local rank == rank.
  REQUIRE(remora_local_size() == size);
  REQUIRE(remora_local_rank() == rank);
  REQUIRE(remora_node() == 0 && remora_rank_node(size - 1) == 0);
  std::vector<int> ranks(static_cast<size_t>(size), -1);
  REQUIRE(remora_local_ranks(ranks.data(), size) == size);
  for (int r = 0; r < size; ++r) REQUIRE(ranks[static_cast<size_t>(r)] == r);

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
